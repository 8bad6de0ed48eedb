"""Whole Cartoona games played by touching the board only (issue 28), in a
real browser at 390 px wide, through a real server, the move queue and a
worker: each seat's page (its play link) touches the marked spots of the
picture (``data-pick``: a tile in hand, the place for its part in a
creature, a new creature, a card, a tile on the table, a creature to score)
and the step panel's off-board buttons (pass, end your turn, discard it),
then Play in the confirm panel; the list of moves is never opened. A tile
chosen, the places it fits are marked, each at least 24 px square.

The full game with cards, to a target of 8 points (a seeded deal: a new
creature, a +5 card on it, a pass in the reaction window, the end of the
turn, a card on the other's tile blocked, a tile plugged into a creature,
the creature scored: the game won), and the basic game for two to its end
(every tile drawn: tiles placed and discarded). The seeds were chosen for
short games with the moves ``choose_full`` and ``choose_basic`` make.
Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import json

import pytest

from pbem.games.cartoona.data import C_KIND, CARD_KINDS, POINT_KINDS
from pbem.trust import play_links as links

from .conftest import wait_until
from .pages_support import pages_app, pages_server, stream_port, seated  # noqa: F401
from .test_touch_browser import PHONE, LinkConf, no_sideways_scroll, touch_key, watch

pytestmark = pytest.mark.timeout(300)

#: a card kind's points (+5: 5, Block: 0)
POINTS = {kind: value for kind, _name, value, _count in CARD_KINDS}


def kind_of(move: dict) -> str:
    """What a move is, for the test's tally (a placement: into a creature or new)."""
    if move["type"] == "place_tile":
        return "plug" if move["creatures"] else "new"
    return move["type"]


def choose_full(moves: list) -> int:
    """The full game: block a card when a Block is in hand (else pass); score
    what can be scored; place a tile (into a creature before a new one); play
    a plus card onto a tile; else end the turn."""
    types = [m["type"] for m in moves]
    if "block" in types:
        return types.index("block")
    if "pass" in types and "end_turn" not in types:      # a reaction window
        return types.index("pass")
    if "score" in types:
        return types.index("score")
    places = [i for i, m in enumerate(moves) if m["type"] == "place_tile"]
    plugs = [i for i in places if moves[i]["creatures"]]
    if plugs or places:
        return (plugs or places)[0]
    cards = [i for i, m in enumerate(moves) if m["type"] == "play_card" and "tile" in m
             and C_KIND[m["card"]] in POINT_KINDS and POINTS[C_KIND[m["card"]]] > 0]
    if cards:
        return cards[0]
    return types.index("end_turn")


def choose_basic(moves: list) -> int:
    """The basic game: a tile into a creature before a new one, then the first discard."""
    places = [i for i, m in enumerate(moves) if m["type"] == "place_tile"]
    plugs = [i for i in places if moves[i]["creatures"]]
    if plugs or places:
        return (plugs or places)[0]
    return [m["type"] for m in moves].index("discard_tile")


def open_pages(browser, pages_server, game_id: str, players: int) -> tuple[list, list, object]:
    context = browser.new_context(viewport=PHONE)
    pages, errors = [], []
    for seat in range(players):
        page = context.new_page()
        errors.append(watch(page))
        page.goto(links.play_link(LinkConf(pages_server.url), game_id, seat))
        page.wait_for_selector("#picture svg")
        pages.append(page)
    return pages, errors, context


def seat_to_touch(game: dict) -> int:
    """Whose decision the game waits for: a reaction window's seat, else the
    active player (in the full game the other seat may play out of turn
    meanwhile, but the turn does not wait for it)."""
    window = (game.get("view") or {}).get("window")
    if game["active"] in game["to_act"] and not window:
        return game["active"]
    return game["to_act"][0]


def play_by_touch(pages: list, service, game_id: str, choose, folder, tag: str) -> tuple[list, set]:
    """Play the game to its end by touching; returns the moves made (in
    order) and the kinds of keys touched (``hand``, ``slot``..., ``pass:offboard``)."""
    made, touched = [], set()
    shot = False
    while True:
        game = service.get_game(game_id, None)
        if game["status"] == "finished":
            return made, touched
        seat = seat_to_touch(game)
        page = pages[seat]
        page.bring_to_front()   # (a page behind another is slowed down by the browser)
        wait_until(lambda: page.locator("#play form.moves").get_attribute("data-version") == str(game["version"]),
                   timeout=15)
        page.wait_for_selector("#touch-panel.step", timeout=15000)
        legal = json.loads(page.locator("#play .legal-data").text_content())
        touch = json.loads(page.locator("#play .touch-data").text_content())
        assert page.locator("#play details.all-moves").get_attribute("open") is None   # the list, folded
        i = choose([m["move"] for m in legal])
        path = touch["paths"][i]
        for step, key in enumerate(path):
            offboard = key in touch["offboard"]
            touched.add(key.split(":")[0] + (":offboard" if offboard else ""))
            touch_key(page, key, offboard)
            if step < len(path) - 1:
                page.wait_for_selector("#touch-panel.step button.back")
                assert page.locator(f"#picture [data-pick='{key}'].picked").count() >= 1
                if not shot and key.startswith("hand:") and len(path) == 2 and path[1].startswith("slot:"):
                    # a tile chosen: the places in creatures its part fits are marked
                    page.screenshot(path=str(folder / f"{tag}-tile-chosen.png"), full_page=False)
                    slot = page.locator(f"#picture [data-pick='{path[1]}'].pickable").first
                    # big enough to touch at 390 px (WCAG 2.2's minimum target: 24 by 24 px)
                    for spot in (slot, page.locator(f"#picture [data-pick='{key}']").first):
                        box = spot.bounding_box()
                        assert box["width"] >= 24 and box["height"] >= 24, (key, box)
                    no_sideways_scroll(page)
        page.wait_for_selector("#touch-panel.confirm")
        assert page.inner_text("#touch-panel .ask") == f"Play: {legal[i]['text']}?"
        assert page.evaluate("document.activeElement.classList.contains('play-it')")
        if not shot and path[-1].startswith("slot:"):
            page.screenshot(path=str(folder / f"{tag}-confirm.png"), full_page=False)
            no_sideways_scroll(page)
            shot = True
        before = game["version"]
        page.click("#touch-panel button.play-it")
        page.wait_for_selector("#sent.good", timeout=15000)
        assert page.inner_text("#sent") == f"Played: {legal[i]['text']}."
        wait_until(lambda: service.get_game(game_id, None)["version"] > before, timeout=15)
        made.append(legal[i]["move"])


def assert_the_record_is_the_pages(service, game_id: str, token: str, made: list) -> None:
    """Every move of the record was sent by a page (its play link), the moves touched, in order."""
    steps = [r for r in map(json.loads, service.record_lines(game_id, token)) if "move_id" in r]
    assert steps[0]["auth"] == "setup"
    assert [s.get("auth") for s in steps[1:]] == ["mail-link"] * len(made)
    assert [s["envelope"]["move"] for s in steps[1:]] == made


def finish(pages: list, errors: list, folder, tag: str) -> None:
    for page in pages:
        page.wait_for_selector("p.turn:has-text('Game over')", timeout=15000)
        assert page.locator("#touch-panel:not([hidden])").count() == 0
        no_sideways_scroll(page)
    pages[0].screenshot(path=str(folder / f"{tag}-over.png"), full_page=True)
    assert errors == [[] for _page in pages]


def test_a_full_cartoona_game_by_touching_the_board(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, _keys, tokens = seated(service, "cartoona", options={"target_score": 8, "block_out_of_turn": True},
                                    seed=b"cartouch-34")
    pages, errors, context = open_pages(browser, pages_server, game_id, 2)
    made, touched = play_by_touch(pages, service, game_id, choose_full, screenshots, "full")
    kinds = [kind_of(m) for m in made]
    assert {"new", "plug", "play_card", "pass", "block", "end_turn", "score"} <= set(kinds), kinds
    assert kinds[-1] == "score"
    assert {"hand", "new", "slot", "card", "tile", "creature", "pass:offboard", "end:offboard"} <= touched, touched
    game = service.get_game(game_id, None)
    assert game["status"] == "finished" and max(game["view"]["scores"]) >= 8
    assert_the_record_is_the_pages(service, game_id, tokens[0], made)
    finish(pages, errors, screenshots, "full")
    context.close()


def test_a_basic_cartoona_game_by_touching_the_board(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, _keys, tokens = seated(service, "cartoona", options={"mode": "basic"}, seed=b"cartouch-37")
    pages, errors, context = open_pages(browser, pages_server, game_id, 2)
    made, touched = play_by_touch(pages, service, game_id, choose_basic, screenshots, "basic")
    assert {"new", "plug", "discard_tile"} <= {kind_of(m) for m in made}
    assert {"hand", "new", "slot", "discard:offboard"} <= touched, touched
    game = service.get_game(game_id, None)
    assert game["status"] == "finished" and game["view"]["stack"] == 0
    assert_the_record_is_the_pages(service, game_id, tokens[0], made)
    finish(pages, errors, screenshots, "basic")
    context.close()
