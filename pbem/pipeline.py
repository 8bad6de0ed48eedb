"""The move pipeline between the API and the workers.

Submissions go onto one Redis stream read by a consumer group. RQ carries
only *drain* jobs: the API enqueues one when none is waiting, and a drain job
applies every submission it finds, so under load one RQ job serves many
moves and RQ's own per-job cost (about 57 Redis commands) is paid per batch,
not per move. At low load each move still gets its own job at once.

A worker killed mid-drain leaves its entries pending in the group; every
worker's sweeper thread notices entries idle longer than ``claim_idle_ms``
and kicks a drain, which claims them (XAUTOCLAIM); applying a move twice is
harmless (the append is idempotent by move id).
"""
from __future__ import annotations

import logging
import os
import socket
import time
from typing import Callable

import redis
from rq import Queue

log = logging.getLogger(__name__)

STREAM = "pbem:submissions"
GROUP = "appliers"
DRAIN_QUEUED = "pbem:drain:queued"
MOVES_QUEUE = "pbem-moves"
DRAIN_JOB = "workers.jobs.drain_moves"


def ensure_group(client: redis.Redis) -> None:
    try:
        client.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
    except redis.ResponseError as err:
        if "BUSYGROUP" not in str(err):
            raise


def consumer_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class MoveQueue:
    def __init__(self, client: redis.Redis, claim_idle_ms: int = 5000):
        self.redis = client
        self.claim_idle_ms = claim_idle_ms
        self.rq = Queue(MOVES_QUEUE, connection=client)

    def push(self, game_id: str, move_id: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.xadd(STREAM, {"g": game_id, "m": move_id})
        pipe.set(DRAIN_QUEUED, "1", nx=True, px=10_000)
        if pipe.execute()[1]:
            self._enqueue_drain()

    def kick(self, force: bool = False) -> None:
        """Enqueue a drain job unless one is already waiting."""
        if self.redis.set(DRAIN_QUEUED, "1", nx=True, px=10_000) or force:
            self._enqueue_drain()

    def _enqueue_drain(self) -> None:
        self.rq.enqueue(DRAIN_JOB, result_ttl=0, failure_ttl=3600, description="drain moves")

    def drain(self, apply: Callable[[str, str], object], budget_s: float = 2.0, batch: int = 64) -> int:
        """Apply submissions until none is left or the time budget is spent."""
        self.redis.delete(DRAIN_QUEUED)  # submissions from now on enqueue a new job
        ensure_group(self.redis)
        me = consumer_name()
        done = 0
        start = time.monotonic()
        claimed = self.redis.xautoclaim(STREAM, GROUP, me, self.claim_idle_ms, "0-0", count=batch)[1]
        entries = [e for e in claimed if e[1]]
        while True:
            if not entries:
                got = self.redis.xreadgroup(GROUP, me, {STREAM: ">"}, count=batch)
                entries = got[0][1] if got else []
            if not entries:
                break
            for entry_id, fields in entries:
                try:
                    apply(fields[b"g"].decode(), fields[b"m"].decode())
                except redis.ConnectionError:
                    raise  # leave it pending; a later drain retakes it
                except Exception:
                    log.exception("applying %s failed", fields)
                done += 1
            ids = [entry_id for entry_id, _ in entries]
            pipe = self.redis.pipeline(transaction=False)
            pipe.xack(STREAM, GROUP, *ids)
            pipe.xdel(STREAM, *ids)
            pipe.execute()
            entries = []
            if time.monotonic() - start > budget_s:
                self.kick(force=True)
                return done
        return done

    def orphans(self) -> int:
        """How many submissions sit with a consumer, unacknowledged, for
        longer than ``claim_idle_ms``: what a dead worker left behind."""
        rows = self.redis.xpending_range(STREAM, GROUP, "-", "+", 1, idle=self.claim_idle_ms)
        return len(rows)

    def sweep_forever(self, stop) -> None:
        """Kick a drain whenever orphaned submissions appear (a worker's
        background thread; independent of RQ's scheduler, whose lock a
        killed worker may hold for a while)."""
        while not stop.wait(self.claim_idle_ms / 2000):
            try:
                if self.orphans():
                    self.kick()
            except redis.RedisError:
                log.warning("sweeper: redis unavailable", exc_info=True)
