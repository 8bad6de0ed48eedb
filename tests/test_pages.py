"""The web pages over real HTTP (the API's own application on loopback):
the lobby, a game's page and its versions, the pictures of the replay
slider, the live parts, play links (made, checked, refused), and what a
spectator's page leaves out."""
from __future__ import annotations

import random
import re
import time

import pytest

from pbem.trust.signing import generate_key
from pbem.trust import play_links as links

from .pages_support import NAMES, SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401

pytestmark = pytest.mark.timeout(120)


def test_lobby_lists_open_active_and_finished_games(service, pages_server, http):
    open_id = service.create_game("wakanda", 2, {}, "Waiting room", listed=True)["id"]
    service.join(open_id, 0, generate_key()[1], "Ann")
    active_id, keys, tokens = seated(service, "carcassonne", title="Sunday tiles")
    play(service, active_id, keys, tokens, random.Random(1), moves=3)
    done_id, keys2, tokens2 = seated(service, "wakanda", title="Done & dusted")
    final = play(service, done_id, keys2, tokens2, random.Random(2))
    resp = http.get(pages_server.url + "/")
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("text/html")
    page = resp.text
    sections = {k: page.split(f'<section id="{k}">')[1].split("</section>")[0] for k in ("open", "active", "finished")}
    assert f'href="/g/{open_id}"' in sections["open"] and "1 of 2 seats free" in sections["open"]
    assert f'href="/g/{active_id}"' in sections["active"] and "Sunday tiles" in sections["active"]
    acting = service.get_game(active_id, None)["to_act"]
    assert NAMES[acting[0]] in sections["active"]
    assert "Done &amp; dusted" in sections["finished"]   # escaped
    winner = NAMES[final["result"]["winners"][0]]
    assert f"{winner} wins" in sections["finished"] or "share first place" in sections["finished"]
    assert "Content-Security-Policy" in resp.headers


def test_game_page_shows_the_picture_players_turn_and_log(service, pages_server, http):
    game_id, keys, tokens = seated(service, "carcassonne", title="Tiles")
    play(service, game_id, keys, tokens, random.Random(3), moves=4)
    game = service.get_game(game_id, None)
    resp = http.get(f"{pages_server.url}/g/{game_id}")
    assert resp.status_code == 200
    page = resp.text
    assert "<svg" in page and 'class="coord-x"' in page    # the board picture, inline
    assert "Ann" in page and "Bob" in page
    turn = NAMES[game["to_act"][0]]
    assert f"{turn} to play." in page
    assert f'max="{game["version"]}"' in page and f'href="/g/{game_id}/v/0"' in page
    log = service.events(game_id, None, 0, 1000)["events"]
    assert len(re.findall(r'<li data-v="\d+"', page)) == len(log)
    assert "Ann drew tile" in page or "Bob drew tile" in page    # "seat 0" named
    assert 'rect class="legal"' not in page and 'class="legal' not in page   # a spectator has no moves


def test_each_version_has_a_page_and_a_picture(service, pages_server, http):
    game_id, keys, tokens = seated(service, "wakanda")
    play(service, game_id, keys, tokens, random.Random(4), moves=6)
    version = service.get_game(game_id, None)["version"]
    first = http.get(f"{pages_server.url}/g/{game_id}/v/1.svg")
    last = http.get(f"{pages_server.url}/g/{game_id}/v/{version}.svg")
    assert first.headers["Content-Type"].startswith("image/svg+xml") and first.text.startswith("<svg")
    assert first.text != last.text
    page = http.get(f"{pages_server.url}/g/{game_id}/v/2")
    assert page.status_code == 200 and 'value="2"' in page.text and "You are looking at version 2" in page.text
    missing = http.get(f"{pages_server.url}/g/{game_id}/v/{version + 5}")
    assert missing.status_code == 404 and "unknown_version" in missing.text and "<html" in missing.text
    nothing = http.get(f"{pages_server.url}/g/nosuchgame")
    assert nothing.status_code == 404 and "unknown_game" in nothing.text


def test_live_parts_are_the_callers_own(service, pages_server, http):
    game_id, keys, tokens = seated(service, "kachina")
    play(service, game_id, keys, tokens, random.Random(5), moves=3)
    game = service.get_game(game_id, None)
    seat = game["to_act"][0]
    spectator = http.get(f"{pages_server.url}/g/{game_id}/live?log=1").json()
    mine = http.get(f"{pages_server.url}/g/{game_id}/live?log=1",
                    headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    assert spectator["viewer"] is None and spectator["legal"] == []
    assert mine["viewer"] == seat and mine["legal"] and "Your turn" in mine["parts"]["status"]
    assert mine["picture"] != spectator["picture"]
    bad = http.get(f"{pages_server.url}/g/{game_id}/live", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_token"


def test_play_link_opens_the_seats_page_and_plays_a_move(service, pages_server, http, settings):
    game_id, keys, tokens = seated(service, "wakanda")
    game = service.get_game(game_id, None)
    seat = game["to_act"][0]

    class Conf:
        public_url = pages_server.url
        secret = staticmethod(lambda: SECRET.encode())

    url = links.play_link(Conf, game_id, seat)
    assert url.startswith(f"{pages_server.url}/play/{game_id}.{seat}.")
    page = http.get(url)
    assert page.status_code == 200 and "Your turn." in page.text
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
    form = re.search(r'<form class="moves" method="post" action="([^"]+)"', page.text)
    assert form and form.group(1) == url[len(pages_server.url):]
    button = re.search(r'<button type="submit" name="move" value="([^"]+)"', page.text).group(1)
    nonce = re.search(r'name="nonce" value="([^"]+)"', page.text).group(1)
    import html as html_lib
    data = {"move": html_lib.unescape(button), "expected_version": str(game["version"]), "nonce": nonce}
    # The form is posted the way a browser without script posts it.
    sent = http.post(url, data=data, allow_redirects=False)
    assert sent.status_code == 303 and "?move=" in sent.headers["Location"]
    move_id = sent.headers["Location"].split("?move=")[1]
    record = service.store.move(game_id, move_id)
    assert record["auth"] == "mail-link" and record["envelope"]["player"] == seat
    from .conftest import drain
    drain(service)
    shown = http.get(pages_server.url + sent.headers["Location"])
    assert "Your move was played" in shown.text
    again = http.post(url, data=data, allow_redirects=False)   # the same form twice: not a second move
    assert again.status_code == 409 and "nonce_reused" in again.text and "Not played" in again.text
    # Refusals in words: a move signed at an old version (a page left open), an illegal one, nonsense.
    stale = http.post(url, data={**data, "nonce": "web-another-nonce"}, allow_redirects=False)
    assert stale.status_code in (409, 422) and "Not played:" in stale.text
    bogus = http.post(url, json={"move": {"type": "fly"}, "expected_version": game["version"] + 2,
                                 "nonce": "web-json-nonce-1"})
    assert bogus.status_code in (409, 422) and bogus.json()["error"]["code"]
    broken = http.post(url, json={"move": "claim", "expected_version": -1, "nonce": "x"})
    assert broken.status_code == 422 and set(broken.json()["error"]["details"]["fields"]) == {
        "move", "expected_version", "nonce"}
    form = http.post(url, data={"move": "{not json", "expected_version": "1", "nonce": "web-nonce-xyz"})
    assert form.status_code == 422 and "invalid_request" in form.text and "<html" in form.text


def test_bad_and_expired_links_are_refused_with_a_page(service, pages_server, http):
    game_id, keys, tokens = seated(service, "wakanda")
    good = links.make_token(SECRET.encode(), game_id, 0, time.time() + 600)
    tampered = good[:-1] + ("A" if good[-1] != "A" else "B")
    other_seat = good.replace(f"{game_id}.0.", f"{game_id}.1.")
    expired = links.make_token(SECRET.encode(), game_id, 0, time.time() - 5)
    for token, code in ((tampered, "bad_link"), (other_seat, "bad_link"), ("junk", "bad_link"),
                        (expired, "link_expired")):
        resp = http.get(f"{pages_server.url}/play/{token}")
        assert resp.status_code == 401, token
        assert f"<code>{code}</code>" in resp.text and "<h1>This link does not open the game</h1>" in resp.text
    resp = http.get(f"{pages_server.url}/play/{expired}")
    assert "has expired" in resp.text and f'href="/g/{game_id}"' in resp.text
    live = http.get(f"{pages_server.url}/play/{tampered}/live")
    assert live.status_code == 401 and live.json()["error"]["code"] == "bad_link"
    # Another secret's link, a reply token, a link to a seat nobody holds: none opens a page.
    from pbem.notify.tokens import reply_token
    foreign = links.make_token(b"another server", game_id, 0, time.time() + 600)
    open_id = service.create_game("wakanda", 2)["id"]
    service.join(open_id, 0, generate_key()[1], "Ann")
    free_seat = links.make_token(SECRET.encode(), open_id, 1, time.time() + 600)
    for token in (foreign, reply_token(SECRET.encode(), game_id, 0), free_seat):
        resp = http.get(f"{pages_server.url}/play/{token}")
        assert resp.status_code == 401 and "<code>bad_link</code>" in resp.text, token
    bad = http.get(f"{pages_server.url}/g/{game_id}/live?after=1e3")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"


def test_the_tile_chooser_offers_every_segment_a_legal_move_names():
    """Each enlarged tile has a spot per segment, named as the notation names
    it, so every follower move of the legal moves has its spot."""
    from pbem import games
    from pbem.games.playout import play_random
    from pbem.pictures.carcassonne.chooser import tile_chooser

    game = games.get("carcassonne")
    for options in ({}, {"expansions": ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege",
                                        "abbey_mayor"]}):
        played = play_random(game, 2, options, seed=3)
        checked = 0
        for version, player, _ in played.moves[::3]:
            state = game.replay(2, played.options, played.events[:version])
            view, legal = game.view(state, player), game.legal_moves(state, player)
            for rotation in {m["rotation"] for m in legal if m.get("type") == "place_tile"}:
                svg = tile_chooser(view["tile"], rotation)
                spots = set(re.findall(r'class="spot[^"]*" data-on="([^"]+)"', svg))
                named = {m["on"] for m in legal if m.get("type") == "place_tile" and m["rotation"] == rotation
                         and "on" in m}
                assert named <= spots, (view["tile"], rotation, named - spots)
                assert f'data-rotation="{rotation}"' in svg and "id=" not in svg   # no ids to clash in a page
                checked += 1
        assert checked > 20
