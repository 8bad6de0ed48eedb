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
    pbem:{g:ID}:archive string  a finished game compacted (``compact``): seed,
                                seats, log and moves in one zstd-compressed JSON
                                document, which replaces those keys (meta's
                                ``archived`` says so; see ``Archive``)

Indexes across games, per shard (``Store.index_key``: on a plain Redis the
names below; on a cluster ``pbem:{s:K}:...``, in the slot of the shard's
games, so that a game's index entries change with it atomically):
``pbem:games`` (every game by creation time), ``pbem:open`` (games waiting
for players, by creation time: the expiry sweep's candidates),
``pbem:finished`` (games that may have ended, by when: the compaction sweep's
candidates, added in the round trip of each append that finishes a game and
checked by the sweep), ``pbem:starting`` (games whose last seat was taken, by
when: added by the claim of that seat in its own script, left when the deal is
appended; the sweep deals a game whose joiner died before it could: see
``_CLAIM_SEAT``).

Invitations (``pbem:{g:ID}:mail:invites``, seat -> JSON: address, name,
nonce, expiry) live with the game: the claim of a seat reads its invitation in
the same script, so a seat reserved for an invitation is never taken by
anyone else (``Store.claim``).

Indexes across games (by status, a player's games, deadlines) are per shard
(pbem/store/indexes.py, pbem/store/shards.py): on a Redis Cluster a game's shard keys
share its slot, so the append that starts or ends a game updates its status
index in the same script.

The version of a game is the number of events in its log; event number n
(1-based) has stream id ``n-1``, so paging by version is an XRANGE.
"""
from __future__ import annotations

import hashlib
import heapq
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable

import redis
import zstandard

from .connections import shards_of
from .indexes import Indexes
from .shards import UnknownShard
from .roundtrip import round_trips

# Index names: the keys on a plain Redis; on a cluster each shard has its own
# (``Store.index_key``: pbem:{s:K}:games, ...), in the slot of its games.
GAMES_INDEX = "pbem:games"  # one shard's "games" index (pbem/store/indexes.py)
OPEN_INDEX = "pbem:open"
FINISHED_INDEX = "pbem:finished"
STARTING_INDEX = "pbem:starting"
#: The part of a game's keys that holds its invitations (seat -> JSON).
INVITATIONS = "mail:invites"
#: What a compacted game keeps besides its meta hash: everything else the
#: archive holds.
ARCHIVED_PARTS = ("log", "moves", "snap", "seed", "seats")
ARCHIVE_FORMAT = 1
#: Meta fields a compacted game keeps in its ``:extra`` key instead (long
#: JSON: in the hash they would cost it its compact encoding).
EXTRA_FIELDS = ("options", "result")
#: zstd level of archives, written once per game in the background sweep: 15
#: is within 0.3-3 % of 19's size at a tenth of its time (a 2-player
#: Carcassonne game: 11.9 KB in 35 ms; 19: 11.86 KB in 456 ms; 9: 12.2 KB in
#: 2 ms); read back in well under a millisecond.
ARCHIVE_LEVEL = 15

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

# Compact a finished game: store its archive and drop what it replaces, in one
# atomic step, only if the game is finished, not compacted yet, and still as it
# was read (its version and its number of move records). Its meta hash is made
# again without its long fields (options, result: in the small ``:extra`` key,
# compressed), so that Redis keeps it in its compact encoding. Run again it
# changes nothing ('done').
# KEYS: meta, archive, extra, log, moves, snap, seed, seats
# ARGV: version, moves count, archive, archived at, extra, the fields moved to extra...
_COMPACT = """
if redis.call('HGET', KEYS[1], 'archived') then return 'done' end
if redis.call('HGET', KEYS[1], 'status') ~= 'finished' then return 'not_finished' end
if tonumber(redis.call('HGET', KEYS[1], 'version') or '-1') ~= tonumber(ARGV[1]) then return 'moved' end
if redis.call('HLEN', KEYS[5]) ~= tonumber(ARGV[2]) then return 'moved' end
local moved = {snapshot_version = true}
for i = 6, #ARGV do moved[ARGV[i]] = true end
local kept = {}
local meta = redis.call('HGETALL', KEYS[1])
for i = 1, #meta, 2 do
  if not moved[meta[i]] then kept[#kept + 1] = meta[i]; kept[#kept + 1] = meta[i + 1] end
end
kept[#kept + 1] = 'archived'
kept[#kept + 1] = ARGV[4]
redis.call('SET', KEYS[2], ARGV[3])
redis.call('SET', KEYS[3], ARGV[5])
redis.call('DEL', KEYS[1], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
redis.call('HSET', KEYS[1], unpack(kept))
return 'ok'
"""

# Expire an open game nobody joined: only if it is still open with no seat
# taken (invitations may be pending). KEYS: meta, seats, ARGV[2] index keys
# (each loses the game), the deadlines index, then every other key of the
# game   ARGV: the game id, how many index keys, deadline members ("GAME:SEAT")
# (every key declared, all in the game's slot: a cluster runs it on one node)
_EXPIRE_OPEN = """
if redis.call('HGET', KEYS[1], 'status') ~= 'open' then return 'started' end
if redis.call('HLEN', KEYS[2]) > 0 then return 'joined' end
local n = tonumber(ARGV[2])
for i = 4 + n, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('DEL', KEYS[1])
for i = 3, 2 + n do redis.call('ZREM', KEYS[i], ARGV[1]) end
for i = 3, #ARGV do redis.call('ZREM', KEYS[3 + n], ARGV[i]) end
return 'expired'
"""

# Take a seat, first come, only while the game exists (a game expiring at the
# same moment leaves no orphaned seats hash), is open, and the seat is not
# reserved for a live invitation other than the one presented. The invitation
# is read here, in the claim's own script, so no join can slip between a
# check and the write. The claim that fills the last seat also names the game
# in the starting index, in the same step: should its joiner die before the
# deal is appended, a later read, a retried join or the sweep deals it.
# KEYS: meta, seats, invitations, starting index
# ARGV: seat, data, invitation ('' none presented, else 'n:' .. its nonce), now
# Reply: {'ok', '1' when the seat was the last}, {'taken', the holder's JSON},
# {'invited', the invitation's JSON}, {'withdrawn'}, {'expired'}, {'started'}, {'gone'}
_CLAIM_SEAT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held then return {'taken', held} end
if redis.call('HGET', KEYS[1], 'status') ~= 'open' then return {'started'} end
local raw = redis.call('HGET', KEYS[3], ARGV[1])
local inv = raw and cjson.decode(raw)
local live = inv and not (type(inv['expires']) == 'number' and inv['expires'] <= tonumber(ARGV[4]))
if ARGV[3] ~= '' then
  local nonce = inv and type(inv['nonce']) == 'string' and inv['nonce'] or ''
  if not inv or 'n:' .. nonce ~= ARGV[3] then return {'withdrawn'} end
  if not live then return {'expired'} end
elseif live then
  return {'invited', raw}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('HLEN', KEYS[2]) >= tonumber(redis.call('HGET', KEYS[1], 'players')) then
  redis.call('ZADD', KEYS[4], ARGV[4], redis.call('HGET', KEYS[1], 'id'))
  return {'ok', '1'}
end
return {'ok', '0'}
"""

# Give a held seat a new token hash: only if the seat is still as it was read
# (its JSON, whole), and, for a signed token request, only once per nonce
# (the nonce's key lives as long as a request may be replayed).
# KEYS: seats, nonce key (or the seats key again: no nonce)
# ARGV: seat, the seat's JSON as read, its new JSON, the nonce's time to live ('' no nonce)
_REISSUE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 'moved' end
if ARGV[4] ~= '' and not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[4]) then return 'reused' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 'ok'
"""

# Record an invitation for a seat: not when the seat is taken, nor over a
# live invitation (an expired one is replaced).
# KEYS: meta, seats, invitations   ARGV: seat, invitation, now
_INVITE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'open' then return 'started' end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 'taken' end
local raw = redis.call('HGET', KEYS[3], ARGV[1])
if raw then
  local inv = cjson.decode(raw)
  if not (type(inv['expires']) == 'number' and inv['expires'] <= tonumber(ARGV[3])) then return 'invited' end
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 'ok'
"""

# Withdraw a seat's invitation, unless its invitee has joined.
# KEYS: seats, invitations   ARGV: seat
_WITHDRAW = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'taken' end
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return 'none' end
redis.call('HDEL', KEYS[2], ARGV[1])
return raw
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


@dataclass(frozen=True)
class Claimed:
    """What a claim did (``Store.claim``): ``ok`` (``last``: it filled the
    game's last seat), or why not: ``taken`` (``held``: the holder's seat
    data), ``invited`` (``invitation``: the live invitation reserving it),
    ``withdrawn`` (the invitation presented is no longer the seat's),
    ``expired`` (it is, but it has expired), ``started``, ``gone``."""

    kind: str
    last: bool = False
    held: dict | None = None
    held_raw: str | None = None
    invitation: dict | None = None


def invitation_live(invitation: dict | None, now: float | None = None) -> bool:
    """Whether an invitation still reserves its seat (it has not expired):
    the rule the claim script applies, for readers."""
    if invitation is None:
        return False
    expires = invitation.get("expires")
    return not (isinstance(expires, (int, float)) and expires <= (time.time() if now is None else now))


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


def stream_rows(raw: list) -> list:
    """XRANGE's reply as redis-py parses it, (id, {field: value}), also when
    it came raw ([id, [field, value, ...]]): a cluster client's transaction
    (redis-py 8.1's) applies no stream reply parsing."""
    return [(rid, fields if isinstance(fields, dict) else dict(zip(fields[::2], fields[1::2])))
            for rid, fields in raw]


def decode_log(rows) -> list[tuple[int, dict, str]]:
    """``:log`` entries as XRANGE/XREAD return them -> (version, event, move id)."""
    return [(int(rid.split(b"-")[0]), json.loads(f[b"e"]), f[b"m"].decode()) for rid, f in rows]


def log_id(version: int) -> str:
    """The stream id of event ``version`` (XREAD/XRANGE ``after`` it: entries after this version)."""
    return f"{version}-1"


@dataclass(frozen=True)
class Archive:
    """A compacted game: what its seed, seats, log and moves keys held, as
    they held it (JSON text, decoded on each read like the keys' values, so
    no caller shares a mutable value with another)."""

    seed: bytes
    seats: dict[str, str]  # seat -> JSON, as the seats hash held it
    log: list  # [version, event JSON, move id], version 1..N in order
    moves: dict[str, str]  # move id -> record JSON

    def rows(self, after: int = 0, until: int | None = None, limit: int | None = None) -> list[tuple[int, dict, str]]:
        """Events ``after < version <= until`` as (version, event, move id), like ``Store.events``."""
        end = len(self.log) if until is None else max(0, min(until, len(self.log)))
        chosen = self.log[max(0, after):end]
        if limit is not None:
            chosen = chosen[:limit]
        return [(version, json.loads(event), move_id) for version, event, move_id in chosen]

    def decoded_seats(self) -> dict[int, dict]:
        return {int(k): json.loads(v) for k, v in self.seats.items()}

    def move(self, move_id: str) -> dict | None:
        raw = self.moves.get(move_id)
        return json.loads(raw) if raw else None


def encode_archive(seed_hex: str, seats: dict[str, str], log: list, moves: dict[str, str]) -> bytes:
    document = {"format": ARCHIVE_FORMAT, "seed": seed_hex, "seats": seats, "log": log, "moves": moves}
    return zstandard.ZstdCompressor(level=ARCHIVE_LEVEL).compress(dumps(document).encode())


def encode_extra(fields: dict[str, str]) -> bytes:
    return zstandard.ZstdCompressor(level=ARCHIVE_LEVEL).compress(dumps(fields).encode())


def decode_extra(raw: bytes) -> dict[bytes, bytes]:
    """A compacted game's ``:extra`` key as meta hash fields (as Redis returns them)."""
    fields = json.loads(zstandard.ZstdDecompressor().decompress(raw))
    return {k.encode(): v.encode() for k, v in fields.items()}


def decode_archive(raw: bytes) -> Archive:
    """An ``archive`` key's value (shared with the event-stream process)."""
    document = json.loads(zstandard.ZstdDecompressor().decompress(raw))
    if document.get("format") != ARCHIVE_FORMAT:
        raise ValueError(f"archive format {document.get('format')!r} is not {ARCHIVE_FORMAT}")
    return Archive(bytes.fromhex(document["seed"]), document["seats"],
                   [tuple(row) for row in document["log"]], document["moves"])


class Store:
    #: Archives kept decoded in each process (they never change once written).
    ARCHIVES_KEPT = 32

    def __init__(self, client: redis.Redis):
        self.redis = client
        self.trips = round_trips(client)  # the hot round trips, on a connection per thread
        self.shards = shards_of(client)
        self.indexes = Indexes(client, self.shards)
        self._append = client.register_script(_APPEND)
        self._settle = client.register_script(_SETTLE)
        self._read = client.register_script(_READ)
        self._compact = client.register_script(_COMPACT)
        self._expire_open = client.register_script(_EXPIRE_OPEN)
        self._claim_seat = client.register_script(_CLAIM_SEAT)
        self._reissue = client.register_script(_REISSUE)
        self._invite = client.register_script(_INVITE)
        self._withdraw = client.register_script(_WITHDRAW)
        self._archives: OrderedDict[str, Archive] = OrderedDict()
        self._archives_lock = threading.Lock()

    # -- archives ------------------------------------------------------------

    def archive(self, game_id: str) -> Archive | None:
        """The game's archive, if it was compacted (decoded once per process)."""
        with self._archives_lock:
            found = self._archives.get(game_id)
            if found is not None:
                self._archives.move_to_end(game_id)
                return found
        raw = self.redis.get(key(game_id, "archive"))
        if raw is None:
            return None
        found = decode_archive(raw)
        with self._archives_lock:
            self._archives[game_id] = found
            while len(self._archives) > self.ARCHIVES_KEPT:
                self._archives.popitem(last=False)
        return found

    def _with_archive(self, game_id: str, command) -> tuple[Any, Archive | None]:
        """``command(pipe)``'s reply and, when the game is compacted, its
        archive: one atomic round trip asks both, so a read that meets a
        compaction half way sees either the keys or the archive."""
        if not self.shards.cluster:
            pipe = self.redis.pipeline(transaction=True)
            command(pipe)
            pipe.exists(key(game_id, "archive"))
            reply, archived = pipe.execute()
        else:
            # One packet to the game's master, not a transaction (redis-py's
            # cluster transactions leave replies unparsed): the read comes
            # first, so a compaction (one script) between the two leaves the
            # read whole or the archive there.
            pipe = self.redis.pipeline(transaction=False)
            command(pipe)
            pipe.exists(key(game_id, "archive"))
            reply, archived = self.trips.run(pipe)
        return reply, (self.archive(game_id) if archived else None)

    def compact(self, game_id: str, version: int, moves_count: int, archive: bytes) -> str:
        """Replace a finished game's seed, seats, log, moves and snapshot by
        ``archive`` (``_COMPACT``): 'ok', 'done' (compacted already),
        'not_finished' or 'moved' (not as it was read: nothing changed)."""
        raw = self.redis.hmget(key(game_id, "meta"), EXTRA_FIELDS)
        extra = encode_extra({f: v.decode() for f, v in zip(EXTRA_FIELDS, raw) if v is not None})
        keys = [key(game_id, "meta"), key(game_id, "archive"), key(game_id, "extra"),
                *(key(game_id, p) for p in ARCHIVED_PARTS)]
        return self._compact(keys=keys, args=[version, moves_count, archive, repr(time.time()), extra,
                                              *EXTRA_FIELDS]).decode()

    def _meta_of(self, game_id: str, raw: dict, raw_extra: bytes | None = None) -> dict | None:
        """A meta hash decoded, with a compacted game's fields from ``:extra``
        (given, or read)."""
        if not raw:
            return None
        if b"archived" in raw:
            if raw_extra is None:
                raw_extra = self.redis.get(key(game_id, "extra"))
            raw = {**raw, **decode_extra(raw_extra)} if raw_extra else raw
        return decode_meta(raw)

    def build_archive(self, game_id: str) -> tuple[int, int, bytes, list[str]] | None:
        """Read a game's seed, seats, log and moves in one atomic round trip
        and make its archive: (version, number of move records, archive,
        ids of moves still queued); None when the keys are gone (compacted).
        The archive is decoded again and checked against what was read
        before anyone may drop the keys."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hget(key(game_id, "meta"), "version")
        pipe.get(key(game_id, "seed"))
        pipe.hgetall(key(game_id, "seats"))
        pipe.xrange(key(game_id, "log"))
        pipe.hgetall(key(game_id, "moves"))
        version, seed, seats, log, moves = pipe.execute()
        if version is None or seed is None:
            return None
        log = stream_rows(log)
        seats = {k.decode(): v.decode() for k, v in seats.items()}
        rows = [[int(rid.split(b"-")[0]), f[b"e"].decode(), f[b"m"].decode()] for rid, f in log]
        moves = {k.decode(): v.decode() for k, v in moves.items()}
        if [row[0] for row in rows] != list(range(1, int(version) + 1)):
            raise RuntimeError(f"game {game_id}: its log does not hold versions 1 to {int(version)}")
        queued = [m for m, raw in moves.items() if json.loads(raw).get("status") == "queued"]
        archive = encode_archive(seed.decode(), seats, rows, moves)
        back = decode_archive(archive)
        if (back.seed.hex() != seed.decode() or back.seats != seats or back.moves != moves
                or [list(row) for row in back.log] != rows):
            raise RuntimeError(f"game {game_id}: its archive does not read back as it was written")
        return int(version), len(moves), archive, queued

    def game_keys(self, game_id: str) -> list[bytes]:
        """Every key of a game (its hash tag), found by SCAN."""
        literal = "".join("\\" + c if c in "*?[]\\" else c for c in game_id)
        return list(self.redis.scan_iter(match=key(literal, "*"), count=1000))

    def index_key(self, index: str, game_id: str) -> str:
        """The key of index ``index`` (GAMES_INDEX, OPEN_INDEX, FINISHED_INDEX, STARTING_INDEX)
        that holds ``game_id``: its shard's (the name itself on a plain Redis)."""
        return self.shards.key(self.shards.of_game(game_id), index.removeprefix("pbem:"))

    def _indexes_of(self, game_id: str) -> list[str]:
        """Every index key whose member is the game's id (pbem/store/indexes.py's too)."""
        return [*dict.fromkeys([*(self.index_key(i, game_id) for i in (GAMES_INDEX, OPEN_INDEX, FINISHED_INDEX,
                                                                        STARTING_INDEX)),
                                *self.indexes.status_keys(game_id)])]

    def delete_game(self, game_id: str) -> int:
        """Remove every key of a game and its index entries; how many keys went."""
        try:
            self.shards.of_game(game_id)
        except UnknownShard:  # on a cluster: an id no game of this store can have
            return 0
        keys = self.game_keys(game_id)
        seats = self.seats(game_id)
        players = int(self.redis.hget(key(game_id, "meta"), "players") or len(seats))
        pipe = self.redis.pipeline(transaction=True)  # one slot: the game's and its shard's
        if keys:
            pipe.delete(*keys)
        for index in self._indexes_of(game_id):
            pipe.zrem(index, game_id)
        self.indexes.on_delete(pipe, game_id, [s.get("public_key") for s in seats.values()], players)
        replies = pipe.execute()
        with self._archives_lock:
            self._archives.pop(game_id, None)
        return replies[0] if keys else 0

    def expire_open(self, game_id: str) -> str:
        """Delete an open game nobody joined (``_EXPIRE_OPEN``): 'expired',
        'joined' or 'started' (kept)."""
        keys = [k.decode() for k in self.game_keys(game_id)]
        meta, seats = key(game_id, "meta"), key(game_id, "seats")
        others = [k for k in keys if k not in (meta, seats)]
        indexes = self._indexes_of(game_id)
        players = int(self.redis.hget(meta, "players") or 0)
        deadlines = [f"{game_id}:{seat}" for seat in range(players)]  # set at creation, say
        return self._expire_open(keys=[meta, seats, *indexes, self.indexes.deadlines_key(self.shards.of_game(game_id)),
                                       *others], args=[game_id, len(indexes), *deadlines]).decode()

    def due(self, index: str, before: float, limit: int = 100) -> list[tuple[str, float]]:
        """Games in an index whose time is at most ``before``, oldest first
        (every shard's, merged)."""
        part = index.removeprefix("pbem:")
        pipe = self.redis.pipeline(transaction=False)
        for shard in self.shards:
            pipe.zrangebyscore(self.shards.key(shard, part), "-inf", before, start=0, num=limit, withscores=True)
        runs = [[(score, g.decode()) for g, score in rows] for rows in pipe.execute()]
        return [(g, score) for score, g in list(heapq.merge(*runs))[:limit]]

    def reindex(self, index: str, game_id: str, at: float | None) -> None:
        """Set (or, with None, remove) a game's time in an index."""
        k = self.index_key(index, game_id)
        if at is None:
            self.redis.zrem(k, game_id)
        else:
            self.redis.zadd(k, {game_id: at})

    def _scripts(self, calls: list[tuple], extra: list[tuple] = ()) -> list:
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
        for command, *args in extra:  # plain commands riding along (their replies are dropped)
            getattr(pipe, command)(*args)
        replies = self.trips.run(pipe, raise_on_error=False)[:len(calls)]
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
        """A fresh id (on a cluster, born in a shard: see pbem/store/shards.py)."""
        return self.shards.new_game_id()

    def create_game(self, game_id: str, meta: dict, seed_hex: str) -> None:
        created = meta["created"]
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key(game_id, "meta"), mapping={k: v if isinstance(v, str) else dumps(v) for k, v in meta.items()})
        pipe.set(key(game_id, "seed"), seed_hex)
        self.indexes.on_create(pipe, game_id, created, meta.get("status", "open"))
        pipe.zadd(self.index_key(OPEN_INDEX, game_id), {game_id: created})
        pipe.execute()

    def meta(self, game_id: str) -> dict | None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(key(game_id, "meta"))
        pipe.get(key(game_id, "extra"))
        return self._meta_of(game_id, *pipe.execute())

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
        reads = [self._decode_read(reply) for reply in self._scripts(calls)] if calls else []
        return [self._from_archive(read, ask) if read.meta and "archived" in read.meta else read
                for read, ask in zip(reads, asks)]

    def _from_archive(self, read: Read, ask: tuple) -> Read:
        """A read of a compacted game: the meta (read in the same script as
        the rest, so it says truly that the other keys are gone) and what
        was asked, from the archive."""
        game_id, move_id, after, seats, seed, tail = ask
        archive = self.archive(game_id)
        meta = self.meta(game_id)  # with its long fields, from :extra
        if archive is None or meta is None:  # the game was deleted just now
            return Read(None, None, None, None, None)
        rows = archive.rows(after or 0, None, TAIL_LIMIT) if tail else None
        return Read(meta, archive.decoded_seats() if seats else None,
                    archive.move(move_id) if move_id else None, archive.seed if seed else None,
                    Tail(after or 0, rows) if rows is not None and len(rows) < TAIL_LIMIT else None)

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
            pipe.get(key(game_id, "extra"))
        replies = pipe.execute()
        return [self._meta_of(g, raw, extra) for g, raw, extra in zip(game_ids, replies[::2], replies[1::2])]

    def list_games(self, offset: int = 0, limit: int = 50, status: str | None = None) -> list[str]:
        """Game ids, newest first (only those with ``status``), from the indexes."""
        return self.indexes.games(status, offset, limit)

    def seed(self, game_id: str) -> bytes:
        raw = self.redis.get(key(game_id, "seed"))
        if raw is None:
            archive = self.archive(game_id)
            if archive is None:
                raise KeyError(game_id)
            return archive.seed
        return bytes.fromhex(raw.decode())

    # -- seats ---------------------------------------------------------------

    def claim_seat(self, game_id: str, seat: int, data: dict) -> bool:
        """Take a seat (first come); False if it is taken, reserved for an
        invitation, or the game is gone (``claim`` says which)."""
        return self.claim(game_id, seat, data).kind == "ok"

    def claim(self, game_id: str, seat: int, data: dict, invitation_nonce: str | None = None,
              now: float | None = None) -> Claimed:
        """Take a seat in one script (``_CLAIM_SEAT``): first come, and not
        one reserved for a live invitation unless ``invitation_nonce`` is
        that invitation's (``""`` for an invitation made before nonces)."""
        now = time.time() if now is None else now
        reply = self._claim_seat(keys=[key(game_id, "meta"), key(game_id, "seats"), key(game_id, INVITATIONS),
                                       self.index_key(STARTING_INDEX, game_id)],
                                 args=[str(seat), dumps(data), "" if invitation_nonce is None else
                                       f"n:{invitation_nonce}", repr(now)])
        kind = reply[0].decode()
        if kind == "ok":
            if data.get("public_key"):
                # A projection (pbem/store/indexes.py): should this be lost, a rebuild finds the seat.
                pipe = self.redis.pipeline(transaction=False)
                self.indexes.on_join(pipe, game_id, data["public_key"], data.get("joined") or now)
                pipe.execute()
            return Claimed(kind, last=reply[1] == b"1")
        if kind == "taken":
            return Claimed(kind, held=json.loads(reply[1]), held_raw=reply[1].decode())
        if kind == "invited":
            return Claimed(kind, invitation=json.loads(reply[1]))
        return Claimed(kind)

    def reissue(self, game_id: str, seat: int, held_raw: str, data: dict, nonce: str | None = None,
                nonce_ttl_s: int = 0) -> str:
        """Store a held seat's new data (a new token hash) if the seat is
        still ``held_raw`` and, with ``nonce``, the nonce was not used in the
        last ``nonce_ttl_s`` seconds: 'ok', 'moved' or 'reused'."""
        nonce_key = key(game_id, f"seat-nonce:{seat}:{hashlib.sha256(nonce.encode()).hexdigest()[:32]}") \
            if nonce is not None else key(game_id, "seats")
        return self._reissue(keys=[key(game_id, "seats"), nonce_key],
                             args=[str(seat), held_raw, dumps(data), str(max(1, int(nonce_ttl_s))) if nonce
                                   is not None else ""]).decode()

    # -- invitations ---------------------------------------------------------

    def save_invitation(self, game_id: str, seat: int, invitation: dict, now: float | None = None) -> str:
        """Record a seat's invitation (``_INVITE``): 'ok', 'taken' (the seat
        is held), 'invited' (a live invitation has it) or 'started'."""
        return self._invite(keys=[key(game_id, "meta"), key(game_id, "seats"), key(game_id, INVITATIONS)],
                            args=[str(seat), dumps(invitation), repr(time.time() if now is None else now)]).decode()

    def withdraw_invitation(self, game_id: str, seat: int) -> dict | str:
        """Remove a seat's invitation: the invitation removed, or 'taken'
        (its invitee joined) or 'none'."""
        reply = self._withdraw(keys=[key(game_id, "seats"), key(game_id, INVITATIONS)], args=[str(seat)])
        return reply.decode() if reply in (b"taken", b"none") else json.loads(reply)

    def invitations(self, game_id: str) -> dict[int, dict]:
        """Every invitation of a game, live or expired, by seat."""
        return {int(k): json.loads(v) for k, v in self.redis.hgetall(key(game_id, INVITATIONS)).items()}

    def invitation(self, game_id: str, seat: int) -> dict | None:
        raw = self.redis.hget(key(game_id, INVITATIONS), str(seat))
        return json.loads(raw) if raw else None

    def seat_raw(self, game_id: str, seat: int) -> str | None:
        """One seat's JSON as stored (None: free, or the game is compacted)."""
        raw = self.redis.hget(key(game_id, "seats"), str(seat))
        return raw.decode() if raw is not None else None

    def seats(self, game_id: str) -> dict[int, dict]:
        raw, archive = self._with_archive(game_id, lambda pipe: pipe.hgetall(key(game_id, "seats")))
        if not raw and archive is not None:
            return archive.decoded_seats()
        return decode_seats(raw)

    # -- the log -------------------------------------------------------------

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

    def events(self, game_id: str, after: int = 0, until: int | None = None,
               limit: int | None = None) -> list[tuple[int, dict, str]]:
        """Events ``after < version <= until`` as (version, event, move id)."""
        end = f"{until}-1" if until is not None else "+"
        if until is not None and until <= after:
            return []
        rows, archive = self._with_archive(
            game_id, lambda pipe: pipe.xrange(key(game_id, "log"), f"{after + 1}-0", end, count=limit))
        if not rows and archive is not None:
            return archive.rows(after, until, limit)
        return decode_log(rows)

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
        """A move's record (from the archive of a compacted game). ``durable``:
        read as an answer to its player, so on a cluster it is on a replica
        before it is returned (a drainer's append is not waited for when it
        runs; this read waits for it, as the submission's own wait does:
        pbem/store/cluster_trips.py)."""
        if not durable:
            raw, archive = self._with_archive(game_id, lambda pipe: pipe.hget(key(game_id, "moves"), move_id))
        else:
            # Not a transaction: the HGET comes first, so a compaction between the
            # two finds the record read or the archive there (it is one script).
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(key(game_id, "moves"), move_id)
            pipe.exists(key(game_id, "archive"))
            raw, archived = self.trips.run(pipe, durable=True)
            archive = self.archive(game_id) if archived else None
        if raw is None and archive is not None:
            return archive.move(move_id)
        return json.loads(raw) if raw else None

    def moves(self, game_id: str, move_ids: Iterable[str]) -> dict[str, dict]:
        ids = list(dict.fromkeys(move_ids))
        if not ids:
            return {}
        raw, archive = self._with_archive(game_id, lambda pipe: pipe.hmget(key(game_id, "moves"), ids))
        if archive is not None and not any(raw):
            raw = [archive.moves.get(m) for m in ids]
        return {m: json.loads(r) for m, r in zip(ids, raw) if r}

    def all_moves(self, game_id: str) -> dict[str, dict]:
        """Every move record of a game (the operator's view of its queue)."""
        raw, archive = self._with_archive(game_id, lambda pipe: pipe.hgetall(key(game_id, "moves")))
        if not raw and archive is not None:
            return {m: json.loads(r) for m, r in archive.moves.items()}
        return {m.decode(): json.loads(r) for m, r in raw.items()}

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
