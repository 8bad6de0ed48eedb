"""The move pipeline between the API and the workers.

Submissions go onto one Redis stream read by a consumer group. RQ carries
only *drain* jobs: the API enqueues one when none is waiting, and a drain job
applies every submission it finds, so under load one RQ job serves many
moves and RQ's own per-job cost (about 57 Redis commands) is paid per batch,
not per move. At low load each move still gets its own job at once.

A worker killed mid-drain leaves its entries pending in the group; any later
drain claims entries idle longer than ``claim_idle_ms`` (XAUTOCLAIM), and
applying a move twice is harmless (the append is idempotent by move id).
"""
from __future__ import annotations

import logging
import os
import socket
import time
from datetime import timedelta
from typing import Callable

import redis
from rq import Queue

log = logging.getLogger(__name__)

STREAM = "pbem:submissions"
GROUP = "appliers"
DRAIN_QUEUED = "pbem:drain:queued"
SWEEP_QUEUED = "pbem:drain:sweep"
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
        self.redis.xadd(STREAM, {"g": game_id, "m": move_id})
        self.kick()

    def kick(self, force: bool = False) -> None:
        """Enqueue a drain job unless one is already waiting."""
        if self.redis.set(DRAIN_QUEUED, "1", nx=True, px=10_000) or force:
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
        self._sweep_later()
        return done

    def _sweep_later(self) -> None:
        """Entries still pending belong to a consumer that may have died:
        come back when they are old enough to claim."""
        pending = self.redis.xpending(STREAM, GROUP)
        if pending and pending.get("pending"):
            if self.redis.set(SWEEP_QUEUED, "1", nx=True, px=self.claim_idle_ms):
                self.rq.enqueue_in(timedelta(milliseconds=self.claim_idle_ms + 100), DRAIN_JOB,
                                   result_ttl=0, failure_ttl=3600, description="sweep moves")
