"""The move queue of a sharded store: one ``MoveQueue`` per shard, and a
game's moves always go to the queue of the shard it was born in
(pbem/store/shards.py), so they meet that shard's one drainer and its warm state
cache. Each shard's stream, lease and drainer are its own: with more masters
holding the shards, more drainers run at once on more Redis cores.

``move_queue(client)`` is what the API and the workers build: a plain
``MoveQueue`` on one Redis (exactly as before), a ``ShardedMoveQueue`` on a
cluster. Both answer ``push``, ``push_wait``, ``push_checked`` (by game),
``for_shard`` and ``queues``.
"""
from __future__ import annotations

from typing import Callable

from ..store.connections import shards_of
from .queues import MoveQueue


def move_queue(client, claim_idle_ms: int = 5000, linger_s: float = 0.5, gather_s: float = 0.0):
    shards = shards_of(client)
    if not shards.cluster:
        return MoveQueue(client, claim_idle_ms, linger_s, gather_s)
    return ShardedMoveQueue(client, claim_idle_ms, linger_s, gather_s)


class ShardedMoveQueue:
    def __init__(self, client, claim_idle_ms: int = 5000, linger_s: float = 0.5, gather_s: float = 0.0):
        self.redis = client
        self.shards = shards_of(client)
        self.queues = [MoveQueue(client, claim_idle_ms, linger_s, gather_s, shard=k) for k in self.shards]

    def for_shard(self, shard: int) -> MoveQueue:
        return self.queues[shard]

    def for_game(self, game_id: str) -> MoveQueue:
        return self.queues[self.shards.of_game(game_id)]

    @property
    def stopping(self) -> Callable[[], bool]:
        return self.queues[0].stopping

    @stopping.setter
    def stopping(self, value: Callable[[], bool]) -> None:
        for queue in self.queues:
            queue.stopping = value

    def push(self, game_id: str, move_id: str, first=None, record: dict | None = None):
        return self.for_game(game_id).push(game_id, move_id, first, record)

    def push_wait(self, game_id: str, move_id: str, first, wait_key: str, wait_s: float,
                  record: dict | None = None) -> tuple:
        return self.for_game(game_id).push_wait(game_id, move_id, first, wait_key, wait_s, record)

    def push_checked(self, game_id: str, move_id: str, add, wait_keys: list[str] | None = None,
                     wait_s: float = 0.0) -> tuple:
        return self.for_game(game_id).push_checked(game_id, move_id, add, wait_keys, wait_s)

    def drain(self, apply: Callable[..., object], shard: int = 0, **kw) -> int:
        return self.for_shard(shard).drain(apply, **kw)
