"""The stream hub on a real Redis (redis.asyncio), driven directly so that
its orderings can be forced: a stream that starts past the hub's cursor,
a game that joins a blocked read, a client that falls behind."""
from __future__ import annotations

import asyncio
import threading
import random
import time

from pbem.trust import signing
from pbem.games.base import SPECTATOR
from pbem.stream.hub import CLOSE, KEEPALIVE, Batch, Hub

from .conftest import drain


def started_game(service, moves: int, seed: int = 1) -> tuple[str, list]:
    game_id = service.create_game("wakanda", 2)["id"]
    keys = []
    for seat in range(2):
        private, public = signing.generate_key()
        service.join(game_id, seat, public, f"p{seat}")
        keys.append(private)
    play(service, game_id, keys, moves, random.Random(seed))
    return game_id, keys


def play(service, game_id: str, keys: list, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        loaded = service.load(game_id)
        if loaded.finished:
            return
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = rng.choice(loaded.game.legal_moves(loaded.state, seat))
        service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, move, keys[seat]))
        drain(service)


async def batches(sub, until: int, timeout: float = 10) -> list[Batch]:
    got = []
    deadline = time.monotonic() + timeout
    while not got or got[-1].last < until:
        item = await asyncio.wait_for(sub.queue.get(), deadline - time.monotonic())
        if item is not KEEPALIVE:
            assert item is not CLOSE
            got.append(item)
    return got


def with_hub(redis_server, body, **kw):
    async def main():
        hub = Hub.for_url(redis_server.url, **kw)
        await hub.start()
        try:
            return await body(hub)
        finally:
            await hub.close()
    # A thread of its own: a session's sync Playwright keeps an event loop
    # running in the main thread, and asyncio.run refuses to nest in it.
    out = {}

    def run():
        try:
            out["value"] = asyncio.run(asyncio.wait_for(main(), 60))
        except BaseException as err:  # re-raised in the test's thread
            out["error"] = err
    thread = threading.Thread(target=run, name="hub-test")
    thread.start()
    thread.join(90)
    assert not thread.is_alive(), "the hub test did not finish in 90 s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_a_stream_past_the_hubs_cursor_gets_each_event_once(service, redis_server):
    game_id, keys = started_game(service, 5)
    meta = service.store.meta(game_id)
    version = meta["version"]

    async def body(hub):
        first = hub.subscribe(game_id, meta, SPECTATOR, 0)          # the game's first watcher: cursor 0
        ahead = hub.subscribe(game_id, meta, SPECTATOR, version - 2)  # before the hub has read anything
        assert first.upto == ahead.upto == 0 < ahead.sent
        got = await batches(first, version)
        seen_first = b"".join(first.take(b) for b in got)
        seen_ahead = b"".join(ahead.take(b) for b in await batches(ahead, version))
        await asyncio.to_thread(play, service, game_id, keys, 2, random.Random(7))
        now = service.store.version(game_id)
        seen_first += b"".join(first.take(b) for b in await batches(first, now))
        seen_ahead += b"".join(ahead.take(b) for b in await batches(ahead, now))
        return seen_first, seen_ahead, now

    seen_first, seen_ahead, now = with_hub(redis_server, body)
    ids = lambda data: [int(line[4:]) for line in data.decode().splitlines() if line.startswith("id: ")]
    assert ids(seen_first) == list(range(1, now + 1))
    assert ids(seen_ahead) == list(range(version - 1, now + 1)), "dropped what it had, nothing else"


def test_a_new_game_joins_the_blocked_read_at_once(service, redis_server):
    """The reader blocks for 10 s on the games it watches; a game watched
    after that must not wait for the block to end (the wake stream)."""
    quiet, _ = started_game(service, 1)
    busy, keys = started_game(service, 1, seed=2)

    async def body(hub):
        hub.subscribe(quiet, service.store.meta(quiet), SPECTATOR, service.store.version(quiet))
        await asyncio.sleep(0.3)  # the reader is now blocked on `quiet` alone
        meta = service.store.meta(busy)
        sub = hub.subscribe(busy, meta, SPECTATOR, meta["version"])
        await asyncio.sleep(0.3)
        t0 = time.monotonic()
        await asyncio.to_thread(play, service, busy, keys, 1, random.Random(3))
        await batches(sub, service.store.version(busy), timeout=5)
        return time.monotonic() - t0

    assert with_hub(redis_server, body, block_ms=10_000) < 2.0


def test_a_client_that_falls_behind_is_let_go(service, redis_server):
    game_id, keys = started_game(service, 0)
    meta = service.store.meta(game_id)

    async def body(hub):
        slow = hub.subscribe(game_id, meta, SPECTATOR, 0)
        for _ in range(6):  # never read: each move's batch waits in its queue
            await asyncio.to_thread(play, service, game_id, keys, 1, random.Random(5))
            await asyncio.sleep(0.2)
        items = []
        while not slow.queue.empty():
            items.append(slow.queue.get_nowait())
        return slow, items, hub.subscribers

    slow, items, left = with_hub(redis_server, body, backlog=2)
    assert slow.closed and items[-1] is CLOSE and left == 0
