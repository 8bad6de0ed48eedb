"""Notification data in Redis, under each game's hash tag:

    pbem:{g:ID}:notify:seats      hash   seat -> JSON channels (email, preference, webhook)
    pbem:{g:ID}:notify:game       hash   settings (deadline), paused, deadline:SEAT records
    pbem:{g:ID}:notify:pause_votes set   seats that asked for a pause (until a resume)
    pbem:{g:ID}:notify:log:SEAT   list   webhook delivery attempts, newest first (capped)
    pbem:{g:ID}:notify:wh:ID      string a webhook delivery's fixed message (for retries)
    pbem:{g:ID}:notify:rl:SEAT    string set for PBEM_MAIL_INTERVAL after a turn mail
    pbem:{g:ID}:notify:digest:SEAT list  lines waiting for the next digest
    pbem:{g:ID}:notify:told:SEAT  string the version the seat's last mail showed it
    pbem:{g:ID}:notify:deferred:SEAT string a gathered turn mail waiting (the version it starts at)
    pbem:{g:ID}:notify:sending:SEAT  string ... taken by its job, not yet sent

A deadline is indexed across games too (pbem/store/indexes.py, its shard's
``deadlines``), in the same transaction as its record; so is a gathered
turn mail, waiting or being sent (its shard's ``notify:deferred``: GAME:SEAT
-> when the sweep looks at it, should its job be lost or killed in it).
"""
from __future__ import annotations

import json
import time

import redis

from ..store.indexes import Indexes
from ..store.keys import DEADLINE, NOTIFY_GAME, dumps, key

PREFERENCES = ("every", "reminder", "digest")
#: A gathered turn mail being sent is kept this long (a job is stopped after 120 s).
SENDING_KEEP_MS = 3600 * 1000

# KEYS: the seat's deferred marker, its being-sent marker, its shard's index (one slot).
_CLAIM_DEFERRED = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
return 1
"""
_TAKE_DEFERRED = """
local since = redis.call('GET', KEYS[1])
if not since then return nil end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], since, 'PX', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
return since
"""
_DONE_DEFERRED = """
redis.call('DEL', KEYS[2])
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('ZREM', KEYS[3], ARGV[1]) end
return 1
"""
DEFAULT_ACTIONS = ("pass", "random", "forfeit")
LOG_KEEP = 500


class NotifyStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self.indexes = Indexes(client)

    # -- channels -----------------------------------------------------------

    def channels(self, game_id: str, seat: int, seat_data: dict | None = None) -> dict:
        """A seat's channels; the first read starts from what was given at join
        (a webhook URL given at join waits for registration: it has no secret)."""
        raw = self.redis.hget(key(game_id, "notify:seats"), str(seat))
        if raw:
            return json.loads(raw)
        seat_data = seat_data or {}
        return {"email": seat_data.get("email"), "preference": "every", "webhook": None,
                "pending_webhook_url": seat_data.get("webhook_url")}

    def save_channels(self, game_id: str, seat: int, channels: dict) -> None:
        self.redis.hset(key(game_id, "notify:seats"), str(seat), dumps(channels))

    # -- game settings, deadlines, pause ------------------------------------

    def game_settings(self, game_id: str) -> dict | None:
        raw = self.redis.hget(key(game_id, NOTIFY_GAME), "settings")
        return json.loads(raw) if raw else None

    def save_game_settings(self, game_id: str, settings: dict) -> None:
        self.redis.hset(key(game_id, NOTIFY_GAME), "settings", dumps(settings))

    def paused(self, game_id: str) -> dict | None:
        raw = self.redis.hget(key(game_id, NOTIFY_GAME), "paused")
        return json.loads(raw) if raw else None

    def set_paused(self, game_id: str, value: dict | None) -> None:
        if value is None:
            self.redis.hdel(key(game_id, NOTIFY_GAME), "paused")
        else:
            self.redis.hset(key(game_id, NOTIFY_GAME), "paused", dumps(value))

    def add_pause_vote(self, game_id: str, seat: int) -> list[int]:
        """A seat asks for a pause; every seat that has asked."""
        k = key(game_id, "notify:pause_votes")
        pipe = self.redis.pipeline(transaction=True)
        pipe.sadd(k, str(seat))
        pipe.smembers(k)
        return sorted(int(x) for x in pipe.execute()[1])

    def remove_pause_vote(self, game_id: str, seat: int) -> bool:
        return bool(self.redis.srem(key(game_id, "notify:pause_votes"), str(seat)))

    def pause_votes(self, game_id: str) -> list[int]:
        return sorted(int(x) for x in self.redis.smembers(key(game_id, "notify:pause_votes")))

    def clear_pause_votes(self, game_id: str) -> None:
        self.redis.delete(key(game_id, "notify:pause_votes"))

    def deadline(self, game_id: str, seat: int) -> dict | None:
        raw = self.redis.hget(key(game_id, NOTIFY_GAME), f"{DEADLINE}{seat}")
        return json.loads(raw) if raw else None

    def deadlines(self, game_id: str) -> dict[int, dict]:
        raw = self.redis.hgetall(key(game_id, NOTIFY_GAME))
        return {int(k.decode().split(":")[1]): json.loads(v) for k, v in raw.items()
                if k.startswith(DEADLINE.encode())}

    def set_deadline(self, game_id: str, seat: int, record: dict | None) -> None:
        pipe = self.redis.pipeline(transaction=True)  # one slot: the game's and its shard's index
        if record is None:
            pipe.hdel(key(game_id, NOTIFY_GAME), f"{DEADLINE}{seat}")
        else:
            pipe.hset(key(game_id, NOTIFY_GAME), f"{DEADLINE}{seat}", dumps(record))
        self.indexes.on_deadline(pipe, game_id, seat, None if record is None else float(record["at"]))
        pipe.execute()

    def once(self, game_id: str, name: str, ttl: int = 7 * 86400) -> bool:
        """True the first time ``name`` is claimed for this game (jobs may run twice)."""
        return bool(self.redis.set(key(game_id, f"notify:once:{name}"), "1", nx=True, ex=ttl))

    # -- mail rate limit and digest -----------------------------------------

    def take_mail_slot(self, game_id: str, seat: int, interval: float) -> float:
        """0 when a turn mail may go now (and the slot is taken), else the
        seconds until it may."""
        k = key(game_id, f"notify:rl:{seat}")
        if self.redis.set(k, "1", nx=True, px=max(1, int(interval * 1000))):
            return 0.0
        left = self.redis.pttl(k)
        return max(left, 1) / 1000.0

    def free_mail_slot(self, game_id: str, seat: int) -> None:
        """The seat acted: its next turn mail may go at once, and whatever
        was gathered for it is moot (the deferred job finds nothing)."""
        self.redis.delete(key(game_id, f"notify:rl:{seat}"), key(game_id, f"notify:deferred:{seat}"))

    def set_told(self, game_id: str, seat: int, version: int) -> None:
        """A mail showed the seat the game at ``version`` (never moves back)."""
        k = key(game_id, f"notify:told:{seat}")
        self.redis.eval("local v = tonumber(redis.call('GET', KEYS[1]) or '-1') "
                        "if tonumber(ARGV[1]) > v then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end",
                        1, k, int(version), 90 * 86400)

    def told(self, game_id: str, seat: int) -> int | None:
        raw = self.redis.get(key(game_id, f"notify:told:{seat}"))
        return int(raw) if raw is not None else None

    def _deferred_index(self, shard: int) -> str:
        return self.indexes.shards.key(shard, "notify:deferred")

    def _deferred(self, game_id: str, seat: int) -> list[str]:
        return [key(game_id, f"notify:deferred:{seat}"), key(game_id, f"notify:sending:{seat}"),
                self._deferred_index(self.indexes.shards.of_game(game_id))]

    def claim_deferred(self, game_id: str, seat: int, ttl: float, since_version: int, look_at: float) -> bool:
        """Mark a turn mail as deferred (one at a time), remembering the first
        version it must describe; the sweep looks at it at ``look_at``."""
        return bool(self.redis.eval(_CLAIM_DEFERRED, 3, *self._deferred(game_id, seat), str(since_version),
                                    max(1, int(ttl * 1000)), look_at, f"{game_id}:{seat}"))

    def take_deferred(self, game_id: str, seat: int, look_at: float) -> int | None:
        """The deferred mail's job takes it (the version it starts at), as
        being sent until ``done_deferred``; the sweep sends it at ``look_at``
        if it is still being sent then."""
        raw = self.redis.eval(_TAKE_DEFERRED, 3, *self._deferred(game_id, seat), look_at, f"{game_id}:{seat}",
                              SENDING_KEEP_MS)
        return int(raw) if raw is not None else None

    def sending_deferred(self, game_id: str, seat: int) -> int | None:
        raw = self.redis.get(key(game_id, f"notify:sending:{seat}"))
        return int(raw) if raw is not None else None

    def deferred_waiting(self, game_id: str, seat: int) -> bool:
        return bool(self.redis.exists(key(game_id, f"notify:deferred:{seat}")))

    def done_deferred(self, game_id: str, seat: int) -> None:
        """Sent (or moot): out of the index, unless another is waiting."""
        self.redis.eval(_DONE_DEFERRED, 3, *self._deferred(game_id, seat), f"{game_id}:{seat}")

    def deferred_due(self, now: float, limit: int = 100) -> list[tuple[str, int]]:
        """(game, seat) of the gathered turn mails the sweep should look at by ``now``."""
        out = []
        for shard in self.indexes.shards:
            for member in self.redis.zrangebyscore(self._deferred_index(shard), "-inf", now, start=0, num=limit):
                game_id, _, seat = (member.decode() if isinstance(member, bytes) else member).rpartition(":")
                out.append((game_id, int(seat)))
        return out

    def release_deferred(self, game_id: str, seat: int) -> int | None:
        raw = self.redis.getdel(key(game_id, f"notify:deferred:{seat}"))
        return int(raw) if raw else None

    def add_digest(self, game_id: str, seat: int, line: str) -> bool:
        """Queue a digest line; True when this is the first line waiting."""
        k = key(game_id, f"notify:digest:{seat}")
        pipe = self.redis.pipeline(transaction=True)
        pipe.rpush(k, line)
        pipe.ltrim(k, -200, -1)
        return pipe.execute()[0] == 1

    def take_digest(self, game_id: str, seat: int) -> list[str]:
        k = key(game_id, f"notify:digest:{seat}")
        pipe = self.redis.pipeline(transaction=True)
        pipe.lrange(k, 0, -1)
        pipe.delete(k)
        return [x.decode() for x in pipe.execute()[0]]

    # -- webhook deliveries -------------------------------------------------

    def save_delivery(self, game_id: str, delivery_id: str, message: dict, ttl: int) -> None:
        self.redis.set(key(game_id, f"notify:wh:{delivery_id}"), dumps(message), ex=ttl)

    def delivery(self, game_id: str, delivery_id: str) -> dict | None:
        raw = self.redis.get(key(game_id, f"notify:wh:{delivery_id}"))
        return json.loads(raw) if raw else None

    def log_attempt(self, game_id: str, seat: int, entry: dict) -> None:
        k = key(game_id, f"notify:log:{seat}")
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(k, dumps({"logged": time.time(), **entry}))
        pipe.ltrim(k, 0, LOG_KEEP - 1)
        pipe.execute()

    def attempts(self, game_id: str, seat: int, limit: int = 100) -> list[dict]:
        return [json.loads(x) for x in self.redis.lrange(key(game_id, f"notify:log:{seat}"), 0, limit - 1)]
