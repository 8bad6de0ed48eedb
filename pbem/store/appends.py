"""Writing the log: events appended by one Lua script if the version is as
expected (idempotently by move id), moves settled without events, moves
queued only if the game is still at the version they were checked at, and
the wait for a move to settle."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

from .keys import FINISHED_INDEX, dumps, key

# Append events if the version is as expected, idempotently by move id.
# KEYS: meta, log, moves, done, and with a status the status indexes (open, active, finished)
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
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'status', ARGV[4])
  local index = ({open = 5, active = 6, finished = 7})[ARGV[4]]
  if index and #KEYS >= 7 then
    local game = redis.call('HMGET', KEYS[1], 'id', 'created')
    if game[1] then
      for i = 5, 7 do redis.call('ZREM', KEYS[i], game[1]) end
      redis.call('ZADD', KEYS[index], game[2] or 0, game[1])
    end
  end
end
if ARGV[5] ~= '' then
  for k, v in pairs(cjson.decode(ARGV[5])) do redis.call('HSET', KEYS[1], k, v) end
end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
-- The waiter gets the events too (see decode_done): the API process that
-- queued the move then holds the new state without reading it.
redis.call('RPUSH', KEYS[4], '{"events":[' .. table.concat(ARGV, ',', 6) .. '],"record":' .. ARGV[3] .. '}')
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
redis.call('RPUSH', KEYS[2], '{"record":' .. ARGV[2] .. '}')
redis.call('EXPIRE', KEYS[2], 300)
return ARGV[2]
"""

# Queue a move that was checked against the state at version ARGV[1], only
# if the game is still at that version and the move id is new: record it and
# add its stream entry. Otherwise nothing is stored and a marker is pushed to
# KEYS[4], so that a BLPOP pipelined after this returns at once.
# (The submissions stream is global: like the rest of the move pipeline this
# assumes one Redis, not a cluster.)
# The entry carries the record as field r (see MoveQueue._entry).
# KEYS: meta, moves, submissions stream, wake   ARGV: version, move id, record, entry field, value, ...
_QUEUE_IF_CURRENT = """
local function refuse(why)
  redis.call('RPUSH', KEYS[4], why)
  redis.call('PEXPIRE', KEYS[4], 10000)
  return why
end
if tonumber(redis.call('HGET', KEYS[1], 'version') or '-1') ~= tonumber(ARGV[1]) then return refuse('stale') end
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3]) == 0 then return refuse('duplicate') end
local entry = {unpack(ARGV, 4)}
entry[#entry + 1] = 'r'
entry[#entry + 1] = ARGV[3]
redis.call('XADD', KEYS[3], '*', unpack(entry))
return 'ok'
"""


@dataclass(frozen=True)
class Appended:
    """What an append did: ``ok`` (new version), ``stale`` (current version)
    or ``duplicate`` (the move's first outcome, as stored)."""

    kind: str
    version: int | None = None
    prior: dict | None = None


class AppendsMixin:
    """``Store``'s writes to the log and the moves."""

    def append(self, game_id: str, expected_version: int, move_id: str, events: list[dict],
               record: dict, status: str = "", meta: dict | None = None) -> Appended:
        """Append ``events`` if the log is at ``expected_version`` and ``move_id``
        has not settled yet; store ``record`` as the move's outcome. ``status``
        and ``meta`` fields are set in the same atomic step (a game never
        reads as finished without its result)."""
        if status == "finished":
            return self.settle_and_append_many([("append", game_id, expected_version, move_id, events, record,
                                                 status, meta)])[0]
        return self._appended(self._append(**self._append_call(game_id, expected_version, move_id, events,
                                                                record, status, meta)))

    def _append_call(self, game_id, expected_version, move_id, events, record, status, meta=None) -> dict:
        fields = dumps({k: v if isinstance(v, str) else dumps(v) for k, v in meta.items()}) if meta else ""
        return {"keys": [key(game_id, "meta"), key(game_id, "log"), key(game_id, "moves"),
                         key(game_id, f"done:{move_id}"), *(self.indexes.status_keys(game_id) if status else ())],
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
        calls, finishing = [], []
        for step in steps:
            if step[0] == "append" and step[6] == "finished":
                finishing.append(step[1])
            if step[0] == "settle":
                _, game_id, move_id, record = step
                calls.append((self._settle, [key(game_id, "moves"), key(game_id, f"done:{move_id}")],
                              [move_id, dumps(record)]))
            else:
                call = self._append_call(*step[1:])
                calls.append((self._append, call["keys"], call["args"]))
        # An append that may finish its game names it in the compaction
        # sweep's index in the same round trip (the sweep checks the status).
        extra = [("zadd", self.index_key(FINISHED_INDEX, game_id), {game_id: time.time()}) for game_id in finishing]
        return [json.loads(reply) if step[0] == "settle" else self._appended(reply)
                for step, reply in zip(steps, self._scripts(calls, extra))]

    def record_submission(self, game_id: str, move_id: str, record: dict, pipe=None) -> bool | None:
        """Store a new move as queued; False if the move id exists already.
        With ``pipe``, only adds the command to that pipeline."""
        if pipe is not None:
            pipe.hsetnx(key(game_id, "moves"), move_id, dumps(record))
            return None
        return bool(self.redis.hsetnx(key(game_id, "moves"), move_id, dumps(record)))

    @staticmethod
    def queue_if_current(pipe, game_id: str, version: int, move_id: str, record: dict, stream: str,
                         fields: dict, wake: str) -> None:
        """Add to ``pipe``: record a new move and add ``fields`` to ``stream``,
        only if the game is at ``version`` (``_QUEUE_IF_CURRENT``; its reply
        is ``ok``, ``stale`` or ``duplicate``). By EVAL, not EVALSHA: a
        script Redis forgot would fail without waking ``wake``'s waiter."""
        pipe.execute_command("EVAL", _QUEUE_IF_CURRENT, 4, key(game_id, "meta"), key(game_id, "moves"), stream, wake,
                             version, move_id, dumps(record), *(x for kv in fields.items() for x in kv))

    @staticmethod
    def decode_done(raw: bytes | str) -> tuple[dict, list | None]:
        """What a settling script pushed to ``done:M``: the move's record and,
        for an applied move, its events (internal: never shown as they are)."""
        data = json.loads(raw)
        return data["record"], data.get("events")

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
        record = queued if queued is not None else self.move(game_id, move_id, durable=True)
        deadline = time.monotonic() + timeout
        while record is not None and record.get("status") == "queued":
            left = deadline - time.monotonic()
            if left <= 0:
                break
            pipe = self.redis.pipeline(transaction=False)
            pipe.blpop([key(game_id, f"done:{move_id}")], timeout=max(0.01, min(left, 1.0)))
            # durable: on a cluster the outcome popped is on a replica before it is answered
            got = self.trips.run(pipe, durable=True)[0]
            record = self.decode_done(got[1])[0] if got else self.move(game_id, move_id, durable=True)
        return record
