"""``Store.read``: what a submission or a worker needs, in one round trip,
whatever the reader has cached; and the EVALSHA runner's fallback when Redis
has forgotten the scripts."""
from __future__ import annotations

import random

from pbem.games.base import canonical
from pbem.service import Service, StateCache
from pbem.store import TAIL_LIMIT, Store, key

from .conftest import drain
from .test_service import new_game, play_out


class Counting:
    """A redis client proxy counting round trips (commands and pipelines)."""

    def __init__(self, client):
        self._client, self.trips = client, 0

    def execute_command(self, *args, **kw):
        self.trips += 1
        return self._client.execute_command(*args, **kw)

    def pipeline(self, *args, **kw):
        pipe = self._client.pipeline(*args, **kw)
        outer = self
        execute = pipe.execute

        def counted(*a, **k):
            outer.trips += 1
            return execute(*a, **k)

        pipe.execute = counted
        return pipe

    def watch(self, trips):
        """Count a RoundTrips' round trips too (they bypass ``execute``)."""
        run = trips.run

        def counted(*a, **k):
            self.trips += 1
            return run(*a, **k)
        trips.run = counted

    def __getattr__(self, name):
        return getattr(self._client, name)


def test_read_from_the_snapshot_then_the_tail(service, redis_client):
    game_id, keys, tokens = new_game(service)
    final = play_out(service, game_id, keys, tokens, random.Random(3))
    snap_version = int(redis_client.hget(key(game_id, "meta"), "snapshot_version"))
    assert 0 < snap_version <= final.version  # the fixture snapshots every 10 events
    got = service.store.read(game_id, seats=True, seed=True)
    assert got.meta["version"] == final.version and set(got.seats) == {0, 1}
    assert got.seed == service.store.seed(game_id)
    assert got.tail.snapshot[0] == snap_version == got.tail.after
    assert [row[0] for row in got.tail.rows] == list(range(snap_version + 1, final.version + 1))
    # A cold process loads from what it read alone, and gets the live state.
    cold = Service(service.store, snapshot_every=service.snapshot_every)
    loaded = cold.load(game_id, meta=got.meta, tail=got.tail)
    assert canonical(final.game.dump(loaded.state)) == canonical(final.game.dump(final.state))
    # With a cached version, only what follows it.
    got = service.store.read(game_id, after=final.version - 3)
    assert got.tail.snapshot is None and [r[0] for r in got.tail.rows] == [final.version - 2, final.version - 1,
                                                                           final.version]
    # No tail asked, none read; an unknown game reads as nothing.
    assert service.store.read(game_id, tail=False).tail is None
    nothing = service.store.read("nosuchgame", "m1", seats=True, seed=True)
    assert nothing.meta is None and nothing.move is None and nothing.seed is None and nothing.seats == {}


def test_a_long_tail_is_left_to_paged_reads(service, redis_client):
    game_id, keys, tokens = new_game(service)
    final = play_out(service, game_id, keys, tokens, random.Random(4))
    assert final.version < TAIL_LIMIT
    got = service.store.read(game_id, after=0)
    assert len(got.tail.rows) == final.version
    # Past the limit the read gives no tail (load pages through the log instead).
    log_key = key(game_id, "log")
    for n in range(final.version + 1, TAIL_LIMIT + 2):
        redis_client.xadd(log_key, {"e": "{}", "m": "x"}, id=f"{n}-1")
    assert service.store.read(game_id, after=0).tail is None


def test_scripts_run_again_once_redis_forgot_them(service, redis_client):
    game_id, keys, tokens = new_game(service)
    redis_client.script_flush()
    assert service.store.read(game_id).meta["id"] == game_id
    redis_client.script_flush()
    # the worker's batch path: settle/append scripts by EVALSHA in one pipeline
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    move = service.legal_moves(game_id, tokens[seat])["moves"][0]["move"]
    from .test_service import submit
    record = submit(service, game_id, seat, keys, move)
    redis_client.script_flush()
    drain(service)
    assert service.move_status(game_id, record["id"])["status"] == "applied"


def test_a_worker_batch_reads_once_whatever_it_has_cached(service, redis_client):
    """Two round trips for a batch of moves of games this process has never
    seen (read, then append): no per-game reads of snapshots or seeds."""
    games = [new_game(service) for _ in range(3)]
    from .test_service import submit
    pairs = []
    for game_id, keys, tokens in games:
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        move = service.legal_moves(game_id, tokens[seat])["moves"][0]["move"]
        pairs.append((game_id, submit(service, game_id, seat, keys, move)["id"]))
    counting = Counting(redis_client)
    worker = Service(Store(counting), snapshot_every=service.snapshot_every, cache=StateCache())
    counting.watch(worker.store.trips)
    counting.trips = 0
    results = worker.apply_moves(pairs)
    assert [r["status"] for r in results] == ["applied"] * 3
    assert counting.trips == 2
