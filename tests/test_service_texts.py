"""The service's texts name the players (board, events, legal moves, the
parse of a move) and the board can be asked for whole; over a real Redis,
and ``?board=`` over real HTTP."""
from __future__ import annotations

import random
import re

import requests

from pbem.trust import signing
from pbem.client import Client

from .conftest import drain


def named_game(service, name, players, names, options=None):
    game = service.create_game(name, players, options or {}, seed=b"texts" * 6)
    keys, tokens = [], []
    for seat in range(players):
        private, public = signing.generate_key()
        tokens.append(service.join(game["id"], seat, public, names[seat])["token"])
        keys.append(private)
    return game["id"], keys, tokens


def play(service, game_id, keys, tokens, moves, rng):
    for _ in range(moves):
        loaded = service.load(game_id)
        if loaded.game.result(loaded.state):
            return
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = rng.choice(service.legal_moves(game_id, tokens[seat])["moves"])["move"]
        env = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
        service.submit(game_id, env)
        drain(service)


def test_board_events_and_moves_name_the_players(service):
    game_id, keys, tokens = named_game(service, "kachina", 3, ["Ann", "Bob Lee", "Cy"])
    play(service, game_id, keys, tokens, 8, random.Random(2))
    summary = service.get_game(game_id, tokens[0])
    assert "Ann" in summary["board"] and "Bob Lee" in summary["board"]
    assert not re.search(r"\bseat \d", summary["board"], re.IGNORECASE)
    texts = [e["text"] for e in service.events(game_id, tokens[0])["events"]]
    assert any(t.startswith(("Ann ", "Bob Lee ", "Cy ")) for t in texts)
    assert not any(re.search(r"\bseat \d", t, re.IGNORECASE) for t in texts)
    state = service.state_at(game_id, tokens[0], 5)
    assert not re.search(r"\bseat \d", state["text"], re.IGNORECASE)


def test_the_whole_board_is_asked_for(service):
    game_id, keys, tokens = named_game(service, "carcassonne", 2, ["Ann", "Bob"])
    play(service, game_id, keys, tokens, 4, random.Random(1))
    loaded = service.load(game_id)
    part = service.get_game(game_id, None)["board"]
    whole = service.get_game(game_id, None, whole=True)["board"]
    assert whole == loaded.game.render(loaded.state, None, ["Ann", "Bob"], whole=True)
    assert part == loaded.game.render(loaded.state, None, ["Ann", "Bob"])


def test_board_query_over_http(api_server):
    c = Client(api_server.url)
    game_id = c.create_game("wakanda", 2)["id"]
    for seat, name in enumerate(["Ann", "Bob"]):
        c.join(game_id, seat, signing.generate_key()[1], name)
    assert "Ann" in c.game(game_id, whole=True)["board"]
    bad = requests.get(f"{api_server.url}/games/{game_id}", params={"board": "all"}, timeout=10)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
