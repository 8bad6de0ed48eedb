"""Every operation in the OpenAPI document declares its ``security``, and
the server does what it declares: an operation that needs a token answers
401 without one; one that takes a token optionally answers anonymously and
refuses a token that belongs to no seat; one that needs none answers
without one (real HTTP, real Redis)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.trust import signing

SPEC = json.loads((Path(__file__).resolve().parent.parent / "api_spec" / "openapi.json").read_text())
METHODS = ("get", "post", "put", "patch", "delete")
OPERATIONS = [(m, p, op) for p, ops in SPEC["paths"].items() for m, op in ops.items() if m in METHODS]

#: A body each operation accepts, so that what is checked is the credential, not the schema.
BODIES = {
    ("post", "/games"): {"game": "wakanda", "players": 2},
    ("post", "/games/{game_id}/parse"): {"text": "pass"},
    ("put", "/games/{game_id}/deadline"): {"turn_seconds": None},
    ("patch", "/games/{game_id}/seats/{seat}/notifications"): {},
    ("post", "/games/{game_id}/invitations"): {"invitations": [{"email": "ann@example.org"}]},
    ("post", "/subscriptions"): {"email": "ann@example.org", "game": "wakanda"},
}
OPERATOR = "the-operators-token"


@pytest.fixture
def settings(settings):
    """The fixtures' settings with an operator (PBEM_ADMIN_TOKEN)."""
    return dataclasses.replace(settings, admin_token=OPERATOR)


#: Operations that act on a game still waiting for players.
ON_OPEN_GAME = {("post", "/games/{game_id}/seats/{seat}"), ("post", "/games/{game_id}/invitations"),
                ("delete", "/games/{game_id}/invitations/{seat}")}


def kind(security: list) -> str:
    if security == []:
        return "none"
    if {} in security:
        return "optional"
    return "required"


@pytest.fixture
def world(api_server, http, monkeypatch):
    monkeypatch.setenv("PBEM_INBOUND_SECRET", "a-secret")  # read when the first mail comes
    url = api_server.url
    created = http.post(f"{url}/games", json={"game": "wakanda", "players": 2}).json()
    active = created["id"]
    keys, tokens = [], []
    for seat in range(2):
        private, public = signing.generate_key()
        joined = http.post(f"{url}/games/{active}/seats/{seat}", json={"public_key": public, "name": f"p{seat}"})
        keys.append(private)
        tokens.append(joined.json()["token"])
    opening = http.post(f"{url}/games", json={"game": "wakanda", "players": 2}).json()
    return {"url": url, "active": active, "open": opening["id"], "keys": keys, "tokens": tokens,
            "creators": {"active": created["creator_token"], "open": opening["creator_token"]}}


def request(http, world, method: str, path: str, token: str | None = None):
    game = world["open"] if (method, path) in ON_OPEN_GAME else world["active"]
    url = world["url"] + path.format(game_id=game, seat=0, version=0, move_id="setup", failure_id="nosuch", game="wakanda")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    kwargs = {}
    if (method, path) in BODIES:
        kwargs["json"] = BODIES[(method, path)]
    elif (method, path) == ("post", "/games/{game_id}/seats/{seat}"):
        kwargs["json"] = {"public_key": signing.generate_key()[1], "name": "Ann"}
    elif (method, path) == ("post", "/games/{game_id}/seats/{seat}/token"):
        kwargs["json"] = signing.token_request(game, 0, world["keys"][0])  # signed by seat 0's key: its credential
    elif (method, path) == ("post", "/games/{game_id}/moves"):
        state = http.get(f"{world['url']}/games/{game}").json()
        seat = state["to_act"][0]
        legal = http.get(f"{world['url']}/games/{game}/legal-moves",
                         headers={"Authorization": f"Bearer {world['tokens'][seat]}"}).json()
        kwargs["json"] = signing.make_envelope(game, seat, state["version"], legal["moves"][0]["move"],
                                               world["keys"][seat])
    elif (method, path) == ("post", "/inbound/email"):
        kwargs["data"] = b"From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\n\r\nhello\r\n"
        headers["Content-Type"] = "message/rfc822"
    # Not followed: the event stream's path answers 307 to the stream process
    # (which checks what the API forwards to it; tests/test_stream.py).
    return http.request(method.upper(), url, headers=headers, timeout=10, allow_redirects=False, **kwargs)


def succeeded(answer) -> bool:
    return answer.status_code == 200 or (answer.status_code == 307 and answer.headers.get("Location"))


def test_every_operation_declares_security_with_known_schemes():
    schemes = set(SPEC["components"]["securitySchemes"])
    assert {"seatToken", "creatorToken", "operatorToken", "inboundSecret"} <= schemes
    missing = [f"{m.upper()} {p}" for m, p, op in OPERATIONS if "security" not in op]
    assert missing == []
    for m, p, op in OPERATIONS:
        for requirement in op["security"]:
            assert set(requirement) <= schemes, (m, p, requirement)


def test_the_declarations_are_the_expected_ones():
    """The documented contract, spelled out for the operations a client uses most."""
    declared = {(m, p): kind(op["security"]) for m, p, op in OPERATIONS}
    assert declared[("get", "/games/{game_id}")] == "optional"
    assert declared[("get", "/games/{game_id}/moves/{move_id}")] == "optional"
    assert declared[("get", "/games/{game_id}/record")] == "optional"
    assert declared[("get", "/games/{game_id}/legal-moves")] == "required"
    assert declared[("get", "/games/{game_id}/seats/{seat}/view")] == "required"
    assert declared[("post", "/games/{game_id}/moves")] == "none"  # the envelope's signature is the credential
    assert declared[("get", "/games/{game_id}/events/stream")] == "optional"  # a spectator's stream, or a seat's
    assert declared[("post", "/games/{game_id}/seats/{seat}/ticket")] == "required"
    assert SPEC["paths"]["/games/{game_id}/invitations"]["post"]["security"] == [{"creatorToken": []},
                                                                                 {"seatToken": []}]
    for clock in ("/games/{game_id}/pause", "/games/{game_id}/resume"):
        assert {"creatorToken": []} in SPEC["paths"][clock]["post"]["security"]
    assert SPEC["paths"]["/inbound/email"]["post"]["security"] == [{"inboundSecret": []}]
    assert SPEC["paths"]["/games/{game_id}/invitations/{seat}"]["delete"]["security"] == [{"creatorToken": []}]
    assert declared[("post", "/games/{game_id}/seats/{seat}/token")] == "none"  # signed by the seat's key


@pytest.mark.parametrize("method,path", [(m, p) for m, p, op in OPERATIONS if kind(op["security"]) == "required"])
def test_a_required_token_is_required(world, http, method, path):
    answer = request(http, world, method, path)
    assert answer.status_code == 401, answer.text
    assert answer.json()["error"]["code"] in ("missing_token", "bad_inbound_secret")
    if SPEC["paths"][path][method]["security"] != [{"inboundSecret": []}]:
        # ...before anything else is read: a body that does not fit is still 401 without a token
        bad = http.request(method.upper(), answer.url, json={"not": ["a", "field"]}, timeout=10)
        assert bad.status_code == 401 and bad.json()["error"]["code"] == "missing_token", bad.text
        # ...and a seat's token opens it (seat 0's, the seat in the path), or
        # the creator's where it is declared (the only one an open game has).
        if SPEC["paths"][path][method]["security"] == [{"operatorToken": []}]:
            token = OPERATOR
        elif (method, path) in ON_OPEN_GAME:
            token = world["creators"]["open"]
        else:
            token = world["tokens"][0]
        answer = request(http, world, method, path, token)
        assert answer.status_code not in (401, 403), answer.text


@pytest.mark.parametrize("method,path", [(m, p) for m, p, op in OPERATIONS
                                         if {"creatorToken": []} in op["security"]])
def test_the_creator_token_opens_what_declares_it(world, http, method, path):
    game = "open" if (method, path) in ON_OPEN_GAME else "active"
    answer = request(http, world, method, path, world["creators"][game])
    assert answer.status_code not in (401, 403), answer.text
    other = "active" if game == "open" else "open"  # another game's creator is nobody here
    answer = request(http, world, method, path, world["creators"][other])
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "bad_token", answer.text


@pytest.mark.parametrize("method,path", [(m, p) for m, p, op in OPERATIONS if kind(op["security"]) == "optional"])
def test_an_optional_token_is_optional(world, http, method, path):
    anonymous = request(http, world, method, path)
    assert succeeded(anonymous), anonymous.text
    wrong = request(http, world, method, path, "belongs-to-no-seat")
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_token", wrong.text
    seat = request(http, world, method, path, world["tokens"][1])
    assert succeeded(seat), seat.text


@pytest.mark.parametrize("method,path,op", [(m, p, op) for m, p, op in OPERATIONS if kind(op["security"]) == "none"])
def test_no_token_is_needed(world, http, method, path, op):
    answer = request(http, world, method, path)
    # GET /ready's documented 503 (no move worker reports here) is an answer, not a refusal.
    assert answer.status_code < 400 or (answer.status_code == 503 and "503" in op["responses"]), answer.text


@pytest.mark.parametrize("method,path", [(m, p) for m, p, op in OPERATIONS if {"operatorToken": []} in op["security"]])
def test_the_operator_token_opens_what_declares_it(world, http, method, path):
    answer = request(http, world, method, path, OPERATOR)
    assert answer.status_code not in (401, 403), answer.text
    if SPEC["paths"][path][method]["security"] == [{"operatorToken": []}]:
        # operator only: a seat's token, the creator's, or another token are not the operator's
        for token in (world["tokens"][0], world["creators"]["active"], OPERATOR + "x"):
            answer = request(http, world, method, path, token)
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "bad_token", answer.text


def test_the_operators_operations_are_off_without_an_operator(settings, redis_client, http):
    import redis

    from pbem.api import create_app

    from .conftest import LiveServer
    conf = dataclasses.replace(settings, admin_token=None)
    with LiveServer(create_app(conf, redis.Redis.from_url(conf.redis_url))) as live:
        for token in ("anything", OPERATOR):
            answer = http.get(f"{live.url}/admin/deliveries", headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "admin_disabled", answer.text
