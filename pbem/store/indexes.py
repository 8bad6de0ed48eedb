"""Cross-game indexes: projections of the games' own keys, per shard.

Every index lives in each shard (pbem/store/shards.py), in the shard's slot, so
that the script or transaction that changes a game also updates its index
atomically on a Redis Cluster; a listing reads every shard's index and
merges them. With one plain Redis there is one shard and the keys are
``pbem:games``, ``pbem:games:open``...:

    games                  zset  every game, by creation time
    games:STATUS           zset  games open, active or finished, by creation time
                                 (set with the status: create, and the append
                                 that starts or ends a game, in its script)
    player:H               zset  the games where a public key holds a seat,
                                 by when it joined (H: sha256 of the key, 32 hex)
    deadlines              zset  "GAME:SEAT" by when the seat's deadline falls
    listed                 zset  the games opened to anyone, by creation time (written with the
                                 game, pbem/store/games.py; the rebuild adds what is missing)

and, outside the shards, ``pbem:address:H`` (pbem/store/addresses.py: the
games where a seat was taken with a mail address, by when), which the
rebuild only adds to: a seat keeps its game listed under the address it
was taken with.

Nothing here is the truth: a game's meta, seats and notification settings
are, and ``rebuild`` makes every index again from them (``python -m
pbem.store.indexes rebuild``), safely while the server runs: it adds what is
missing and removes only what the game itself no longer says. A store from
before these indexes gets them from the first worker that starts (``ensure``),
and so does a store built before an index was added (``LAYOUT``).
"""
from __future__ import annotations

import hashlib
import heapq
import json
import logging
import sys
import time

from .addresses import address_key
from .codec import decode_seats
from .connections import shards_of
from .keys import DEADLINE, NOTIFY_GAME, key
from .shards import Shards, UnknownShard

log = logging.getLogger(__name__)

STATUSES = ("open", "active", "finished")
#: Set once the indexes of this store have been built (by ``ensure``): "LAYOUT TIME".
BUILT = "pbem:indexes:built"
#: The indexes there are, numbered: a store built with an older layout is
#: built again at start (1: before the address index; 2: with it).
LAYOUT = 2
BUILD_LOCK = "pbem:indexes:building"


def player_hash(public_key: str) -> str:
    return hashlib.sha256(public_key.encode()).hexdigest()[:32]


class Indexes:
    def __init__(self, client, shards: Shards | None = None):
        self.redis = client
        self.shards = shards or shards_of(client)

    # -- keys ----------------------------------------------------------------

    def all_key(self, shard: int) -> str:
        return self.shards.key(shard, "games")

    def status_key(self, shard: int, status: str) -> str:
        return self.shards.key(shard, f"games:{status}")

    def status_keys(self, game_id: str) -> list[str]:
        """The game's shard's status indexes, in STATUSES order (the append
        script's extra keys, see pbem/store/appends.py)."""
        shard = self.shards.of_game(game_id)
        return [self.status_key(shard, s) for s in STATUSES]

    def player_key(self, shard: int, public_key: str) -> str:
        return self.shards.key(shard, f"player:{player_hash(public_key)}")

    def deadlines_key(self, shard: int) -> str:
        return self.shards.key(shard, "deadlines")

    # -- writes (added to the caller's pipeline or transaction) --------------

    def on_create(self, pipe, game_id: str, created: float, status: str = "open") -> None:
        shard = self.shards.of_game(game_id)
        pipe.zadd(self.all_key(shard), {game_id: created})
        pipe.zadd(self.status_key(shard, status), {game_id: created})

    def on_join(self, pipe, game_id: str, public_key: str | None, joined: float) -> None:
        if public_key:
            pipe.zadd(self.player_key(self.shards.of_game(game_id), public_key), {game_id: joined})

    def on_deadline(self, pipe, game_id: str, seat: int, at: float | None) -> None:
        k = self.deadlines_key(self.shards.of_game(game_id))
        if at is None:
            pipe.zrem(k, f"{game_id}:{seat}")
        else:
            pipe.zadd(k, {f"{game_id}:{seat}": at})

    def on_delete(self, pipe, game_id: str, public_keys: list, players: int) -> None:
        """A game deleted: its players' and deadlines' entries (its id's in
        ``games`` and ``games:STATUS`` go with the store's other indexes)."""
        shard = self.shards.of_game(game_id)
        for public_key in public_keys:
            if public_key:
                pipe.zrem(self.player_key(shard, public_key), game_id)
        if players:
            pipe.zrem(self.deadlines_key(shard), *(f"{game_id}:{seat}" for seat in range(players)))

    # -- reads ---------------------------------------------------------------

    def _merged(self, keys: list[str], offset: int, limit: int, newest_first: bool = True) -> list[tuple[str, float]]:
        """The members of several zsets (one per shard) ranked together by
        score: each is read up to offset + limit, in one round trip (a
        cluster client's pipeline goes to each node in parallel)."""
        if limit <= 0:
            return []
        if len(keys) == 1:
            read = self.redis.zrevrange if newest_first else self.redis.zrange
            return [(m.decode(), s) for m, s in read(keys[0], offset, offset + limit - 1, withscores=True)]
        pipe = self.redis.pipeline(transaction=False)
        for k in keys:
            (pipe.zrevrange if newest_first else pipe.zrange)(k, 0, offset + limit - 1, withscores=True)
        sign = -1 if newest_first else 1
        runs = [[(sign * s, m.decode()) for m, s in rows] for rows in pipe.execute()]
        return [(m, sign * s) for s, m in list(heapq.merge(*runs))[offset:offset + limit]]

    def games(self, status: str | None = None, offset: int = 0, limit: int = 50) -> list[str]:
        """Game ids, newest first: all, or those with ``status``."""
        keys = [self.all_key(s) if status is None else self.status_key(s, status) for s in self.shards]
        return [m for m, _ in self._merged(keys, offset, limit)]

    def of_player(self, public_key: str, offset: int = 0, limit: int = 50) -> list[str]:
        """The games where ``public_key`` holds a seat, last joined first."""
        return [m for m, _ in self._merged([self.player_key(s, public_key) for s in self.shards], offset, limit)]

    def deadlines(self, before: float | None = None, limit: int = 100) -> list[tuple[str, int, float]]:
        """(game, seat, at) of the deadlines that fall soonest (up to
        ``before``), soonest first."""
        rows = self._merged([self.deadlines_key(s) for s in self.shards], 0, limit, newest_first=False)
        out = []
        for member, at in rows:
            if before is not None and at > before:
                break
            game_id, _, seat = member.rpartition(":")
            out.append((game_id, int(seat), at))
        return out

    # -- rebuilding ----------------------------------------------------------

    def index_keys(self) -> list[str]:
        """Every index key there is now (the player indexes found by SCAN)."""
        keys = []
        for s in self.shards:
            keys += [self.all_key(s), self.deadlines_key(s), *(self.status_key(s, st) for st in STATUSES)]
            keys += [k.decode() for k in self.redis.scan_iter(match=self.shards.key(s, "player:*"), count=1000)]
        return keys

    def game_ids(self) -> list[str]:
        """Every game in the store, from its meta key (SCAN on every master)."""
        ids = []
        for k in self.redis.scan_iter(match="pbem:{g:*}:meta", count=1000):
            k = k.decode()
            ids.append(k[len("pbem:{g:"):k.index("}:meta")])
        return ids

    def rebuild(self, batch: int = 200) -> dict:
        """Make every index again from the games' meta, seats and deadline
        records. Safe while the server runs: entries are added for what each
        game says now, and an entry is removed only if, read again, its game
        does not say it (gone, or another status, seat or deadline)."""
        wanted: dict[str, dict[str, float]] = {}
        games = 0
        ids = self.game_ids()
        for start in range(0, len(ids), batch):
            chunk = ids[start:start + batch]
            pipe = self.redis.pipeline(transaction=False)
            for g in chunk:
                pipe.hmget(key(g, "meta"), "created", "status", "listed")
                pipe.hgetall(key(g, "seats"))
                pipe.hgetall(key(g, NOTIFY_GAME))
            replies = pipe.execute()
            for i, game_id in enumerate(chunk):
                (created, status, listed), seats, settings = replies[3 * i:3 * i + 3]
                try:
                    shard = self.shards.of_game(game_id)
                except UnknownShard:
                    log.warning("game %s is in no shard of this layout: not indexed", game_id)
                    continue
                if created is None:
                    continue  # deleted meanwhile
                games += 1
                created = float(created)
                wanted.setdefault(self.all_key(shard), {})[game_id] = created
                if status and status.decode() in STATUSES:
                    wanted.setdefault(self.status_key(shard, status.decode()), {})[game_id] = created
                if listed == b"1":  # opened to anyone (pbem/service/open_games.py; a listing drops the gone)
                    wanted.setdefault(self.shards.key(shard, "listed"), {})[game_id] = created
                for raw in seats.values():
                    seat = json.loads(raw)
                    if seat.get("public_key"):
                        wanted.setdefault(self.player_key(shard, seat["public_key"]), {})[game_id] = \
                            seat.get("joined") or created
                    if seat.get("email"):  # the address it was taken with (Service.join writes the same)
                        wanted.setdefault(address_key(seat["email"]), {})[game_id] = seat.get("joined") or created
                for field, raw in settings.items():
                    if field.startswith(DEADLINE.encode()):
                        record = json.loads(raw)
                        member = f"{game_id}:{field.decode().split(':', 1)[1]}"
                        wanted.setdefault(self.deadlines_key(shard), {})[member] = float(record["at"])
        added = 0
        for k, members in wanted.items():
            pipe = self.redis.pipeline(transaction=False)
            items = list(members.items())
            for start in range(0, len(items), 500):
                pipe.zadd(k, dict(items[start:start + 500]))
            added += sum(pipe.execute())
        removed = 0
        for k in self.index_keys():
            stale = [m.decode() for m in self.redis.zrange(k, 0, -1) if m.decode() not in wanted.get(k, {})]
            for member in stale:
                if not self._still_true(k, member):
                    removed += self.redis.zrem(k, member)
        self.redis.set(BUILT, f"{LAYOUT} {time.time()!r}")
        return {"games": games, "indexes": len(wanted), "added": added, "removed": removed}

    def _still_true(self, index: str, member: str) -> bool:
        """Whether a game says, now, what an index entry the rebuild did not
        find says (it changed since it was read: keep it)."""
        game_id = member.rpartition(":")[0] if index.endswith(":deadlines") else member
        if self.redis.hget(key(game_id, "meta"), "created") is None:
            return False
        shard = self.shards.of_game(game_id)
        for status in STATUSES:
            if index == self.status_key(shard, status):
                return (self.redis.hget(key(game_id, "meta"), "status") or b"").decode() == status
        if index == self.deadlines_key(shard):
            seat = int(member.rpartition(":")[2])
            return bool(self.redis.hget(key(game_id, NOTIFY_GAME), f"{DEADLINE}{seat}"))  # a deadline record
        if index == self.all_key(shard):
            return True
        seats = decode_seats(self.redis.hgetall(key(game_id, "seats")))
        return any(index == self.player_key(shard, s["public_key"]) for s in seats.values() if s.get("public_key"))

    def delete_all(self) -> int:
        """Drop every index (the rebuild's test does, before rebuilding)."""
        keys = self.index_keys()
        for k in keys:
            self.redis.delete(k)
        self.redis.delete(BUILT)
        return len(keys)

    def built_layout(self) -> int:
        """The ``LAYOUT`` this store's indexes were built with (0: never; an
        older build wrote its time alone: 1)."""
        raw = self.redis.get(BUILT)
        if raw is None:
            return 0
        first = raw.decode().split(" ")[0] if " " in raw.decode() else ""
        return int(first) if first.isdigit() else 1

    def ensure(self) -> dict | None:
        """Build the indexes once for a store that has none yet (a store from
        before them), or that was built before the latest index was added
        (``LAYOUT``): the first worker to start does, under a lock."""
        if self.built_layout() >= LAYOUT:
            return None
        if not self.redis.set(BUILD_LOCK, "1", nx=True, ex=600):
            return None
        try:
            done = self.rebuild()
            # A new (empty) store's first build is routine; one that found
            # games missing from the indexes, or entries to drop, is news.
            level = logging.WARNING if done["added"] or done["removed"] else logging.INFO
            log.log(level, "indexes built: %s", done)
            return done
        finally:
            self.redis.delete(BUILD_LOCK)


def main(argv: list[str] | None = None) -> int:
    """``python -m pbem.store.indexes rebuild``: make every index again from the
    games, against ``REDIS_URL``; prints what it did as JSON."""
    from ..settings.config import settings
    from .connections import connect

    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["rebuild"]:
        print("usage: python -m pbem.store.indexes rebuild", file=sys.stderr)
        return 2
    url = settings().redis_url
    if not url:
        print("REDIS_URL is not set", file=sys.stderr)
        return 2
    print(json.dumps(Indexes(connect(url)).rebuild()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
