"""Finished games compacted into one archive: a zstd-compressed JSON document
that replaces their seed, seats, log, moves and snapshot keys
(``Store.compact``), and the reads that find it in their place."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import zstandard

from .chat import CHAT, rows as chat_rows
from .codec import decode_meta, stream_rows
from .keys import dumps, key

#: What a compacted game keeps besides its meta hash: everything else the
#: archive holds.
ARCHIVED_PARTS = ("log", "moves", "snap", "seed", "seats", "chat")
ARCHIVE_FORMAT = 1
#: Meta fields a compacted game keeps in its ``:extra`` key instead (long
#: JSON: in the hash they would cost it its compact encoding).
EXTRA_FIELDS = ("options", "result")
#: zstd level of archives, written once per game in the background sweep: 15
#: is within 0.3-3 % of 19's size at a tenth of its time (a 2-player
#: Carcassonne game: 11.9 KB in 35 ms; 19: 11.86 KB in 456 ms; 9: 12.2 KB in
#: 2 ms); read back in well under a millisecond.
ARCHIVE_LEVEL = 15

# Compact a finished game: store its archive and drop what it replaces, in one
# atomic step, only if the game is finished, not compacted yet, and still as it
# was read (its version and its number of move records). Its meta hash is made
# again without its long fields (options, result: in the small ``:extra`` key,
# compressed), so that Redis keeps it in its compact encoding. Run again it
# changes nothing ('done').
# KEYS: meta, archive, extra, log, moves, snap, seed, seats, chat
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
redis.call('DEL', KEYS[1], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9])
redis.call('HSET', KEYS[1], unpack(kept))
return 'ok'
"""


@dataclass(frozen=True)
class Archive:
    """A compacted game: what its seed, seats, log and moves keys held, as
    they held it (JSON text, decoded on each read like the keys' values, so
    no caller shares a mutable value with another)."""

    seed: bytes
    seats: dict[str, str]  # seat -> JSON, as the seats hash held it
    log: list  # [version, event JSON, move id], version 1..N in order
    moves: dict[str, str]  # move id -> record JSON
    #: the chat's messages as [n, seat, to, text, time, version] (pbem/store/chat.py)
    chat: tuple = ()

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


def encode_archive(seed_hex: str, seats: dict[str, str], log: list, moves: dict[str, str],
                   chat: list | None = None) -> bytes:
    document = {"format": ARCHIVE_FORMAT, "seed": seed_hex, "seats": seats, "log": log, "moves": moves}
    if chat:  # only a game whose players talked has it: the others' archives are as they always were
        document["chat"] = chat
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
                   [tuple(row) for row in document["log"]], document["moves"],
                   tuple(tuple(row) for row in document.get("chat", ())))


class ArchivesMixin:
    """``Store``'s archives: the one decoded copy per process, and compaction."""

    #: Archives kept decoded in each process (they never change once written).
    ARCHIVES_KEPT = 32

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
        pipe.xrange(key(game_id, CHAT))
        version, seed, seats, log, moves, chat = pipe.execute()
        if version is None or seed is None:
            return None
        log = stream_rows(log)
        seats = {k.decode(): v.decode() for k, v in seats.items()}
        rows = [[int(rid.split(b"-")[0]), f[b"e"].decode(), f[b"m"].decode()] for rid, f in log]
        moves = {k.decode(): v.decode() for k, v in moves.items()}
        if [row[0] for row in rows] != list(range(1, int(version) + 1)):
            raise RuntimeError(f"game {game_id}: its log does not hold versions 1 to {int(version)}")
        queued = [m for m, raw in moves.items() if json.loads(raw).get("status") == "queued"]
        chat = chat_rows(chat)
        archive = encode_archive(seed.decode(), seats, rows, moves, chat)
        back = decode_archive(archive)
        if (back.seed.hex() != seed.decode() or back.seats != seats or back.moves != moves
                or [list(row) for row in back.log] != rows or [list(row) for row in back.chat] != chat):
            raise RuntimeError(f"game {game_id}: its archive does not read back as it was written")
        return int(version), len(moves), archive, queued
