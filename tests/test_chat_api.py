"""The players' chat through the real API on loopback, on real Redis: who
reads what (public, private, spectators), the record, the bounds, bad input
refused with its code and nothing stored, the game's version untouched,
compaction and deletion (docs/chat.md)."""
from __future__ import annotations

import json

import pytest

from pbem.store.keys import key
from pbem.trust import record as offline

from .test_notify_support import new_game, submit

NAMES = ("Ann", "Bob", "Cy")


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def say(http, url, game_id, token, text, to=None):
    body = {"text": text} if to is None else {"text": text, "to": to}
    return http.post(f"{url}/games/{game_id}/chat", json=body, headers=auth(token))


def texts(http, url, game_id, token=None, after=0):
    r = http.get(f"{url}/games/{game_id}/chat", params={"after": after}, headers=auth(token))
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


def record_lines(http, url, game_id, token=None):
    r = http.get(f"{url}/games/{game_id}/record", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.text


@pytest.fixture
def game(service):
    return new_game(service, "kachina", {"opening_redraw": False, "start_player": 0}, "Chat", NAMES)


def test_public_and_private_messages_reach_only_their_readers(service, api_server, http, redis_client, game):
    game_id, keys, tokens = game
    url = api_server.url
    version = service.store.meta(game_id)["version"]
    r = say(http, url, game_id, tokens[0], "  hello all <b>&</b>  ")
    assert r.status_code == 201, r.text
    hello = r.json()
    assert hello["n"] == 1 and hello["seat"] == 0 and hello["name"] == "Ann" and hello["to"] is None
    assert hello["text"] == "hello all <b>&</b>"  # trimmed, kept as written (the readers escape it)
    r = say(http, url, game_id, tokens[0], "secret plan, Bob", to=1)
    assert r.status_code == 201 and r.json()["to"] == 1
    assert say(http, url, game_id, tokens[2], "哈囉").status_code == 201
    assert service.store.meta(game_id)["version"] == version  # chat never moves the game

    public = ["hello all <b>&</b>", "哈囉"]
    assert texts(http, url, game_id) == public  # a spectator
    assert texts(http, url, game_id, tokens[2]) == public  # the third seat
    everything = ["hello all <b>&</b>", "secret plan, Bob", "哈囉"]
    assert texts(http, url, game_id, tokens[0]) == everything  # the sender
    assert texts(http, url, game_id, tokens[1]) == everything  # the one it was said to
    assert texts(http, url, game_id, tokens[1], after=2) == ["哈囉"]

    # The record: the private message in its two seats' records only.
    for token, shown in ((tokens[0], True), (tokens[1], True), (tokens[2], False), (None, False)):
        text = record_lines(http, url, game_id, token)
        assert ("secret plan, Bob" in text) is shown
        lines = [json.loads(line) for line in text.splitlines()]
        chat = [line for line in lines if "chat" in line]
        assert [c["text"] for c in chat] == [t for t in everything if shown or t != "secret plan, Bob"]
        assert offline.verify_lines(text.splitlines()).chat == len(chat)

    # A move after it: the record places each message after the step it followed.
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0])
    from .conftest import drain
    drain(service)
    assert say(http, url, game_id, tokens[1], "nice move").status_code == 201
    lines = [json.loads(line) for line in record_lines(http, url, game_id, tokens[1]).splitlines()]
    said_at = [(line["chat"], line["version"]) for line in lines if "chat" in line]
    assert said_at[-1] == (4, service.store.meta(game_id)["version"])
    assert "chat" in lines[-1] and "move_id" in lines[-2]
    assert offline.verify_lines([json.dumps(line) for line in lines]).ok
    # The verifier checks where a chat line sits and between whom (it is not signed).
    for change in ({"version": 0}, {"to": 1}, {"seat": 7}, {"chat": 1}):
        tampered = [dict(line) for line in lines]
        tampered[-1].update(change)
        report = offline.verify_lines([json.dumps(line) for line in tampered])
        assert not report.ok and any("chat" in p for p in report.problems), change


def test_bad_chat_is_refused_with_its_code_and_nothing_is_stored(service, api_server, http, redis_client, game,
                                                                  monkeypatch):
    game_id, _keys, tokens = game
    url = api_server.url
    cases = [
        (tokens[0], "x" * 501, None, 422, "chat_too_long"),
        (tokens[0], "two\nlines", None, 422, "chat_control_character"),
        (tokens[0], "bell\x07", None, 422, "chat_control_character"),
        (tokens[0], "a\u202eb", None, 422, "chat_control_character"),  # a bidi override: invisible, reorders
        (tokens[0], "   ", None, 422, "chat_empty"),
        (tokens[0], "to me", 0, 422, "chat_to_self"),
        (tokens[0], "to nobody", 3, 404, "unknown_seat"),
        (tokens[0], "to nobody", -1, 404, "unknown_seat"),
        (None, "a spectator", None, 401, "missing_token"),
        ("not-a-token", "a stranger", None, 401, "bad_token"),
    ]
    for token, text, to, status, code in cases:
        r = say(http, url, game_id, token, text, to)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (text, r.text)
    assert not redis_client.exists(key(game_id, "chat"))
    assert texts(http, url, game_id, tokens[0]) == []

    # The rate: PBEM_CHAT_PER_MINUTE (10) a seat, then 429 with Retry-After; the others still talk.
    for i in range(10):
        assert say(http, url, game_id, tokens[0], f"line {i}").status_code == 201
    r = say(http, url, game_id, tokens[0], "one too many")
    assert r.status_code == 429 and r.json()["error"]["code"] == "chat_too_fast"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert say(http, url, game_id, tokens[1], "my turn to talk").status_code == 201
    assert len(texts(http, url, game_id, tokens[0])) == 11

    # Deleting the game deletes its chat (and the seats' counters) with it.
    assert redis_client.exists(key(game_id, "chat"), key(game_id, "chat:count:0")) == 2
    service.delete_game(game_id)
    assert not redis_client.keys(key(game_id, "*").replace("{", "[{]").replace("}", "[}]"))
