"""Games as wholes: creating one, its meta and seed, finding its keys and
its indexes, deleting it and expiring an open game nobody joined."""
from __future__ import annotations

import heapq

from .keys import FINISHED_INDEX, GAMES_INDEX, LISTED_INDEX, OPEN_INDEX, STARTING_INDEX, dumps, key
from .shards import UnknownShard

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


class GamesMixin:
    """``Store``'s operations on whole games (every shard's indexes of them too)."""

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
        if meta.get("listed"):
            pipe.zadd(self.index_key(LISTED_INDEX, game_id), {game_id: created})
        pipe.execute()

    def meta(self, game_id: str) -> dict | None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(key(game_id, "meta"))
        pipe.get(key(game_id, "extra"))
        return self._meta_of(game_id, *pipe.execute())

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

    def listed_games(self, offset: int = 0, limit: int = 50) -> list[str]:
        """The ids of games opened to anyone, newest first (every shard's, merged)."""
        keys = [self.shards.key(shard, LISTED_INDEX.removeprefix("pbem:")) for shard in self.shards]
        return [m for m, _score in self.indexes._merged(keys, offset, limit)]

    def unlist(self, game_id: str) -> None:
        """Take a game off the listed index (found gone by a listing)."""
        self.redis.zrem(self.index_key(LISTED_INDEX, game_id), game_id)

    def seed(self, game_id: str) -> bytes:
        raw = self.redis.get(key(game_id, "seed"))
        if raw is None:
            archive = self.archive(game_id)
            if archive is None:
                raise KeyError(game_id)
            return archive.seed
        return bytes.fromhex(raw.decode())

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
                                                                        STARTING_INDEX, LISTED_INDEX)),
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
