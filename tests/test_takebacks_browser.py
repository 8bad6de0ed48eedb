"""Takebacks on the game page, in a real browser (Playwright driving
Debian's chromium) at a phone's width: the seat whose move can be taken
back asks with a button, the other seat sees the request arrive live
(the event stream) and accepts or refuses; a real worker applies the
moves. In English, Traditional Chinese and the pseudo-locale (no English
left in the part). Screenshots of the request as the other player sees it:
test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import pytest

from pbem.games.base import canonical
from pbem.trust import play_links as links

from .conftest import wait_until
from .pages_support import LinkConf, NAMES, pages_app, pages_server, seated, stream_port  # noqa: F401
from .pseudo_support import leftover_english
from .test_takebacks import undoable_move

pytestmark = pytest.mark.timeout(200)
PHONE = {"width": 390, "height": 844}


def open_seat(context, pages_server, game_id, seat, lang):
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, seat) + f"?lang={lang}")
    page.wait_for_selector("#picture svg")
    return page, errors


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_takeback_asked_and_answered_on_the_page(browser, service, pages_server, start_worker, screenshots):
    start_worker(scheduler=False)
    context = browser.new_context(viewport=PHONE)
    for lang, answer in (("en", "accept"), ("zh-Hant", "refuse"), ("x-pseudo", "accept")):
        game_id, keys, _tokens = seated(service, "cartoona")
        seat, before, _at = undoable_move(service, game_id, keys)
        after = service.load(game_id)
        other = 1 - seat
        asker, errors = open_seat(context, pages_server, game_id, seat, lang)
        answerer, errors_other = open_seat(context, pages_server, game_id, other, lang)
        assert answerer.locator("#takeback").count() == 0  # nothing asked: nothing to answer
        asker.click("button.takeback-request")
        wait_until(lambda: service.takeback_pending(game_id) is not None, timeout=15)
        # the other seat's page shows the request as it comes (no reload)
        answerer.wait_for_selector("#takeback .takeback-asked", timeout=15000)
        asked = answerer.inner_text("#takeback")
        asker.wait_for_selector("#takeback .takeback-asked", timeout=15000)
        waiting = asker.inner_text("#takeback")
        assert asker.locator("#takeback button").count() == 0  # the asker does not answer
        if lang == "en":
            assert f"{NAMES[seat]} asks to take back their last move." in asked, asked
            assert f"Waiting for {NAMES[other]} to answer." in waiting, waiting
        elif lang == "zh-Hant":
            assert f"{NAMES[seat]}要求悔棋" in asked and "接受悔棋" in asked and "拒絕悔棋" in asked, asked
        else:
            assert leftover_english(asked, [NAMES[seat], NAMES[other]]) == [], asked
            assert leftover_english(waiting, [NAMES[seat], NAMES[other]]) == [], waiting
        no_sideways_scroll(answerer)
        answerer.evaluate("document.getElementById('takeback').scrollIntoView()")  # one step: the live page may put it in place again
        answerer.screenshot(path=str(screenshots / f"asked-{lang}.png"))
        answerer.click(f"button.takeback-{answer}")
        wait_until(lambda: service.takeback_pending(game_id) is None, timeout=15)
        now = service.load(game_id)
        expected = before if answer == "accept" else after.state
        assert canonical(now.game.dump(now.state)) == canonical(now.game.dump(expected))
        answerer.wait_for_selector("#takeback .takeback-asked", state="detached", timeout=15000)
        assert errors == [] and errors_other == [], errors + errors_other
        asker.close()
        answerer.close()
    context.close()
