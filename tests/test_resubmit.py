"""A resent envelope (after a 503 or a timeout) is answered 409 nonce_reused
with its move id, whatever the game's status: the client then reads the
first try's outcome at /games/{id}/moves/{move_id}."""
from __future__ import annotations

from pbem.trust import signing
from pbem.service import move_id_for
from pbem.store import key

from .conftest import api_server  # noqa: F401
from .test_service import log_snapshot, new_game


def play_to_the_end(service, api_server, http, game_id, keys) -> list[dict]:
    """Every move sent over HTTP with ``Prefer: wait`` and applied by a real
    worker: the API process learns each outcome, so it holds the game's
    state and the next move takes the one-round-trip path."""
    sent = []
    while service.load(game_id).meta["status"] == "active":
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        move = loaded.game.legal_moves(loaded.state, seat)[0]
        envelope = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
        r = http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope, headers={"Prefer": "wait=10"})
        assert r.status_code == 200 and r.json()["status"] == "applied", r.text
        sent.append(envelope)
    return sent


def test_resending_the_move_that_ended_the_game_says_it_was_recorded(service, api_server, http, redis_client,
                                                                     start_worker):
    start_worker(scheduler=False, queues=("pbem-moves",))
    # one tile to draw: the first move ends the game
    game_id, keys, _ = new_game(service, "carcassonne", options={"draw_order": ["E"], "start_player": 0})
    sent = play_to_the_end(service, api_server, http, game_id, keys)
    assert service.load(game_id).meta["status"] == "finished" and len(sent) == 1
    before = (log_snapshot(redis_client, game_id), redis_client.hgetall(key(game_id, "moves")))
    last = sent[-1]
    move_id = move_id_for(game_id, last["player"], last["nonce"])
    for _ in range(2):  # the second time through whichever path the first answer left warm
        r = http.post(f"{api_server.url}/games/{game_id}/moves", json=last)
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert error["code"] == "nonce_reused" and error["details"] == {"move_id": move_id}
    status = http.get(f"{api_server.url}/games/{game_id}/moves/{move_id}").json()
    assert status["status"] == "applied" and status["version"] == service.load(game_id).version
    # a new move in the finished game is still game_over
    fresh = signing.make_envelope(game_id, last["player"], last["expected_version"], {"type": "pass"},
                                  keys[last["player"]])
    r = http.post(f"{api_server.url}/games/{game_id}/moves", json=fresh)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    assert (log_snapshot(redis_client, game_id), redis_client.hgetall(key(game_id, "moves"))) == before


def test_resending_an_earlier_move_of_a_finished_game(service, api_server, http, redis_client, start_worker):
    start_worker(scheduler=False, queues=("pbem-moves",))
    game_id, keys, _ = new_game(service, "carcassonne", options={"draw_order": ["E", "U", "B"], "start_player": 0})
    sent = play_to_the_end(service, api_server, http, game_id, keys)
    assert len(sent) >= 3
    for envelope in sent:
        r = http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope)
        assert r.status_code == 409 and r.json()["error"]["code"] == "nonce_reused", r.text
        assert r.json()["error"]["details"]["move_id"] == move_id_for(game_id, envelope["player"], envelope["nonce"])


def test_resending_a_queued_move_in_play(service, api_server, http, redis_client):
    """Not yet applied: the one-round-trip path finds its record (duplicate)."""
    game_id, keys, _ = new_game(service, "carcassonne", options={"draw_order": ["E", "U", "B"], "start_player": 0})
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    envelope = signing.make_envelope(game_id, seat, loaded.version, loaded.game.legal_moves(loaded.state, seat)[0],
                                     keys[seat])
    assert http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope).status_code == 202  # no worker
    r = http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope)
    assert r.status_code == 409 and r.json()["error"]["code"] == "nonce_reused"
    assert redis_client.xlen("pbem:submissions") == 1
