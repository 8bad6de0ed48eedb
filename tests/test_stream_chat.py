"""The chat over the event stream (docs/chat.md), read raw over real HTTP
from the stream process (its own OS process) on real Redis, the messages
said through the API: each stream carries exactly the messages its viewer
may read (as ``GET /games/{id}/chat`` filters them), never a private one to
a third seat or a spectator; the game's frames keep their data; a stream
without ``?chat=`` is as before; reconnecting with ``Last-Event-ID``
(``<version>:<n>``) loses and doubles nothing. With one Redis and on a
Redis Cluster (the chat's key joins its shard's XREAD)."""
from __future__ import annotations

import pytest
import requests

from .conftest import drain, wait_until
from .stream_support import Collector, stream_world  # noqa: F401  (a fixture)
from .test_notify_support import new_game, submit, to_act

NAMES = ("Ann", "Bob", "Cy")


def say(world, game_id, token, text, to=None):
    body = {"text": text} if to is None else {"text": text, "to": to}
    r = world.http.post(f"{world.api}/games/{game_id}/chat", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return r.json()["n"]


def chat_of(items) -> list[str]:
    return [ev.data["text"] for ev in items if ev.event == "chat"]


def move(service, game_id, keys) -> int:
    loaded = service.load(game_id)
    seat = to_act(service, game_id)[0]
    submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0])
    drain(service)
    return service.store.meta(game_id)["version"]


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)  # on a cluster: the shard's reader
def test_chat_streams_filtered_per_viewer_with_both_cursors_resumed_exactly(stream_world, service, redis_client):
    world = stream_world
    game_id, keys, tokens = new_game(service, "kachina", {"opening_redraw": False, "start_player": 0}, "Chat", NAMES)
    start = service.store.meta(game_id)["version"]
    assert say(world, game_id, tokens[0], "before anyone watched") == 1
    readers = {"seat0": tokens[0], "seat1": tokens[1], "seat2": tokens[2], "spectator": None}
    plain = Collector(world.open(game_id, tokens[1], after=start))  # no ?chat=: the stream as before chat
    # The game is watched (its log only) before the first stream with chat joins and adds its chat.
    wait_until(lambda: (world.stream.healthy() or {}).get("streams") == 1, timeout=10)
    streams = {who: Collector(world.open(game_id, token, after=start, chat=0)) for who, token in readers.items()}
    for c in streams.values():  # the catch-up: what was said before the stream opened
        wait_until(lambda c=c: chat_of(c.items) == ["before anyone watched"], timeout=10)

    say(world, game_id, tokens[0], "secret plan, Bob", to=1)
    say(world, game_id, tokens[2], "hello from Cy")
    version = move(service, game_id, keys)
    say(world, game_id, tokens[1], "nice move")
    everything = ["before anyone watched", "secret plan, Bob", "hello from Cy", "nice move"]
    public = [t for t in everything if t != "secret plan, Bob"]
    expected = {"seat0": everything, "seat1": everything, "seat2": public, "spectator": public}
    wait_until(lambda: any(ev.data["version"] == version for ev in plain.items), timeout=10)
    for who, c in streams.items():
        # "nice move" is said after the move: wait for it too, not only for the move's event
        wait_until(lambda c=c, who=who: any(ev.event == "event" and ev.data["version"] == version for ev in c.items)
                   and len(chat_of(c.items)) >= len(expected[who]), timeout=10)
        assert chat_of(c.items) == expected[who], who  # in order, once each, only the readable ones
        # Each message as GET /chat gives it to the same caller (names included).
        token = readers[who]
        listed = world.http.get(f"{world.api}/games/{game_id}/chat",
                                headers={"Authorization": f"Bearer {token}"} if token else {}).json()["messages"]
        assert [ev.data for ev in c.items if ev.event == "chat"] == listed, who
        # Every frame's id names both cursors: the game's version sent and the last message number.
        game_version, said = start, 0
        for ev in c.items:
            v, n = (int(part) for part in ev.id.split(":"))
            if ev.event == "chat":
                assert n == ev.data["n"] > said and v == game_version
                said = n
            else:
                assert ev.event == "event" and v == ev.data["version"] == game_version + 1 and n == said
                game_version = v
    # A private message never reached the third seat's or the spectator's stream, not even in the raw bytes.
    assert not any("secret plan" in repr(ev.data) for who in ("seat2", "spectator") for ev in streams[who].items)
    # Without ?chat= nothing changes: no chat frame, ids the plain versions.
    assert all(ev.event == "event" and ev.id == str(ev.data["version"]) for ev in plain.items)
    plain.stream.close()

    # Resumption: the spectator's connection drops; meanwhile more is said
    # (a private message among them) and played. Reconnecting as an
    # EventSource does (the URL it opened, ?chat=0 and all, with Last-Event-ID)
    # brings exactly what it missed.
    spectator = streams.pop("spectator")
    spectator.stream.close()
    last_id = spectator.items[-1].id
    say(world, game_id, tokens[2], "Ann, between us", to=0)
    say(world, game_id, tokens[0], "while you were away")
    later = move(service, game_id, keys)
    say(world, game_id, tokens[1], "back?")
    again = Collector(world.open(game_id, after=start, chat=0, last_event_id=last_id))
    wait_until(lambda: chat_of(again.items) == ["while you were away", "back?"]
               and any(ev.event == "event" and ev.data["version"] == later for ev in again.items), timeout=10)
    assert [ev.data["version"] for ev in again.items if ev.event == "event"] == list(range(version + 1, later + 1))
    seen = spectator.items + again.items
    assert chat_of(seen) == public + ["while you were away", "back?"]  # nothing lost, nothing doubled
    assert [ev.id for ev in seen] == sorted(set(ev.id for ev in seen), key=lambda i: [int(p) for p in i.split(":")])
    again.stream.close()
    for c in streams.values():
        c.stream.close()


    # A bad chat cursor is refused before any stream starts, as a bad version is.
    url = world.stream_url(game_id)
    for params, headers, field in (({"chat": "-1"}, {}, "chat"), ({"chat": "x"}, {}, "chat"),
                                   ({}, {"Last-Event-ID": "3:x"}, "Last-Event-ID"),
                                   ({}, {"Last-Event-ID": "3:4:5"}, "Last-Event-ID"),
                                   ({}, {"Last-Event-ID": "3.4"}, "Last-Event-ID")):  # no fraction of a version
        r = requests.get(url, params=params, headers=headers, timeout=5)
        assert r.status_code == 422, (params, headers, r.text)
        assert r.json()["error"]["code"] == "invalid_request"
        assert field in r.json()["error"]["details"]["fields"], r.json()
