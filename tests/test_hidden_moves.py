"""Hidden moves stay hidden where the service shows moves: move statuses
and records are built only from what each game's filter (``redact`` for
events, ``redact_move`` for the envelopes behind them) lets through, for
every game and sample setup; the Cartoona leaks that a spec-only client
found (a secret theft's thief and card, a face-down discard's tile) over
real HTTP; and a finished game's record is whole again."""
from __future__ import annotations

import json
import random

import pytest

from pbem import games
from pbem.trust import record as game_record
from pbem.trust import signing
from pbem.client import Client
from pbem.games.base import OMNISCIENT, SPECTATOR, canonical

from .conftest import drain

CASES = [
    pytest.param(game.name, players, options, id=f"{game.key}-{players}p-{canonical(options)}")
    for game in games.all_games()
    for players, options in game.sample_setups
]

#: Moves played per case (the check runs at each checkpoint, in play).
MOVES = 90
CHECK_EVERY = 30


def seat_game(service, name, players, options, seed):
    game = service.create_game(name, players, options, seed=seed)
    keys, tokens = [], []
    for seat in range(players):
        private, public = signing.generate_key()
        tokens.append(service.join(game["id"], seat, public, f"P{seat}")["token"])
        keys.append(private)
    return game["id"], keys, tokens


def prefer(moves: list[dict], rng: random.Random, kinds: tuple[str, ...]) -> dict:
    """A random legal move, taking one of ``kinds`` when there is one (so
    that the moves a game hides are played often)."""
    wanted = [m for m in moves if m.get("type") in kinds]
    return rng.choice(wanted or moves)


def play(service, game_id, keys, rng, moves, kinds=()):
    """Play up to ``moves`` signed random moves; yield the applied records."""
    for _ in range(moves):
        loaded = service.load(game_id)
        if loaded.finished:
            return
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = prefer(loaded.game.legal_moves(loaded.state, seat), rng, kinds)
        envelope = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
        record = service.submit(game_id, envelope)
        drain(service)
        done = service.store.move(game_id, record["id"])
        assert done["status"] == "applied", done
        yield done


def check_filtered(service, game_id, tokens, applied):
    """For each viewer: every move status and every step of the record shows
    an envelope exactly when the game's filter lets the viewer see it, and
    withholds everything else about a withheld move."""
    meta = service.store.meta(game_id)
    game = games.get(meta["game"])
    rows = service.store.events(game_id, 0, meta["version"])
    made: dict[str, list] = {}
    for _, event, move_id in rows:
        made.setdefault(move_id, []).append(event)
    finished = meta["status"] == "finished"
    viewers = [(seat, token) for seat, token in enumerate(tokens)] + [(SPECTATOR, None)]
    for viewer, token in viewers:
        lines = [json.loads(line) for line in service.record_lines(game_id, token)]
        header, steps = lines[0], [line for line in lines[1:] if "move_id" in line]
        by_id = {step["move_id"]: step for step in steps}
        withheld = []
        for record in applied:
            envelope = record["envelope"]
            may_see = finished or viewer == envelope["player"] or game.redact_move(
                envelope["move"], envelope["player"], viewer, made[record["id"]]) is not None
            status = service.move_status(game_id, record["id"], token)
            step = by_id[record["id"]]
            if may_see:
                assert status["envelope"] == envelope and step["envelope"] == envelope
                assert "envelope_withheld" not in status and "envelope_withheld" not in step
            else:
                withheld.append(record["id"])
                assert status == {k: record[k] for k in service.WITHHELD_KEEPS if k in record} | {
                    "envelope_withheld": True}, "a withheld move's status keeps only its id, status and versions"
                assert step["envelope_withheld"] is True and "envelope" not in step and "auth" not in step
            seen = OMNISCIENT if finished else viewer
            assert step["events"] == [game.redact(e, seen) for e in made[record["id"]]]
        assert header["withheld"] == [step["move_id"] for step in steps if step.get("envelope_withheld")]
        assert sorted(header["withheld"]) == sorted(withheld)
        if finished:
            assert not withheld, "a finished game's record is whole"


@pytest.mark.parametrize("name,players,options", CASES)
def test_statuses_and_records_show_moves_only_through_the_filter(service, name, players, options):
    game_id, keys, tokens = seat_game(service, name, players, options, seed=f"hidden:{name}".encode())
    rng = random.Random(f"{name}{players}{canonical(options)}")
    applied = []
    for record in play(service, game_id, keys, rng, MOVES, kinds=("cheat", "discard_tile", "block", "keep",
                                                                   "redraw", "call_cheat")):
        applied.append(record)
        if len(applied) % CHECK_EVERY == 0:
            check_filtered(service, game_id, tokens, applied)
    if not applied or len(applied) % CHECK_EVERY:  # (at a checkpoint nothing changed since its check)
        check_filtered(service, game_id, tokens, applied)


# -- the leaks found by a client written from the spec alone, over HTTP --------


def http_game(url, players, options):
    client = Client(url)
    game_id = client.create_game("cartoona", players, options)["id"]
    keys = {}
    for seat in range(players):
        keys[seat], public = signing.generate_key()
        client.join(game_id, seat, public, f"p{seat}")
    return client, game_id, keys


def play_until(client, game_id, keys, rng, kind, limit=400):
    """Random legal moves (taking ``kind`` as soon as a seat may) until one
    of ``kind`` is applied: (its seat, its move, its status)."""
    for _ in range(limit):
        game = client.game(game_id)
        assert game["status"] == "active", "the game ended before a move of that kind"
        options = [(seat, m["move"]) for seat in game["to_act"]
                   for m in client.legal_moves(game_id, seat)["moves"]]
        wanted = [(seat, m) for seat, m in options if m["type"] == kind]
        seat, move = rng.choice(wanted or options)
        out = client.move(game_id, move, keys[seat], seat, expected_version=game["version"], wait=10)
        assert out["status"] == "applied", out
        if move["type"] == kind:
            return seat, move, out
    raise AssertionError(f"no {kind} within {limit} moves")


def anonymous(url):
    return Client(url)


def check_withheld_over_http(client, url, game_id, seat, move, status, players):
    move_id = status["id"]
    raw = json.dumps(move)
    # Nobody but the mover sees the move: not with no token, not with another seat's.
    for viewer in [None, *[s for s in range(players) if s != seat]]:
        seen = client.move_status(game_id, move_id, viewer) if viewer is not None else \
            anonymous(url).move_status(game_id, move_id)
        assert seen["status"] == "applied" and seen["envelope_withheld"] is True
        assert "envelope" not in seen and "auth" not in seen
        record = client.record(game_id, viewer) if viewer is not None else anonymous(url).record(game_id)
        lines = [json.loads(line) for line in record.splitlines() if line.strip()]
        assert move_id in lines[0]["withheld"]
        step = next(line for line in lines[1:] if line.get("move_id") == move_id)
        assert step["envelope_withheld"] is True and "envelope" not in step
        assert raw not in record
    mine = client.move_status(game_id, move_id, seat)
    assert mine["envelope"]["move"] == move and mine["envelope"]["player"] == seat


def test_a_secret_theft_shows_neither_thief_nor_card(api_server, start_worker):
    start_worker()
    client, game_id, keys = http_game(api_server.url, 3, {"cheat_cards": True})
    seat, move, status = play_until(client, game_id, keys, random.Random(4), "cheat")
    check_withheld_over_http(client, api_server.url, game_id, seat, move, status, 3)
    # The event says a tile vanished, not who took it.
    events = anonymous(api_server.url).events(game_id, after=status["version_before"])["events"]
    vanished = next(e["event"] for e in events if e["event"]["type"] == "TileVanished")
    assert "secret" not in vanished and "thief" not in json.dumps(vanished)


def test_a_face_down_discard_shows_no_tile(api_server, start_worker):
    start_worker()
    client, game_id, keys = http_game(api_server.url, 3, {"mode": "basic"})
    seat, move, status = play_until(client, game_id, keys, random.Random(2), "discard_tile")
    check_withheld_over_http(client, api_server.url, game_id, seat, move, status, 3)


def test_a_finished_game_record_is_whole_and_verifies(service):
    """Withheld while in play; once the game is over every envelope is in the
    record and every signature checks."""
    game_id, keys, tokens = seat_game(service, "cartoona", 2, {"mode": "basic"}, seed=b"whole")
    rng = random.Random(8)
    applied = list(play(service, game_id, keys, rng, 3000, kinds=("discard_tile",)))
    assert service.store.meta(game_id)["status"] == "finished"
    assert any(r["envelope"]["move"]["type"] == "discard_tile" for r in applied)
    lines = list(service.record_lines(game_id, None))
    header = json.loads(lines[0])
    assert header["withheld"] == [] and header["viewer"] is None and header["sees_all"] is True
    report = game_record.verify_lines(lines)
    assert report.ok, report.problems
    assert report.envelopes_withheld == 0 and report.signatures_checked == len(applied) and report.seed_checked


def test_a_running_record_with_withheld_envelopes_still_verifies(service):
    game_id, keys, tokens = seat_game(service, "cartoona", 2, {"mode": "basic"}, seed=b"running")
    applied = list(play(service, game_id, keys, random.Random(8), 40, kinds=("discard_tile",)))
    report = game_record.verify_lines(list(service.record_lines(game_id, None)))
    hidden = sum(r["envelope"]["move"]["type"] == "discard_tile" for r in applied)
    assert hidden and report.ok, report.problems
    assert report.envelopes_withheld == hidden and report.signatures_checked == len(applied) - hidden
