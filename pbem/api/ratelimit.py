"""Request rate limits: how often a client address, and a bearer token, may
call the operations that cost the server something it keeps (creating games,
joining, inviting, parsing, inbound mail over HTTP).

Built on ``limits`` (the engine of flask-limiter) with its Redis storage on
the server's own Redis connection pool: fixed windows, one atomic
``INCRBY``+``EXPIRE`` script per limit and caller. flask-limiter itself is not
used: its ``before_request`` middleware costs 45-75 us (and its
``after_request`` 12 us) on *every* request, limited or not, about 5 % of what
the API spends on a move; here only the operations that declare a limit pay
anything (``pbem.api.limits``).

Each operation's rates come from a setting (``PBEM_LIMIT_<NAME>``, e.g.
``"20/minute;200/hour"``, the syntax of ``limits.parse_many``); ``none``
setting, or ``PBEM_RATE_LIMITS=0``, turns that limit (or all) off. The
counters live under ``pbem:limits:`` and expire with their window (on the
queues' Redis, ``PBEM_QUEUE_REDIS_URL``, when the store is a cluster).
"""
from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

import redis
from limits import RateLimitItem, parse_many
from limits.storage import RedisStorage
from limits.strategies import FixedWindowRateLimiter

from ..settings.config import limit_rates_from_env
from ..store.connections import rq_connection

KEY_PREFIX = "pbem:limits"


def token_key(token: str) -> str:
    """What a token is counted under: never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Refusal:
    """A limit that was hit: which, for whom, and when it lets the caller again."""

    operation: str
    scope: str  # "address" or "token"
    limit: str  # e.g. "20 per 1 minute"
    retry_after: int


class RateLimits:
    def __init__(self, client: redis.Redis, enabled: bool = True, rates: dict | None = None):
        self.enabled = enabled
        # The server's own pool: no second set of connections to Redis. (With
        # the store on a cluster, the queues' plain Redis: counters that
        # expire within the hour need no cluster, and limits' own cluster
        # storage needs an extra pbem does not install.)
        plain = rq_connection(client)
        self.storage = RedisStorage("redis://", connection_pool=plain.connection_pool, key_prefix=KEY_PREFIX)
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.items: dict[str, list[RateLimitItem]] = {
            name: parse_many(r) for name, r in (limit_rates_from_env() if rates is None else rates).items() if r and r.strip()}

    def limits_of(self, operation: str) -> list[RateLimitItem]:
        return self.items.get(operation, []) if self.enabled else []

    def hit(self, operation: str, callers: list[tuple[str, str]]) -> Refusal | None:
        """Count one request of ``operation`` for each (scope, identifier)
        caller against each of the operation's limits; the first limit it
        passes, if any (a refused request still counts: a flood stays refused
        until its window ends)."""
        for item in self.limits_of(operation):
            for scope, ident in callers:
                if not self.limiter.hit(item, operation, scope, ident):
                    reset, _ = self.limiter.get_window_stats(item, operation, scope, ident)
                    return Refusal(operation, scope, str(item), max(1, math.ceil(reset - time.time())))
        return None
