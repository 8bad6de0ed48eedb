"""The board's picture in the mails, read back from the maildir as a mail
client reads them: turn mails, the answer to ``board`` and the game-over
mail each carry an HTML part that is ``multipart/related`` with an
``image/png`` it shows by ``cid:``, next to the text part; the PNG is sound,
and it is the picture of the reader's own view (with their legal moves on
their turn), never another seat's (Kachina hides each seat's tiles)."""
from __future__ import annotations

import time
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid

import pytest

from pbem import pictures
from pbem.games.base import OMNISCIENT
from pbem.notify.tokens import reply_address as token_address

from .mail_reader import Maildir, html_of, picture_of, png_size, text_of
from .conftest import drain
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401
from .test_notify_support import new_game, submit

# Latency budgets: run in make test's serial phase, away from the suite's own load.
pytestmark = pytest.mark.timing

NAMES = ("Ann", "Bob")


@pytest.fixture
def maildir(mail_env, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")  # out to $PBEM_DATA_DIR/maildir
    return Maildir(tmp_path / "maildir")


def drawn(game, state, viewer, legal=None) -> bytes:
    """The picture as pbem.pictures draws it from ``viewer``'s view."""
    return pictures.png(pictures.svg(game.name, game.view(state, viewer), names=list(NAMES), viewer=viewer,
                                     legal=legal))


def play(service, redis_client, game_id, keys, seat):
    loaded = service.load(game_id)
    submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0])
    drain(service)
    run_jobs(redis_client)


def test_turn_board_and_game_over_mails_show_the_readers_own_picture(service, redis_client, maildir, mail_in):
    order = ["chief", "sun", "ogre", "eagle", "wolf", "warrior", "hummingbird", "koshari"] * 2
    game_id, keys, _ = new_game(service, "kachina", {"tile_order": order, "opening_redraw": False,
                                                     "start_player": 0}, names=NAMES)
    run_jobs(redis_client)
    loaded = service.load(game_id)
    game, state = loaded.game, loaded.state
    assert sorted(game.to_act(state)) == [0]

    # Ann's turn mail: text for text-only readers, and the HTML with her picture
    turn = maildir.to("p0@example.test", "your_turn")[-1]
    assert turn.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in turn.iter_parts()] == ["text/plain", "multipart/related"]
    assert "It is your turn." in text_of(turn) and "The board as you see it" in html_of(turn)
    cid, image = picture_of(turn)
    width, height = png_size(image)
    assert width == 640 and 300 < height < 2000
    legal = game.legal_moves(state, 0)
    assert image == drawn(game, state, 0, legal)  # her view, her legal moves marked...
    assert image != drawn(game, state, 0)  # (they do show)
    assert image != drawn(game, state, 1, None) and image != drawn(game, state, OMNISCIENT)

    # Bob asks for the board at the same version: his own tiles, none of Ann's
    bob = reply_address_of(game_id, 1)
    mail_in.send(fresh(bob, "board", "p1@example.test"), bob, "p1@example.test")
    run_jobs(redis_client)
    answer = maildir.to("p1@example.test", "mail_reply")[-1]
    assert answer["X-Pbem-Version"] == str(loaded.version)
    assert text_of(answer).count("The board as you see it:") == 1  # printed once
    _, seen = picture_of(answer)
    png_size(seen)
    assert seen == drawn(game, state, 1)  # Bob's view, nothing marked: not his turn
    assert seen != drawn(game, state, 0) and seen != drawn(game, state, OMNISCIENT)
    hand = sorted(game.view(state, 0)["hand"])
    assert hand != sorted(game.view(state, 1)["hand"])  # there is something to hide

    # to the end: the game-over mails show everything, to both
    while service.load(game_id).meta["status"] == "active":
        now = service.load(game_id)
        play(service, redis_client, game_id, keys, sorted(now.game.to_act(now.state))[0])
    final = service.load(game_id)
    for seat in (0, 1):
        over = maildir.to(f"p{seat}@example.test", "game_over")
        assert len(over) == 1
        _, end = picture_of(over[0])
        png_size(end)
        assert end == drawn(final.game, final.state, OMNISCIENT)
        assert "The game is over." in text_of(over[0])


def reply_address_of(game_id, seat) -> str:
    """A seat's reply address, as its player keeps it from an earlier mail."""
    return token_address(b"test-secret", "mail.test", game_id, seat)


def fresh(to: str, body: str, sender: str) -> EmailMessage:
    """A mail written from scratch (not a reply)."""
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = sender, to, "the board please"
    msg["Message-ID"] = make_msgid(domain="example.test")
    msg.set_content(body)
    return msg


def test_a_notice_handled_late_is_mailed_without_its_picture(service, redis_client, maildir, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURE_LAG_S", "1")
    game_id, keys, _ = new_game(service, "wakanda", {"start_player": 0}, names=NAMES)
    run_jobs(redis_client)  # at once: with its picture
    first = maildir.to("p0@example.test", "your_turn")[-1]
    picture_of(first)
    play(service, redis_client, game_id, keys, 0)  # handled at once too
    picture_of(maildir.to("p1@example.test", "your_turn")[-1])
    loaded = service.load(game_id)
    submit(service, game_id, 1, keys, loaded.game.legal_moves(loaded.state, 1)[0], loaded.version)
    drain(service)
    time.sleep(1.2)  # the notices drainer comes late (a burst of moves held it back)
    run_jobs(redis_client)
    late = maildir.to("p0@example.test", "your_turn")[-1]
    assert late["Message-ID"] != first["Message-ID"]
    assert [p.get_content_type() for p in late.walk()] == ["multipart/alternative", "text/plain", "text/html"]
    assert "The board as you see it:" in text_of(late) and "<pre " in html_of(late)
