"""Finished games compacted into one archive (Store.compact): every read
answers byte for byte the same before and after, for each viewer, over
real HTTP (a warm API process and a cold one) and from the event-stream
process; the keys the archive replaces are gone; compaction is idempotent,
refuses games not finished (or with a move still queued), and a reader
that meets it half way still reads the game whole."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest
import redis
import requests

from pbem.trust import signing
from pbem.settings.config import Settings
from pbem.service.maintenance import sweep_once
from pbem.service import chat
from pbem.store import ARCHIVED_PARTS, FINISHED_INDEX, key

from pbem.trust import play_links as links

from .conftest import LiveServer
from .stream_support import SECRET, stream_world  # noqa: F401  (a fixture)
from .redis_contents import every_key


class LinkConf:
    """What play links are made with: the stream world's secret (the API's)."""
    public_url = "http://x"
    secret = staticmethod(lambda: SECRET.encode())


def seat_game(service, name, players, options=None):
    game_id = service.create_game(name, players, options or {})["id"]
    keys, tokens = [], []
    for seat in range(players):
        private, public = signing.generate_key()
        tokens.append(service.join(game_id, seat, public, f"p{seat}")["token"])
        keys.append(private)
    return game_id, keys, tokens


def play_out(service, game_id, keys, rng, rejected_every=7):
    """Random legal moves until the game ends, through submit and the
    worker's apply; every few moves a second envelope at the same version
    (applied after the first: rejected stale), so statuses of both kinds exist."""
    n = 0
    while True:
        loaded = service.load(game_id)
        if loaded.finished:
            return
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        legal = loaded.game.legal_moves(loaded.state, seat)
        first = service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, rng.choice(legal),
                                                              keys[seat]))
        second = None
        n += 1
        if n % rejected_every == 0 and loaded.game.window(loaded.state) is None:   # strict here
            second = service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version,
                                                                   rng.choice(legal), keys[seat]))
        assert service.apply_move(game_id, first["id"])["status"] == "applied"
        if second:
            assert service.apply_move(game_id, second["id"])["status"] == "rejected"


#: Past states and moves a seat reads (every one for the spectator): see everything_read.
STATES_STRIDE = 7


def everything_read(url: str, game_id: str, tokens: list[str], stream_url: str | None = None) -> dict:
    """Every read endpoint of a game, for the spectator and each seat: bytes."""
    out = {}
    with requests.Session() as http:
        viewers = [None, *tokens]
        record = http.get(f"{url}/games/{game_id}/record").text
        move_ids = sorted({line.split('"move_id":"')[1].split('"')[0] for line in record.splitlines()
                           if '"move_id":"' in line})
        moves_hash = http.get(f"{url}/games/{game_id}").json()
        version = moves_hash["version"]
        for i, token in enumerate(viewers):
            h = {"Authorization": f"Bearer {token}"} if token else {}

            def get(path, **params):
                r = http.get(f"{url}{path}", headers=h, params=params, timeout=30)
                return r.status_code, r.headers.get("Content-Type"), r.headers.get("ETag"), r.content
            who = "spectator" if token is None else f"seat {i - 1}"
            out[(who, "game")] = get(f"/games/{game_id}")
            out[(who, "record")] = get(f"/games/{game_id}/record")
            out[(who, "chat")] = get(f"/games/{game_id}/chat")
            after = 0
            while after is not None:  # paged, as a client pages
                page = get(f"/games/{game_id}/events", after=after, limit=17)
                out[(who, "events", after)] = page
                after = json.loads(page[3])["next_after"]
            out[(who, "events", "past the end")] = get(f"/games/{game_id}/events", after=version)
            # Every state for the spectator; for each seat every STATES_STRIDE-th
            # and the last: a finished game shows every caller the same state
            # (nothing hidden), and each past state costs a replay from the start.
            for v in range(version + 1):
                if token is None or v % STATES_STRIDE == 0 or v == version:
                    out[(who, "state", v)] = get(f"/games/{game_id}/states/{v}")
            out[(who, "state", "none")] = get(f"/games/{game_id}/states/{version + 1}")
            for n, move_id in enumerate(move_ids):  # the same for the moves: every one for the spectator
                if token is None or n % STATES_STRIDE == 0:
                    out[(who, "move", move_id)] = get(f"/games/{game_id}/moves/{move_id}")
            out[(who, "move", "unknown")] = get(f"/games/{game_id}/moves/nosuchmove")
            if token:
                seat = i - 1
                out[(who, "view")] = get(f"/games/{game_id}/seats/{seat}/view")
                out[(who, "legal")] = get(f"/games/{game_id}/legal-moves")
                out[(who, "other seat")] = get(f"/games/{game_id}/seats/{(seat + 1) % len(tokens)}/view")
            if stream_url:
                r = http.get(f"{stream_url}/games/{game_id}/events/stream", headers=h, timeout=30)
                out[(who, "stream")] = r.status_code, r.content
        # The web pages (pbem/web): the lobby, the game's page, some versions'
        # pages and pictures, the live parts for each caller, each seat's play link.
        page = lambda path, h=None: (lambda r: (r.status_code, r.headers.get("Content-Type"), r.content))(
            http.get(f"{url}{path}", headers=h or {}, timeout=30))
        out["page", "lobby"] = page("/")
        out["page", "game"] = page(f"/g/{game_id}")
        for v in sorted({0, 1, version // 2, version}):
            out["page", "version", v] = page(f"/g/{game_id}/v/{v}")
            out["page", "svg", v] = page(f"/g/{game_id}/v/{v}.svg")
        for i, token in enumerate(viewers):
            out["page", "live", i] = page(f"/g/{game_id}/live", {"Authorization": f"Bearer {token}"} if token else None)
        for seat in range(len(tokens)):
            link = links.play_link(LinkConf, game_id, seat, expires=4102444800).removeprefix("http://x")
            out["page", "play", seat] = page(link)
            out["page", "play live", seat] = page(f"{link}/live")
            out["page", "play svg", seat] = page(f"{link}/v/{version}.svg")
        out["list"] = [g for g in http.get(f"{url}/games", params={"limit": 200}).json()["games"]
                       if g["id"] == game_id]
        out["list finished"] = [g for g in http.get(f"{url}/games", params={"status": "finished"}).json()["games"]
                                if g["id"] == game_id]
    return out


SETUPS = [("wakanda", 2, {"hidden_held_pieces": True}), ("kachina", 3, {}), ("carcassonne", 2, {}),
          ("cartoona", 3, {"mode": "basic"})]


@pytest.mark.parametrize("name,players,options", SETUPS, ids=[s[0] for s in SETUPS])
def test_every_read_is_the_same_after_compaction(stream_world, service, redis_client, settings, name, players,
                                                 options):
    rng = random.Random(16)
    game_id, keys, tokens = seat_game(service, name, players, options)
    # The chat goes into the archive too: a public message and a private one
    # (each seat's record and chat hold the private one or not, before and after).
    chat.say(service, game_id, 0, "good luck <all> & 好運", None, chat.ChatLimits())
    chat.say(service, game_id, 1, "just between us", 0, chat.ChatLimits())
    play_out(service, game_id, keys, rng)
    resent = None
    record = service.store.all_moves(game_id)
    signed = [r for r in record.values() if r.get("auth") == "ed25519"]
    resent = signed[-1]["envelope"]  # the move that ended the game, resent
    before = everything_read(stream_world.api, game_id, tokens, stream_world.stream.url)
    pages = {k: v for k, v in before.items() if k[0] == "page"}
    assert all(v[0] == 200 for v in pages.values()), {k: v[0] for k, v in pages.items()}
    assert b"<svg" in before["page", "svg", 0][2] and game_id.encode() in before["page", "game"][2]
    # The seats' past states and moves are the spectator's (a finished game hides nothing):
    # the spectator's, read at every version and for every move, stand for theirs
    # (everything_read).
    for kind in ("state", "move"):
        seats = [k for k in before if isinstance(k, tuple) and k[0].startswith("seat") and k[1] == kind]
        assert seats and all(before[k][3] == before[("spectator", *k[1:])][3] for k in seats), kind
    again = stream_world.http.post(f"{stream_world.api}/games/{game_id}/moves", json=resent)
    assert again.status_code == 409 and again.json()["error"]["code"] == "nonce_reused"

    assert service.compact(game_id) == "ok"
    for part in ARCHIVED_PARTS:
        assert not redis_client.exists(key(game_id, part)), part
    assert redis_client.exists(key(game_id, "archive")) and redis_client.exists(key(game_id, "meta"))
    assert service.compact(game_id) == "done"  # idempotent

    warm = everything_read(stream_world.api, game_id, tokens, stream_world.stream.url)
    assert warm == before
    # A process that never saw the game reads it from the archive alone.
    from pbem.api import create_app
    conf = dataclasses.replace(settings, stream_port=stream_world.stream.port)  # the same links
    with LiveServer(create_app(conf, redis.Redis.from_url(settings.redis_url))) as cold:
        assert everything_read(cold.url, game_id, tokens) == {k: v for k, v in before.items()
                                                              if not (isinstance(k, tuple) and k[1] == "stream")}
    # The resent envelope is still known: nonce_reused, with its move id.
    after = stream_world.http.post(f"{stream_world.api}/games/{game_id}/moves", json=resent)
    assert (after.status_code, after.content) == (again.status_code, again.content)


def test_compaction_refuses_what_is_not_finished_and_waits_for_its_grace(service, redis_client):
    rng = random.Random(3)
    game_id, keys, tokens = seat_game(service, "wakanda", 2)
    assert service.compact(game_id) == "not_finished"
    # a queued move of a finished game holds compaction back until it settles
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    queued = service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version,
                                                           loaded.game.legal_moves(loaded.state, seat)[0], keys[seat]))
    first = service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version,
                                                          loaded.game.legal_moves(loaded.state, seat)[-1], keys[seat]))
    service.apply_move(game_id, first["id"])
    play_out(service, game_id, keys, rng)
    meta = service.store.meta(game_id)
    assert service.compact(game_id, grace_s=3600) == "too_soon"
    assert service.compact(game_id) == "queued"
    assert service.apply_move(game_id, queued["id"])["status"] == "rejected"
    # the sweep finds it in the finished index (added by the finishing append) once the grace passed
    assert redis_client.zscore(FINISHED_INDEX, game_id) is not None
    conf = Settings(redis_url="unused", open_game_ttl_s=0, compact_after_s=60)
    assert sweep_once(service, conf, now=meta["finished"] + 30)["compacted"] == []
    assert redis_client.zscore(FINISHED_INDEX, game_id) is not None
    assert sweep_once(service, conf, now=meta["finished"] + 61)["compacted"] == [game_id]
    assert redis_client.zscore(FINISHED_INDEX, game_id) is None
    assert service.store.meta(game_id)["archived"]


def test_a_read_that_meets_compaction_half_way_reads_the_archive(service, redis_client):
    """The meta said 'not compacted' when it was read; the log is gone by the
    time the events are: the store's read finds the archive in the same
    atomic step and answers the same."""
    rng = random.Random(5)
    game_id, keys, _ = seat_game(service, "wakanda", 2)
    play_out(service, game_id, keys, rng)
    meta = service.store.meta(game_id)
    rows = service.store.events(game_id, 0, meta["version"])
    records = service.store.all_moves(game_id)
    seats = service.store.seats(game_id)
    assert service.compact(game_id) == "ok"
    fresh = type(service.store)(redis.Redis(connection_pool=redis_client.connection_pool))
    assert fresh.events(game_id, 0, meta["version"]) == rows
    assert fresh.events(game_id, 3, 9, limit=4) == rows[3:7]
    assert fresh.moves(game_id, list(records)) == records
    assert fresh.move(game_id, next(iter(records))) == records[next(iter(records))]
    assert fresh.seats(game_id) == seats
    assert fresh.seed(game_id) == service.store.seed(game_id)
    read = fresh.read(game_id, next(iter(records)), None, seats=True, seed=True)
    assert read.meta["version"] == meta["version"] and read.seats == seats
    assert read.move == records[next(iter(records))] and read.tail.rows == rows[:len(read.tail.rows)]


def test_a_compaction_that_finds_the_game_changed_stores_nothing(service, redis_client):
    rng = random.Random(7)
    game_id, keys, _ = seat_game(service, "wakanda", 2)
    play_out(service, game_id, keys, rng)
    version, count, archive, _ = service.store.build_archive(game_id)
    before = every_key(redis_client, service.store.game_keys(game_id))
    assert service.store.compact(game_id, version - 1, count, archive) == "moved"
    assert service.store.compact(game_id, version, count + 1, archive) == "moved"
    assert every_key(redis_client, service.store.game_keys(game_id)) == before
    assert service.store.compact(game_id, version, count, archive) == "ok"


def test_readers_racing_the_compaction_always_read_the_game_whole(api_server, service, redis_client):
    """Threads read the record, the events and a move's status over HTTP
    while the game is compacted (by the sweep's code path): every answer, before,
    during and after, is the one the game gave before."""
    import threading
    import time

    rng = random.Random(11)
    game_id, keys, tokens = seat_game(service, "kachina", 2)
    play_out(service, game_id, keys, rng)
    move_id = next(iter(service.store.all_moves(game_id)))
    paths = [f"/games/{game_id}/record", f"/games/{game_id}/events?after=0&limit=1000",
             f"/games/{game_id}/moves/{move_id}", f"/games/{game_id}/states/5"]
    expected = {p: requests.get(api_server.url + p, timeout=10).content for p in paths}
    stop, seen, wrong = threading.Event(), [0], []

    def reader(path):
        with requests.Session() as http:
            while not stop.is_set():
                body = http.get(api_server.url + path, timeout=10).content
                seen[0] += 1
                if body != expected[path]:
                    wrong.append((path, body[:200]))

    threads = [threading.Thread(target=reader, args=(p,)) for p in paths]
    for t in threads:
        t.start()
    try:
        wait_for = seen[0] + 20
        while seen[0] < wait_for:
            time.sleep(0.005)
        meta = service.store.meta(game_id)
        assert service.compact_finished(0, now=meta["finished"] + 1) == [game_id]
        wait_for = seen[0] + 40
        while seen[0] < wait_for and not wrong:
            time.sleep(0.005)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    assert wrong == [] and redis_client.exists(key(game_id, "archive"))
