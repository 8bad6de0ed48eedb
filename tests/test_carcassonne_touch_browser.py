"""A whole Carcassonne game with all ten expansions played by touching the board
only (issue 28), in a real browser at 390 px, through a real server, the move
queue and a worker: the scripted game of tests/games/test_carcassonne_all_expansions.py
(the Count's City entered and left, a volcano, a tower floor and the capture
declined, six dragon steps, the fairy, passes), each placement made with the
tile chooser (a blue frame, the turn, the figure's spot), every other decision
with touch.js (``data-pick`` spots of the picture, the step panel's buttons,
Play in the confirm panel). The list of moves is never opened.
Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import canonical

from pbem.trust import play_links as links
from pbem.trust.signing import make_envelope

from .conftest import drain, wait_until
from .games.carcassonne_support import G, new_game
from .games.test_carcassonne_all_expansions import ORDER, SCRIPT, NO_WHEEL
from .pages_support import pages_app, pages_server, stream_port, seated  # noqa: F401
from .test_pages_axe import LinkConf, axe_source, violations  # noqa: F401  (axe_source: a fixture)
from .test_touch_browser import PHONE, no_sideways_scroll, open_pages, touch_key

pytestmark = pytest.mark.timeout(600)


def wait_for_version(page, version: int) -> None:
    wait_until(lambda: page.locator("#play form.moves").get_attribute("data-version") == str(version), timeout=20)


def place_by_pointing(page, move: dict) -> None:
    """A placement with the tile chooser: the cell's frame, turns to the rotation,
    the figure's spot (or none), Play."""
    page.wait_for_selector("#chooser:not([hidden])", timeout=15000)
    page.locator(f'#picture svg rect.legal[data-x="{move["x"]}"][data-y="{move["y"]}"]').click()
    page.wait_for_selector("#chooser .choice")
    for _ in range(4):
        if f"turned r{move['rotation']}" in page.inner_text("#chooser .choice"):
            break
        page.click("#chooser button.turn")
    assert f"turned r{move['rotation']}" in page.inner_text("#chooser .choice")
    if move.get("figure"):
        page.locator(f'#chooser svg.tile-choice.on .spot[data-on="{move["on"]}"]').click()
        kinds = page.locator("#chooser button.figure")
        if kinds.count():
            kinds.filter(has_text=move["figure"]).first.click()
    go = page.locator("#chooser button.play-it")
    assert go.is_enabled()
    go.click()


def test_a_whole_game_with_all_expansions_by_touching_the_board(browser, service, pages_server, start_worker,
                                                                 screenshots):
    start_worker()
    options = {"draw_order": ORDER, "start_player": 0, "expansions": NO_WHEEL}
    game_id, _keys, tokens = seated(service, "carcassonne", options=options)
    pages, errors, context = open_pages(browser, service, pages_server, game_id, 2)
    state = new_game(ORDER, expansions=NO_WHEEL)       # the same game, to read the script's lines
    touched = set()
    for n, (seat, text, scores) in enumerate(SCRIPT):
        game = service.get_game(game_id, None)
        assert game["to_act"] == [seat], (n, text)
        page = pages[seat]
        page.bring_to_front()
        wait_for_version(page, game["version"])
        legal = json.loads(page.locator("#play .legal-data").text_content())
        parsed = G.parse(text, state, seat)
        wanted = state.rules.validators[parsed["type"]](state, seat, parsed)    # as the rules list it
        index = [canonical(m["move"]) for m in legal].index(canonical(wanted))
        assert page.locator("#play details.all-moves").get_attribute("open") is None
        if wanted["type"] == "place_tile":
            assert page.locator("#play .touch-data").count() == 0     # the chooser's, not touch.js's
            place_by_pointing(page, wanted)
        else:
            touch = json.loads(page.locator("#play .touch-data").text_content())
            path = touch["paths"][index]
            page.wait_for_selector("#touch-panel.step", timeout=15000)
            for step, key in enumerate(path):
                offboard = key in touch["offboard"]
                touched.add(key.split(":")[0] + (":offboard" if offboard else ""))
                touch_key(page, key, offboard)
                if step < len(path) - 1:
                    page.wait_for_selector("#touch-panel.step button.back")
            page.wait_for_selector("#touch-panel.confirm")
            assert page.inner_text("#touch-panel .ask") == f"Play: {legal[index]['text']}?"
            if n in (3, 4, 9, 11, 18):
                page.screenshot(path=str(screenshots / f"step{n}-{wanted['type']}-confirm.png"), full_page=False)
                page.locator("#picture > svg").screenshot(path=str(screenshots / f"step{n}-{wanted['type']}-board.png"))
                no_sideways_scroll(page)
            page.click("#touch-panel button.play-it")
        page.wait_for_selector("#sent.good", timeout=15000)
        wait_until(lambda: service.get_game(game_id, None)["version"] > game["version"], timeout=20)
        last = [r for r in map(json.loads, service.record_lines(game_id, tokens[seat])) if r.get("envelope")][-1]
        assert canonical(last["envelope"]["move"]) == canonical(legal[index]["move"]), (n, text)
        state = G.apply(state, G.decide(state, seat, wanted, random.Random(n)))
        assert tuple(service.get_game(game_id, None)["view"]["scores"]) == scores, (n, text)
    assert service.get_game(game_id, None)["status"] == "finished"
    # the board's own spots were touched (tiles, a district), not only buttons
    assert {"cell", "district"} <= touched, touched
    for page in pages:
        no_sideways_scroll(page)
    assert errors == [[], []]
    context.close()


def test_a_carcassonne_touch_decision_has_no_accessibility_violation(browser, service, pages_server, axe_source):
    """axe-core on the page of a seat owing step 5's action (a tower, the fairy, pass):
    the tiles marked to touch, then one touched; no violation either time."""
    options = {"draw_order": ORDER, "start_player": 0, "expansions": NO_WHEEL}
    game_id, keys, tokens = seated(service, "carcassonne", options=options)
    for seat, text, _scores in SCRIPT[:9]:          # up to seat 1's dragon tile: then its action
        parsed = service.parse(game_id, tokens[seat], text)
        service.submit(game_id, make_envelope(game_id, seat, parsed["version"], parsed["move"], keys[seat]))
        drain(service)
    assert service.get_game(game_id, None)["to_act"] == [1]
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, 1))
    page.wait_for_selector("#touch-panel.step")
    page.wait_for_load_state("networkidle")
    assert violations(page, axe_source) == [], "the tiles to touch"
    spot = page.locator("#picture [data-pick].pickable[tabindex='0']")
    assert spot.count() >= 1
    spot.first.click()
    page.wait_for_selector("#touch-panel.step button.back, #touch-panel.confirm")
    assert violations(page, axe_source) == [], "one tile touched"
    context.close()
