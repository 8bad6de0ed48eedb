"""Turn mails through a real SMTP server on loopback (aiosmtpd): parts,
headers, reply token, threading, redaction per reader, header injection,
preferences, the rate limit, rejected moves and the maildir fallback."""
from __future__ import annotations

import mailbox
import time
from email.utils import parseaddr

import pytest
from rq import Queue
from rq.registry import ScheduledJobRegistry

from pbem.games.base import OMNISCIENT
from pbem.notify import QUEUE
from pbem.notify.config import NotifySettings
from pbem.notify.kinds import Notice
from pbem.notify.mail import compose
from pbem.notify.notifier import Notifier
from pbem.notify.tokens import read_reply_token

from .conftest import drain
from .test_notify_support import new_game, notify_env, run_jobs, smtp, submit, to_act  # noqa: F401

SECRET = b"test-secret"
EVIL = "\r\nBcc: evil@attacker.test"


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content().replace("\r\n", "\n")


def test_turn_mail_parts_headers_token_and_redaction(service, redis_client, notify_env, smtp):
    game_id, keys, tokens = new_game(service, options={"hidden_held_pieces": True, "allow_empty_claim": True},
                                     title="Evening game" + EVIL, names=("Ann" + EVIL, "Bob" + EVIL))
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    o = 1 - s
    mails = smtp.to(f"p{s}@example.test", "your_turn")
    assert len(mails) == 1 and not smtp.to(f"p{o}@example.test")
    msg = mails[0]
    # multipart text + HTML, the HTML with its picture (tests/test_mail_pictures.py looks closer)
    assert msg.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "multipart/related"]
    assert [p.get_content_type() for p in list(msg.iter_parts())[1].iter_parts()] == ["text/html", "image/png"]
    # the reply token names this game and seat, and only with the server's secret
    name, reply = parseaddr(msg["Reply-To"])
    local, _, domain = reply.partition("@")
    assert domain == "mail.test" and local.startswith("move+")
    token = local[len("move+"):]
    assert read_reply_token(SECRET, token) == (game_id, s)
    assert read_reply_token(b"another-secret", token) is None
    assert read_reply_token(SECRET, token.replace(f".{s}.", f".{o}.")) is None
    # threading: every mail of this game and seat refers to one root
    root = f"<game.{game_id}.{s}@mail.test>"
    assert msg["In-Reply-To"] == root and msg["References"] == root and msg["Message-ID"] != root
    # header injection through the title and the player name: no Bcc anywhere, one recipient
    for m in smtp.messages:
        assert m["rcpt"] in ([f"p{s}@example.test"], [f"p{o}@example.test"])
        head = m["raw"].split(b"\r\n\r\n", 1)[0]
        assert m["msg"]["Bcc"] is None and b"\nBcc:" not in head and not head.startswith(b"Bcc:")
        assert b"\nBcc:" not in m["raw"]  # the bodies show the cleaned text too
    assert "\n" not in msg["Subject"] and "\r" not in msg["Subject"]
    assert msg["Subject"].startswith("[pbem] Evening game Bcc: evil@attacker.test: your turn")
    assert parseaddr(msg["To"])[1] == f"p{s}@example.test"
    # content: what happened, the board, examples, the deadline
    text = text_of(msg)
    loaded = service.load(game_id)
    held = loaded.state["held"][s][0]
    assert f"Seat {s} drew a {held.capitalize()}" in text
    assert "It is your turn." in text and "Deadline: none" in text
    assert loaded.game.render(loaded.state, s) in text
    first_example = loaded.game.describe(loaded.game.legal_moves(loaded.state, s)[0], s)
    assert f"  {first_example}" in text and first_example in html_of(msg)

    # Seat s claims (keeping its hidden piece); seat o's mail must not show it.
    claim = next(m for m in loaded.game.legal_moves(loaded.state, s) if m["type"] == "claim")
    submit(service, game_id, s, keys, claim)
    drain(service)
    run_jobs(redis_client)
    mails = smtp.to(f"p{o}@example.test", "your_turn")
    assert len(mails) == 1
    other_text, other_html = text_of(mails[0]), html_of(mails[0])
    now = service.load(game_id)
    assert now.state["held"][s] == [held]
    for body in (other_text, other_html):
        assert f"Seat {s} drew a {held.capitalize()}" not in body
        # o may hold the same kind of piece; only lines about o itself may name what is held
        others = [ln for ln in body.splitlines() if f"Seat {o}" not in ln]
        assert not any(f"holds {held.capitalize()}" in ln for ln in others)
    assert f"Seat {s}: 2 headdress(es) left; holds 1 hidden piece(s)" in other_text
    assert f"Seat {s} crowned the pole on village {claim['village']}" in other_text
    # o sees its own new piece
    assert f"Seat {o} drew a {now.state['held'][o][0].capitalize()}" in other_text
    assert now.game.render(now.state, o) in other_text and now.game.render(now.state, OMNISCIENT) not in other_text


def test_compose_refuses_header_injection():
    n = Notice(kind="your_turn", game_id="g1", game="wakanda", title="T" + EVIL + "\nSubject: x", seat=0,
               seat_name="Eve" + EVIL, version=3, status="active", to_act=[0])
    msg = compose(n, "eve@example.test", SECRET, "mail.test", "pbem@mail.test")
    raw = msg.as_bytes()
    headers = raw.split(b"\r\n\r\n", 1)[0]
    names = [line.split(b":", 1)[0] for line in headers.split(b"\r\n") if line and line[:1] not in (b" ", b"\t")]
    assert b"Bcc" not in names and names.count(b"Subject") == 1
    # and a raw CR/LF never reaches a header even if a caller skips the cleaning
    from email.message import EmailMessage
    from email.policy import SMTP
    with pytest.raises(ValueError):
        EmailMessage(policy=SMTP)["Subject"] = "x" + EVIL


def test_rate_limit_preferences_and_digest(service, redis_client, notify_env, smtp, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_INTERVAL", "1")
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    o = 1 - s

    def play(seat):
        loaded = service.load(game_id)
        submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0])
        drain(service)
        run_jobs(redis_client)

    play(s)
    play(o)  # s acted since its last turn mail: the next one is news and goes at once, interval or not
    later = smtp.to(f"p{s}@example.test", "your_turn")
    assert len(later) == 2
    assert f"Seat {o}" in text_of(later[1])  # it tells what o did meanwhile
    notifier = Notifier(service, NotifySettings())
    # (a burst to a seat that has not acted is gathered: tests/test_mail_timing.py)

    # "reminder" only: no turn mails; "digest": gathered, sent by the digest job
    for seat, pref in ((s, "reminder"), (o, "digest")):
        ch = notifier.channels(game_id, seat)
        notifier.store.save_channels(game_id, seat, {**ch, "preference": pref})
    time.sleep(1.05)
    play(s)
    play(o)
    assert len(smtp.to(f"p{s}@example.test", "your_turn")) == 2
    assert len(smtp.to(f"p{o}@example.test", "your_turn")) == 1
    assert notifier.digest(game_id, o) is True
    digest = smtp.to(f"p{o}@example.test", "digest")
    assert len(digest) == 1 and "your turn in" in text_of(digest[0])
    assert notifier.digest(game_id, o) is False  # nothing waiting any more


def test_rejected_move_is_mailed_to_its_mover(service, redis_client, notify_env, smtp):
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    loaded = service.load(game_id)
    legal = loaded.game.legal_moves(loaded.state, s)
    submit(service, game_id, s, keys, legal[0], loaded.version)
    submit(service, game_id, s, keys, legal[-1], loaded.version)
    drain(service)
    run_jobs(redis_client)
    rejected = smtp.to(f"p{s}@example.test", "move_rejected")
    assert len(rejected) == 1
    assert "stale_version" in text_of(rejected[0])


def test_without_smtp_url_mail_goes_to_a_maildir(service, redis_client, notify_env, smtp, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    box = mailbox.Maildir(str(tmp_path / "maildir"), create=False)
    msgs = list(box)
    assert len(msgs) == 1 and not smtp.messages
    assert msgs[0]["X-Pbem-Kind"] == "your_turn" and msgs[0]["Reply-To"].startswith("move+")
