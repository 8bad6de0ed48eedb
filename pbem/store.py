"""The event store: one Redis stream per game, appended by one Lua script.

Every per-game key shares the hash tag ``{g:ID}`` so a game lives in one
Redis Cluster slot and the append script touches only that slot:

    pbem:{g:ID}:meta    hash    game, rules version, players, options, status, version, ...
    pbem:{g:ID}:seed    string  the secret seed (hex), revealed when the game ends
    pbem:{g:ID}:seats   hash    seat -> JSON (name, public key, token hash, channels)
    pbem:{g:ID}:log     stream  one entry per event; entry id "<version>-1"
    pbem:{g:ID}:moves   hash    move id -> JSON (envelope, status, outcome)
    pbem:{g:ID}:snap    string  JSON {version, state}: load = snapshot + tail
    pbem:{g:ID}:done:M  list    pushed once when move M settles (for Prefer: wait)

The version of a game is the number of events in its log; event number n
(1-based) has stream id ``n-1``, so paging by version is an XRANGE.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Iterable

import redis

GAMES_INDEX = "pbem:games"

# Append events if the version is as expected, idempotently by move id.
# KEYS: meta, log, moves, done
# ARGV: expected, move_id, record, status, meta fields (JSON object of strings, or ''), event...
_APPEND = """
local prior = redis.call('HGET', KEYS[3], ARGV[2])
if prior then
  local ok, rec = pcall(cjson.decode, prior)
  if ok and rec['status'] ~= 'queued' then return {'duplicate', prior} end
end
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then return {'stale', tostring(version)} end
for i = 6, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[2], version .. '-1', 'e', ARGV[i], 'm', ARGV[2])
end
redis.call('HSET', KEYS[1], 'version', version)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'status', ARGV[4]) end
if ARGV[5] ~= '' then
  for k, v in pairs(cjson.decode(ARGV[5])) do redis.call('HSET', KEYS[1], k, v) end
end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
redis.call('RPUSH', KEYS[4], ARGV[3])
redis.call('EXPIRE', KEYS[4], 300)
return {'ok', tostring(version)}
"""

# Settle a queued move without events (a rejection); first outcome wins.
# KEYS: moves, done   ARGV: move_id, record
_SETTLE = """
local prior = redis.call('HGET', KEYS[1], ARGV[1])
if prior then
  local ok, rec = pcall(cjson.decode, prior)
  if ok and rec['status'] ~= 'queued' then return prior end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], 300)
return ARGV[2]
"""


def key(game_id: str, part: str) -> str:
    return f"pbem:{{g:{game_id}}}:{part}"


@dataclass(frozen=True)
class Appended:
    """What an append did: ``ok`` (new version), ``stale`` (current version)
    or ``duplicate`` (the move's first outcome, as stored)."""

    kind: str
    version: int | None = None
    prior: dict | None = None


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Store:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._append = client.register_script(_APPEND)
        self._settle = client.register_script(_SETTLE)

    # -- games ---------------------------------------------------------------

    def create_game(self, game_id: str, meta: dict, seed_hex: str) -> None:
        created = meta["created"]
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key(game_id, "meta"), mapping={k: v if isinstance(v, str) else dumps(v) for k, v in meta.items()})
        pipe.set(key(game_id, "seed"), seed_hex)
        pipe.zadd(GAMES_INDEX, {game_id: created})
        pipe.execute()

    _META_JSON = {"players", "options", "created", "version", "result", "started", "finished"}

    def meta(self, game_id: str) -> dict | None:
        raw = self.redis.hgetall(key(game_id, "meta"))
        return self._decode_meta(raw) if raw else None

    def _decode_meta(self, raw: dict) -> dict:
        out = {}
        for k, v in raw.items():
            k = k.decode()
            v = v.decode()
            out[k] = json.loads(v) if k in self._META_JSON else v
        out.setdefault("version", 0)
        return out

    def snapshot_of(self, game_id: str, move_id: str | None = None, tail_after: int | None = None):
        """Meta, seats, one move's record and the log after ``tail_after``
        (as (after, rows)) in one round trip: what a submission reads first."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(key(game_id, "meta"))
        pipe.hgetall(key(game_id, "seats"))
        pipe.hget(key(game_id, "moves"), move_id or "")
        if tail_after is not None:
            pipe.xrange(key(game_id, "log"), f"{tail_after + 1}-0", "+", count=200)
        rows = pipe.execute()
        meta = self._decode_meta(rows[0]) if rows[0] else None
        seats = {int(k): json.loads(v) for k, v in rows[1].items()}
        move = json.loads(rows[2]) if move_id is not None and rows[2] else None
        tail = None
        if tail_after is not None and len(rows[3]) < 200:  # a longer tail: load reads it in pages
            tail = (tail_after, [(int(rid.split(b"-")[0]), json.loads(f[b"e"]), f[b"m"].decode())
                                 for rid, f in rows[3]])
        return meta, seats, move, tail

    def metas(self, game_ids: list[str]) -> list[dict | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(key(game_id, "meta"))
        return [self._decode_meta(raw) if raw else None for raw in pipe.execute()]

    def update_meta(self, game_id: str, **fields: Any) -> None:
        self.redis.hset(key(game_id, "meta"), mapping={k: v if isinstance(v, str) else dumps(v) for k, v in fields.items()})

    def list_games(self, offset: int = 0, limit: int = 50) -> list[str]:
        return [g.decode() for g in self.redis.zrevrange(GAMES_INDEX, offset, offset + limit - 1)]

    def seed(self, game_id: str) -> bytes:
        raw = self.redis.get(key(game_id, "seed"))
        if raw is None:
            raise KeyError(game_id)
        return bytes.fromhex(raw.decode())

    # -- seats ---------------------------------------------------------------

    def claim_seat(self, game_id: str, seat: int, data: dict) -> bool:
        return bool(self.redis.hsetnx(key(game_id, "seats"), str(seat), dumps(data)))

    def seats(self, game_id: str) -> dict[int, dict]:
        raw = self.redis.hgetall(key(game_id, "seats"))
        return {int(k): json.loads(v) for k, v in raw.items()}

    # -- the log -------------------------------------------------------------

    def append(self, game_id: str, expected_version: int, move_id: str, events: list[dict],
               record: dict, status: str = "", meta: dict | None = None) -> Appended:
        """Append ``events`` if the log is at ``expected_version`` and ``move_id``
        has not settled yet; store ``record`` as the move's outcome. ``status``
        and ``meta`` fields are set in the same atomic step (a game never
        reads as finished without its result)."""
        return self._appended(self._append(**self._append_call(game_id, expected_version, move_id, events,
                                                                record, status, meta)))

    @staticmethod
    def _append_call(game_id, expected_version, move_id, events, record, status, meta=None) -> dict:
        fields = dumps({k: v if isinstance(v, str) else dumps(v) for k, v in meta.items()}) if meta else ""
        return {"keys": [key(game_id, "meta"), key(game_id, "log"), key(game_id, "moves"),
                         key(game_id, f"done:{move_id}")],
                "args": [expected_version, move_id, dumps(record), status, fields, *(dumps(e) for e in events)]}

    @staticmethod
    def _appended(reply) -> Appended:
        kind, value = reply
        kind = kind.decode()
        if kind == "duplicate":
            return Appended(kind, prior=json.loads(value))
        return Appended(kind, version=int(value))

    def settle_and_append_many(self, steps: list[tuple]) -> list:
        """Several settles (``("settle", game, move, record)``) and appends
        (``("append", game, expected, move, events, record, status, meta)``) in one
        round trip, in order; each step is atomic, the batch is not. Returns a
        settled record or an ``Appended`` per step."""
        pipe = self.redis.pipeline(transaction=False)
        for step in steps:
            if step[0] == "settle":
                _, game_id, move_id, record = step
                self._settle(keys=[key(game_id, "moves"), key(game_id, f"done:{move_id}")],
                             args=[move_id, dumps(record)], client=pipe)
            else:
                self._append(**self._append_call(*step[1:]), client=pipe)
        out = []
        for step, reply in zip(steps, pipe.execute()):
            out.append(json.loads(reply) if step[0] == "settle" else self._appended(reply))
        return out

    def metas_and_moves(self, pairs: list[tuple[str, str]]) -> list[tuple[dict | None, dict | None]]:
        """(meta, move record) for each (game, move) pair, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id, move_id in pairs:
            pipe.hgetall(key(game_id, "meta"))
            pipe.hget(key(game_id, "moves"), move_id)
        rows = pipe.execute()
        return [(self._decode_meta(rows[i]) if rows[i] else None, json.loads(rows[i + 1]) if rows[i + 1] else None)
                for i in range(0, len(rows), 2)]

    def events(self, game_id: str, after: int = 0, until: int | None = None,
               limit: int | None = None) -> list[tuple[int, dict, str]]:
        """Events ``after < version <= until`` as (version, event, move id)."""
        end = f"{until}-1" if until is not None else "+"
        if until is not None and until <= after:
            return []
        rows = self.redis.xrange(key(game_id, "log"), f"{after + 1}-0", end, count=limit)
        return [(int(rid.split(b"-")[0]), json.loads(f[b"e"]), f[b"m"].decode()) for rid, f in rows]

    def version(self, game_id: str) -> int:
        raw = self.redis.hget(key(game_id, "meta"), "version")
        return int(raw) if raw is not None else 0

    # -- snapshots -----------------------------------------------------------

    def snapshot(self, game_id: str) -> tuple[int, Any] | None:
        raw = self.redis.get(key(game_id, "snap"))
        if raw is None:
            return None
        data = json.loads(raw)
        return data["version"], data["state"]

    def save_snapshot(self, game_id: str, version: int, state: Any) -> None:
        self.redis.set(key(game_id, "snap"), dumps({"version": version, "state": state}))

    # -- moves ---------------------------------------------------------------

    def record_submission(self, game_id: str, move_id: str, record: dict, pipe=None) -> bool | None:
        """Store a new move as queued; False if the move id exists already.
        With ``pipe``, only adds the command to that pipeline."""
        if pipe is not None:
            pipe.hsetnx(key(game_id, "moves"), move_id, dumps(record))
            return None
        return bool(self.redis.hsetnx(key(game_id, "moves"), move_id, dumps(record)))

    def move(self, game_id: str, move_id: str) -> dict | None:
        raw = self.redis.hget(key(game_id, "moves"), move_id)
        return json.loads(raw) if raw else None

    def moves(self, game_id: str, move_ids: Iterable[str]) -> dict[str, dict]:
        ids = list(dict.fromkeys(move_ids))
        if not ids:
            return {}
        raw = self.redis.hmget(key(game_id, "moves"), ids)
        return {m: json.loads(r) for m, r in zip(ids, raw) if r}

    def settle(self, game_id: str, move_id: str, record: dict) -> dict:
        """Record an outcome without events; returns the outcome that stands."""
        raw = self._settle(keys=[key(game_id, "moves"), key(game_id, f"done:{move_id}")],
                           args=[move_id, dumps(record)])
        return json.loads(raw)

    def wait_settled(self, game_id: str, move_id: str, timeout: float, queued: dict | None = None) -> dict | None:
        """The move's record once it settles, or as it stands at ``timeout``.
        The settling script pushes the record to ``done:M``, so one waiter
        gets it from BLPOP itself; pass ``queued`` (the record just written)
        to skip the first read."""
        record = queued if queued is not None else self.move(game_id, move_id)
        deadline = time.monotonic() + timeout
        while record is not None and record.get("status") == "queued":
            left = deadline - time.monotonic()
            if left <= 0:
                break
            got = self.redis.blpop([key(game_id, f"done:{move_id}")], timeout=max(0.01, min(left, 1.0)))
            record = json.loads(got[1]) if got else self.move(game_id, move_id)
        return record
