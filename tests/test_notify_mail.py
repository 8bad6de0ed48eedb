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
from pbem.notify.wording import seat_names

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
        # the bodies show the cleaned text too: no line of them starts a header (read decoded, as a
        # reader does: the transfer encoding may break a long line anywhere, "Bcc:" included)
        for body in (text_of(m["msg"]), html_of(m["msg"])):
            assert not any(line.startswith("Bcc:") for line in body.splitlines())
    assert "\n" not in msg["Subject"] and "\r" not in msg["Subject"]
    assert msg["Subject"].startswith("[pbem] Evening game Bcc: evil@attacker.test: your turn")
    assert parseaddr(msg["To"])[1] == f"p{s}@example.test"
    # content: what happened, the board, examples, the deadline, as the game words them for this
    # reader, with the players' names (cleaned of the injection's control characters)
    text = text_of(msg)
    loaded = service.load(game_id)
    game = loaded.game
    names = seat_names(service.store.seats(game_id), 2)
    assert names[0].startswith("Ann") and "\r" not in names[0] and "\n" not in names[0]

    def told(version_from, version_to, viewer):
        return [game.describe(game.redact(e, viewer), viewer, names=names)
                for _, e, _ in service.store.events(game_id, version_from, version_to)]
    secret_draw = next(e for _, e, _ in service.store.events(game_id, 0, loaded.version)
                       if e.get("secret") and s in e.get("to", ()))
    mine = game.describe(secret_draw, s, names=names)
    theirs = game.describe(game.redact(secret_draw, o), o, names=names)
    assert mine != theirs  # the piece s drew is hidden from o
    assert all(line in text for line in told(0, loaded.version, s)) and mine in text
    assert "It is your turn." in text and "There is no deadline." in text
    assert game.render(loaded.state, s, names=names) in text
    first_example = game.describe(game.legal_moves(loaded.state, s)[0], s, names=names)
    assert f"  {first_example}" in text and first_example in html_of(msg)

    # Seat s claims (keeping its hidden piece); seat o's mail must not show it.
    claim = next(m for m in game.legal_moves(loaded.state, s) if m["type"] == "claim")
    submit(service, game_id, s, keys, claim)
    drain(service)
    run_jobs(redis_client)
    mails = smtp.to(f"p{o}@example.test", "your_turn")
    assert len(mails) == 1
    other_text, other_html = text_of(mails[0]), html_of(mails[0])
    now = service.load(game_id)
    for body in (other_text, other_html.replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")):
        assert mine not in body  # nor what s drew, nor the board as s or everyone sees it
        assert game.render(now.state, s, names=names) not in body
        assert game.render(now.state, OMNISCIENT, names=names) not in body
    # o is told what the claim did, as o sees it, and its own board
    assert all(line in other_text for line in told(loaded.version, now.version, o))
    assert game.render(now.state, o, names=names) in other_text


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
    loaded = service.load(game_id)
    o_moved = [e for _, e, _ in service.store.events(game_id, 0, loaded.version) if e.get("player") == o][-1]
    assert loaded.game.describe(loaded.game.redact(o_moved, s), s, names=["Ann", "Bob"]) in text_of(later[1])
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
    assert len(digest) == 1 and "Your turn in" in text_of(digest[0])
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
    assert len(rejected) == 1 and "your move was rejected" in rejected[0]["Subject"]
    # why, in words (the error's code is for programs: the API's answer has it)
    assert "Your move was rejected: the game is at version" in text_of(rejected[0])
    assert "stale_version" not in text_of(rejected[0])


def test_without_smtp_url_mail_goes_to_a_maildir(service, redis_client, notify_env, smtp, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    box = mailbox.Maildir(str(tmp_path / "maildir"), create=False)
    msgs = list(box)
    assert len(msgs) == 1 and not smtp.messages
    assert msgs[0]["X-Pbem-Kind"] == "your_turn" and msgs[0]["Reply-To"].startswith("move+")
