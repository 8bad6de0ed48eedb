"""The upkeep of issue 16 on a real Redis Cluster (3 masters, 3 replicas):
a finished game compacted by the sweep reads the same over HTTP; an open
game nobody joined expires; a game deleted leaves no key on any master and
no entry in its shard's indexes. Each of them one slot: the game's and its
shard's (no CROSSSLOT, no script touching a key it did not declare)."""
from __future__ import annotations

import random
import time

import pytest

from pbem.trust import signing
from pbem.store.indexes import player_hash
from pbem.store import ARCHIVED_PARTS, FINISHED_INDEX, GAMES_INDEX, OPEN_INDEX, key

from .test_compaction import everything_read, play_out, seat_game

pytestmark = pytest.mark.parametrize("redis_client", ["cluster"], indirect=True)


def keys_of(cluster, game_id: str) -> list[bytes]:
    """Every key of the game, on every master."""
    found = []
    for master in cluster.masters():
        found += master.client().keys(f"pbem:{{g:{game_id}}}:*")
    return found


def entries(redis_client, service, game_id: str) -> dict[str, bool]:
    """Whether the game is in each index of its shard that names it by id."""
    store = service.store
    names = {"games": store.index_key(GAMES_INDEX, game_id), "open": store.index_key(OPEN_INDEX, game_id),
             "finished": store.index_key(FINISHED_INDEX, game_id)}
    for status, k in zip(("open", "active", "finished"), store.indexes.status_keys(game_id)):
        names[f"games:{status}"] = k
    return {name: redis_client.zscore(k, game_id) is not None for name, k in names.items()}


def test_a_finished_game_compacted_by_the_sweep_reads_the_same(redis_cluster, redis_client, service, api_server):
    game_id, keys, tokens = seat_game(service, "wakanda", 2, {"hidden_held_pieces": True})
    play_out(service, game_id, keys, random.Random(5))
    assert service.store.meta(game_id)["status"] == "finished"
    assert entries(redis_client, service, game_id)["finished"]  # named by the append that finished it
    before = everything_read(api_server.url, game_id, tokens)
    assert service.compact_finished(grace_s=0, now=time.time() + 1) == [game_id]
    parts = {k.split(b"}:", 1)[1] for k in keys_of(redis_cluster, game_id)}
    assert b"archive" in parts and not parts & {p.encode() for p in ARCHIVED_PARTS}, parts
    assert not entries(redis_client, service, game_id)["finished"]
    service.cache = type(service.cache)()  # read back from the archive, not from memory
    after = everything_read(api_server.url, game_id, tokens)
    assert after == before


def test_an_open_game_nobody_joined_expires_and_a_joined_one_leaves_the_index(redis_cluster, redis_client, service):
    lonely = service.create_game("wakanda", 2, {})["id"]
    joined = service.create_game("wakanda", 2, {})["id"]
    service.join(joined, 0, signing.generate_key()[1], "p0")
    assert entries(redis_client, service, lonely) == {"games": True, "open": True, "finished": False,
                                                      "games:open": True, "games:active": False,
                                                      "games:finished": False}
    assert service.expire_open_games(ttl_s=0, now=time.time() + 10) == [lonely]
    assert keys_of(redis_cluster, lonely) == []
    assert not any(entries(redis_client, service, lonely).values())
    assert service.store.meta(joined) is not None
    assert entries(redis_client, service, joined) == {"games": True, "open": False, "finished": False,
                                                      "games:open": True, "games:active": False,
                                                      "games:finished": False}
    assert lonely not in {g["id"] for g in service.list_games(status="open")}


def test_a_deleted_game_leaves_no_key_and_no_index_entry(redis_cluster, redis_client, service):
    game_id = service.create_game("wakanda", 2, {})["id"]
    publics = [signing.generate_key()[1] for _ in range(2)]
    for seat, public in enumerate(publics):
        service.join(game_id, seat, public, f"p{seat}")
    shard = service.store.shards.of_game(game_id)
    players = [service.store.shards.key(shard, f"player:{player_hash(p)}") for p in publics]
    assert entries(redis_client, service, game_id)["games:active"]
    assert all(redis_client.zscore(k, game_id) is not None for k in players)
    assert service.delete_game(game_id)["keys"] > 0
    assert keys_of(redis_cluster, game_id) == []
    assert not any(entries(redis_client, service, game_id).values())
    assert all(redis_client.zscore(k, game_id) is None for k in players)
    assert redis_client.get(key(game_id, "meta")) is None
