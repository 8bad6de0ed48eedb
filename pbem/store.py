"""The event store: one Redis stream per game, appended by one Lua script.

Every per-game key shares the hash tag ``{g:ID}`` so a game lives in one
Redis Cluster slot and the append script touches only that slot:

    pbem:{g:ID}:meta    hash    game, rules version, players, options, status, version, ...
    pbem:{g:ID}:seed    string  the secret seed (hex), revealed when the game ends
    pbem:{g:ID}:seats   hash    seat -> JSON (name, public key, token hash, channels)
    pbem:{g:ID}:log     stream  one entry per event; entry id "<version>-1"
    pbem:{g:ID}:moves   hash    move id -> JSON (envelope, status, outcome)
    pbem:{g:ID}:snap    string  JSON {version, state}: load = snapshot + tail
                                (meta's snapshot_version names its version)
    pbem:{g:ID}:done:M  list    pushed once when move M settles: its record and
                                events (for Prefer: wait; see decode_done)
    pbem:{g:ID}:wake:R  list    a marker for request R's waiter when its move
                                was not queued (see queue_if_current)

Indexes across games (by status, a player's games, deadlines) are per shard
(pbem/indexes.py, pbem/shards.py): on a Redis Cluster a game's shard keys
share its slot, so the append that starts or ends a game updates its status
index in the same script.

The version of a game is the number of events in its log; event number n
(1-based) has stream id ``n-1``, so paging by version is an XRANGE.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Iterable

import redis

from .connections import shards_of
from .indexes import Indexes
from .roundtrip import round_trips

GAMES_INDEX = "pbem:games"  # one shard's "games" index on a plain Redis (pbem/indexes.py)

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


# Everything deciding a move needs, in one call: meta, seats, one move's
# record, the seed, and the log after the caller's cached version (or, with
# no cached state, the snapshot and the log after it).
# KEYS: meta, seats, moves, log, snap, seed
# ARGV: move id ('' none), after (a version, '' from the snapshot, '-' no tail),
#       '1' for the seats, '1' for the seed, most log entries
_READ = """
local meta = redis.call('HGETALL', KEYS[1])
local seats, move, seed, snap, tail = false, false, false, false, false
if ARGV[3] == '1' then seats = redis.call('HGETALL', KEYS[2]) end
if ARGV[1] ~= '' then move = redis.call('HGET', KEYS[3], ARGV[1]) end
if ARGV[4] == '1' then seed = redis.call('GET', KEYS[6]) end
local after = ARGV[2]
if after == '' then
  after = '0'
  local at = redis.call('HGET', KEYS[1], 'snapshot_version')
  if at then
    snap = redis.call('GET', KEYS[5])
    if snap then after = at end
  end
end
if after ~= '-' then
  tail = redis.call('XRANGE', KEYS[4], (tonumber(after) + 1) .. '-0', '+', 'COUNT', tonumber(ARGV[5]))
end
return {meta, seats, move, seed, snap, after, tail}
"""

TAIL_LIMIT = 200  # log entries read with the meta; a longer tail is read in pages


def key(game_id: str, part: str) -> str:
    return f"pbem:{{g:{game_id}}}:{part}"


@dataclass(frozen=True)
class Appended:
    """What an append did: ``ok`` (new version), ``stale`` (current version)
    or ``duplicate`` (the move's first outcome, as stored)."""

    kind: str
    version: int | None = None
    prior: dict | None = None


@dataclass(frozen=True)
class Tail:
    """The log after version ``after`` as (version, event, move id) rows, and
    the snapshot it starts from (version, dumped state) when the reader had
    no state of its own."""

    after: int
    rows: list
    snapshot: tuple[int, Any] | None = None


@dataclass(frozen=True)
class Read:
    """One game as ``Store.read`` found it (None where not asked or absent)."""

    meta: dict | None
    seats: dict[int, dict] | None
    move: dict | None
    seed: bytes | None
    tail: Tail | None


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# The decoders are functions, not Store methods, because the event-stream
# process (pbem/stream, on redis.asyncio) reads the same keys and must
# decode them the same way.

_META_JSON = {"players", "options", "created", "version", "result", "started", "finished"}
# Numbers are parsed directly (every read decodes a meta: JSON for these
# is most of the cost), anything else JSON-encoded by json.
_META_NUMBERS = {"players": int, "version": int, "created": float, "started": float, "finished": float}


def decode_meta(raw: dict) -> dict:
    """A game's meta hash as Redis returns it (bytes) -> dict."""
    out = {}
    for k, v in raw.items():
        k = k.decode()
        v = v.decode()
        number = _META_NUMBERS.get(k)
        if number is not None:
            try:
                out[k] = number(v)
                continue
            except ValueError:
                pass
        out[k] = json.loads(v) if k in _META_JSON else v
    out.setdefault("version", 0)
    return out


def decode_seats(raw: dict) -> dict[int, dict]:
    return {int(k): json.loads(v) for k, v in raw.items()}


def decode_log(rows) -> list[tuple[int, dict, str]]:
    """``:log`` entries as XRANGE/XREAD return them -> (version, event, move id)."""
    return [(int(rid.split(b"-")[0]), json.loads(f[b"e"]), f[b"m"].decode()) for rid, f in rows]


def log_id(version: int) -> str:
    """The stream id of event ``version`` (XREAD/XRANGE ``after`` it: entries after this version)."""
    return f"{version}-1"


class Store:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self.trips = round_trips(client)  # the hot round trips, on a connection per thread
        self.shards = shards_of(client)
        self.indexes = Indexes(client, self.shards)
        self._append = client.register_script(_APPEND)
        self._settle = client.register_script(_SETTLE)
        self._read = client.register_script(_READ)

    def _scripts(self, calls: list[tuple]) -> list:
        """Run (script, keys, args) calls in one pipelined round trip by
        EVALSHA. (redis-py's own pipelined scripts ask SCRIPT EXISTS first:
        a second round trip every time.) A call Redis does not know the
        script for (restarted, flushed) did nothing; it is loaded and run
        again."""
        pipe = self.redis.pipeline(transaction=False)
        for script, keys, args in calls:
            # execute_command: a cluster client's pipeline refuses its evalsha() (pipelined
            # scripts would not know their node), not the command (the keys name it)
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
        replies = self.trips.run(pipe, raise_on_error=False)
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, redis.exceptions.NoScriptError)]
        if missing:
            for script in {calls[i][0].sha: calls[i][0] for i in missing}.values():
                self.redis.script_load(script.script)
            for i, reply in zip(missing, self._scripts([calls[i] for i in missing])):
                replies[i] = reply
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return replies

    # -- games ---------------------------------------------------------------

    def new_game_id(self) -> str:
        """A fresh id (on a cluster, born in a shard: see pbem/shards.py)."""
        return self.shards.new_game_id()

    def create_game(self, game_id: str, meta: dict, seed_hex: str) -> None:
        created = meta["created"]
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key(game_id, "meta"), mapping={k: v if isinstance(v, str) else dumps(v) for k, v in meta.items()})
        pipe.set(key(game_id, "seed"), seed_hex)
        self.indexes.on_create(pipe, game_id, created, meta.get("status", "open"))
        pipe.execute()

    def meta(self, game_id: str) -> dict | None:
        raw = self.redis.hgetall(key(game_id, "meta"))
        return decode_meta(raw) if raw else None

    def read(self, game_id: str, move_id: str | None = None, after: int | None = None,
             seats: bool = False, seed: bool = False, tail: bool = True) -> Read:
        """One round trip for what a move needs (see ``_READ``): ``after`` is
        the version of the caller's cached state, None for none."""
        return self.reads([(game_id, move_id, after, seats, seed, tail)])[0]

    def reads(self, asks: list[tuple]) -> list[Read]:
        """``read`` for several (game, move id, after, seats, seed, tail) asks,
        in one round trip."""
        calls = [(self._read, [key(g, "meta"), key(g, "seats"), key(g, "moves"), key(g, "log"), key(g, "snap"),
                               key(g, "seed")],
                  [move_id or "", "-" if not tail else "" if after is None else str(after),
                   "1" if seats else "", "1" if seed else "", TAIL_LIMIT])
                 for g, move_id, after, seats, seed, tail in asks]
        return [self._decode_read(reply) for reply in self._scripts(calls)] if calls else []

    def _decode_read(self, reply) -> Read:
        raw_meta, raw_seats, raw_move, raw_seed, raw_snap, after, rows = reply
        meta = decode_meta(dict(zip(raw_meta[::2], raw_meta[1::2]))) if raw_meta else None
        seats = None if raw_seats is None else {int(k): json.loads(v) for k, v in zip(raw_seats[::2], raw_seats[1::2])}
        tail = None
        if rows is not None and len(rows) < TAIL_LIMIT:  # a longer tail: load reads it in pages
            snapshot = None
            if raw_snap:
                data = json.loads(raw_snap)
                snapshot = data["version"], data["state"]
            start = int(after)
            if snapshot is None or snapshot[0] == start:
                tail = Tail(start, [(int(rid.split(b"-")[0]), json.loads(f[1]), f[3].decode()) for rid, f in rows],
                            snapshot)
        return Read(meta, seats, json.loads(raw_move) if raw_move else None,
                    bytes.fromhex(raw_seed.decode()) if raw_seed else None, tail)

    def metas(self, game_ids: list[str]) -> list[dict | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(key(game_id, "meta"))
        return [decode_meta(raw) if raw else None for raw in pipe.execute()]

    def list_games(self, offset: int = 0, limit: int = 50, status: str | None = None) -> list[str]:
        """Game ids, newest first (only those with ``status``), from the indexes."""
        return self.indexes.games(status, offset, limit)

    def seed(self, game_id: str) -> bytes:
        raw = self.redis.get(key(game_id, "seed"))
        if raw is None:
            raise KeyError(game_id)
        return bytes.fromhex(raw.decode())

    # -- seats ---------------------------------------------------------------

    def claim_seat(self, game_id: str, seat: int, data: dict) -> bool:
        claimed = bool(self.redis.hsetnx(key(game_id, "seats"), str(seat), dumps(data)))
        if claimed and data.get("public_key"):
            # A projection (pbem/indexes.py): should this be lost, a rebuild finds the seat.
            pipe = self.redis.pipeline(transaction=False)
            self.indexes.on_join(pipe, game_id, data["public_key"], data.get("joined") or time.time())
            pipe.execute()
        return claimed

    def seats(self, game_id: str) -> dict[int, dict]:
        return decode_seats(self.redis.hgetall(key(game_id, "seats")))

    # -- the log -------------------------------------------------------------

    def append(self, game_id: str, expected_version: int, move_id: str, events: list[dict],
               record: dict, status: str = "", meta: dict | None = None) -> Appended:
        """Append ``events`` if the log is at ``expected_version`` and ``move_id``
        has not settled yet; store ``record`` as the move's outcome. ``status``
        and ``meta`` fields are set in the same atomic step (a game never
        reads as finished without its result)."""
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
        calls = []
        for step in steps:
            if step[0] == "settle":
                _, game_id, move_id, record = step
                calls.append((self._settle, [key(game_id, "moves"), key(game_id, f"done:{move_id}")],
                              [move_id, dumps(record)]))
            else:
                call = self._append_call(*step[1:])
                calls.append((self._append, call["keys"], call["args"]))
        return [json.loads(reply) if step[0] == "settle" else self._appended(reply)
                for step, reply in zip(steps, self._scripts(calls))]

    def events(self, game_id: str, after: int = 0, until: int | None = None,
               limit: int | None = None) -> list[tuple[int, dict, str]]:
        """Events ``after < version <= until`` as (version, event, move id)."""
        end = f"{until}-1" if until is not None else "+"
        if until is not None and until <= after:
            return []
        return decode_log(self.redis.xrange(key(game_id, "log"), f"{after + 1}-0", end, count=limit))

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
        pipe = self.redis.pipeline(transaction=True)  # the version in meta names the snapshot stored
        pipe.set(key(game_id, "snap"), dumps({"version": version, "state": state}))
        pipe.hset(key(game_id, "meta"), "snapshot_version", version)
        pipe.execute()

    # -- moves ---------------------------------------------------------------

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

    def move(self, game_id: str, move_id: str, durable: bool = False) -> dict | None:
        """A move's record. ``durable``: read as an answer to its player, so
        on a cluster it is on a replica before it is returned (a drainer's
        append is not waited for when it runs; this read waits for it, as the
        submission's own wait does: pbem/cluster/trips.py)."""
        if not durable:
            raw = self.redis.hget(key(game_id, "moves"), move_id)
        else:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(key(game_id, "moves"), move_id)
            raw = self.trips.run(pipe, durable=True)[0]
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
