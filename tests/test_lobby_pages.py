"""The lobby over real HTTP: its dates (created, last move) in the reader's
language and zone, "my games" (``GET /my-games``: the games of the seats a
browser names, waiting ones first, finished last, nothing private), the
create form built from the game registry (an option a game gains appears on
it with no change to the page), and the site's icon linked from every page."""
from __future__ import annotations

import dataclasses
import random
import re

import pytest

from pbem import games
from pbem.games.base import Option
from pbem.trust.signing import generate_key

from .pages_support import NAMES, pages_app, pages_server, stream_port, play, seated  # noqa: F401

pytestmark = pytest.mark.timeout(120)


def rows_of(html: str) -> list[str]:
    return re.findall(r'<tr data-game="([^"]+)"', html)


def test_my_games_lists_the_named_seats_games_waiting_ones_first_finished_last(service, pages_server, http):
    active, keys, tokens = seated(service, "wakanda", title="Mine, in play")
    to_act = service.get_game(active, None)["to_act"]
    idle = 1 - to_act[0]                   # a seat of it that is not to act
    second, keys2, tokens2 = seated(service, "wakanda", title="Mine, my turn")
    acting = service.get_game(second, None)["to_act"][0]
    done, keys3, tokens3 = seated(service, "wakanda", title="Mine, over")
    play(service, done, keys3, tokens3, random.Random(7))
    waiting_room = service.create_game("kachina", 3, {}, "Mine, open")["id"]
    service.join(waiting_room, 1, generate_key()[1], "Ann")
    other = service.create_game("wakanda", 2, {}, "Not mine")["id"]
    held = [f"{active}.{idle}", f"{second}.{acting}", f"{done}.0", f"{waiting_room}.1",
            "nosuchgame.0", "bad", f"{active}.x", "." * 5]
    resp = http.get(f"{pages_server.url}/my-games", params={"seat": held})
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("application/json")
    assert resp.headers["Cache-Control"] == "no-store"
    body = resp.json()
    assert body["count"] == 4 and body["waiting"] == 1
    order = rows_of(body["html"])
    assert order[0] == second and order[-1] == done and set(order[1:3]) == {active, waiting_room}
    assert other not in body["html"] and "nosuchgame" not in body["html"]
    part = body["html"]
    assert part.index('id="mine-waiting"') < part.index('id="mine-others"') < part.index('id="mine-finished"')
    assert "Your turn." in part.split('id="mine-others"')[0]
    assert "(your seat 1)" in part  # the open game's seat this browser holds
    # Nothing private: no token, no key, no address on the part.
    assert not any(t in part for t in tokens.values())
    nobody = http.get(f"{pages_server.url}/my-games").json()
    assert nobody["count"] == 0 and "This browser holds no seat" in nobody["html"]


def test_the_lobby_dates_read_in_the_readers_language_and_zone(service, pages_server, http):
    game_id, keys, tokens = seated(service, "carcassonne", title="Dated")
    play(service, game_id, keys, tokens, random.Random(1), moves=2)
    url = pages_server.url
    english = http.get(f"{url}/", cookies={"pbem_tz": "America/New_York"}).text
    row = english.split(f'<tr data-game="{game_id}"')[1].split("</tr>")[0]
    assert "last move " in row and "created " in row and row.count("America/New_York") == 2
    assert row.count("<time datetime=") == 2
    no_zone = http.get(f"{url}/", cookies={"pbem_tz": "Mars/Olympus"}).text   # not a zone: the language's
    assert "Mars" not in no_zone and " UTC" in no_zone.split(f'<tr data-game="{game_id}"')[1].split("</tr>")[0]
    chinese = http.get(f"{url}/?lang=zh-Hant").text
    row = chinese.split(f'<tr data-game="{game_id}"')[1].split("</tr>")[0]
    assert "最後一步" in row and "建立於" in row and row.count("台北標準時間") == 2


def test_the_form_offers_every_games_options_and_one_a_game_gains(service, pages_server, http, monkeypatch):
    page = http.get(pages_server.url + "/").text
    for game in games.latest_games():
        part = page.split(f'<fieldset class="game-options" data-game="{game.name}"')[1].split("</fieldset>")[0]
        assert [o.name for o in game.options] == re.findall(r'<div class="option" data-option="([^"]+)"', part)
    wakanda = games.get("wakanda")
    gained = Option("moonlight_rule", 3, "a rule added later", kind=int, minimum=1, maximum=9)
    monkeypatch.setattr(wakanda, "options", (*wakanda.options, gained))
    page = http.get(pages_server.url + "/").text
    part = page.split('<fieldset class="game-options" data-game="wakanda"')[1].split("</fieldset>")[0]
    new = part.split('data-option="moonlight_rule"')[1].split("</div>")[0]
    assert 'data-type="int"' in new and 'type="number"' in new and 'min="1"' in new and 'max="9"' in new
    assert "a rule added later" in new and 'value="3"' in new


def test_every_page_links_the_icon_and_it_is_served(service, pages_server, http):
    game_id, keys, tokens = seated(service, "wakanda")
    url = pages_server.url
    for path in ("/", f"/g/{game_id}", f"/g/{game_id}/v/1", "/g/nosuchgame", "/docs"):
        resp = http.get(url + path)
        assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in resp.text, path
    svg, ico = http.get(url + "/favicon.svg"), http.get(url + "/favicon.ico")
    assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")
    assert ico.status_code == 200 and ico.headers["Content-Type"] == "image/x-icon"
