"""The cross-game indexes (pbem/store/indexes.py) on one Redis and on a real
cluster, where they are per shard and merged: games by status, a player's
games (over HTTP too) and deadlines list as the games themselves say; then
the indexes are deleted, the listings are empty, ``python -m pbem.store.indexes
rebuild`` makes them again from the games, and the listings are the same."""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time

import pytest

from pbem.trust import signing
from pbem.store.indexes import Indexes
from pbem.notify.deadlines import forfeit
from pbem.notify.store import NotifyStore

from .conftest import ROOT

BOTH = pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)


def world(service, count: int = 30):
    """Games open, active and finished, three keys sitting in several of them,
    and a deadline on a few; what each listing should say, newest first."""
    players = [signing.generate_key() for _ in range(3)]
    made = []  # (id, status, [public keys seated])
    for i in range(count):
        game_id = service.create_game("wakanda", 2, {})["id"]
        time.sleep(0.002)  # distinct creation times: a listing's order is unambiguous
        seated = []
        for seat in range(2 if i % 3 else 1 if i % 2 else 0):
            _, public = players[(i + seat) % 3]
            service.join(game_id, seat, public, f"p{seat}")
            seated.append(public)
        status = "open" if len(seated) < 2 else "active"
        if status == "active" and i % 4 == 0:
            assert forfeit(service, service.load(game_id), 0)  # a finished game, quickly
            status = "finished"
        made.append((game_id, status, seated))
    notify = NotifyStore(service.store.redis)
    due = []
    for n, (game_id, status, _) in enumerate(m for m in made if m[1] == "active"):
        if n < 5:
            at = time.time() + 3600 - n * 60
            notify.set_deadline(game_id, 1, {"at": at, "since_version": 1, "jobs": []})
            due.append((game_id, 1, at))
    return made, players, sorted(due, key=lambda d: d[2])


def listings(service, players) -> dict:
    out = {}
    for status in (None, "open", "active", "finished"):
        out[status] = [g["id"] for g in service.list_games(status, 0, 200)]
        # pages across the shards' boundaries read as slices of the whole
        paged = [g["id"] for offset in range(0, 40, 7) for g in service.list_games(status, offset, 7)]
        assert paged == out[status][:42], status
    for n, (_, public) in enumerate(players):
        out[f"player{n}"] = [g["id"] for g in service.list_games(None, 0, 200, player=public)]
        out[f"player{n} active"] = [g["id"] for g in service.list_games("active", 0, 200, player=public)]
    out["deadlines"] = [(g, s, round(at, 3)) for g, s, at in Indexes(service.store.redis).deadlines()]
    return out


@BOTH
def test_listings_across_shards_then_deleted_and_rebuilt_the_same(service, redis_client, settings):
    made, players, due = world(service)
    newest = list(reversed(made))
    before = listings(service, players)
    assert before[None] == [g for g, _, _ in newest]
    for status in ("open", "active", "finished"):
        assert before[status] == [g for g, st, _ in newest if st == status] and before[status], status
    for n, (_, public) in enumerate(players):
        mine = {g for g, _, keys in made if public in keys}
        assert set(before[f"player{n}"]) == mine and len(before[f"player{n}"]) == len(mine)
        assert set(before[f"player{n} active"]) == {g for g, st, keys in made if public in keys and st == "active"}
    assert before["deadlines"] == [(g, s, round(at, 3)) for g, s, at in due]
    if redis_client.__class__.__name__ == "RedisCluster":
        shards = {service.store.shards.of_game(g) for g, _, _ in made}
        assert len(shards) > 3, "the games should span shards on several masters"

    indexes = Indexes(redis_client)
    assert indexes.delete_all() > 0
    assert service.list_games(None, 0, 200) == [] and indexes.deadlines() == []
    assert service.list_games("active", 0, 200, player=players[0][1]) == []

    env = dict(os.environ, REDIS_URL=settings.redis_url, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "pbem.store.indexes", "rebuild"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["games"] == len(made) and report["added"] > len(made) and report["removed"] == 0
    assert listings(service, players) == before

    # Rebuilt again over a stale entry: the game says otherwise, so it goes.
    game_id = next(g for g, st, _ in made if st == "open")
    redis_client.zadd(indexes.status_key(service.store.shards.of_game(game_id), "finished"), {game_id: 1.0})
    assert indexes.rebuild()["removed"] == 1
    assert listings(service, players) == before


@BOTH
def test_a_players_games_over_http(api_server, http, redis_client):
    _, public = signing.generate_key()
    mine = []
    for n in range(4):
        game_id = http.post(f"{api_server.url}/games", json={"game": "wakanda", "players": 2}).json()["id"]
        if n % 2 == 0:
            assert http.post(f"{api_server.url}/games/{game_id}/seats/1",
                             json={"public_key": public, "name": "me"}).status_code == 201
            mine.append(game_id)
        time.sleep(0.002)
    got = http.get(f"{api_server.url}/games", params={"player": public}).json()["games"]
    assert [g["id"] for g in got] == list(reversed(mine))
    assert http.get(f"{api_server.url}/games", params={"player": public, "status": "active"}).json()["games"] == []


def test_a_first_build_on_an_empty_store_is_routine_and_one_that_finds_games_is_a_warning(service, redis_client,
                                                                                          caplog):
    """``make run``'s clean start logs no warning: the first worker builds
    the indexes of a new, empty store (INFO); a store whose games are not
    in them (from before the indexes) is worth a WARNING."""
    caplog.set_level(logging.INFO, logger="pbem.store.indexes")
    indexes = Indexes(redis_client)
    assert indexes.ensure() == {"games": 0, "indexes": 0, "added": 0, "removed": 0}
    assert [r.levelname for r in caplog.records if r.getMessage().startswith("indexes built")] == ["INFO"]
    assert indexes.ensure() is None  # built: once only
    caplog.clear()
    service.create_game("wakanda", 2, {})
    indexes.delete_all()  # a store from before the indexes
    assert indexes.ensure()["added"] > 0
    assert [r.levelname for r in caplog.records if r.getMessage().startswith("indexes built")] == ["WARNING"]


@BOTH
def test_a_game_seated_before_the_address_index_is_found_by_its_address(service, redis_client):
    """The address index (``pbem:address:H``: "my games" of an address, the
    ``games`` mail) came after the others: a store whose indexes were built
    before it (an older ``LAYOUT``) gets it at the next start, from the
    addresses the seats were taken with; built again, nothing changes."""
    from pbem.service import mine
    from pbem.store.addresses import address_key
    from pbem.store.indexes import BUILT, LAYOUT

    game_id = service.create_game("wakanda", 2, {})["id"]
    service.join(game_id, 0, None, "Ann", email="Ann@Example.test")
    _, public = signing.generate_key()
    service.join(game_id, 1, public, "Bob", email="bob@example.test")
    joined = {s: d["joined"] for s, d in service.store.seats(game_id).items()}
    # a store from before the address index: seats without entries, indexes built by the older layout
    redis_client.delete(address_key("ann@example.test"), address_key("bob@example.test"))
    redis_client.set(BUILT, repr(time.time()))
    assert mine.seats_of_address(service, "ann@example.test") == {}
    indexes = Indexes(redis_client)
    assert indexes.built_layout() == 1
    assert indexes.ensure()["added"] == 2
    assert indexes.built_layout() == LAYOUT
    assert mine.seats_of_address(service, "ann@example.test") == {game_id: {0}}
    assert mine.seats_of_address(service, "BOB@example.test") == {game_id: {1}}
    assert redis_client.zscore(address_key("ann@example.test"), game_id) == joined[0]
    assert indexes.ensure() is None  # built with this layout: not again
    kept = {a: redis_client.zrange(address_key(a), 0, -1, withscores=True)
            for a in ("ann@example.test", "bob@example.test")}
    assert indexes.rebuild()["added"] == 0
    assert {a: redis_client.zrange(address_key(a), 0, -1, withscores=True) for a in kept} == kept
