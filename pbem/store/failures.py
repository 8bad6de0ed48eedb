"""Deliveries that gave up: webhooks past their last attempt (or refused),
turn mails, mail answers and invitations the relay kept refusing. Each is
recorded with the job that would try it again, so that the operator can list
them and retry them (``GET /admin/deliveries``, ``POST
/admin/deliveries/{id}/retry``, ``pbem admin deliveries``).

    pbem:failed            hash   id -> JSON (id, kind, game, seat, error, failed_at, attempts, job, args, queue)
    pbem:failed:at         zset   id -> when it gave up (newest last)
    pbem:{g:ID}:failed     set    the ids of a game's failures (deleting the game forgets them)

A retry enqueues the job again from its first attempt and forgets the
failure; if it fails again it is recorded again, under a new id.
"""
from __future__ import annotations

import json
import secrets
import time

import redis
from rq import Queue

from . import dumps, key

FAILED = "pbem:failed"
FAILED_AT = "pbem:failed:at"
KINDS = ("webhook", "mail", "answer", "invitation")
#: Failures kept at most (the oldest go first).
KEEP = 10_000
JOB_OPTS = {"result_ttl": 0, "failure_ttl": 7 * 86400, "job_timeout": 120}


class Failures:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def record(self, kind: str, game_id: str | None, seat: int | None, error: str, attempts: int,
               job: str, args: list, queue: str, **extra) -> str:
        """Remember a delivery that gave up, with the job that tries it again
        (``job(*args)`` on RQ queue ``queue``)."""
        failure_id = secrets.token_hex(8)
        now = time.time()
        entry = {"id": failure_id, "kind": kind, "game": game_id, "seat": seat, "error": str(error)[:500],
                 "failed_at": now, "attempts": attempts, "job": job, "args": args, "queue": queue, **extra}
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(FAILED, failure_id, dumps(entry))
        pipe.zadd(FAILED_AT, {failure_id: now})
        if game_id:
            pipe.sadd(key(game_id, "failed"), failure_id)
        pipe.execute()
        self._trim()
        return failure_id

    def _trim(self) -> None:
        extra = self.redis.zcard(FAILED_AT) - KEEP
        if extra > 0:
            for failure_id in self.redis.zrange(FAILED_AT, 0, extra - 1):
                self.forget(failure_id.decode())

    def get(self, failure_id: str) -> dict | None:
        raw = self.redis.hget(FAILED, failure_id)
        return json.loads(raw) if raw else None

    def list(self, game_id: str | None = None, kind: str | None = None, limit: int = 100) -> list[dict]:
        """Failures, newest first (of one game, of one kind)."""
        if game_id:
            ids = [i.decode() for i in self.redis.smembers(key(game_id, "failed"))]
        else:
            ids = [i.decode() for i in self.redis.zrevrange(FAILED_AT, 0, max(limit * 4, 400) - 1)]
        entries = [json.loads(raw) for raw in self.redis.hmget(FAILED, ids) if raw] if ids else []
        entries = [e for e in entries if kind is None or e["kind"] == kind]
        entries.sort(key=lambda e: e["failed_at"], reverse=True)
        return entries[:limit]

    def forget(self, failure_id: str) -> dict | None:
        entry = self.get(failure_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(FAILED, failure_id)
        pipe.zrem(FAILED_AT, failure_id)
        if entry and entry.get("game"):
            pipe.srem(key(entry["game"], "failed"), failure_id)
        pipe.execute()
        return entry

    def failures_of(self, game_id: str) -> list[str]:
        return [i.decode() for i in self.redis.smembers(key(game_id, "failed"))]

    def forget_game(self, game_id: str) -> int:
        """Forget every failure of a game (it is being deleted)."""
        ids = self.failures_of(game_id)
        for failure_id in ids:
            self.forget(failure_id)
        return len(ids)

    def retry(self, failure_id: str) -> dict | None:
        """Enqueue the failure's job again and forget it; None if unknown."""
        entry = self.get(failure_id)
        if entry is None:
            return None
        job = Queue(entry["queue"], connection=self.redis).enqueue(entry["job"], *entry["args"], **JOB_OPTS)
        self.forget(failure_id)
        return {**entry, "retried_job": job.id}
