"""A seat handed to a bot for a while, by consent (pbem/games/handover.py,
pbem/service/handovers.py): through the move pipeline against real Redis;
the bot's key signs the seat's moves while it plays it, never after; bad
input refused with stable codes and nothing stored; the record verifies
offline across the handover, and a forged one does not."""
from __future__ import annotations

import json

import pytest

from pbem import bots
from pbem.errors import ServiceError
from pbem.games import handover
from pbem.games.i18n import reading
from pbem.service import bots as bot_seats, seat_of_token
from pbem.service.handovers import HANDOVER_GAMES
from pbem.trust import record as game_record
from pbem.trust import signing

from .conftest import drain


def new_game(service, players=2, bots_at=None):
    game = service.create_game("wakanda" if players == 2 else "kachina", players, {})
    keys = {}
    for seat in range(players):
        if bots_at and seat in bots_at:
            continue
        private, public = signing.generate_key()
        service.join(game["id"], seat, public, f"p{seat}")
        keys[seat] = private
    if bots_at:
        bot_seats.seat_bots(service, game["id"], {s: "random" for s in bots_at}, "en")
    return game["id"], keys


def send(service, game_id, seat, move, private):
    loaded = service.load(game_id)
    record = service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, move, private))
    drain(service)
    return service.store.move(game_id, record["id"])


def applied(service, game_id, seat, move, private):
    settled = send(service, game_id, seat, move, private)
    assert settled["status"] == "applied", settled
    return settled


def refused(service, game_id, seat, move, private, code, status=422):
    before = service.load(game_id).version
    env = signing.make_envelope(game_id, seat, before, move, private)
    with pytest.raises(ServiceError) as err:
        service.submit(game_id, env)
    assert (err.value.code, err.value.status) == (code, status), err.value
    assert service.store.move(game_id, signing.move_id_for(game_id, seat, env["nonce"])) is None  # nothing stored
    assert service.load(game_id).version == before


def play_turn(service, game_id, private_of):
    """The seat to act plays its first legal move, signed by ``private_of(seat)``."""
    loaded = service.load(game_id)
    seat = min(loaded.game.to_act(loaded.state))
    return seat, applied(service, game_id, seat, loaded.game.legal_moves(loaded.state, seat)[0], private_of(seat))


def test_the_levels_are_the_bots():
    from pbem.service import handovers
    assert handover.LEVELS == bots.LEVELS == bot_seats.LEVELS
    assert handovers.BOT_GAMES == bot_seats.BOT_GAMES


def test_a_seat_handed_over_played_by_its_bot_then_taken_back(service):
    game_id, keys = new_game(service)
    redis = service.store.redis
    applied(service, game_id, 0, {"handover": "request", "level": "random"}, keys[0])
    assert service.store.seats(game_id)[0].get("bot_key") is None  # asked, not handed over yet
    applied(service, game_id, 1, {"handover": "accept"}, keys[1])
    seat = service.store.seats(game_id)[0]
    assert seat["handed_over"] == "random" and seat["bot_key"]
    creds = bot_seats.bot_credentials(redis, game_id)[0]
    assert creds["level"] == "random" and signing.public_key_of(creds["private_key"]) == seat["bot_key"]
    assert creds["private_key"] != keys[0] and game_id in bot_seats.bot_games(redis)
    # the bot reads the seat's view with a token of its own
    assert seat_of_token(service.store.seats(game_id), creds["token"]) == 0
    events = [e for _v, e, _m in service.store.events(game_id, 0, service.load(game_id).version)]
    handed = [e for e in events if e["type"] == handover.SEAT_HANDED_OVER]
    assert handed == [{"type": "SeatHandedOver", "seat": 0, "level": "random", "bot_key": seat["bot_key"]}]
    # The bot signs seat 0's moves, the other player theirs; the player may still sign theirs too.
    signers = {1: keys[1]}
    for turn in range(4):
        signers[0] = creds["private_key"] if turn < 3 else keys[0]
        who, settled = play_turn(service, game_id, lambda s: signers[s])
        assert (settled.get("signed_by") == "bot") == (who == 0 and turn < 3)
    # Only the player hands a seat over or takes it back, with their own key.
    refused(service, game_id, 0, {"handover": "return"}, creds["private_key"], "handover_by_bot", 403)
    applied(service, game_id, 0, {"handover": "return"}, keys[0])
    assert "bot_key" not in service.store.seats(game_id)[0]
    assert 0 not in bot_seats.bot_credentials(redis, game_id)
    assert game_id not in bot_seats.bot_games(redis)
    # The bot's key signs nothing for the seat any more.
    loaded = service.load(game_id)
    seat_now = min(loaded.game.to_act(loaded.state))
    if seat_now == 0:
        refused(service, game_id, 0, loaded.game.legal_moves(loaded.state, 0)[0], creds["private_key"],
                "bad_signature", 401)
    # The record verifies offline, each handover move decided again from it.
    service.abandon(game_id, "the test is over")
    lines = list(service.record_lines(game_id, None))
    report = game_record.verify_lines(lines)
    assert report.ok and report.seed_checked, report.problems
    rows = [json.loads(line) for line in lines]
    kinds = [e["type"] for r in rows for e in r.get("events", ()) if handover.is_event(e)]
    assert kinds == ["HandoverRequested", "HandoverAnswered", "SeatHandedOver", "SeatTakenBack"]
    # Forged: another bot key in the log (the bot's moves then fail to verify).
    forged = json.loads(json.dumps(rows))
    other = signing.generate_key()[1]
    for row in forged:
        for event in row.get("events", ()):
            if event.get("type") == handover.SEAT_HANDED_OVER:
                event["bot_key"] = other
    assert not game_record.verify_lines([json.dumps(r) for r in forged]).ok
    # Forged while the game runs (no seed yet): a handover no one asked for, slipped into a game move's step
    running = [dict(r) for r in rows if not r.get("end")]
    step = next(i for i, r in enumerate(running) if r.get("envelope") and not
                handover.is_handover(r["envelope"]["move"]) and i > 6)
    running[step] = {**running[step], "events": [*running[step]["events"],
                                                 {"type": "SeatTakenBack", "seat": 0}]}
    slipped = game_record.verify_lines([json.dumps(r) for r in running])
    assert not slipped.ok and any("no handover move" in p for p in slipped.problems), slipped.problems
    honest = game_record.verify_lines([json.dumps(r) for r in rows if not r.get("end")])
    assert honest.ok and not honest.seed_checked and honest.moves_checked == 3, honest  # the 3 handover moves
    # Forged: the handover taken out of the log (its bot's signatures are then anyone's).
    cut = [r for r in rows if not (r.get("envelope") or {}).get("move", {}).get("handover")]
    v, fixed = 0, []
    for r in cut:
        if "move_id" in r:
            r = {**r, "version_before": v, "version_after": v + len(r["events"])}
            v = r["version_after"]
        fixed.append(r)
    bad = game_record.verify_lines([json.dumps(r) for r in fixed])
    assert not bad.ok and any("bad signature" in p for p in bad.problems), bad.problems


def test_a_refused_handover_changes_nothing(service):
    game_id, keys = new_game(service)
    applied(service, game_id, 0, {"handover": "request", "level": "greedy"}, keys[0])
    applied(service, game_id, 1, {"handover": "refuse"}, keys[1])
    assert "bot_key" not in service.store.seats(game_id)[0]
    assert not bot_seats.bot_credentials(service.store.redis, game_id)
    refused(service, game_id, 1, {"handover": "accept"}, keys[1], "handover_not_pending")


@pytest.mark.parametrize("steps,last,code", [
    ([], (0, {"handover": "return"}), "seat_not_handed_over"),
    ([], (0, {"handover": "request", "level": "genius"}), "unknown_bot_level"),
    ([], (1, {"handover": "accept"}), "handover_not_pending"),
    ([], (0, {"handover": "request"}), "malformed_move"),
    ([(0, {"handover": "request", "level": "random"})], (2, {"handover": "request", "level": "random"}),
     "handover_pending"),
    ([(0, {"handover": "request", "level": "random"})], (0, {"handover": "accept"}), "handover_not_asked"),
    ([(0, {"handover": "request", "level": "random"}), (1, {"handover": "accept"})],
     (1, {"handover": "accept"}), "handover_not_asked"),
    ([(0, {"handover": "request", "level": "random"}), (1, {"handover": "accept"}), (2, {"handover": "accept"})],
     (0, {"handover": "request", "level": "greedy"}), "seat_handed_over"),
])
def test_bad_handover_moves_are_refused_and_store_nothing(service, steps, last, code):
    game_id, keys = new_game(service, players=3)
    for seat, move in steps:
        applied(service, game_id, seat, move, keys[seat])
    refused(service, game_id, last[0], last[1], keys[last[0]], code)


def test_a_bots_own_seat_is_not_handed_over_and_bots_are_not_asked(service):
    game_id, keys = new_game(service, players=2, bots_at={1})
    bot_key = bot_seats.bot_credentials(service.store.redis, game_id)[1]["private_key"]
    refused(service, game_id, 1, {"handover": "request", "level": "random"}, bot_key, "seat_is_a_bot")
    # Nobody else is a person: handed over at once.
    settled = applied(service, game_id, 0, {"handover": "request", "level": "search"}, keys[0])
    assert settled["version"] - settled["version_before"] == 2
    assert service.store.seats(game_id)[0]["handed_over"] == "search"
    assert sorted(bot_seats.bot_credentials(service.store.redis, game_id)) == [0, 1]
    assert game_id in {g.decode() for g in service.store.redis.smembers(HANDOVER_GAMES)}


def test_the_projection_is_made_again_from_the_log(service):
    """A worker killed between a handover's append and the seat's update: the
    bot process's next round (``reconcile_handovers``) catches up."""
    game_id, keys = new_game(service)
    applied(service, game_id, 0, {"handover": "request", "level": "random"}, keys[0])
    applied(service, game_id, 1, {"handover": "accept"}, keys[1])
    redis = service.store.redis
    held = service.store.seats(game_id)[0]
    service._update_seat(game_id, 0, {k: v for k, v in held.items() if k not in ("bot_key", "handed_over")})
    redis.delete(f"pbem:{{g:{game_id}}}:bots")
    service.reconcile_handovers(game_id)
    again = service.store.seats(game_id)[0]
    assert again["bot_key"] == held["bot_key"] and 0 in bot_seats.bot_credentials(redis, game_id)
    service.reconcile_handovers(game_id)  # idempotent
    assert service.store.seats(game_id)[0]["bot_key"] == held["bot_key"]


def test_handover_events_in_words_in_both_languages():
    names = ["Ann", "Bob"]
    events = [{"type": "HandoverRequested", "seat": 0, "level": "greedy", "asked": [1]},
              {"type": "HandoverAnswered", "by": 1, "answer": "accept"},
              {"type": "SeatHandedOver", "seat": 0, "level": "greedy", "bot_key": "k"},
              {"type": "SeatTakenBack", "seat": 0}]
    with reading("en"):
        said = [handover.describe(e, names) for e in events]
    assert said[0] == "Ann asks to hand their seat to a bot (greedy) for a while."
    assert said[2] == "A bot (greedy) now plays for Ann."
    with reading("zh-Hant"):
        zh = [handover.describe(e, names) for e in events]
    with reading("x-pseudo"):
        pseudo = [handover.describe(e, names) for e in events]
    from .pseudo_support import leftover_english
    assert all(z != s for z, s in zip(zh, said)), zh
    assert not any(leftover_english(p, allowed_texts=names) for p in pseudo), pseudo
