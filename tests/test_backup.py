"""Backup and restore (pbem/server/backup.py, the commands deploy/README.md gives):
a snapshot of a live store, restored into a fresh data directory and a
fresh server, replays every game to the same state, with the same events,
records, moves and meta."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
import redis

from pbem import games
from pbem.server.embedded_redis import EmbeddedRedis
from pbem.pipeline.queues import MoveQueue
from pbem.service import Service, StateCache
from pbem.store import Store, key

from .conftest import ROOT
from .test_service import new_game, submit


def service_on(url: str) -> Service:
    client = redis.Redis.from_url(url)
    queue = MoveQueue(client, 1000)
    svc = Service(Store(client), enqueue=queue.push, snapshot_every=10, enqueue_checked=queue.push_checked,
                  cache=StateCache(64))
    svc.queue = queue
    return svc


def play(svc: Service, game_id: str, keys, tokens, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        loaded = svc.load(game_id)
        if loaded.game.result(loaded.state):
            return
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = rng.choice(svc.legal_moves(game_id, tokens[seat])["moves"])["move"]
        submit(svc, game_id, seat, keys, move)
        svc.queue.drain(svc.apply_moves, linger_s=0)


def picture(svc: Service, game_id: str) -> dict:
    """Everything a game is: its meta, moves, events, record, and its state
    (dumped) now and halfway, as this service replays them."""
    store, client = svc.store, svc.store.redis
    loaded = svc.load(game_id)
    half = svc.load(game_id, version=loaded.version // 2)
    return {"meta": client.hgetall(key(game_id, "meta")), "moves": client.hgetall(key(game_id, "moves")),
            "seats": client.hgetall(key(game_id, "seats")), "events": store.events(game_id),
            "record": list(svc.record_lines(game_id, None)), "state": loaded.game.dump(loaded.state),
            "half": (half.version, loaded.game.dump(half.state)), "version": loaded.version}


def run(*args, **env) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "pbem.server.backup", *args], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, **env), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


#: A live store of each kind, saved once per session (process) for the tests
#: restoring it: kind -> (the backup file, every game's picture, the keys, the ids).
SAVED: dict = {}


def saved_backup(folder, source: str):
    """Every game and sample setup played on a live ``source`` server, some
    finished, some not, one open; then saved with ``pbem.server.backup save``."""
    if source in SAVED:
        return SAVED[source]
    # fsync once a second (the suite's own servers' policy), not on every write as
    # make run does: ``save`` takes the snapshot over replication, from memory, so
    # the live phase's thousands of fsyncs (20 s under load) prove nothing here.
    src = EmbeddedRedis(folder / "live" / "redis", kind=source, appendfsync="everysec").start()
    try:
        svc = service_on(src.url)
        rng = random.Random(16)
        ids = []
        for game in games.all_games():
            for players, options in game.sample_setups[:2]:
                game_id, keys, tokens = new_game(svc, game.name, players, options)
                play(svc, game_id, keys, tokens, rng, 200 if game.name == "wakanda" else 25)
                ids.append(game_id)
        ids.append(svc.create_game("wakanda", 2, {})["id"])  # open, nobody seated
        assert any(svc.meta(g)["status"] == "finished" for g in ids) and any(svc.meta(g)["status"] == "active" for g in ids)
        before = {g: picture(svc, g) for g in ids}
        keys_before = sorted(svc.store.redis.keys("*"))
        run("save", str(folder / "backup.rdb"), REDIS_URL=src.url)
    finally:
        src.stop()
    SAVED[source] = folder / "backup.rdb", before, keys_before, ids
    return SAVED[source]


# The two restores of a redis store side by side: the second one restores the
# first one's backup (one live phase for both, on the same xdist worker).
@pytest.mark.parametrize("source,target", [("redis", "redis"), ("redis", "valkey"), ("valkey", "valkey")])
def test_a_restored_snapshot_replays_every_game_alike(tmp_path, tmp_path_factory, source, target):
    backup, before, keys_before, ids = saved_backup(tmp_path_factory.mktemp(f"backup-{source}"), source)
    out = run("restore", str(backup), "--data-dir", str(tmp_path / "fresh"), "--server", target)
    assert "restored" in out.stdout
    # A restore never overwrites data.
    again = subprocess.run([sys.executable, "-m", "pbem.server.backup", "restore", str(backup),
                            "--data-dir", str(tmp_path / "fresh")], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 1 and "holds data already" in again.stderr
    dst = EmbeddedRedis(tmp_path / "fresh" / "redis", kind=target).start()  # from the append-only file, as make run
    try:
        fresh = service_on(dst.url)  # nothing cached: every state replayed from the store
        assert sorted(fresh.store.redis.keys("*")) == keys_before
        for game_id in ids:
            assert picture(fresh, game_id) == before[game_id], game_id
        # And it goes on: the restored store takes new moves.
        live = next(g for g in ids if fresh.meta(g)["status"] == "active")
        assert fresh.load(live).version == before[live]["version"]
    finally:
        dst.stop()
