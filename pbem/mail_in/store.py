"""Inbound mail data in Redis.

    pbem:mail:raw:ID                 string  a raw message waiting for its job (TTL)
    pbem:mail:out:ID                 string  an answer the relay refused, waiting to be sent again (TTL)
    pbem:{g:ID}:mail:seen:HASH       string  a Message-ID processed for a recipient token (SET NX, TTL)
    pbem:{g:ID}:mail:invites         hash    seat -> JSON invitation (email, name, public_name, invited,
                                             by, nonce, expires): written by pbem/store/seats.py
    pbem:{g:ID}:mail:log             list    what became of each processed mail, newest first (capped)
    pbem:{g:ID}:mail:rl:SEAT         string  mails taken for a seat's token this hour (TTL)
    pbem:{g:ID}:mail:invites:rl      string  invitations sent for a game this hour (TTL)
    pbem:invites:rl:ADDRESS          string  invitations asked for by a client address this hour (TTL)
"""
from __future__ import annotations

import hashlib
import json
import secrets
import time

import redis

from ..store import INVITATIONS, dumps, key

LOG_KEEP = 200


class MailStore:
    def __init__(self, client: redis.Redis):
        self.redis = client

    # -- how many mails one token may send ------------------------------------

    def take_slot(self, game_id: str, seat: int, per_hour: int) -> bool:
        """Count one inbound mail for a seat's token; False once this hour's
        ``per_hour`` are used (a fixed window: the count starts at the first
        mail and lasts an hour)."""
        k = key(game_id, f"mail:rl:{seat}")
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(k, 0, ex=3600, nx=True)
        pipe.incr(k)
        return pipe.execute()[1] <= per_hour

    def slot_wait(self, game_id: str, seat: int) -> int:
        """Seconds until a seat's token may send mail again (its window's end)."""
        left = self.redis.pttl(key(game_id, f"mail:rl:{seat}"))
        return max(1, -(-left // 1000)) if left > 0 else 1

    # -- how many invitations a game, and a client address, may send ---------

    def take_invitations(self, game_id: str | None, client: str, count: int, per_hour: int) -> int | None:
        """Count ``count`` invitations for a game (None: not created yet) and
        a client address; the seconds until one of them may ask again when
        that would pass ``per_hour`` (then nothing is counted). Fixed windows
        of an hour from the first invitation, as ``take_slot``. (Two keys in
        two hash slots: counted, then given back if over, not in one script.)"""
        keys = [f"pbem:invites:rl:{client}"] + ([key(game_id, "mail:invites:rl")] if game_id else [])
        pipe = self.redis.pipeline(transaction=False)
        for k in keys:
            pipe.set(k, 0, ex=3600, nx=True)
            pipe.incrby(k, count)
            pipe.pttl(k)
        out = pipe.execute()
        counts, ttls = out[1::3], out[2::3]
        over = [ttl for n, ttl in zip(counts, ttls) if n > per_hour]
        if not over:
            return None
        pipe = self.redis.pipeline(transaction=False)
        for k in keys:
            pipe.decrby(k, count)
        pipe.execute()
        return max(1, -(-max(over) // 1000))

    def count_invitations(self, game_id: str, count: int) -> None:
        """Count invitations sent at a game's creation (its client was counted)."""
        k = key(game_id, "mail:invites:rl")
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(k, 0, ex=3600, nx=True)
        pipe.incrby(k, count)
        pipe.execute()

    # -- messages kept for a while: inbound ones waiting for their job, answers
    #    the relay refused waiting to be sent again

    def _keep(self, kind: str, raw: bytes, ttl: int) -> str:
        kept_id = secrets.token_hex(12)
        self.redis.set(f"pbem:mail:{kind}:{kept_id}", raw, ex=ttl)
        return kept_id

    def put_raw(self, raw: bytes, ttl: int) -> str:
        return self._keep("raw", raw, ttl)

    def raw(self, raw_id: str) -> bytes | None:
        return self.redis.get(f"pbem:mail:raw:{raw_id}")

    def drop_raw(self, raw_id: str) -> None:
        self.redis.delete(f"pbem:mail:raw:{raw_id}")

    def put_outgoing(self, raw: bytes, ttl: int) -> str:
        return self._keep("out", raw, ttl)

    def take_outgoing(self, out_id: str) -> bytes | None:
        """The kept answer, removed (whoever takes it sends it)."""
        return self.redis.getdel(f"pbem:mail:out:{out_id}")

    # -- dedupe -------------------------------------------------------------

    @staticmethod
    def _seen_key(game_id: str, token: str, message_id: str) -> str:
        digest = hashlib.sha256(f"{token}\x00{message_id}".encode()).hexdigest()[:32]
        return key(game_id, f"mail:seen:{digest}")

    def first_time(self, game_id: str, token: str, message_id: str, ttl: int) -> bool:
        """True the first time this Message-ID reaches this token's address."""
        return bool(self.redis.set(self._seen_key(game_id, token, message_id), str(time.time()), nx=True, ex=ttl))

    def once(self, game_id: str, name: str, ttl: int) -> bool:
        return bool(self.redis.set(key(game_id, f"mail:once:{name}"), "1", nx=True, ex=ttl))

    # -- invitations ---------------------------------------------------------

    def invitation(self, game_id: str, seat: int) -> dict | None:
        raw = self.redis.hget(key(game_id, INVITATIONS), str(seat))
        return json.loads(raw) if raw else None

    def invitations(self, game_id: str) -> dict[int, dict]:
        return {int(k): json.loads(v) for k, v in self.redis.hgetall(key(game_id, INVITATIONS)).items()}

    # -- what happened -------------------------------------------------------

    def log(self, game_id: str, entry: dict) -> None:
        k = key(game_id, "mail:log")
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(k, dumps({"logged": time.time(), **entry}))
        pipe.ltrim(k, 0, LOG_KEEP - 1)
        pipe.execute()

    def entries(self, game_id: str, limit: int = 50) -> list[dict]:
        return [json.loads(x) for x in self.redis.lrange(key(game_id, "mail:log"), 0, limit - 1)]
