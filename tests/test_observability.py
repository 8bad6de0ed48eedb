"""What the server shows of itself: `GET /ready` (Redis, the move workers'
heartbeat, the oldest queued move), `GET /metrics` added up over every
process of `make run`, and JSON log lines with request, game and move ids,
read back from the server's output."""
from __future__ import annotations

import json
import re
import threading
import time

import pytest
import requests

from pbem.telemetry import metrics
from pbem.pipeline.queues import STREAM

from .conftest import wait_until
from .run_support import Game, Server


@pytest.fixture
def quiet_store(redis_client):
    """No heartbeats or submissions left by other tests (the Redis is shared)."""
    redis_client.delete(metrics.HEARTBEATS, STREAM)
    yield redis_client
    redis_client.delete(metrics.HEARTBEATS, STREAM)


def test_ready_needs_redis_a_move_worker_and_a_fresh_queue(api_server, http, quiet_store, start_worker, monkeypatch):
    ready = api_server.url + "/ready"
    r = http.get(ready)
    assert r.status_code == 503 and r.json()["checks"]["workers"] == {"ok": False, "reporting": []}
    assert r.json()["checks"]["redis"]["ok"] and r.json()["checks"]["queue"]["ok"]
    assert http.get(api_server.url + "/health").status_code == 200  # liveness is not readiness
    worker = start_worker(scheduler=False, queues=("pbem-moves",))
    wait_until(lambda: http.get(ready).status_code == 200, timeout=30, interval=0.2)
    body = http.get(ready).json()
    assert body["status"] == "ready" and len(body["checks"]["workers"]["reporting"]) == 1
    # A move that waits longer than PBEM_READY_MAX_QUEUE_AGE_S: not ready.
    worker.kill()
    monkeypatch.setenv("PBEM_READY_MAX_QUEUE_AGE_S", "0.5")
    quiet_store.xadd(STREAM, {"g": "nothing", "m": "nothing"})
    time.sleep(0.7)
    r = http.get(ready)
    assert r.status_code == 503 and r.json()["checks"]["queue"]["ok"] is False
    assert r.json()["checks"]["queue"]["length"] == 1 and r.json()["checks"]["queue"]["oldest_age_s"] >= 0.5
    assert r.json()["checks"]["workers"]["ok"]  # its heartbeat is younger than 30 s
    # A heartbeat older than 30 s does not count.
    name = body["checks"]["workers"]["reporting"][0]
    quiet_store.hset(metrics.HEARTBEATS, name, str(time.time() - 31))
    assert http.get(ready).json()["checks"]["workers"] == {"ok": False, "reporting": []}


def test_ready_without_redis_is_503(redis_server, settings, http):
    from pbem.api import create_app
    from pbem.settings.config import Settings

    from .conftest import LiveServer

    import redis as redis_lib

    dead = Settings(redis_url="redis://127.0.0.1:1/0")
    with LiveServer(create_app(dead, redis_lib.Redis(port=1, socket_connect_timeout=0.5))) as live:
        r = http.get(live.url + "/ready")
        assert r.status_code == 503 and r.json()["checks"]["redis"]["ok"] is False
        assert r.json()["status"] == "not_ready"


def scrape(base: str) -> dict[str, float]:
    text = requests.get(base + "/metrics", timeout=10).text
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def test_json_logs_and_metrics_from_every_process(tmp_path):
    server = Server(tmp_path / "var", PBEM_WORKERS="1", WEB_CONCURRENCY="2", PBEM_LOG_FORMAT="json",
                    PBEM_NOTIFY="1", PBEM_MAIL_INTERVAL="0")
    try:
        server.wait_ready()
        assert scrape(server.base)["pbem_moves_submitted_total"] == 0
        game = Game.create(server.base, 7, email=True)  # turn mails to the maildir: deliveries
        # Moves with a request id of the client's, each on a new connection
        # (so both gunicorn processes take some).
        given = []
        for i in range(6):
            rid = f"test-{i}-{game.id}"
            r = requests.post(f"{server.base}/games/{game.id}/moves", json=game.envelopes[game.next],
                              headers={"Prefer": "wait=5", "X-Request-ID": rid}, timeout=10)
            assert r.status_code == 200 and r.json()["status"] == "applied", r.text
            assert r.headers["X-Request-ID"] == rid
            given.append((rid, r.json()["id"]))
            game.next += 1
        # No id, or one that could break a log line: a new one is made.
        r = requests.get(f"{server.base}/games/{game.id}", headers={"X-Request-ID": "bad id\twith tab"}, timeout=5)
        assert re.fullmatch(r"[0-9a-f]{32}", r.headers["X-Request-ID"])
        # Refused at once (a signature that does not match): counted by code.
        forged = dict(game.envelopes[game.next], signature=game.envelopes[game.next + 1]["signature"])
        assert requests.post(f"{server.base}/games/{game.id}/moves", json=forged, timeout=5).status_code == 401
        # Refused after its 202: two moves signed at one version, sent at
        # once, in new games until the worker refuses one (it may take a few:
        # either may be refused at once instead).
        accepted, applied, refused_at_once, refused_later = 6, 6, 0, []
        for seed in range(20, 40):
            race = race_two_moves(server.base, seed)
            for r in race["answers"]:
                body = r.json()
                if r.status_code == 200:
                    accepted += 1
                    if body["status"] == "applied":
                        applied += 1
                    else:
                        assert body["status"] == "rejected" and body["error"]["code"] == "stale_version", body
                        refused_later.append((race["game"], body["id"]))
                else:
                    assert r.status_code == 409 and body["error"]["code"] == "stale_version", r.text
                    refused_at_once += 1
            if refused_later:
                break
        assert refused_later, "no move was refused after its 202 in 20 races"
        races = seed - 19
        # The worker counts a move just after its outcome is stored (and
        # answered); games by status are read at most every 10 s (a scan).
        # (each API process keeps its own 10 s reading of the games, so the
        # figures checked are those of the one scrape that met the condition)
        values = wait_until(lambda: (lambda v: v if (
            v.get('pbem_moves_refused_total{code="stale_version",stage="queue"}') == len(refused_later)
            and v.get("pbem_move_submit_to_applied_seconds_count") == applied
            and v.get('pbem_games{status="active"}') == 1 + races) else None)(scrape(server.base)),
            timeout=25, interval=0.5)
        assert values["pbem_moves_submitted_total"] == accepted  # both API processes, added up
        assert values['pbem_moves_applied_total{game="wakanda"}'] == applied
        assert values["pbem_move_submit_to_applied_seconds_count"] == applied
        assert values['pbem_moves_refused_total{code="stale_version",stage="queue"}'] == len(refused_later)
        assert values.get('pbem_moves_refused_total{code="stale_version",stage="submit"}', 0) == refused_at_once
        assert values['pbem_moves_refused_total{code="bad_signature",stage="submit"}'] == 1
        assert values['pbem_games{status="active"}'] == 1 + races and values['pbem_queue_length{queue="moves"}'] == 0
        assert values['pbem_store_up'] == 1
        assert any(k.startswith("pbem_move_worker_heartbeat_age_seconds{") and v < 30 for k, v in values.items())
        wait_until(lambda: scrape(server.base).get('pbem_deliveries_total{channel="mail",outcome="sent"}', 0) >= 1,
                   timeout=40, interval=0.5)
        lines = [json.loads(line) for line in server.output().splitlines() if line.startswith("{")]
        requests_seen = {(x["request_id"], x["move_id"]) for x in lines if x.get("event") == "request"
                         and x["path"] == f"/games/{game.id}/moves" and x["status"] == 200}
        applied_seen = {(x["request_id"], x["move_id"]) for x in lines if x.get("event") == "move_applied"
                        and x["game_id"] == game.id}
        for pair in given:  # one id from the request to the worker's line
            assert pair in requests_seen and pair in applied_seen, (pair, lines[-20:])
        assert {x["process"] for x in lines if x.get("event") == "move_applied"} == {"worker"}
        assert {x["process"] for x in lines if x.get("event") == "request"} == {"api"}
        refused = [x for x in lines if x.get("event") == "move_refused"]
        assert any(x["code"] == "stale_version" and (x["game_id"], x["move_id"]) == refused_later[0] for x in refused)
        mails = [x for x in lines if x.get("event") == "delivery" and x["channel"] == "mail"]
        assert mails and mails[0]["outcome"] == "sent" and mails[0]["game_id"]
        assert all({"ts", "level", "process", "pid", "msg"} <= set(x) for x in lines)
    finally:
        code, out = server.stop()
    assert code == 0, out[-2000:]


def race_two_moves(base: str, seed: int) -> dict:
    """Two different moves by the seat to act, both signed at one version,
    sent at once: one is applied, the other refused, either at once (409)
    or after its 202 by the worker (``rejected``). Returns the answers."""
    game = Game.create(base, seed)
    answers: dict[int, requests.Response] = {}

    def send(i: int, envelope: dict) -> None:
        answers[i] = requests.post(f"{base}/games/{game.id}/moves", json=envelope,
                                   headers={"Prefer": "wait=5"}, timeout=10)
    threads = [threading.Thread(target=send, args=(i, e)) for i, e in enumerate((game.envelopes[0], game.rival(0)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(15)
    return {"game": game.id, "answers": [answers[0], answers[1]]}
