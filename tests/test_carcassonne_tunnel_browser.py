"""The Tunnel's decision made by touching the board, in a real browser at 390 px,
through a real server, the move queue and a worker: seat 0 touches TU2 (two free
mouths), the west road's mouth, then the colour's button, and plays; the token is on
the picture in its colour. Then the same page in Chinese (``?lang=zh-Hant``).
Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import json

import pytest

from pbem.games.base import canonical

from .conftest import wait_until
from .pages_support import pages_app, pages_server, stream_port, seated  # noqa: F401
from .test_carcassonne_touch_browser import place_by_pointing, wait_for_version
from .test_touch_browser import no_sideways_scroll, open_pages, touch_key

pytestmark = pytest.mark.timeout(120)


def test_a_tunnel_token_by_touching_the_board(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    options = {"draw_order": ["TU2", "A", "A"], "start_player": 0, "expansions": ["tunnel"]}
    game_id, _keys, _tokens = seated(service, "carcassonne", options=options)
    pages, errors, context = open_pages(browser, service, pages_server, game_id, 2)
    page = pages[0]
    wait_for_version(page, service.get_game(game_id, None)["version"])
    place_by_pointing(page, {"x": 1, "y": 0, "rotation": 0, "figure": "follower", "on": "road W"})
    wait_until(lambda: service.get_game(game_id, None)["view"]["step"] == "resolve_figures", timeout=20)
    game = service.get_game(game_id, None)
    wait_for_version(page, game["version"])
    legal = json.loads(page.locator("#play .legal-data").text_content())
    touch = json.loads(page.locator("#play .touch-data").text_content())
    wanted = {"type": "tunnel", "x": 1, "y": 0, "on": "road W", "colour": "green"}
    index = [canonical(m["move"]) for m in legal].index(canonical(wanted))
    assert touch["paths"][index] == ["cell:1,0", "seg:1,0:road W", "colour:green"]
    assert "pass" in touch["offboard"] and "colour:green" in touch["offboard"]
    page.wait_for_selector("#touch-panel.step", timeout=15000)
    for step, key in enumerate(touch["paths"][index]):
        touch_key(page, key, key in touch["offboard"])
        if step < 2:
            page.wait_for_selector("#touch-panel.step button.back")
    page.wait_for_selector("#touch-panel.confirm")
    assert page.inner_text("#touch-panel .ask") == "Play: tunnel 1,0 road W green?"
    page.screenshot(path=str(screenshots / "tunnel-confirm.png"), full_page=False)
    no_sideways_scroll(page)
    page.click("#touch-panel button.play-it")
    page.wait_for_selector("#sent.good", timeout=15000)
    wait_until(lambda: service.get_game(game_id, None)["version"] > game["version"], timeout=20)
    view = service.get_game(game_id, None)["view"]
    assert view["tunnel"]["tokens"] == [{"x": 1, "y": 0, "on": "road W", "colour": "green", "player": 0}]
    # seat 1's page: the green token on the board, and in Chinese the panel's lines
    other = pages[1]
    other.goto(other.url.split("?")[0] + "?lang=zh-Hant")
    other.wait_for_selector("#picture svg [data-figure='tunnel token']", timeout=15000)
    text = other.inner_text("body")
    assert "隧道" in text
    other.screenshot(path=str(screenshots / "tunnel-zh.png"), full_page=True)
    no_sideways_scroll(other)
    assert errors == [[], []]
    context.close()
