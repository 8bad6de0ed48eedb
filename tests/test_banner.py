"""``make run``'s banner (pbem/server/banner.py): every address once, no
credential from a REDIS_URL or an SMTP_URL, printed once every part
answers (or after its wait, naming what does not). tests/test_run.py sees it
from a real start."""
from __future__ import annotations

import pytest

from pbem.server import banner
from pbem.settings.config import Settings
from pbem.mail_in.config import MailInSettings
from pbem.notify.config import NotifySettings


def parts(tmp_path, redis_url="redis://127.0.0.1:6390/0", **notify) -> banner.Parts:
    conf = Settings(port=8100, stream_port=8101, data_dir=tmp_path)
    return banner.Parts(conf, NotifySettings(data_dir=tmp_path, **notify), MailInSettings(port=8125), redis_url,
                        "embedded valkey", workers=2, api_workers=1)


def test_every_address_once_and_how_to_stop(tmp_path, monkeypatch):
    monkeypatch.delenv("PBEM_NOTIFY", raising=False)
    text = banner.text(parts(tmp_path))
    lines = text.splitlines()
    assert lines[0].startswith("pbem is up (1 API process, 2 move workers") and lines[-1] == "Ctrl-C stops it all."
    rows = {line.split("  ")[1]: line for line in lines[1:-1]}
    assert list(rows) == ["lobby", "API docs", "event streams", "outgoing mail", "incoming mail", "Redis"]
    for name, address in {"lobby": "http://127.0.0.1:8100/", "API docs": "http://127.0.0.1:8100/docs",
                          "event streams": "http://127.0.0.1:8101", "outgoing mail": f"{tmp_path}/maildir",
                          "incoming mail": "127.0.0.1:8125,", "Redis": "redis://127.0.0.1:6390/0"}.items():
        assert address in rows[name].split(), (name, rows[name])
        assert text.split().count(address) == 1, address
    assert "PBEM_NOTIFY" not in text


def test_no_password_is_printed(tmp_path):
    text = banner.text(parts(tmp_path, redis_url="rediss://app:s3cret@db.example:6380/2?password=other",
                             smtp_url="smtp://mailer:hunter2@relay.example:587?starttls=1"))
    assert "s3cret" not in text and "hunter2" not in text and "other" not in text and "mailer" not in text
    assert "rediss://db.example:6380/2" in text and "through the relay smtp://relay.example:587" in text
    assert "maildir" not in text


def test_turn_mails_off_is_said(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_NOTIFY", "0")
    assert "turn mails are off (PBEM_NOTIFY=0)" in banner.text(parts(tmp_path))


@pytest.mark.parametrize("host, probed", [("0.0.0.0", "127.0.0.1"), ("::", "::1"), ("10.1.2.3", "10.1.2.3")])
def test_a_wildcard_listener_is_probed_on_loopback(host, probed):
    assert banner.reachable(host) == probed


def test_printed_once_when_every_part_answers(tmp_path):
    now, said, answers = [0.0], [], {"api": False, "stream": True}
    announce = banner.Announcement(parts(tmp_path), said.append, clock=lambda: now[0],
                                   checks={name: (lambda name=name: answers[name]) for name in answers})
    assert announce() is False and said == []
    now[0] += 0.1
    answers["api"] = True
    assert announce() is False  # probed again only after EVERY_S
    now[0] += banner.EVERY_S
    assert announce() is True and len(said) == 1 and said[0].startswith("pbem is up")


def test_after_the_wait_it_is_printed_naming_what_does_not_answer(tmp_path):
    now, said = [0.0], []
    announce = banner.Announcement(parts(tmp_path), said.append, clock=lambda: now[0],
                                   checks={"the SMTP listener": lambda: False, "the API (/ready)": lambda: True})
    assert announce() is False
    now[0] = banner.WAIT_S + 1
    assert announce() is True
    assert said[0].startswith(f"pbem: started, but not answering after {banner.WAIT_S:.0f} s: the SMTP listener (")
    assert "Ctrl-C stops it all." in said[0]
