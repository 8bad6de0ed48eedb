"""End to end over real HTTP on loopback with a real RQ worker process:
two players with their own Ed25519 keys play a whole game of Wakanda,
then anyone replays and verifies it. Also the API's error format."""
from __future__ import annotations

import json
import random

import pytest

from pbem.trust import record as game_record
from pbem.client import ApiError, Client
from pbem.trust.signing import generate_key, make_envelope

from .conftest import wait_until


def seated_game(url: str, name: str = "wakanda") -> tuple[Client, str, dict]:
    """A started 2-seat game; the client holds both seats' tokens."""
    c = Client(url)
    game_id = c.create_game(name, 2)["id"]
    keys = {}
    for seat in range(2):
        keys[seat], public = generate_key()
        c.join(game_id, seat, public, f"p{seat}")
    return c, game_id, keys


def play_whole_game(client: Client, game_id: str, keys: dict, rng: random.Random) -> dict:
    for _ in range(500):
        game = client.game(game_id)
        if game["status"] == "finished":
            return game
        seat = rng.choice(game["to_act"])
        legal = client.legal_moves(game_id, seat)
        assert legal["to_act"] and legal["moves"]
        choice = rng.choice(legal["moves"])
        # Half the moves go through the text notation, as a person would type them.
        move = client.parse(game_id, seat, choice["text"])["move"] if rng.random() < 0.5 else choice["move"]
        out = client.move(game_id, move, keys[seat], seat, expected_version=legal["version"], wait=10)
        assert out["status"] == "applied", out
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_two_players_play_wakanda_through_the_api(api_server, start_worker):
    start_worker()
    c = Client(api_server.url)
    assert any(t["name"] == "wakanda" for t in c.game_types())
    created = c.create_game("wakanda", 2, {"hidden_future_villages": True}, title="Friday game")
    assert created["status"] == "open" and len(created["seed_sha256"]) == 64
    keys = {}
    for seat, name in enumerate(["Ann", "Bob"]):
        private, public = generate_key()
        keys[seat] = private
        c.join(created["id"], seat, public, name)
    game = c.game(created["id"], 0)
    assert game["status"] == "active" and game["version"] > 0 and game["viewer"] == 0
    final = play_whole_game(c, created["id"], keys, random.Random(3))
    assert final["result"]["winners"] and final["seed"]
    # Anyone (no token) can replay any version and fetch the verifiable record.
    spectator = Client(api_server.url)
    mid = spectator.state_at(created["id"], final["version"] // 2)
    assert mid["version"] == final["version"] // 2 and mid["text"]
    events = spectator.events(created["id"], limit=1000)["events"]
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    report = game_record.verify_lines(spectator.record(created["id"]).splitlines())
    assert report.ok, report.problems
    assert report.seed_checked and report.signatures_checked == report.moves_checked - 1


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_move_pipeline_prefer_wait_and_status(api_server, start_worker):
    start_worker()
    c, game_id, keys = seated_game(api_server.url)
    game = c.game(game_id)
    seat = game["to_act"][0]
    legal = c.legal_moves(game_id, seat)
    env = make_envelope(game_id, seat, legal["version"], legal["moves"][0]["move"], keys[seat])
    resp = c.session.post(f"{api_server.url}/games/{game_id}/moves", json=env)
    assert resp.status_code == 202
    location = resp.headers["Location"]
    assert location.endswith(resp.json()["id"])
    status = wait_until(lambda: (s := c.session.get(api_server.url + location).json())["status"] != "queued" and s)
    assert status["status"] == "applied" and status["version"] > legal["version"]


def error_of(resp):
    body = resp.json()
    assert set(body) == {"error"}, body
    assert {"code", "message", "status"} <= set(body["error"])
    assert body["error"]["status"] == resp.status_code
    return body["error"]["code"]


def test_one_error_format_for_bad_input(api_server, http, redis_client):
    url = api_server.url
    # schema: strict integers, unknown fields, malformed and oversized JSON
    assert error_of(r := http.post(f"{url}/games", json={"game": "wakanda", "players": 2.5})) == "invalid_request"
    assert r.status_code == 422
    assert error_of(http.post(f"{url}/games", json={"game": "wakanda", "players": "2"})) == "invalid_request"
    assert error_of(http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "x": 1})) == "invalid_request"
    r = http.post(f"{url}/games", data="{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and error_of(r) == "malformed_json"
    r = http.post(f"{url}/games", data=json.dumps({"game": "x" * 200_000}), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and error_of(r) == "body_too_large"
    # unknowns
    assert error_of(r := http.get(f"{url}/games/nope")) == "unknown_game" and r.status_code == 404
    assert error_of(http.get(f"{url}/no/such/path")) == "not_found"
    r = http.delete(f"{url}/games")
    assert r.status_code == 405 and error_of(r) == "method_not_allowed" and "GET" in r.headers.get("Allow", "")
    assert error_of(http.post(f"{url}/games", json={"game": "wakanda", "players": 3})) == "bad_player_count"
    # nothing was created by any of it
    assert http.get(f"{url}/games").json()["games"] == []


def test_private_views_need_the_seat_token(api_server, http):
    c = Client(api_server.url)
    game_id = c.create_game("wakanda", 2)["id"]
    for seat in range(2):
        c.join(game_id, seat, generate_key()[1], f"p{seat}")
    url = f"{api_server.url}/games/{game_id}/seats/0/view"
    assert error_of(r := http.get(url)) == "missing_token" and r.status_code == 401
    assert error_of(r := http.get(url, headers={"Authorization": "Bearer wrong"})) == "bad_token" and r.status_code == 401
    other = c.tokens[(game_id, 1)]
    assert error_of(r := http.get(url, headers={"Authorization": f"Bearer {other}"})) == "not_your_seat"
    assert r.status_code == 403
    mine = http.get(url, headers={"Authorization": f"Bearer {c.tokens[(game_id, 0)]}"})
    assert mine.status_code == 200 and mine.json()["viewer"] == 0


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_replayed_envelope_is_refused_over_http(api_server, start_worker):
    start_worker()
    c, game_id, keys = seated_game(api_server.url)
    seat = c.game(game_id)["to_act"][0]
    legal = c.legal_moves(game_id, seat)
    env = make_envelope(game_id, seat, legal["version"], legal["moves"][0]["move"], keys[seat])
    assert c.submit(env, wait=10)["status"] == "applied"
    version = c.game(game_id)["version"]
    with pytest.raises(ApiError) as err:
        c.submit(env)
    assert err.value.status == 409 and err.value.code == "nonce_reused"
    assert c.game(game_id)["version"] == version


def test_bad_moves_over_http_get_4xx_codes_and_change_nothing(api_server, http):
    c, game_id, keys = seated_game(api_server.url)
    game = c.game(game_id)
    seat, version = game["to_act"][0], game["version"]
    other = 1 - seat
    move = c.legal_moves(game_id, seat)["moves"][0]["move"]
    url = f"{api_server.url}/games/{game_id}/moves"
    cases = [
        ({**make_envelope(game_id, seat, version, move, keys[seat]), "signature": "A" * 86}, 401, "bad_signature"),
        (make_envelope(game_id, seat, version, move, keys[other]), 401, "bad_signature"),
        (make_envelope(game_id, seat, version - 1, move, keys[seat]), 409, "stale_version"),
        (make_envelope(game_id, other, version, move, keys[other]), 422, "not_your_turn"),
        (make_envelope(game_id, seat, version, {"type": "claim", "village": 6}, keys[seat]), 422, None),
        (make_envelope(game_id, 9, version, move, keys[seat]), 404, "unknown_seat"),
        ({k: v for k, v in make_envelope(game_id, seat, version, move, keys[seat]).items() if k != "signature"},
         422, "invalid_request"),
        ({**make_envelope(game_id, seat, version, move, keys[seat]), "expected_version": 2.5}, 422, "invalid_request"),
    ]
    for envelope, status, code in cases:
        resp = http.post(url, json=envelope)
        assert resp.status_code == status, (envelope, resp.text)
        if code:
            assert error_of(resp) == code
        else:
            error_of(resp)
    assert error_of(http.post(f"{api_server.url}/games/nope/moves",
                              json=make_envelope("nope", 0, 0, move, keys[0]))) == "unknown_game"
    after = c.game(game_id)
    assert after["version"] == version and c.events(game_id)["version"] == version
