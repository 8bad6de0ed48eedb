"""Reading a game: what deciding a move needs in one script (meta, seats,
one move, the seed, the snapshot and the log after it), events by version,
snapshots and move records, from the archive once a game is compacted."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from .codec import decode_log, decode_meta
from .keys import dumps, key

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


class ReadsMixin:
    """``Store``'s reads of a game's log, snapshot and moves."""

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

    def last_moves(self, game_ids: list[str]) -> dict[str, float]:
        """When each game's last event was settled (the move that made it,
        or the deal), by game id, for the lobby's dates: the last log
        entry's move record, in two pipelined round trips (a compacted
        game's, from its archive). A game with no event yet has none."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xrevrange(key(game_id, "log"), "+", "-", count=1)
            pipe.hget(key(game_id, "meta"), "version")
        replies = pipe.execute() if game_ids else []
        last: dict[str, str] = {}
        for game_id, tail, version in zip(game_ids, replies[::2], replies[1::2]):
            if tail:
                last[game_id] = tail[0][1][b"m"].decode()
            elif version and int(version) > 0:  # compacted: its log is in the archive
                rows = self.events(game_id, int(version) - 1, int(version), 1)
                if rows:
                    last[game_id] = rows[0][2]
        pipe = self.redis.pipeline(transaction=False)
        for game_id, move_id in last.items():
            pipe.hget(key(game_id, "moves"), move_id)
        out: dict[str, float] = {}
        for (game_id, move_id), raw in zip(last.items(), pipe.execute() if last else []):
            record = json.loads(raw) if raw else self.move(game_id, move_id)
            settled = (record or {}).get("settled")
            if isinstance(settled, (int, float)):
                out[game_id] = float(settled)
        return out

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
