"""Filling a game's last seat and dealing it are one step as far as anyone
can tell (issue 25, item 3): ``make run`` (real gunicorn, workers, Redis
with ``appendfsync always``) with the fault point ``join_after_claim``, so
the API process dies right after the claim of a game's last seat is stored
and before its deal; then Redis is killed with SIGKILL and restarted (by
the supervisor, from its append-only file). Each such game is dealt
afterwards, once, by whichever comes first: a read of it, its last joiner
sending the (signed) join again, or the sweep; and meanwhile it never
answers a join with ``seat_taken`` to the key that holds the seat."""
from __future__ import annotations

import os
import signal
import time

import pytest
import redis
import requests

from pbem.service.lifecycle import DEAL_GRACE_S
from pbem.trust.signing import generate_key, join_proof
from pbem.store import STARTING_INDEX, key

from .conftest import wait_until
from .run_support import Server

# A whole `make run` and a kill: with the timing tests, away from the suite's own load.
pytestmark = pytest.mark.timing

OPERATOR = "operator-token"


def up(base: str) -> bool:
    try:
        return requests.get(f"{base}/health", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def half_joined(base: str, server: Server) -> tuple[str, dict]:
    """A game whose last join killed the API process between the claim and
    the deal: its id and the last joiner's signed join (to send again)."""
    game_id = requests.post(f"{base}/games", json={"game": "wakanda", "players": 2}, timeout=10).json()["id"]
    first = requests.post(f"{base}/games/{game_id}/seats/0", json={"public_key": generate_key()[1], "name": "Ann"},
                          timeout=10)
    assert first.status_code == 201, first.text
    private, public = generate_key()
    last = {"public_key": public, "name": "Bob", "proof": join_proof(game_id, 1, private)}
    api_workers = server.children().get("api-worker", [])
    with pytest.raises(requests.RequestException):  # the process died: no answer at all
        requests.post(f"{base}/games/{game_id}/seats/1", json=last, timeout=10)
    # gunicorn's master starts another worker in place of the dead one
    wait_until(lambda: up(base) and set(server.children().get("api-worker", [])) - set(api_workers), timeout=30,
               interval=0.1)
    return game_id, last


def test_a_game_whose_last_joiner_died_before_the_deal_is_dealt_later(tmp_path):
    server = Server(tmp_path / "var", PBEM_FAILPOINT="join_after_claim", PBEM_ADMIN_TOKEN=OPERATOR,
                    PBEM_SWEEP_EVERY_S="3600", PBEM_WORKERS="1", WEB_CONCURRENCY="1")
    try:
        server.wait_ready()
        base = server.base
        games = {name: half_joined(base, server) for name in ("read", "rejoin", "sweep")}

        client = redis.Redis(port=server.redis_port, socket_timeout=5)
        for game_id, _ in games.values():  # the fault: every seat taken, nothing dealt
            assert client.hget(key(game_id, "meta"), "status") == b"open"
            assert client.hlen(key(game_id, "seats")) == 2
            assert client.zscore(STARTING_INDEX, game_id) is not None  # named for dealing, with the claim
        claimed = client.zscore(STARTING_INDEX, games["sweep"][0])
        client.close()

        # Redis killed too, and started again from its append-only file.
        redis_pid = server.children()["redis"][0]
        os.kill(redis_pid, signal.SIGKILL)
        wait_until(lambda: server.children().get("redis", [redis_pid]) != [redis_pid], timeout=30, interval=0.1)
        wait_until(lambda: up(base), timeout=30, interval=0.2)

        # 1. a read deals it
        game_id, _ = games["read"]
        game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
        assert game["status"] == "active" and game["version"] > 0 and game["to_act"], game

        # 2. the last joiner's join sent again (its answer was lost) deals it, and answers with a token
        game_id, last = games["rejoin"]
        again = requests.post(f"{base}/games/{game_id}/seats/1", json=last, timeout=10)
        assert again.status_code == 201, again.text
        mine = requests.get(f"{base}/games/{game_id}/seats/1/view",
                            headers={"Authorization": f"Bearer {again.json()['token']}"}, timeout=10).json()
        assert mine["status"] == "active" and mine["viewer"] == 1

        # 3. the sweep deals it (nobody read it since), once its claim is older than the
        # sweep's grace (a joiner alive deals its own game)
        game_id, _ = games["sweep"]
        time.sleep(max(0.0, claimed + DEAL_GRACE_S + 0.2 - time.time()))
        swept = requests.post(f"{base}/admin/sweep", headers={"Authorization": f"Bearer {OPERATOR}"},
                              timeout=30).json()
        assert game_id in swept["dealt"] and games["read"][0] not in swept["dealt"], swept
        assert requests.get(f"{base}/games/{game_id}", timeout=10).json()["status"] == "active"

        # each dealt once: one setup move, the log gapless, nothing left to deal
        for game_id, _ in games.values():
            record = requests.get(f"{base}/games/{game_id}/record", timeout=10).text.splitlines()
            assert sum('"move_id":"setup"' in line.replace(" ", "") for line in record) == 1, record[:3]
            events = requests.get(f"{base}/games/{game_id}/events", timeout=10).json()
            assert [e["version"] for e in events["events"]] == list(range(1, events["version"] + 1))
        client = redis.Redis(port=server.redis_port, socket_timeout=5)
        assert client.zcard(STARTING_INDEX) == 0
        client.close()
        again = requests.post(f"{base}/admin/sweep", headers={"Authorization": f"Bearer {OPERATOR}"}, timeout=30)
        assert again.json()["dealt"] == []
        assert "pbem: redis (pid " in server.output()  # the supervisor saw the kill
    finally:
        code, out = server.stop()
    assert code == 0, out[-3000:]
