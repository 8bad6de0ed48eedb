"""Whole games played by touching the board only (issue 28), in a real
browser at 390 px wide, through a real server, the move queue and a worker:
each seat's page (its play link) touches the marked spots of the picture
(``data-pick``) and the step panel's off-board buttons, then Play in the
confirm panel; the list of moves is never clicked. Kachina (a short fixed
deal with an opening redraw, covers and swaps) and Wakanda.
Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import json
import random
import re

import pytest

from pbem.trust import play_links as links

from .conftest import wait_until
from .pages_support import LinkConf, NAMES, SECRET, pages_app, pages_server, stream_port, seated  # noqa: F401

pytestmark = pytest.mark.timeout(300)
PHONE = {"width": 390, "height": 844}

#: Kachina's shortest deal for two (15 tiles: two hands and the pile's five):
#: seat 0 holds three Suns (it may redraw), Eagles and Warriors to cover and swap
KACHINA_ORDER = ["sun", "sun", "sun", "eagle", "warrior", "chief", "wolf", "hummingbird", "eagle", "warrior",
                 "koshari", "wolf", "chief", "eagle", "warrior"]

#: The confirm panel's note on taking the move back (the English message)
TAKEBACK_NOTE = ("Once sent, a move can be taken back only if every other player agrees before anyone moves "
                 "again, and only if it drew or revealed nothing.")


def watch(page) -> list:
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def touch_data(page) -> tuple[list, dict]:
    legal = json.loads(page.inner_text("#play .legal-data") or "[]") if page.locator("#play .legal-data").count() \
        else []
    touch = json.loads(page.locator("#play .touch-data").text_content())
    return legal, touch


def touch_key(page, key: str, offboard: bool) -> None:
    """Touch one key: its spot on the board (it must be marked and labelled),
    or its button in the step panel."""
    if offboard:
        page.click(f"#touch-panel button.offboard[data-key='{key}']")
        return
    spot = page.locator(f"#picture [data-pick='{key}'].pickable").first
    assert spot.get_attribute("role") == "button" and spot.get_attribute("tabindex") == "0"
    assert spot.get_attribute("aria-label")
    spot.click()


def play_by_touch(pages: list, service, game_id: str, tokens: dict, choose, folder, tag: str) -> int:
    """Play the game to its end by touching: ``choose(legal, touch)`` picks
    the index of the move to make. Returns the number of moves made."""
    moves = 0
    rng = random.Random(5)
    while True:
        game = service.get_game(game_id, None)
        if game["status"] == "finished":
            return moves
        seat = game["to_act"][0]
        page = pages[seat]
        page.bring_to_front()   # (a page behind another is slowed down by the browser)
        page.wait_for_selector("#touch-panel.step", timeout=15000)
        wait_until(lambda: page.locator("#play form.moves").get_attribute("data-version") == str(game["version"]),
                   timeout=15)
        legal = json.loads(page.locator("#play .legal-data").text_content())
        touch = json.loads(page.locator("#play .touch-data").text_content())
        assert page.locator("#play details.all-moves").get_attribute("open") is None   # the list, folded
        i = choose(legal, touch, rng)
        path = touch["paths"][i]
        for step, key in enumerate(path):
            touch_key(page, key, key in touch["offboard"])
            if step < len(path) - 1:
                page.wait_for_selector("#touch-panel.step button.back")
        page.wait_for_selector("#touch-panel.confirm")
        assert page.inner_text("#touch-panel .ask") == f"Play: {legal[i]['text']}?"
        # Play has the focus: Enter would play it as well as a tap
        assert page.evaluate("document.activeElement.classList.contains('play-it')")
        if moves in (0, 3):
            page.screenshot(path=str(folder / f"{tag}-confirm-{moves}.png"), full_page=False)
            no_sideways_scroll(page)
        before = game["version"]
        page.click("#touch-panel button.play-it")
        page.wait_for_selector("#sent.good", timeout=15000)
        assert page.inner_text("#sent") == f"Played: {legal[i]['text']}."
        wait_until(lambda: service.get_game(game_id, None)["version"] > before, timeout=15)
        # the focus is back on the board, where the player was
        wait_until(lambda: page.evaluate("document.activeElement && document.activeElement.id") == "picture",
                   timeout=5)
        last = [r for r in map(json.loads, service.record_lines(game_id, tokens[seat]))
                if r.get("envelope")][-1]
        assert last["auth"] == "mail-link" and last["envelope"]["move"] == legal[i]["move"]
        moves += 1


def open_pages(browser, service, pages_server, game_id: str, players: int) -> tuple[list, list, object]:
    context = browser.new_context(viewport=PHONE)
    pages, errors = [], []
    for seat in range(players):
        page = context.new_page()
        errors.append(watch(page))
        page.goto(links.play_link(LinkConf(pages_server.url), game_id, seat))
        page.wait_for_selector("#picture svg")
        pages.append(page)
    return pages, errors, context


def test_a_whole_kachina_game_by_touching_the_board(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, _keys, tokens = seated(service, "kachina", options={"tile_order": KACHINA_ORDER, "start_player": 0})
    pages, errors, context = open_pages(browser, service, pages_server, game_id, 2)
    kinds = set()

    def choose(legal, touch, rng):
        types = [m["move"]["type"] for m in legal]
        for wanted in ("redraw", "cover", "swap", "discard"):
            if wanted in types and wanted not in kinds:
                kinds.add(wanted)
                return types.index(wanted)
        i = rng.randrange(len(legal))
        kinds.add(types[i])
        return i

    moves = play_by_touch(pages, service, game_id, tokens, choose, screenshots, "kachina")
    assert moves >= 10
    assert {"redraw", "place", "cover"} <= kinds, kinds
    for page in pages:
        page.wait_for_selector("p.turn:has-text('Game over')", timeout=15000)
        assert page.locator("#touch-panel:not([hidden])").count() == 0
        no_sideways_scroll(page)
    pages[0].screenshot(path=str(screenshots / "kachina-over.png"), full_page=True)
    assert errors == [[], []]
    context.close()


def test_a_whole_wakanda_game_by_touching_the_board(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, _keys, tokens = seated(service, "wakanda", options={"start_player": 0})
    pages, errors, context = open_pages(browser, service, pages_server, game_id, 2)
    kinds = set()

    def choose(legal, touch, rng):
        types = [m["move"]["type"] for m in legal]
        claims = [i for i, t in enumerate(types) if t == "claim"]
        # claim now and then (a game ends sooner when poles are claimed)
        if claims and (rng.random() < 0.4 or "claim" not in kinds):
            kinds.add("claim")
            return rng.choice(claims)
        i = rng.randrange(len(legal))
        kinds.add(types[i])
        return i

    moves = play_by_touch(pages, service, game_id, tokens, choose, screenshots, "wakanda")
    assert moves >= 6 and {"build", "claim"} <= kinds
    for page in pages:
        page.wait_for_selector("p.turn:has-text('Game over')", timeout=15000)
        no_sideways_scroll(page)
    pages[1].screenshot(path=str(screenshots / "wakanda-over.png"), full_page=True)
    assert errors == [[], []]
    context.close()


def test_back_and_cancel_and_the_keyboard(browser, service, pages_server, start_worker, screenshots):
    """A step is undone with Back, all of them with Cancel; the marked spots
    are reached with Tab and touched with Enter; nothing is sent until Play."""
    start_worker()
    game_id, _keys, _tokens = seated(service, "wakanda", options={"start_player": 0})
    pages, errors, context = open_pages(browser, service, pages_server, game_id, 1)
    page = pages[0]
    page.wait_for_selector("#touch-panel.step")
    version = service.get_game(game_id, None)["version"]
    first = page.locator("#picture [data-pick].pickable[tabindex='0']").first
    key = first.get_attribute("data-pick")
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#touch-panel.step button.back")
    assert page.locator(f"#picture [data-pick='{key}'].picked").count() >= 1
    assert page.evaluate("document.activeElement.matches('[data-pick].pickable')")   # the next spot
    # a live update draws the picture anew (as game.js does): the step, its marks and the focus stay
    focused = page.evaluate("document.activeElement.getAttribute('data-pick')")
    page.evaluate("(p => { p.innerHTML = p.innerHTML; })(document.querySelector('#picture'))")
    assert page.evaluate("document.activeElement.matches('[data-pick].pickable')")
    assert page.evaluate("document.activeElement.getAttribute('data-pick')") == focused
    assert page.locator(f"#picture [data-pick='{key}'].picked").count() >= 1
    page.screenshot(path=str(screenshots / "step-two.png"), full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(screenshots / "step-two-desktop.png"), full_page=False)
    page.set_viewport_size(PHONE)
    page.click("#touch-panel button.back")
    assert page.locator("#picture [data-pick].picked").count() == 0
    page.keyboard.press("Enter") if page.evaluate("document.activeElement.matches('[data-pick]')") else first.click()
    page.wait_for_selector("#touch-panel.step button.back")
    page.keyboard.press(" ")   # Space touches the focused village
    page.wait_for_selector("#touch-panel.confirm")
    page.keyboard.press("Escape")   # from the question, a step back: the village again
    page.wait_for_selector("#touch-panel.step button.back")
    assert page.locator("#picture [data-pick].picked").count() >= 1
    page.keyboard.press(" ")
    page.wait_for_selector("#touch-panel.confirm")
    page.click("#touch-panel button.cancel")
    page.wait_for_selector("#touch-panel.step")
    assert page.locator("#picture [data-pick].picked").count() == 0
    assert service.get_game(game_id, None)["version"] == version
    assert errors == [[]]
    context.close()


@pytest.mark.parametrize("lang", ["x-pseudo", "zh-Hant"])
def test_the_steps_in_the_readers_language(lang, browser, service, pages_server, screenshots):
    """The step and confirm panels and the spots' labels come from the
    catalogs: no English left in the pseudo-locale, Chinese in zh-Hant (the
    move's own line stays as the notation writes it)."""
    from pbem.games.i18n import pseudo

    from .pseudo_support import leftover_english
    game_id, _keys, _tokens = seated(service, "kachina", options={"tile_order": KACHINA_ORDER, "start_player": 0,
                                                                  "opening_redraw": False})
    context = browser.new_context(viewport=PHONE, locale="zh-TW" if lang == "zh-Hant" else "en-US")
    page = context.new_page()
    errors = watch(page)
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, 0) + f"?lang={lang}")
    page.wait_for_selector("#touch-panel.step")
    assert page.evaluate("document.documentElement.lang") == lang
    legal = json.loads(page.locator("#play .legal-data").text_content())
    touch = json.loads(page.locator("#play .touch-data").text_content())
    texts = [page.inner_text("#touch-panel")]
    labels = page.evaluate("[...document.querySelectorAll('#picture [data-pick][aria-label]')]"
                           ".map(e => e.getAttribute('aria-label'))")
    assert labels
    path = touch["paths"][0]
    for key in path:
        touch_key(page, key, key in touch["offboard"])
    page.wait_for_selector("#touch-panel.confirm")
    page.screenshot(path=str(screenshots / f"confirm-{lang}.png"), full_page=False)
    texts.append(page.inner_text("#touch-panel"))
    # takebacks exist, by consent (pbem/games/takeback.py): the note says when, not "never"
    note = page.inner_text("#touch-panel p.note")
    words = " ".join(texts + labels).replace(legal[0]["text"], " ")
    if lang == "x-pseudo":
        assert leftover_english(words) == [], words
        assert note == pseudo(TAKEBACK_NOTE), note
    else:
        assert re.search(r"[\u4e00-\u9fff]", texts[0]) and re.search(r"[\u4e00-\u9fff]", texts[1])
        assert all(re.search(r"[\u4e00-\u9fff]", label) for label in labels), labels
        assert not re.search(r"[A-Za-z]{3,}", words), words
        assert page.inner_text("#touch-panel button.play-it") == "下這一步"
        assert "同意" in note and "悔棋" in note and "無法收回" not in note, note
    assert errors == []
    context.close()
