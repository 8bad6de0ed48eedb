"""Odd inputs over real HTTP (issue 12): each gets a 4xx in the one error
format, and nothing stored changes."""
from __future__ import annotations

from email.headerregistry import Address

import pytest
import redis

from pbem.trust import signing
from pbem.api import create_app

from .conftest import api_server  # noqa: F401
from .test_notify_support import new_game, notify_env, run_jobs, smtp, to_act  # noqa: F401
from .redis_contents import every_key

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


#: Operations that need a token check that one is there before reading the
#: rest (pbem/api/security.py): any token gets the request as far as its body.
SOME_TOKEN = {"Authorization": "Bearer read-after-the-body"}


def stored(client) -> dict:
    """Every key with its value, to show that nothing changed."""
    return every_key(client)


# -- query-string integers ---------------------------------------------------------


def test_every_query_integer_reads_text_digits(settings, api_server, http):
    params = query_integers(settings)
    assert {(p, n) for _, p, n, _ in params} >= {("/games/{game_id}/seats/{seat}/webhook/deliveries", "limit"),
                                                  ("/games/{game_id}/events", "after"), ("/games", "limit"),
                                                  ("/games/{game_id}/moves/{move_id}", "wait")}
    for method, path, name, schema in params:
        good = str(schema.get("minimum", 0))
        r = http.request(method, api_server.url + fill(path), params={name: good}, headers=SOME_TOKEN)
        assert r.status_code != 422, (path, name, r.text)
        for bad in ("2.5", "x", "1e3", "\u0661"):  # not an integer; an Arabic-Indic digit
            r = http.request(method, api_server.url + fill(path), params={name: bad}, headers=SOME_TOKEN)
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


# -- deep JSON ---------------------------------------------------------------------


def json_operations(settings) -> list[tuple[str, str]]:
    return [(method, path) for path, item in spec(settings)["paths"].items() for method, op in item.items()
            if method in METHODS and "application/json" in op.get("requestBody", {}).get("content", {})]


def test_deep_json_is_refused_by_every_json_endpoint(settings, api_server, http, redis_client):
    operations = json_operations(settings)
    assert {("post", "/games"), ("post", "/games/{game_id}/moves"), ("post", "/games/{game_id}/parse"),
            ("post", "/games/{game_id}/seats/{seat}"), ("post", "/games/{game_id}/invitations"),
            ("put", "/games/{game_id}/deadline"), ("patch", "/games/{game_id}/seats/{seat}/notifications"),
            } <= set(operations)
    before = stored(redis_client)
    for depth in (1000, 65):  # what used to be a RecursionError; one level over the bound
        body = "[" * depth + "]" * depth
        for method, path in operations:
            r = http.request(method, api_server.url + fill(path), data=body,
                             headers={"Content-Type": "application/json", **SOME_TOKEN})
            assert r.status_code == 400, (method, path, r.text)
            assert r.json()["error"] == {"code": "malformed_json", "status": 400,
                                         "message": "the JSON is nested deeper than 64 levels",
                                         "details": {"max_depth": 64}}
    assert stored(redis_client) == before


def test_deep_json_inside_strings_or_within_the_bound_is_read(service, api_server, http):
    game_id = service.create_game("wakanda", 2)["id"]
    # brackets inside a string do not nest (nor do escaped quotes end it)
    r = http.post(f"{api_server.url}/games/{game_id}/parse", json={"text": '\\"[' * 100})
    assert r.status_code == 401 and r.json()["error"]["code"] == "missing_token", r.text  # read, then refused
    # 64 levels is allowed: the move itself is refused by the game, not the parser
    move: list | dict = []
    for _ in range(61):  # the envelope, "move" and its "x" make 64 with these
        move = [move]
    envelope = {"game": game_id, "player": 0, "expected_version": 0, "move": {"x": move},
                "nonce": "n" * 16, "signature": "s" * 86}
    r = http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope)
    assert r.status_code != 400, r.text
    assert r.json()["error"]["code"] == "game_not_started"
    deeper = {**envelope, "move": {"x": [move]}}
    r = http.post(f"{api_server.url}/games/{game_id}/moves", json=deeper)
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed_json"


def test_too_deep_counts_only_brackets_outside_strings():
    from pbem.api.parsing import too_deep

    assert not too_deep(b"[" * 64 + b"]" * 64)
    assert too_deep(b"[" * 65 + b"]" * 65)
    assert not too_deep(b'["' + b"[" * 200 + b'"]')
    assert not too_deep(b'["\\"' + b"{" * 200 + b'"]')  # an escaped quote does not end the string
    assert too_deep(b'{"a":' * 65 + b"1" + b"}" * 65)
    assert not too_deep(b"[]" * 500)  # many, but side by side


# -- lone surrogates and control characters -----------------------------------------


@pytest.mark.parametrize("body,field", [
    ('{"game": "wakanda", "players": 2, "title": "x\\udc80y"}', ["title"]),
    ('{"game": "wakanda", "players": 2, "options": {"x\\ud800": 1}}', ["options"]),
    ('{"game": "carcassonne", "players": 2, "options": {"draw_order": ["A", "\\udfff"]}}',
     ["options", "draw_order", "1"]),
    ('{"game": "wakanda", "players": 2, "invite": [{"email": "a@b.test", "name": "\\ud83d"}]}',
     ["invite", "0", "name"]),
])
def test_lone_surrogates_are_refused_naming_the_field(api_server, http, redis_client, body, field):
    before = stored(redis_client)
    r = http.post(f"{api_server.url}/games", data=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_request"
    found = error["details"]["fields"]["json"]
    for part in field[:-1]:
        found = found[part]
    assert field[-1] in found
    assert stored(redis_client) == before


def test_a_surrogate_pair_is_an_emoji_and_fine(api_server, http):
    body = '{"game": "wakanda", "players": 2, "title": "dragon \\ud83d\\udc09"}'
    r = http.post(f"{api_server.url}/games", data=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    assert r.json()["title"] == "dragon \N{DRAGON}"


ODD = ["a\r\nBcc: evil@attacker.test", "a\nb", "a\x00b", "a\tb", "a\x1bb", "a\u2028b", "a\x85b"]


def one_line_fields(game_id: str) -> list[tuple[str, str, dict, str]]:
    """(method, path, a body with {} where the odd text goes, the field) for
    every one-line field of every request body."""
    key = signing.generate_key()[1]
    envelope = {"game": game_id, "player": 0, "expected_version": 0, "move": {"type": "pass"},
                "nonce": "n" * 16, "signature": "s" * 86}
    return [
        ("post", "/games", {"game": "wakanda", "players": 2, "title": None}, "title"),
        ("post", "/games", {"game": None, "players": 2}, "game"),
        ("post", "/games", {"game": "wakanda", "players": 2, "invite": [{"email": "a@b.test", "name": None}]},
         "name"),
        ("post", "/games", {"game": "wakanda", "players": 2, "invite": [{"email": None}]}, "email"),
        ("post", "/games", {"game": "wakanda", "players": 2, "options": {None: 1}}, "options"),
        ("post", f"/games/{game_id}/seats/0", {"public_key": key, "name": None}, "name"),
        ("post", f"/games/{game_id}/seats/0", {"public_key": key, "name": "Ann", "email": None}, "email"),
        ("post", f"/games/{game_id}/seats/0", {"public_key": key, "name": "Ann", "webhook_url": None},
         "webhook_url"),
        ("post", f"/games/{game_id}/moves", {**envelope, "nonce": None}, "nonce"),
        ("post", f"/games/{game_id}/moves", {**envelope, "game": None}, "game"),
        ("post", f"/games/{game_id}/parse", {"text": None}, "text"),
        ("post", f"/games/{game_id}/invitations", {"invites": [{"email": "a@b.test", "name": None}]}, "name"),
        ("patch", f"/games/{game_id}/seats/0/notifications", {"email": None}, "email"),
        ("post", f"/games/{game_id}/seats/0/webhook", {"url": None}, "url"),
    ]


def put_text(body, text):
    if isinstance(body, dict):
        return {(text if k is None else k): put_text(v, text) for k, v in body.items()}
    if isinstance(body, list):
        return [put_text(v, text) for v in body]
    if body is None:
        return text
    return body


def field_errors(error: dict) -> set:
    """Every field name in a nested marshmallow error dict."""
    out, stack = set(), [error["details"]["fields"]]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out |= set(item)
            stack.extend(item.values())
    return out


def test_control_characters_are_refused_in_one_line_fields(service, api_server, http, redis_client):
    game_id = service.create_game("wakanda", 2)["id"]
    before = stored(redis_client)
    for method, path, body, field in one_line_fields(game_id):
        for text in ODD:
            odd = text if field not in ("email", "webhook_url", "url") else text.replace("a", "http://a.test/" if
                                                                                       "url" in field else "a@b.test")
            r = http.request(method, api_server.url + path, json=put_text(body, odd), headers=SOME_TOKEN)
            assert r.status_code == 422, (path, field, repr(odd), r.text)
            error = r.json()["error"]
            assert error["code"] == "invalid_request", (path, field, r.text)
            assert field in field_errors(error), (path, field, r.text)
    assert stored(redis_client) == before


def test_unusual_but_valid_names_and_titles_are_mailed(notify_env, api_server, http, redis_client, smtp):
    title = 'Café «Nuit» 🎲 "the rematch" — Zoë\'s'
    names = ['Zoë "the Axe" O\'Brien 🐉', "Jean-Élodie, <Ann> (x) ; y"]
    r = http.post(f"{api_server.url}/games", json={"game": "wakanda", "players": 2, "title": title})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    for seat, name in enumerate(names):
        r = http.post(f"{api_server.url}/games/{game_id}/seats/{seat}",
                      json={"public_key": signing.generate_key()[1], "name": name, "email": f"p{seat}@example.test"})
        assert r.status_code == 201, r.text
    run_jobs(redis_client)
    summary = http.get(f"{api_server.url}/games/{game_id}").json()
    assert [s["name"] for s in summary["seats"]] == names and summary["title"] == title
    seat = summary["to_act"][0]
    mails = smtp.to(f"p{seat}@example.test", "your_turn")
    assert len(mails) == 1
    msg = mails[0]
    to = msg["To"].addresses
    assert len(to) == 1 and to[0] == Address(display_name=names[seat], addr_spec=f"p{seat}@example.test")
    assert title in msg["Subject"]
    assert msg["Bcc"] is None and msg["Cc"] is None


def test_a_lone_surrogate_stored_before_the_check_no_longer_stops_mail(notify_env, service, redis_client, smtp):
    """Names stored before the API refused them still get their mail."""
    game_id, _, _ = new_game(service, names=("Ann\ud800", "Bob\udfff"))  # (a title could not even be stored)
    run_jobs(redis_client)
    seat = to_act(service, game_id)[0]
    mails = smtp.to(f"p{seat}@example.test", "your_turn")
    assert len(mails) == 1
    assert mails[0]["To"].addresses[0].display_name.endswith("\ufffd")


# -- list options ------------------------------------------------------------------


@pytest.mark.parametrize("options", [{"expansions": [[]]}, {"expansions": ["cult", "cult"]},
                                     {"expansions": [None]}, {"draw_order": [{}]}])
def test_list_options_with_odd_elements_are_refused(api_server, http, redis_client, options):
    before = stored(redis_client)
    r = http.post(f"{api_server.url}/games", json={"game": "carcassonne", "players": 2, "options": options})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_option_value" and error["details"]["option"] == next(iter(options))
    assert stored(redis_client) == before
