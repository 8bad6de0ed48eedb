"""Carcassonne's chooser in a real browser, at a phone's width: a bridge goes with
the placement (Bridges, Castles & Bazaars) chosen by its button, the enlarged tile
then shows the bridged tile, and a follower stands on the bridge by its spot."""
from __future__ import annotations

import json

import pytest

from pbem.trust import play_links as links

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
    page.locator("#picture svg").screenshot(path=str(screenshots / "bridge-board-phone.png"))
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
