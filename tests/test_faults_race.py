"""Faults: two workers racing on the same game with conflicting moves (two
different moves signed at the same expected_version): exactly one is
applied, the other is rejected as ``stale_version``, and the log has no lost
and no doubled event.

Two ways: two Service instances (separate Redis connections, separate state
caches) calling ``apply_move`` from two threads released together by a
barrier; and two real worker processes draining the submissions stream.
"""
from __future__ import annotations

import random
import threading

import redis

from pbem.trust import signing
from pbem.games.base import canonical
from pbem.service import Service
from pbem.store import Store

from .conftest import wait_until

ROUNDS = 120


def new_game(service: Service, name: str = "wakanda"):
    game = service.create_game(name, 2, {})
    keys = []
    for seat in range(2):
        private, public = signing.generate_key()
        service.join(game["id"], seat, public, f"p{seat}")
        keys.append(private)
    return game["id"], keys


def conflicting_pair(service: Service, game_id: str, keys, rng: random.Random):
    """Two different legal moves of the seat to act, both signed at the
    current version, both queued; None when the game is over or the seat has
    only one move."""
    loaded = service.load(game_id)
    if loaded.game.result(loaded.state):
        return None
    seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
    legal = loaded.game.legal_moves(loaded.state, seat)
    if len(legal) < 2:
        return "single", seat, legal[0], loaded.version
    a, b = rng.sample(legal, 2)
    # Record both before either is queued (a lingering worker applies the
    # first within a millisecond, and the edge would then refuse the second
    # as stale): the race is left to the workers.
    recorder = Service(service.store)
    ids = [recorder.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, move, keys[seat]))["id"]
           for move in (a, b)]
    if service.enqueue:
        for move_id in ids:
            service.enqueue(game_id, move_id)
    return ids, loaded.version


def check_log(service: Service, game_id: str, applied: list[str]) -> None:
    rows = service.store.events(game_id)
    assert [v for v, _, _ in rows] == list(range(1, len(rows) + 1)), "a gap in the log"
    assert service.store.version(game_id) == len(rows)
    runs = [m for i, (_, _, m) in enumerate(rows) if i == 0 or rows[i - 1][2] != m]
    assert len(runs) == len(set(runs)), "a move's events appear twice"
    assert set(applied) <= set(runs), "an applied move has no events in the log"
    for move_id in set(runs) - {"setup"}:
        record = service.store.move(game_id, move_id)
        assert record["status"] == "applied"
        assert [v for v, _, m in rows if m == move_id] == list(range(record["version_before"] + 1,
                                                                      record["version"] + 1))
    loaded = service.load(game_id)
    replayed = loaded.game.replay(2, loaded.meta["options"], [e for _, e, _ in rows])
    assert canonical(loaded.game.dump(replayed)) == canonical(loaded.game.dump(loaded.state))


def expected_code(service: Service, game_id: str, loser: dict | None = None) -> str:
    """The loser is stale, unless the winning move ended the game, or the
    loser's seat answered a window that is still open with the winning move
    (Kachina's opening redraw): then signing again would not help, and the
    refusal says what happened (``already_answered``; ``not_your_turn`` in
    a game without that code)."""
    if service.store.meta(game_id)["status"] == "finished":
        return "game_over"
    if loser is not None:
        envelope = service.store.move(game_id, loser["id"])["envelope"]
        now, then = service.load(game_id), service.load(game_id, envelope["expected_version"])
        game = now.game
        window = game.window(then.state)
        if window is not None and game.window(now.state) == window and \
                envelope["player"] not in game.to_act(now.state):
            return "already_answered" if "already_answered" in game.error_codes else "not_your_turn"
    return "stale_version"


def play_single(service: Service, game_id: str, keys, seat, move, version) -> str:
    """A seat with one legal move: play it (no race possible this round)."""
    envelope = signing.make_envelope(game_id, seat, version, move, keys[seat])
    move_id = service.submit(game_id, envelope)["id"]
    assert service.apply_move(game_id, move_id)["status"] == "applied"
    return move_id


def test_two_services_race_on_conflicting_moves(redis_server, redis_client):
    # The submitting service queues nothing: the two racers apply by hand.
    edge = Service(Store(redis_client), enqueue=None, snapshot_every=10)
    racers = []
    loads: list[list[int]] = [[], []]  # versions each racer loaded, this round
    for i in range(2):
        svc = Service(Store(redis.Redis.from_url(redis_server.url)), snapshot_every=10)
        load = svc.load

        def recorded(game_id, version=None, meta=None, _load=load, _seen=loads[i], **kw):
            loaded = _load(game_id, version, meta, **kw)
            _seen.append(loaded.version)
            return loaded
        svc.load = recorded
        racers.append(svc)
    both_decided_on_the_same_state = 0
    rng = random.Random(3)
    game_id, keys = new_game(edge)
    applied_ids: dict[str, list[str]] = {game_id: ["setup"]}
    races = 0
    for _ in range(ROUNDS):
        pair = conflicting_pair(edge, game_id, keys, rng)
        if pair is None:
            check_log(edge, game_id, applied_ids[game_id])
            game_id, keys = new_game(edge)
            applied_ids[game_id] = ["setup"]
            continue
        if pair[0] == "single":
            applied_ids[game_id].append(play_single(racers[0], game_id, keys, *pair[1:]))
            continue
        ids, version = pair
        barrier = threading.Barrier(2, timeout=10)
        outcomes: list[dict | None] = [None, None]

        def race(i):
            barrier.wait()
            outcomes[i] = racers[i].apply_move(game_id, ids[i])

        for seen in loads:
            seen.clear()
        threads = [threading.Thread(target=race, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(15)
        races += 1
        if loads[0][:1] == loads[1][:1] == [version]:
            both_decided_on_the_same_state += 1
        statuses = sorted(o["status"] for o in outcomes)
        assert statuses == ["applied", "rejected"], outcomes
        winner = next(o for o in outcomes if o["status"] == "applied")
        loser = next(o for o in outcomes if o["status"] == "rejected")
        assert loser["error"]["code"] == expected_code(edge, game_id), loser
        assert winner["version_before"] == version
        assert edge.store.version(game_id) == winner["version"]
        # What is stored agrees with what each racer was told.
        assert edge.store.move(game_id, winner["id"])["status"] == "applied"
        assert edge.store.move(game_id, loser["id"])["status"] == "rejected"
        applied_ids[game_id].append(winner["id"])
        # Running either move again changes nothing (idempotent by move id).
        assert racers[1].apply_move(game_id, winner["id"])["version"] == winner["version"]
        assert racers[0].apply_move(game_id, loser["id"])["status"] == "rejected"
    for gid, applied in applied_ids.items():
        check_log(edge, gid, applied)
    assert races >= ROUNDS // 2
    # The race really happened: in some rounds both racers loaded the same
    # version and decided on it, so one append had to find the log moved on.
    assert both_decided_on_the_same_state > 0, races


def settled(service: Service, game_id: str, ids: list[str]) -> list[dict] | None:
    records = [service.store.move(game_id, m) for m in ids]
    return records if all(r["status"] != "queued" for r in records) else None


def test_two_worker_processes_race_on_conflicting_moves(service, start_worker):
    rng = random.Random(5)
    games = [new_game(service, "wakanda" if i % 2 else "kachina") for i in range(16)]
    start_worker(scheduler=False)
    start_worker(scheduler=False)
    applied: dict[str, list[str]] = {g: ["setup"] for g, _ in games}
    pairs = 0
    for _round in range(4):
        batch = []
        for game_id, keys in games:
            pair = conflicting_pair(service, game_id, keys, rng)
            if pair is None or pair[0] == "single":
                continue
            batch.append((game_id, pair[0]))
        for game_id, ids in batch:
            records = wait_until(lambda: settled(service, game_id, ids), timeout=20)
            statuses = sorted(r["status"] for r in records)
            assert statuses == ["applied", "rejected"], records
            loser = next(r for r in records if r["status"] == "rejected")
            assert loser["error"]["code"] == expected_code(service, game_id, loser), loser
            applied[game_id].append(next(r["id"] for r in records if r["status"] == "applied"))
            pairs += 1
    assert pairs >= 30
    for game_id, ids in applied.items():
        check_log(service, game_id, ids)
