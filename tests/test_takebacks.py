"""Takebacks by consent (pbem/games/takeback.py, pbem/service/takebacks.py):
asked, accepted or refused through the move pipeline against real Redis;
the state after a takeback is exactly the earlier one, and replay, the
record and the offline verifier agree with the live game."""
from __future__ import annotations

import json

import pytest

from pbem.errors import ServiceError
from pbem.games import takeback
from pbem.games.base import canonical
from pbem.service import Service
from pbem.store import Store
from pbem.trust import record as game_record
from pbem.trust import signing

from .conftest import drain, wait_until


def new_game(service, name="cartoona", players=2, options=None):
    game = service.create_game(name, players, options or {})
    keys = []
    for seat in range(players):
        private, public = signing.generate_key()
        service.join(game["id"], seat, public, f"p{seat}")
        keys.append(private)
    return game["id"], keys


def play(service, game_id, keys, seat, move):
    loaded = service.load(game_id)
    record = service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, move, keys[seat]))
    drain(service)
    # a worker process (where a test runs one) may have taken the move first: wait for its outcome
    settled = wait_until(lambda: (m := service.store.move(game_id, record["id"]))["status"] != "queued" and m)
    assert settled["status"] == "applied", settled
    return settled


def undoable_move(service, game_id, keys):
    """Play the game's first moves until the seat to act has a move that can
    be taken back; play it. Returns (seat, the state before it, its version)."""
    for _ in range(40):
        loaded = service.load(game_id)
        seat = min(loaded.game.to_act(loaded.state))
        for move in loaded.game.legal_moves(loaded.state, seat):
            events = loaded.game.decide(loaded.state, seat, move, signing_rng())
            if loaded.game.takeback_refusal(loaded.state, 2, seat, move, events) is None:
                play(service, game_id, keys, seat, move)
                return seat, loaded.state, loaded.version
        play(service, game_id, keys, seat, loaded.game.legal_moves(loaded.state, seat)[0])
    raise AssertionError("no move that can be taken back")


def signing_rng():
    import random
    return random.Random(0)  # a move that can be taken back draws nothing: any generator


def refused(service, game_id, keys, seat, answer, code):
    loaded = service.load(game_id)
    env = signing.make_envelope(game_id, seat, loaded.version, {"takeback": answer}, keys[seat])
    with pytest.raises(ServiceError) as err:
        service.submit(game_id, env)
    assert err.value.code == code, err.value
    assert err.value.status < 500
    assert service.store.move(game_id, signing.move_id_for(game_id, seat, env["nonce"])) is None  # nothing stored
    assert service.load(game_id).version == loaded.version


def fresh(service) -> Service:
    """A service that has cached nothing: it replays the log from Redis."""
    return Service(Store(service.store.redis), snapshot_every=service.snapshot_every)


def test_accepted_takeback_gives_exactly_the_earlier_state(service):
    game_id, keys = new_game(service)
    seat, before, at = undoable_move(service, game_id, keys)
    other = 1 - seat
    refused(service, game_id, keys, other, "request", "takeback_no_move")
    refused(service, game_id, keys, other, "accept", "takeback_not_pending")
    play(service, game_id, keys, seat, {"takeback": "request"})
    assert service.takeback_pending(game_id)["waiting_for"] == [other]
    refused(service, game_id, keys, seat, "request", "takeback_pending")
    refused(service, game_id, keys, seat, "accept", "takeback_not_asked")  # the asker does not answer
    version = service.load(game_id).version
    done = play(service, game_id, keys, other, {"takeback": "accept"})
    assert done["version"] == version + 2  # the answer and the takeback: the version keeps growing
    live = service.load(game_id)
    game = live.game
    assert canonical(game.dump(live.state)) == canonical(game.dump(before))
    assert service.takeback_pending(game_id) is None
    replayed = fresh(service).load(game_id)
    assert replayed.version == live.version
    assert canonical(game.dump(replayed.state)) == canonical(game.dump(before))
    # the log only grew: the move, the request, the answer and the takeback are all in it
    kinds = [e["type"] for _v, e, _m in service.store.events(game_id)][-3:]
    assert kinds == [takeback.TAKEBACK_REQUESTED, takeback.TAKEBACK_ANSWERED, takeback.TAKEBACK_APPLIED]
    shown = service.events(game_id, None, after=at)["events"]
    assert shown[-1]["text"] == f"The move is taken back: the game goes on from version {at}."
    # play goes on from there: the same seat moves again, and the game takes it
    loaded = service.load(game_id)
    assert seat in game.to_act(loaded.state)
    play(service, game_id, keys, seat, game.legal_moves(loaded.state, seat)[-1])
    check_record(service, game_id)


def test_refused_takeback_leaves_the_game_as_it_was(service):
    game_id, keys = new_game(service)
    seat, _before, _at = undoable_move(service, game_id, keys)
    after = service.load(game_id)
    play(service, game_id, keys, seat, {"takeback": "request"})
    play(service, game_id, keys, 1 - seat, {"takeback": "refuse"})
    assert service.takeback_pending(game_id) is None
    refused(service, game_id, keys, 1 - seat, "accept", "takeback_not_pending")  # a refusal ends the request
    now = service.load(game_id)
    assert canonical(now.game.dump(now.state)) == canonical(after.game.dump(after.state))
    # asked again, and this time the other seat moves on instead: the request lapses
    play(service, game_id, keys, seat, {"takeback": "request"})
    moved = False
    for seat_now in sorted(now.game.to_act(now.state)):
        if seat_now != seat:
            play(service, game_id, keys, seat_now, now.game.legal_moves(now.state, seat_now)[0])
            moved = True
            break
    if moved:
        assert service.takeback_pending(game_id) is None
        refused(service, game_id, keys, 1 - seat, "accept", "takeback_not_pending")
    check_record(service, game_id)


def test_a_move_that_drew_by_chance_cannot_be_taken_back(service):
    game_id, keys = new_game(service, "carcassonne")
    loaded = service.load(game_id)
    seat = min(loaded.game.to_act(loaded.state))
    play(service, game_id, keys, seat, loaded.game.legal_moves(loaded.state, seat)[0])  # draws the next tile
    refused(service, game_id, keys, seat, "request", "takeback_chance")


def check_record(service, game_id):
    """The record verifies offline, the takeback decided again from it, once
    the seed is known: the game is ended (abandoned) so that its record is
    whole and ends with the seed."""
    service.abandon(game_id, "the test is over")
    lines = list(service.record_lines(game_id, None))
    report = game_record.verify_lines(lines)
    assert report.ok, report.problems
    assert report.seed_checked
    steps = [json.loads(line) for line in lines[1:-1]]
    assert report.moves_checked == 1 + sum(1 for s in steps if s.get("envelope"))  # the setup, every move
    assert sum(1 for s in steps if takeback.is_takeback((s.get("envelope") or {}).get("move"))) >= 2
    # the game in one file (pbem replay --html) replays across the takeback: a picture per version
    from pbem.web import standalone
    replayed = standalone.versions(lines)
    assert len(replayed["pictures"]) == report.version + 1
    applied = any(e.get("type") == takeback.TAKEBACK_APPLIED for s in steps for e in s["events"])
    assert applied == any(item["text"].startswith("The move is taken back") for item in replayed["log"])
    assert any(item["text"].endswith("asks to take back their last move.") for item in replayed["log"])
    # a forged takeback (a refusal logged as accepted) is caught
    forged = [json.loads(line) for line in lines]
    for row in forged:
        for event in row.get("events", ()):
            if event.get("type") == takeback.TAKEBACK_ANSWERED:
                event["answer"] = "accept" if event["answer"] == "refuse" else "refuse"
    if forged != [json.loads(line) for line in lines]:
        assert not game_record.verify_lines([json.dumps(r) for r in forged]).ok


def test_every_takeback_text_is_translated():
    """The texts of takebacks (events, refusals, the mails' messages) in the
    pseudo-locale leave no English but the players' names, and exist in
    Chinese (names of seats aside)."""
    from pbem.games.base import TAKEBACK_ERROR_CODES
    from pbem.games.i18n import CHINESE, reading
    from pbem.notify import takeback_news
    from pbem.notify.kinds import SUBJECTS, TAKEBACK_ASKED, TAKEBACK_DONE, TAKEBACK_REFUSED

    from .pseudo_support import leftover_english

    names = ["Ann", "Bob"]
    events = [{"type": takeback.TAKEBACK_REQUESTED, "by": 0, "to_version": 7, "asked": [1]},
              {"type": takeback.TAKEBACK_ANSWERED, "by": 1, "answer": "accept"},
              {"type": takeback.TAKEBACK_ANSWERED, "by": 1, "answer": "refuse"},
              {"type": takeback.TAKEBACK_APPLIED, "to_version": 7}]
    kinds = [(events[0], TAKEBACK_ASKED), (events[2], TAKEBACK_REFUSED), (events[3], TAKEBACK_DONE)]
    import re
    for lang in ("x-pseudo", CHINESE):
        with reading(lang):
            from pbem.games.i18n import _
            texts = [takeback.describe(e, names) for e in events]
            texts += [takeback_news._message(e, kind, names) for e, kind in kinds]
            texts += [_(SUBJECTS[kind]) for _e, kind in kinds]
            texts += [_(meaning) for meaning in TAKEBACK_ERROR_CODES.values()]
            for answer in ("request", "accept", "refuse"):
                with pytest.raises(Exception) as err:  # nothing pending, no move: each refusal's message
                    takeback.decide(None, 2, [], 0, {"takeback": answer}, None)
                texts.append(err.value.message)
        for text in texts:
            if lang == "x-pseudo":
                assert leftover_english(text, names, ["accept", "refuse"]) == [], text
            else:  # Chinese throughout: no English word but the names and the reply words
                assert re.search(r"[\u4e00-\u9fff]", text), text
                assert not re.findall(r"[A-Za-z]{3,}", text.replace("Ann", "").replace("Bob", "")), text
