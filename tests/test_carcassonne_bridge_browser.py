"""Carcassonne's chooser in a real browser, at a phone's width: a bridge goes with
the placement (Bridges, Castles & Bazaars) chosen by its button, the enlarged tile
then shows the bridged tile, and a follower stands on the bridge by its spot; The
Tower's ransom, offered beside the placement, is a button of the chooser."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import Error as PlaywrightError

from pbem.trust import play_links as links

from pbem.trust.signing import make_envelope

from .conftest import drain, wait_until
from .pages_support import pages_app, pages_server, seated, stream_port  # noqa: F401
from .test_pages_browser import PHONE, LinkConf, shot, watch

pytestmark = pytest.mark.timeout(300)


def test_a_bridge_and_a_follower_on_it_by_pointing(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    # E (a city cap) first: at 0,-1 turned r180 a bridge W-E may go on it, a follower on the bridge
    options = {"expansions": ["bridges_castles_bazaars"], "draw_order": ["E", "V", "U"], "start_player": 0}
    game_id, _keys, tokens = seated(service, "carcassonne", options=options)
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch(page)
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, 0))      # seat 0's play link
    page.wait_for_selector("#chooser:not([hidden])", timeout=15000)
    page.locator('#picture svg rect.legal[data-x="0"][data-y="-1"]').click()
    page.wait_for_selector("#chooser .choice")
    for _ in range(4):                  # turn the tile to r180
        if "r180" in page.inner_text("#chooser .choice"):
            break
        page.click("#chooser button.turn")
    assert "r180" in page.inner_text("#chooser .choice")
    bridges = page.locator("#chooser button.bridge")
    assert bridges.count() >= 2
    assert bridges.nth(0).get_attribute("aria-pressed") == "true"        # none, until one is chosen
    assert page.locator('#chooser svg.tile-choice.on[data-bridge]').count() == 0
    assert page.locator('#chooser svg.tile-choice.on .spot[data-on="road E"]').count() == 0
    page.locator("#chooser button.bridge", has_text="(WE)").first.click()
    assert page.locator('#chooser svg.tile-choice.on[data-bridge="WE"]').count() == 1
    spot = page.locator('#chooser svg.tile-choice.on .spot[data-on="road E"]')
    assert "off" not in (spot.get_attribute("class") or "")
    spot.click()
    page.locator("#chooser").scroll_into_view_if_needed()
    shot(page, screenshots, "bridge-chooser-phone", full=False)
    page.locator("#picture > svg").screenshot(path=str(screenshots / "bridge-board-phone.png"))
    go = page.locator("#chooser button.play-it")
    assert go.is_enabled()
    go.click()
    page.wait_for_selector("#sent.good", timeout=15000)
    last = [r for r in map(json.loads, service.record_lines(game_id, tokens[0])) if r.get("envelope")][-1]
    move = last["envelope"]["move"]
    assert move == {"type": "place_tile", "x": 0, "y": -1, "rotation": 180, "bridge": [0, -1, "WE"],
                    "figure": "follower", "on": "road E"}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []


def test_the_ransom_beside_a_placement_is_a_button_of_the_chooser(browser, service, pages_server, start_worker,
                                                                  screenshots):
    start_worker()
    options = {"expansions": ["tower"], "draw_order": ["U", "E", "TO2", "TO11", "V", "B", "B"], "start_player": 0}
    game_id, keys, tokens = seated(service, "carcassonne", options=options)
    # seat 1's tower captures seat 0's thief (tests/games/test_carcassonne_tower.py)
    for seat, text in ((0, "place 1,0 r0 follower road E"), (1, "place 1,-1 r0 follower city N"),
                       (0, "place 1,1 r0"), (0, "tower 1,1"), (0, "capture none"), (1, "place 2,0 r0"),
                       (1, "tower 1,1"), (1, "capture 1,0 road E seat 0")):
        parsed = service.parse(game_id, tokens[seat], text)
        service.submit(game_id, make_envelope(game_id, seat, parsed["version"], parsed["move"], keys[seat]))
        drain(service)
    game = service.get_game(game_id, None)
    assert game["to_act"] == [0] and game["view"]["tower"]["prisoners"]
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch(page)
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, 0))
    page.wait_for_selector("#chooser:not([hidden])", timeout=15000)
    ransom = page.locator("#chooser button.away")
    assert ransom.count() == 1
    # The page may put its play part in place again as it settles (its live parts): find the button anew then.
    for attempt in range(20):
        try:
            ransom.scroll_into_view_if_needed(timeout=2000)
            break
        except PlaywrightError:
            page.wait_for_timeout(100)
    else:
        raise AssertionError("the ransom button never settled in the chooser")
    shot(page, screenshots, "ransom-chooser-phone", full=False)
    ransom.click()
    page.wait_for_selector("#sent.good", timeout=15000)
    wait_until(lambda: service.get_game(game_id, None)["version"] > game["version"], timeout=20)
    last = [r for r in map(json.loads, service.record_lines(game_id, tokens[0])) if r.get("envelope")][-1]
    assert last["envelope"]["move"] == {"type": "ransom", "from": 1, "figure": "follower"}
    assert service.get_game(game_id, None)["view"]["scores"] == [-3, 3]
    # still seat 0's placement, the ransom paid: no button for it any more
    wait_until(lambda: page.locator("#play form.moves").get_attribute("data-version")
               == str(service.get_game(game_id, None)["version"]), timeout=20)
    page.wait_for_selector("#chooser:not([hidden])", timeout=15000)
    assert page.locator("#chooser button.away").count() == 0
    assert errors == []
