"""Takebacks by mail: a player replies ``takeback``, the other is mailed the
request and answers ``accept`` (or ``拒絕`` in Chinese); every mail goes
through a real SMTP relay on loopback and every reply through the inbound
SMTP listener, the jobs run by a real RQ worker (in this process)."""
from __future__ import annotations

import random

from pbem.games.base import canonical
from pbem.games.i18n import CHINESE, ENGLISH, reading
from pbem.mail_in import invites
from pbem.notify import install, wording

from .test_mail_in_support import (mail_env, mail_in, notify_env, reply, reply_address,  # noqa: F401
                                   run_jobs, smtp, text_of)

PLAYERS = ("ann@example.test", "bob@example.test")


#: Kachina's shortest deal (as tests/test_touch_browser.py's): its pile runs out
#: at once, so a move soon draws nothing and may pass the turn and be taken back
KACHINA = {"tile_order": ["sun", "sun", "sun", "eagle", "warrior", "chief", "wolf", "hummingbird", "eagle",
                          "warrior", "koshari", "wolf", "chief", "eagle", "warrior"],
           "start_player": 0, "opening_redraw": False}


def mail_game(service, redis_client, smtp, mail_in, lang: str, game: str = "cartoona",
              options: dict | None = None) -> str:
    install(service)
    game_id = service.create_game(game, 2, options or {}, "Takebacks", lang=lang)["id"]
    invites.invite(service, game_id, [{"email": e, "lang": lang} for e in PLAYERS])
    run_jobs(redis_client)
    for email in PLAYERS:
        invitation = [m for m in smtp.to(email, "invitation")][-1]
        mail_in.send(reply(invitation, "join", email), reply_address(invitation), email)
    run_jobs(redis_client)
    return game_id


def newest(smtp, email, kind=None):
    mails = [m for m in smtp.to(email) if kind is None or m["X-Pbem-Kind"] == kind]
    assert mails, f"no {kind or ''} mail to {email}"
    return mails[-1]


def send(mail_in, redis_client, smtp, email, line, kind=None):
    msg = newest(smtp, email, kind)
    mail_in.send(reply(msg, line, email), reply_address(msg), email)
    run_jobs(redis_client)


def move_that_can_be_taken_back(service, game_id, redis_client, smtp, mail_in, lang, passing=False):
    """Play by mail until a seat has made a move that can be taken back
    (``passing``: one that ends its turn). Returns (its seat, the state
    before that move)."""
    for _ in range(30):
        loaded = service.load(game_id)
        names = wording.seat_names(service.store.seats(game_id), 2)
        for seat in sorted(loaded.game.to_act(loaded.state)):
            for move in loaded.game.legal_moves(loaded.state, seat):
                events = loaded.game.decide(loaded.state, seat, move, random.Random(0))
                if passing and (seat not in loaded.game.turn_of(loaded.state)
                                or seat in loaded.game.turn_of(loaded.game.apply(loaded.state, events))):
                    continue
                if loaded.game.takeback_refusal(loaded.state, 2, seat, move, events) is None:
                    with reading(lang):
                        text = wording.describe(loaded.game, move, seat, names)
                    send(mail_in, redis_client, smtp, PLAYERS[seat], text)
                    assert service.load(game_id).version > loaded.version, text_of(newest(smtp, PLAYERS[seat]))
                    return seat, loaded.state
        seat = min(loaded.game.to_act(loaded.state))
        with reading(lang):
            text = wording.describe(loaded.game, loaded.game.legal_moves(loaded.state, seat)[0], seat, names)
        send(mail_in, redis_client, smtp, PLAYERS[seat], text)
    raise AssertionError("no move that can be taken back")


def test_takeback_accepted_by_mail(service, redis_client, smtp, mail_in):
    game_id = mail_game(service, redis_client, smtp, mail_in, ENGLISH)
    seat, before = move_that_can_be_taken_back(service, game_id, redis_client, smtp, mail_in, ENGLISH)
    other = 1 - seat
    send(mail_in, redis_client, smtp, PLAYERS[seat], "takeback")
    answer = text_of(newest(smtp, PLAYERS[seat]))
    assert "applied: takeback" in answer, answer
    asked = text_of(newest(smtp, PLAYERS[other], "takeback_asked"))
    assert f"{('ann', 'bob')[seat]} asks to take back their last move." in asked, asked
    assert "“accept”" in asked and "“refuse”" in asked, asked
    had = len(smtp.to(PLAYERS[seat]))
    send(mail_in, redis_client, smtp, PLAYERS[other], "accept", "takeback_asked")
    loaded = service.load(game_id)
    assert canonical(loaded.game.dump(loaded.state)) == canonical(loaded.game.dump(before))
    assert service.takeback_pending(game_id) is None
    # the asker is told, with the board as it is again, in one mail (its turn went on through the move)
    assert [m["X-Pbem-Kind"] for m in smtp.to(PLAYERS[seat])[had:]] == ["takeback_done"]
    done = text_of(newest(smtp, PLAYERS[seat], "takeback_done"))
    assert "Every other player accepted: the last move is taken back" in done, done
    assert "The move is taken back: the game goes on from version" in done, done


def test_a_move_that_passed_the_turn_taken_back_is_told_in_one_mail(service, redis_client, smtp, mail_in):
    """The move taken back had passed the turn, so the takeback gives it
    back: the asker gets one mail saying both (its turn, with the takeback
    among what happened and the play link), not a "taken back" mail and a
    "your turn" mail for the same change."""
    game_id = mail_game(service, redis_client, smtp, mail_in, ENGLISH, "kachina", KACHINA)
    seat, before = move_that_can_be_taken_back(service, game_id, redis_client, smtp, mail_in, ENGLISH,
                                               passing=True)
    other = 1 - seat
    send(mail_in, redis_client, smtp, PLAYERS[seat], "takeback")
    had = len(smtp.to(PLAYERS[seat]))
    send(mail_in, redis_client, smtp, PLAYERS[other], "accept", "takeback_asked")
    loaded = service.load(game_id)
    assert canonical(loaded.game.dump(loaded.state)) == canonical(loaded.game.dump(before))
    assert seat in loaded.game.turn_of(loaded.state)
    got = smtp.to(PLAYERS[seat])[had:]
    assert [m["X-Pbem-Kind"] for m in got] == ["your_turn"], [m["X-Pbem-Kind"] for m in got]
    text = text_of(got[0])
    assert "The move is taken back: the game goes on from version" in text, text
    assert "/play/" in text, text


def test_takeback_refused_by_mail_in_chinese(service, redis_client, smtp, mail_in):
    game_id = mail_game(service, redis_client, smtp, mail_in, CHINESE)
    seat, _before = move_that_can_be_taken_back(service, game_id, redis_client, smtp, mail_in, CHINESE)
    other = 1 - seat
    after = service.load(game_id)
    send(mail_in, redis_client, smtp, PLAYERS[seat], "悔棋")
    asked = newest(smtp, PLAYERS[other], "takeback_asked")
    text = text_of(asked)
    assert "「接受」" in text and "「拒絕」" in text, text
    send(mail_in, redis_client, smtp, PLAYERS[other], "拒絕", "takeback_asked")
    refused = text_of(newest(smtp, PLAYERS[seat], "takeback_refused"))
    assert "拒絕" in refused, refused
    now = service.load(game_id)
    assert canonical(now.game.dump(now.state)) == canonical(after.game.dump(after.state))
    assert service.takeback_pending(game_id) is None
