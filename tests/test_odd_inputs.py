"""Odd inputs over real HTTP (issue 12): each gets a 4xx in the one error
format, and nothing stored changes."""
from __future__ import annotations

import pytest
import redis

from pbem.api import create_app

from .conftest import api_server  # noqa: F401
from .test_notify_support import new_game, notify_env, smtp  # noqa: F401

#: Stand-ins for path parameters: the query and the body are read before
#: the view looks the game up, so these need not exist.
METHODS = ("get", "post", "put", "patch", "delete")
PATH_VALUES = {"game_id": "nosuchgame", "seat": "0", "move_id": "nosuchmove", "version": "0"}


def spec(settings) -> dict:
    return create_app(settings, redis.Redis.from_url(settings.redis_url)).extensions["pbem_api"].spec.to_dict()


def fill(path: str) -> str:
    for name, value in PATH_VALUES.items():
        path = path.replace("{" + name + "}", value)
    return path


def query_integers(settings) -> list[tuple[str, str, str, dict]]:
    out = []
    for path, item in spec(settings)["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue  # the path's own "parameters"
            for param in op.get("parameters", []):
                if param["in"] == "query" and param["schema"].get("type") == "integer":
                    out.append((method, path, param["name"], param["schema"]))
    return out


def stored(client) -> dict:
    """Every key with its value, to show that nothing changed."""
    return {k: client.dump(k) for k in sorted(client.keys("*"))}


# -- query-string integers ---------------------------------------------------------


def test_every_query_integer_reads_text_digits(settings, api_server, http):
    params = query_integers(settings)
    assert {(p, n) for _, p, n, _ in params} >= {("/games/{game_id}/seats/{seat}/webhook/deliveries", "limit"),
                                                  ("/games/{game_id}/events", "after"), ("/games", "limit"),
                                                  ("/games/{game_id}/moves/{move_id}", "wait")}
    for method, path, name, schema in params:
        good = str(schema.get("minimum", 0))
        r = http.request(method, api_server.url + fill(path), params={name: good})
        assert r.status_code != 422, (path, name, r.text)
        for bad in ("2.5", "x", "1e3", "\u0661"):  # not an integer; an Arabic-Indic digit
            r = http.request(method, api_server.url + fill(path), params={name: bad})
            assert r.status_code == 422, (path, name, bad, r.text)
            error = r.json()["error"]
            assert error["code"] == "invalid_request" and name in error["details"]["fields"]["query"]


def test_webhook_deliveries_with_a_limit(notify_env, service, api_server, http):
    game_id, _, tokens = new_game(service)
    r = http.get(f"{api_server.url}/games/{game_id}/seats/0/webhook/deliveries", params={"limit": "5"},
                 headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200, r.text
    assert r.json() == {"deliveries": []}


@pytest.mark.parametrize("body", [
    {"game": "wakanda", "players": 2.5},   # a float is not an integer, even 2.0 would not be
    {"game": "wakanda", "players": "2"},   # nor is text, in a JSON body
    {"game": "wakanda", "players": 2.0},
])
def test_json_integers_stay_strict(api_server, http, redis_client, body):
    before = stored(redis_client)
    r = http.post(f"{api_server.url}/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_request"
    assert "players" in r.json()["error"]["details"]["fields"]["json"]
    assert stored(redis_client) == before
