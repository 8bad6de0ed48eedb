"""Faults with real processes: the embedded Redis server (``appendfsync
always``, its own directory and port) is killed with SIGKILL while moves
stream in through a real worker, then restarted from its append-only file.

Every move that was seen ``applied`` before the kill is still applied, at
the same version, with its events in the log; every game's log is gapless
and replays to the state and version the service loads; and the pipeline
carries on afterwards (moves left queued by the kill get applied, new moves
too). Bounded in time: the whole test takes well under 30 s.
"""
from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest
import redis

from pbem.trust import signing
from pbem.settings.config import Settings
from pbem.server.embedded_redis import EmbeddedRedis
from pbem.games.base import canonical
from pbem.pipeline.queues import MoveQueue
from pbem.service import Service
from pbem.store import Store

from .conftest import ROOT, worker_env, wait_until

# Latency budgets: run in make test's serial phase, away from the suite's own load.
pytestmark = pytest.mark.timing

GAMES = 24
KILL_AFTER_APPLIED = 60
DEADLINE_S = 30


class Worker:
    """A real worker process (``python -m workers.worker``) whose log goes to
    a file: a pipe nobody reads would fill up during the outage and block it."""

    def __init__(self, settings: Settings, log_path):
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "workers.worker"], env=worker_env(settings), cwd=ROOT,
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()

    def tail(self, n: int = 4000) -> str:
        return self.log_path.read_bytes()[-n:].decode(errors="replace")


def connect(server: EmbeddedRedis) -> redis.Redis:
    return redis.Redis.from_url(server.url, socket_timeout=3, socket_connect_timeout=1)


def build(client: redis.Redis, settings: Settings) -> Service:
    queue = MoveQueue(client, settings.claim_idle_ms)
    return Service(Store(client), enqueue=queue.push, snapshot_every=settings.snapshot_every)


def new_games(service: Service, count: int) -> dict[str, list[str]]:
    out = {}
    for i in range(count):
        name = "kachina" if i % 2 else "wakanda"
        game = service.create_game(name, 2, {})
        keys = []
        for seat in range(2):
            private, public = signing.generate_key()
            service.join(game["id"], seat, public, f"p{seat}")
            keys.append(private)
        out[game["id"]] = keys
    return out


def submit_one(service: Service, game_id: str, keys: list[str], rng: random.Random) -> str | None:
    """A legal move signed at the game's current version; None once it is over."""
    loaded = service.load(game_id)
    if loaded.finished or loaded.game.result(loaded.state):
        return None
    seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
    move = rng.choice(loaded.game.legal_moves(loaded.state, seat))
    envelope = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
    return service.submit(game_id, envelope)["id"]


def check_logs(service: Service, games: dict) -> int:
    """Every log gapless, no move's events doubled, and replay from the log
    equal to what the service loads (fresh cache: snapshot + tail)."""
    total = 0
    for game_id in games:
        meta = service.store.meta(game_id)
        rows = service.store.events(game_id)
        assert [v for v, _, _ in rows] == list(range(1, len(rows) + 1)), f"{game_id}: gap in the log"
        assert meta["version"] == len(rows), f"{game_id}: meta version {meta['version']} != {len(rows)} events"
        runs = [m for i, (_, _, m) in enumerate(rows) if i == 0 or rows[i - 1][2] != m]
        assert len(runs) == len(set(runs)), f"{game_id}: a move's events appear twice"
        for move_id in runs:
            record = service.store.move(game_id, move_id)
            assert record and record["status"] == "applied", (game_id, move_id, record)
        loaded = service.load(game_id)
        assert loaded.version == len(rows)
        replayed = loaded.game.replay(meta["players"], meta["options"], [e for _, e, _ in rows])
        assert canonical(loaded.game.dump(replayed)) == canonical(loaded.game.dump(loaded.state)), game_id
        total += len(rows)
    return total


def test_kill_9_redis_mid_stream_then_restart_from_the_aof(tmp_path):
    started = time.monotonic()
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="always").start()
    settings = Settings(redis_url=server.url, claim_idle_ms=1000, snapshot_every=10, max_wait=10)
    workers: list[Worker] = []
    rng = random.Random(8)
    try:
        client = connect(server)
        service = build(client, settings)
        games = new_games(service, GAMES)
        workers.append(Worker(settings, tmp_path / f"worker{len(workers)}.log"))

        # Stream moves: each game has at most one move in flight; every outcome
        # read back as "applied" is remembered with its version.
        pending: dict[str, str] = {}
        seen_applied: dict[tuple[str, str], int] = {}
        submitted = 0
        killed_with_pending = 0
        while time.monotonic() - started < 20:
            for game_id, keys in games.items():
                if game_id not in pending:
                    move_id = submit_one(service, game_id, keys, rng)
                    if move_id:
                        pending[game_id] = move_id
                        submitted += 1
            if len(seen_applied) >= KILL_AFTER_APPLIED and pending:
                # SIGKILL right after a round was queued: the worker is mid-drain.
                killed_with_pending = len(pending)
                server.stop(kill=True)
                break
            time.sleep(0.005)
            for game_id, move_id in list(pending.items()):
                record = service.store.move(game_id, move_id)
                if record["status"] == "applied":
                    seen_applied[(game_id, move_id)] = record["version"]
                if record["status"] != "queued":
                    assert record["status"] == "applied", record
                    del pending[game_id]
        assert killed_with_pending, f"the stream ended before the kill ({len(seen_applied)} applied)"
        with pytest.raises(redis.ConnectionError):
            service.store.version(next(iter(games)))

        # Restart from the append-only file: same directory, same port.
        server.start()
        client = connect(server)
        fresh = build(client, settings)  # empty state cache: everything comes from Redis
        for (game_id, move_id), version in seen_applied.items():
            record = fresh.store.move(game_id, move_id)
            assert record is not None, f"applied move {move_id} of {game_id} lost"
            assert record["status"] == "applied" and record["version"] == version, record
            assert move_id in {m for _, _, m in fresh.store.events(game_id, record["version_before"], version)}
        check_logs(fresh, games)

        # The pipeline carries on: the same worker process (its work loop cut
        # short by the outage) waits for Redis, starts again and applies what
        # was queued at the kill, then new moves.
        try:
            wait_until(lambda: all(fresh.store.move(g, m)["status"] != "queued" for g, m in pending.items()),
                       timeout=max(1.0, DEADLINE_S - (time.monotonic() - started) - 6))
        except AssertionError:
            raise AssertionError(f"moves queued at the kill were never applied; "
                                 f"worker log:\n{workers[-1].tail()}") from None
        for game_id, move_id in pending.items():
            record = fresh.store.move(game_id, move_id)
            assert record["status"] == "applied", record
        after = []
        for game_id, keys in games.items():
            move_id = submit_one(fresh, game_id, keys, rng)
            if move_id:
                after.append((game_id, move_id))
        assert after, "every game ended before the restart: nothing left to check"
        for game_id, move_id in after:
            record = fresh.store.wait_settled(game_id, move_id, timeout=5)
            assert record["status"] == "applied", record
        total = check_logs(fresh, games)
        assert total > KILL_AFTER_APPLIED
        assert workers[0].alive(), f"the worker died with Redis:\n{workers[0].tail()}"
        assert time.monotonic() - started < DEADLINE_S
        stopping = time.monotonic()
        workers[0].stop()  # SIGTERM still ends it promptly (a warm shutdown)
        assert workers[0].proc.returncode == 0 and time.monotonic() - stopping < 5, workers[0].tail()
    finally:
        for worker in workers:
            worker.stop()
        server.stop()
