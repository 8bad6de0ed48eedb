"""Whole games played from the pages only by players who read Traditional
Chinese, one per game, in a real browser (Playwright driving Debian's
chromium): each player's browser asks for Chinese (``zh-TW``), joins a seat
of a game created in ``zh-Hant`` from the game's page with its own
browser-made key, and plays every move from the page (a phone's width for
one, a desktop's for the other) until the game is over. At every move the
page a player reads has no English word left, once the players' names, the
game's id and the notation's short marks are taken out; every move is a
signed one (``ed25519``) in the record.

Only the move list is used here: playing by touching the board has its own
tests (tests/test_touch_*.py)."""
from __future__ import annotations

import json
import re

import pytest

from pbem.games.i18n import CHINESE

from .conftest import wait_until
from .pages_support import pages_app, pages_server, stream_port  # noqa: F401
from .mail_players import KACHINA_ORDER
from .test_mail_games_by_mail import CARCASSONNE_ORDER
from .test_mail_games_by_mail_zh import english_left, latin_marks

pytestmark = pytest.mark.timeout(600)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
NAMES = ("小明", "阿美")
TITLE = "週末的遊戲"
#: (game, options, how many moves at most: the games are kept short by their options)
CASES = {
    "wakanda": ("wakanda", {}),
    "kachina": ("kachina", {"tile_order": KACHINA_ORDER}),
    "carcassonne": ("carcassonne", {"expansions": ["inns_cathedrals"], "draw_order": CARCASSONNE_ORDER}),
    "cartoona_basic": ("cartoona", {"mode": "basic"}),
}
#: Shown as they are in any language: the product, and the switch's name for English.
ALWAYS = ("pbem", "English")


def watch(page) -> list:
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def join(page, seat: int, name: str) -> None:
    """Join from the page; the browser's new key's copy is taken when offered."""
    page.click(f"button.join-seat[data-seat='{seat}']")
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")
    page.wait_for_selector(f"#who:has-text('{name}'), #backup-done")
    if page.locator("#backup-done").count():
        page.click("#backup-show")
        page.click("#backup-done")
    page.wait_for_selector(f"#who:has-text('{name}')")


def english_on(page, game_id: str, marks: set) -> list:
    text = page.inner_text("body")
    for allowed in (*NAMES, TITLE, *ALWAYS):
        text = text.replace(allowed, " ")
    # (a key's fingerprint, base64, is letters too: no English word has a capital inside it)
    return [w for w in english_left(text, game_id, marks) if not re.search(r".[A-Z]", w) or w.isupper()]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_whole_game_from_the_pages_in_chinese(case, browser, service, pages_server, start_worker):
    game_name, options = CASES[case]
    start_worker()
    game_id = service.create_game(game_name, 2, options, TITLE, lang=CHINESE)["id"]
    pages, errors = [], []
    for seat, name in enumerate(NAMES):
        context = browser.new_context(viewport=DESKTOP if seat == 0 else PHONE, locale="zh-TW")
        page = context.new_page()
        errors.append(watch(page))
        page.goto(f"{pages_server.url}/g/{game_id}")
        assert page.evaluate("document.documentElement.lang") == "zh-Hant"
        join(page, seat, name)
        pages.append(page)
    for page in pages:
        page.wait_for_selector("#slider", timeout=15000)
    marks: set = set()
    moves = 0
    while True:
        game = service.get_game(game_id, None)
        if game["status"] == "finished":
            break
        seat = game["to_act"][0]
        me = pages[seat]
        # the page at this version: one a live update has not reached yet would send a stale move
        me.wait_for_selector(f"#play form.moves[data-version='{game['version']}'] button", state="attached",
                             timeout=15000)
        folded = me.locator("#play details:not([open]) > summary")
        while folded.count():  # each click changes which are folded: open the first until none is
            folded.first.click()
        buttons = me.locator("#play form.moves button")
        texts = buttons.all_inner_texts()
        marks |= latin_marks(texts)
        left = english_on(me, game_id, marks)
        assert not left, f"{case}: English left on {NAMES[seat]}'s page at version {game['version']}: {left}"
        # Cartoona's players head for its target, as in the games by mail; the others take the first line.
        pick = next((i for word in ("計分", "擺放") for i, t in enumerate(texts) if t.startswith(word)), 0)
        before = game["version"]
        buttons.nth(pick).click()
        me.wait_for_selector("#sent.good", timeout=15000)
        moves += 1
        wait_until(lambda: service.get_game(game_id, None)["version"] > before, timeout=15)
        assert moves < 400, f"{case}: not over after {moves} moves"
    for page in pages:
        page.wait_for_selector("p.turn", timeout=15000)
        wait_until(lambda: page.get_attribute("#slider", "max") == str(service.get_game(game_id, None)["version"]),
                   timeout=15)
        left = english_on(page, game_id, marks)
        assert not left, f"{case}: English left on a finished game's page: {left}"
    steps = [json.loads(line) for line in service.record_lines(game_id, None)][1:-1]
    assert sum(1 for s in steps if s.get("auth") == "ed25519") == moves and moves >= 4
    assert errors == [[], []]
