"""Who may stop a game's deadline clock: the creator (or the operator) at
once; the seats only all together, so no seat stops its opponent's clock
alone. Any seat, or the creator, may restart it."""
from __future__ import annotations

import time

from pbem.trust import signing

from .conftest import api_server, wait_until  # noqa: F401
from .test_notify_support import notify_env, smtp, to_act  # noqa: F401

DEADLINE = {"turn_seconds": 2, "reminder_seconds": 0, "default_action": "forfeit"}


def start(http, base, deadline=DEADLINE) -> tuple[str, str, list[str]]:
    """A Wakanda game with a (2 s forfeit) deadline, created and joined over
    HTTP; once its deadline runs (a worker schedules it)."""
    r = http.post(f"{base}/games", json={"game": "wakanda", "players": 2, "deadline": deadline})
    assert r.status_code == 201, r.text
    game_id, creator = r.json()["id"], r.json()["creator_token"]
    tokens = []
    for seat in range(2):
        r = http.post(f"{base}/games/{game_id}/seats/{seat}", json={
            "public_key": signing.generate_key()[1], "name": f"P{seat}", "email": f"p{seat}@example.test"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    wait_until(lambda: http.get(f"{base}/games/{game_id}/deadline").json()["deadlines"], timeout=10)
    return game_id, creator, tokens


def post(http, base, game_id, what, token=None):
    return http.post(f"{base}/games/{game_id}/{what}",
                     headers={"Authorization": f"Bearer {token}"} if token else {})


def test_a_lone_seat_cannot_stop_its_opponents_clock(notify_env, api_server, service, http, smtp, start_worker):
    start_worker()
    base = api_server.url
    game_id, _, tokens = start(http, base)
    s = to_act(service, game_id)[0]
    o = 1 - s
    r = post(http, base, game_id, "pause", tokens[o])
    assert r.status_code == 200, r.text
    assert r.json()["paused"] is None and r.json()["pause_requests"] == [o]
    assert [d["seat"] for d in r.json()["deadlines"]] == [s]  # still running
    summary = wait_until(lambda: (g := service.get_game(game_id, None))["status"] == "finished" and g, timeout=15)
    assert summary["result"]["reason"] == "forfeit" and summary["result"]["winners"] == [o]


def test_every_seat_asking_stops_the_clock_and_any_seat_restarts_it(notify_env, api_server, service, http, smtp,
                                                                    start_worker):
    start_worker()
    base = api_server.url
    game_id, _, tokens = start(http, base)
    s = to_act(service, game_id)[0]
    assert post(http, base, game_id, "pause", tokens[s]).json()["paused"] is None
    assert post(http, base, game_id, "pause", tokens[s]).json()["pause_requests"] == [s]  # asking twice is once
    r = post(http, base, game_id, "pause", tokens[1 - s])
    assert r.status_code == 200 and r.json()["paused"]["by"] == "every seat" and r.json()["deadlines"] == []
    time.sleep(3)
    assert service.get_game(game_id, None)["status"] == "active"  # the clock stood still
    r = post(http, base, game_id, "resume", tokens[1 - s])
    assert r.status_code == 200 and r.json()["paused"] is None and r.json()["pause_requests"] == []
    assert [d["seat"] for d in r.json()["deadlines"]] == [s]
    wait_until(lambda: service.get_game(game_id, None)["status"] == "finished", timeout=15)


def test_the_creator_pauses_at_once(notify_env, api_server, service, http, smtp, start_worker):
    start_worker()
    base = api_server.url
    game_id, creator, tokens = start(http, base)
    assert post(http, base, game_id, "pause").status_code == 401
    assert post(http, base, game_id, "pause", "nope").json()["error"]["code"] == "bad_token"
    r = post(http, base, game_id, "pause", creator)
    assert r.status_code == 200 and r.json()["paused"]["by"] == "creator" and r.json()["deadlines"] == []
    time.sleep(3)
    assert service.get_game(game_id, None)["status"] == "active"
    r = post(http, base, game_id, "resume", creator)
    assert r.status_code == 200 and r.json()["paused"] is None and r.json()["deadlines"]


def test_a_seat_withdraws_its_request_by_resuming(notify_env, api_server, service, http, smtp, start_worker):
    start_worker()
    base = api_server.url
    game_id, creator, tokens = start(http, base, {**DEADLINE, "turn_seconds": 600})
    r = post(http, base, game_id, "resume", tokens[0])
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_paused"
    assert post(http, base, game_id, "pause", tokens[0]).json()["pause_requests"] == [0]
    r = post(http, base, game_id, "resume", tokens[0])
    assert r.status_code == 200 and r.json()["pause_requests"] == [] and r.json()["paused"] is None
    assert post(http, base, game_id, "pause", tokens[1]).json()["paused"] is None  # seat 0 no longer asks
    r = post(http, base, game_id, "resume", creator)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_paused"
