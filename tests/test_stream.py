"""The live event stream over real HTTP: the stream process (its own OS
process), the API on loopback, real RQ workers applying moves, one real
Redis. Every streamed event is compared with the game's own filter and with
``GET /games/{id}/events`` for the same caller."""
from __future__ import annotations

import random
import threading
import time

import pytest
import requests

from pbem import games
from pbem.trust import signing
from pbem.client import ApiError, Client, open_stream
from pbem.games.base import SPECTATOR
from pbem.store import Store
from pbem.trust.tickets import make_ticket

from .conftest import drain, wait_until
from .stream_support import Collector, play, seated, stream_world  # noqa: F401  (a fixture)


def data_of(items) -> list[dict]:
    return [ev.data for ev in items if ev.event == "event"]


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_spectator_stream_gets_every_event_of_a_wakanda_game_redacted(stream_world, start_worker, redis_client):
    start_worker()
    c, game_id, keys = seated(stream_world.api, "wakanda")
    watcher = Collector(stream_world.open(game_id))  # a spectator, from version 0
    play(c, game_id, keys, random.Random(5), 500)
    items = watcher.ended()
    final = c.game(game_id)
    assert final["status"] == "finished"
    events, end = items[:-1], items[-1]
    # every event, in order, its version as its id, and then the end
    assert [int(ev.id) for ev in events] == list(range(1, final["version"] + 1))
    assert all(ev.event == "event" and ev.data["version"] == int(ev.id) for ev in events)
    assert end.event == "end" and end.id is None
    assert end.data == {"status": "finished", "version": final["version"], "result": final["result"]}
    # redacted for a spectator while the game ran; the last move's events
    # came once it was over, public (as GET /events shows them then)
    wakanda = games.get("wakanda")
    rows = Store(redis_client).events(game_id, 0)
    last_move = rows[-1][2]
    hidden = 0
    for ev, (version, raw, move_id) in zip(events, rows):
        public = move_id == last_move
        assert ev.data["event"] == (raw if public else wakanda.redact(raw, SPECTATOR)), version
        assert ev.data["move_id"] == move_id and ev.data["text"]
        hidden += ev.data["event"] != raw
    assert hidden, "no event of this game was redacted: the test shows nothing"
    # a stream opened on the finished game: everything, public, then the end
    again = stream_world.open(game_id, after=final["version"] - 5)
    late = list(again)
    assert data_of(late) == c.events(game_id, after=final["version"] - 5)["events"]
    assert late[-1].event == "end"


def test_seat_streams_show_that_seats_secrets_and_a_spectators_none(stream_world, start_worker):
    """Kachina deals each seat its tiles secretly: a seat's stream shows its
    own, a spectator's none; each stream equals GET /events for its caller."""
    start_worker()
    c, game_id, keys = seated(stream_world.api, "kachina", players=3)
    tokens = {seat: c.tokens[(game_id, seat)] for seat in range(3)}
    ticket = c._call("POST", f"/games/{game_id}/seats/1/ticket", token=tokens[1], json={"ttl_s": 60})
    assert ticket["seat"] == 1 and ticket["stream_url"].startswith(stream_world.stream_url(game_id))
    streams = {
        0: Collector(stream_world.open(game_id, tokens[0])),            # a bot: bearer token
        1: Collector(open_stream(stream_world.http, ticket["stream_url"], timeout=20)),  # a page: ticket
        SPECTATOR: Collector(stream_world.open(game_id)),
    }
    version = play(c, game_id, keys, random.Random(2), 12)
    assert c.game(game_id)["status"] == "active"
    for viewer, collector in streams.items():
        got = data_of(collector.until(version))
        assert [item["version"] for item in got] == list(range(1, version + 1))
        assert got == c.events(game_id, viewer, limit=1000)["events"], f"viewer {viewer}"
        collector.stream.close()
    seen = {viewer: data_of(collector.items) for viewer, collector in streams.items()}
    for seat in (0, 1):
        mine = [item for item in seen[seat] if seat in item["event"].get("to", ()) and "secret" in item["event"]]
        assert mine, f"seat {seat} saw none of its secrets"
    assert not any("secret" in item["event"] for item in seen[SPECTATOR])
    assert seen[0] != seen[1] != seen[SPECTATOR]


def test_reconnect_with_last_event_id_resumes_with_no_gap_and_no_double(stream_world, start_worker):
    start_worker()
    c, game_id, keys = seated(stream_world.api, "wakanda")
    rng = random.Random(11)
    first = Collector(stream_world.open(game_id))
    version = play(c, game_id, keys, rng, 4)
    got = first.until(version)
    first.stream.close()
    last = got[-1].id
    play(c, game_id, keys, rng, 5)  # while nobody watches
    # EventSource reconnects to the URL it opened (here ?after=0) with
    # Last-Event-ID: the header wins.
    second = Collector(stream_world.open(game_id, after=0, last_event_id=last))
    version = play(c, game_id, keys, rng, 3)
    more = second.until(version)
    second.stream.close()
    versions = [int(ev.id) for ev in got + more if ev.event == "event"]
    assert versions == list(range(1, version + 1))
    assert data_of(got + more) == c.events(game_id, limit=1000)["events"]
    # ?after=N alone starts at the same place
    with stream_world.open(game_id, after=int(last)) as third:
        it = iter(third)
        assert int(next(it).id) == int(last) + 1


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_streams_joining_while_events_are_appended_see_each_event_once(stream_world, service):
    """The race between a new stream's catch-up read and the live read: a
    game is played as fast as one thread can (service and drain in-process,
    same Redis) while streams join at random moments from random versions,
    some of them the game's first watcher, some not."""
    game = service.create_game("wakanda", 2)
    game_id = game["id"]
    keys = []
    for seat in range(2):
        private, public = signing.generate_key()
        service.join(game_id, seat, public, f"p{seat}")
        keys.append(private)
    done = threading.Event()
    failed = []

    def player():
        rng = random.Random(4)
        try:
            while True:
                loaded = service.load(game_id)
                if loaded.finished:
                    return
                seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
                move = rng.choice(loaded.game.legal_moves(loaded.state, seat))
                service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, move, keys[seat]))
                drain(service)
                time.sleep(rng.random() * 0.12)  # bursts and pauses
        except Exception as err:
            failed.append(err)
        finally:
            done.set()

    rng = random.Random(9)
    thread = threading.Thread(target=player, daemon=True)
    thread.start()
    joined = []
    while not done.is_set() and len(joined) < 24:
        now = service.store.version(game_id)
        after = rng.choice([0, now, max(0, now - rng.randint(0, 6))])
        joined.append((after, Collector(stream_world.open(game_id, after=after))))
        time.sleep(rng.random() * 0.03)
    thread.join(60)
    final = service.store.version(game_id)
    assert not failed and service.store.meta(game_id)["status"] == "finished", failed
    assert len(joined) >= 8, "the game ended before enough streams joined"
    for after, collector in joined:
        items = collector.ended()
        assert collector.versions() == list(range(after + 1, final + 1)), f"joined after {after}"
        assert items[-1].event == "end"


def error_of(resp: requests.Response) -> str:
    body = resp.json()
    assert set(body) == {"error"} and body["error"]["status"] == resp.status_code, body
    assert body["error"]["message"]
    return body["error"]["code"]


def test_bad_credentials_and_bad_input_are_refused_before_the_stream_starts(stream_world):
    c, game_id, _ = seated(stream_world.api, "wakanda")
    _, other_game, _ = seated(stream_world.api, "wakanda")
    url, http, secret = stream_world.stream_url(game_id), stream_world.http, stream_world.secret
    token0 = c.tokens[(game_id, 0)]
    good, _ = make_ticket(secret, game_id, 0, 60)

    def get(params=None, headers=None, path=url):
        resp = http.get(path, params=params, headers=headers, timeout=5)
        assert resp.headers["Content-Type"].startswith("application/json"), resp.headers
        return resp.status_code, error_of(resp)

    expired, _ = make_ticket(secret, game_id, 0, 60, now=time.time() - 120)
    assert get({"ticket": expired}) == (401, "ticket_expired")
    assert get({"ticket": "not-a-ticket"}) == (401, "bad_ticket")
    forged = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    assert get({"ticket": forged}) == (401, "bad_ticket")
    assert get({"ticket": make_ticket(b"another secret", game_id, 0, 60)[0]}) == (401, "bad_ticket")
    assert get({"ticket": make_ticket(secret, other_game, 0, 60)[0]}) == (401, "bad_ticket")
    assert get({"ticket": make_ticket(secret, game_id, 1, 60)[0]}, {"Authorization": f"Bearer {token0}"}) \
        == (401, "bad_ticket")  # two credentials for two seats
    assert get(headers={"Authorization": "Bearer nope"}) == (401, "bad_token")
    assert get(headers={"Authorization": "Basic eDp5"}) == (401, "bad_token")
    assert get(path=stream_world.stream_url("nosuchgame")) == (404, "unknown_game")
    assert get({"after": "x"}) == (422, "invalid_request")
    assert get({"after": "-1"}) == (422, "invalid_request")
    assert get(headers={"Last-Event-ID": "1.5"}) == (422, "invalid_request")
    assert get({"since": "1"}) == (422, "invalid_request")
    # the same ticket, genuine and in date, opens the stream as seat 0
    with stream_world.open(game_id, ticket=good) as ok:
        assert ok.resp.status_code == 200
        assert ok.resp.headers["Content-Type"].startswith("text/event-stream")
    # minting: only the seat's own token gets one
    mint = f"{stream_world.api}/games/{game_id}/seats/0/ticket"
    resp = http.post(mint, timeout=5)
    assert resp.status_code == 401 and error_of(resp) == "missing_token"
    resp = http.post(mint, headers={"Authorization": f"Bearer {c.tokens[(game_id, 1)]}"}, timeout=5)
    assert resp.status_code == 403 and error_of(resp) == "not_your_seat"
    resp = http.post(mint, json={"ttl_s": 5}, headers={"Authorization": f"Bearer {token0}"}, timeout=5)
    assert resp.status_code == 422 and error_of(resp) == "invalid_request"
    resp = http.post(f"{stream_world.api}/games/{game_id}/seats/7/ticket",
                     headers={"Authorization": f"Bearer {token0}"}, timeout=5)
    assert resp.status_code == 404 and error_of(resp) == "unknown_seat"
    resp = http.post(mint, headers={"Authorization": f"Bearer {token0}"}, timeout=5)
    assert resp.status_code == 200
    body = resp.json()
    assert body["seat"] == 0 and 290 <= body["expires"] - time.time() <= 301


def test_the_api_answers_307_to_the_stream_process_and_links_to_it(stream_world):
    c, game_id, _ = seated(stream_world.api, "wakanda", options={"hidden_held_pieces": True})
    api, http = stream_world.api, stream_world.http
    assert c.game(game_id)["links"] == {"events_stream": stream_world.stream_url(game_id)}
    resp = http.get(f"{api}/games/{game_id}/events/stream", params={"after": 2}, allow_redirects=False, timeout=5)
    assert resp.status_code == 307
    assert resp.headers["Location"] == f"{stream_world.stream_url(game_id)}?after=2"
    # A bearer token becomes a ticket in the Location (clients drop
    # Authorization on a redirect to another port): the client that follows
    # the documented path gets its seat's stream.
    token = c.tokens[(game_id, 0)]
    resp = http.get(f"{api}/games/{game_id}/events/stream", headers={"Authorization": f"Bearer {token}"},
                    allow_redirects=False, timeout=5)
    assert resp.status_code == 307 and "ticket=" in resp.headers["Location"]
    drawer = next(item["event"]["player"] for item in c.events(game_id)["events"]
                  if item["event"]["type"] == "PieceDrawn")
    with c.stream(game_id, seat=drawer, timeout=10) as mine, c.stream(game_id, timeout=10) as theirs:
        version = c.game(game_id)["version"]
        seat_items = [ev.data for _, ev in zip(range(version), mine)]
        spectator_items = [ev.data for _, ev in zip(range(version), theirs)]
    assert seat_items == c.events(game_id, drawer)["events"]
    assert spectator_items == c.events(game_id)["events"]
    drawn = [i["event"] for i in seat_items if i["event"]["type"] == "PieceDrawn"]
    assert drawn and "secret" in drawn[0], "the seat's own draw, shown to that seat"
    assert not any("secret" in i["event"] for i in spectator_items)
    # refusals come from the API itself, in the one format
    resp = http.get(f"{api}/games/nosuchgame/events/stream", allow_redirects=False, timeout=5)
    assert resp.status_code == 404 and error_of(resp) == "unknown_game"
    resp = http.get(f"{api}/games/{game_id}/events/stream", headers={"Authorization": "Bearer nope"},
                    allow_redirects=False, timeout=5)
    assert resp.status_code == 401 and error_of(resp) == "bad_token"
    resp = http.get(f"{api}/games/{game_id}/events/stream", params={"after": "x"}, allow_redirects=False, timeout=5)
    assert resp.status_code == 422 and error_of(resp) == "invalid_request"
    with pytest.raises(ApiError) as err:
        Client(api).stream("nosuchgame")
    assert err.value.status == 404


def test_cors_for_the_apis_origin_and_keep_alives(stream_world):
    c, game_id, _ = seated(stream_world.api, "wakanda")
    url, http = stream_world.stream_url(game_id), stream_world.http
    origin = stream_world.api  # the API's origin (PBEM_STREAM_ORIGINS in this world)
    with open_stream(http, url, timeout=10, comments=True) as plain:
        pass
    resp = http.get(url, headers={"Origin": origin}, stream=True, timeout=5)
    assert resp.headers["Access-Control-Allow-Origin"] == origin and "Origin" in resp.headers["Vary"]
    resp.close()
    resp = http.get(url, headers={"Origin": "http://elsewhere.example"}, stream=True, timeout=5)
    assert "Access-Control-Allow-Origin" not in resp.headers
    resp.close()
    resp = http.get(url, params={"ticket": "bad"}, headers={"Origin": origin}, timeout=5)
    assert resp.status_code == 401 and resp.headers["Access-Control-Allow-Origin"] == origin  # the page can read why
    pre = http.options(url, headers={"Origin": origin, "Access-Control-Request-Method": "GET",
                                     "Access-Control-Request-Headers": "last-event-id"}, timeout=5)
    assert pre.status_code == 204 and pre.headers["Access-Control-Allow-Origin"] == origin
    assert "Last-Event-ID" in pre.headers["Access-Control-Allow-Headers"]
    # an idle stream gets keep-alive comments (every 0.5 s in this world)
    with open_stream(http, url, after=c.game(game_id)["version"], timeout=10, comments=True) as idle:
        t0 = time.monotonic()
        first = next(iter(idle))
        assert first.event == "comment" and first.comment == "keep-alive"
        assert time.monotonic() - t0 < 3
    assert plain.resp.status_code == 200
    wait_until(lambda: stream_world.stream.healthy()["streams"] == 0, timeout=10)  # closed streams let go
