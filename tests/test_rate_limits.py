"""Request rate limits over real HTTP (pbem/api/ratelimit.py, pbem/api/limits.py):
per client address and per bearer token, a 429 in the one error format with
Retry-After, nothing stored by a refused request, the spec documenting it,
and the move path untouched."""
from __future__ import annotations

import dataclasses
import http.client
import json
from pathlib import Path

import pytest
import redis

from pbem.trust import signing

from .conftest import LiveServer

ROOT = Path(__file__).resolve().parent.parent
RATES = {"create": "3/minute", "join": "4/minute", "invite": "2/minute", "parse": "3/minute",
         "inbound": "2/minute"}


@pytest.fixture
def limited_server(redis_client, settings, monkeypatch):
    from pbem.api import create_app

    monkeypatch.setenv("PBEM_INBOUND_SECRET", "in-secret")
    conf = dataclasses.replace(settings, rate_limits=True, limit_rates=RATES)
    with LiveServer(create_app(conf, redis.Redis.from_url(settings.redis_url))) as live:
        yield live


def call(server, method: str, path: str, body=None, token: str | None = None, source: str = "127.0.0.1",
         raw: bytes | None = None, content_type: str = "application/json"):
    """One request from ``source`` (any 127.x address is this machine's loopback)."""
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    headers = {"Content-Type": content_type}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    out = resp.status, dict(resp.getheaders()), json.loads(resp.read() or b"null")
    conn.close()
    return out


def games_stored(client) -> int:
    return client.zcard("pbem:games")


def assert_429(status, headers, body, scope: str):
    assert status == 429, body
    error = body["error"]
    assert error["code"] == "too_many_requests" and error["status"] == 429
    retry = int(headers["Retry-After"])
    assert 1 <= retry <= 60 and error["details"]["retry_after"] == retry
    assert error["details"]["scope"] == scope and "per 1 minute" in error["details"]["limit"]


def test_creating_games_is_limited_per_client_address(limited_server, redis_client):
    for _ in range(3):
        status, _, body = call(limited_server, "POST", "/games", {"game": "wakanda", "players": 2})
        assert status == 201, body
    stored = games_stored(redis_client)
    status, headers, body = call(limited_server, "POST", "/games", {"game": "wakanda", "players": 2})
    assert_429(status, headers, body, "address")
    # A bad body from the same address is refused by the limit too (it is
    # counted before the body is read), and nothing was stored either way.
    status, headers, body = call(limited_server, "POST", "/games", raw=b"{not json")
    assert_429(status, headers, body, "address")
    assert games_stored(redis_client) == stored
    # Another address has its own allowance.
    status, _, body = call(limited_server, "POST", "/games", {"game": "wakanda", "players": 2}, source="127.0.0.2")
    assert status == 201, body


def test_joining_is_limited_per_client_address(limited_server, redis_client):
    status, _, game = call(limited_server, "POST", "/games", {"game": "kachina", "players": 4}, source="127.0.0.9")
    assert status == 201
    path = f"/games/{game['id']}/seats/%d"
    for seat in range(3):
        status, _, body = call(limited_server, "POST", path % seat, {"public_key": signing.generate_key()[1],
                                                                     "name": f"p{seat}"})
        assert status == 201, body
    status, _, body = call(limited_server, "POST", path % 0, {"public_key": signing.generate_key()[1], "name": "x"})
    assert status == 409  # the fourth request: a refusal of its own, still counted
    seats = redis_client.hgetall(f"pbem:{{g:{game['id']}}}:seats")
    status, headers, body = call(limited_server, "POST", path % 3, {"public_key": signing.generate_key()[1],
                                                                    "name": "late"})
    assert_429(status, headers, body, "address")
    assert redis_client.hgetall(f"pbem:{{g:{game['id']}}}:seats") == seats  # nothing stored
    status, _, body = call(limited_server, "POST", path % 3, {"public_key": signing.generate_key()[1],
                                                              "name": "late"}, source="127.0.0.3")
    assert status == 201, body


def seated(server, source="127.0.0.20"):
    status, _, game = call(server, "POST", "/games", {"game": "wakanda", "players": 2}, source=source)
    tokens = []
    for seat in range(2):
        _, _, joined = call(server, "POST", f"/games/{game['id']}/seats/{seat}",
                            {"public_key": signing.generate_key()[1], "name": f"p{seat}"}, source=source)
        tokens.append(joined["token"])
    return game, tokens


def test_parse_is_limited_per_token_and_per_address(limited_server):
    game, tokens = seated(limited_server)
    path = f"/games/{game['id']}/parse"
    # The same token from three addresses: the token's allowance is one.
    for source in ("127.0.0.4", "127.0.0.5", "127.0.0.6"):
        status, _, body = call(limited_server, "POST", path, {"text": "pass"}, tokens[0], source=source)
        assert status in (200, 422), body
    status, headers, body = call(limited_server, "POST", path, {"text": "pass"}, tokens[0], source="127.0.0.7")
    assert_429(status, headers, body, "token")
    # Seat 1's token from a fresh address is not held back by seat 0's.
    status, _, body = call(limited_server, "POST", path, {"text": "pass"}, tokens[1], source="127.0.0.8")
    assert status in (200, 422), body
    # Three more from 127.0.0.8 (any token) and the address is used up.
    for _ in range(2):
        call(limited_server, "POST", path, {"text": "pass"}, tokens[1], source="127.0.0.8")
    status, headers, body = call(limited_server, "POST", path, {"text": "pass"}, tokens[1], source="127.0.0.8")
    assert_429(status, headers, body, "address")


def test_a_missing_token_is_refused_before_the_limit_counts(limited_server):
    game, tokens = seated(limited_server)
    for _ in range(5):
        status, _, body = call(limited_server, "POST", f"/games/{game['id']}/parse", {"text": "pass"},
                               source="127.0.0.30")
        assert status == 401 and body["error"]["code"] == "missing_token"
    status, _, body = call(limited_server, "POST", f"/games/{game['id']}/parse", {"text": "pass"}, tokens[0],
                           source="127.0.0.30")
    assert status in (200, 422), body


def test_invitations_are_limited_per_token(limited_server, redis_client, monkeypatch):
    status, _, game = call(limited_server, "POST", "/games", {"game": "kachina", "players": 4}, source="127.0.0.40")
    creator = game["creator_token"]
    path = f"/games/{game['id']}/invitations"
    for i, source in enumerate(("127.0.0.41", "127.0.0.42")):
        status, _, body = call(limited_server, "POST", path, {"invites": [{"email": f"p{i}@example.test"}]},
                               creator, source=source)
        assert status == 201, body
    invited = redis_client.hgetall(f"pbem:{{g:{game['id']}}}:mail:invites")
    status, headers, body = call(limited_server, "POST", path, {"invites": [{"email": "p9@example.test"}]},
                                 creator, source="127.0.0.43")
    assert_429(status, headers, body, "token")
    assert redis_client.hgetall(f"pbem:{{g:{game['id']}}}:mail:invites") == invited


def test_inbound_mail_over_http_is_limited_per_address(limited_server):
    mail = b"From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\n\r\nhello\r\n"
    for _ in range(2):
        status, _, body = call(limited_server, "POST", "/inbound/email", token="in-secret", raw=mail,
                               content_type="message/rfc822", source="127.0.0.50")
        assert status == 422 and body["error"]["code"] == "no_token_recipient", body
    status, headers, body = call(limited_server, "POST", "/inbound/email", token="in-secret", raw=mail,
                                 content_type="message/rfc822", source="127.0.0.50")
    assert_429(status, headers, body, "address")


def test_moves_and_reads_are_not_limited(limited_server):
    game, tokens = seated(limited_server, source="127.0.0.60")
    for _ in range(10):
        status, _, body = call(limited_server, "GET", f"/games/{game['id']}", token=tokens[0], source="127.0.0.60")
        assert status == 200
        status, _, body = call(limited_server, "GET", f"/games/{game['id']}/legal-moves", token=tokens[0],
                               source="127.0.0.60")
        assert status == 200
    for _ in range(6):  # envelopes (badly signed: refused, but never by a limit)
        status, _, body = call(limited_server, "POST", f"/games/{game['id']}/moves",
                               {"game": game["id"], "player": 0, "expected_version": 1, "move": {},
                                "nonce": "n", "signature": "AA"}, source="127.0.0.60")
        assert status != 429, body


def test_rate_limits_can_be_turned_off(api_server):
    # the fixtures' server runs with PBEM_RATE_LIMITS=0
    for _ in range(40):
        status, _, body = call(api_server, "POST", "/games", {"game": "wakanda", "players": 2})
        assert status == 201, body


def test_the_spec_documents_each_limit():
    spec = json.loads((ROOT / "api_spec" / "openapi.json").read_text())
    limited = {(m, p) for p, ops in spec["paths"].items() for m, op in ops.items()
               if isinstance(op, dict) and "429" in op.get("responses", {})}
    assert limited == {("post", "/games"), ("post", "/games/{game_id}/seats/{seat}"),
                       ("post", "/games/{game_id}/seats/{seat}/token"),  # counted with the joins
                       ("post", "/games/{game_id}/parse"), ("post", "/games/{game_id}/invitations"),
                       ("post", "/inbound/email"), ("post", "/subscriptions")}
    answer = spec["paths"]["/games"]["post"]["responses"]["429"]
    assert "Retry-After" in answer["headers"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
