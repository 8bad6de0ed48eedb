"""A seat handed to a bot on the game page, in a real browser at a phone's
width: Ann offers her seat to a bot with a button, Bob sees the request
arrive live and accepts; Ann's page says a bot plays for her and she takes
the seat back with a button; a real worker applies the moves. In English,
Traditional Chinese and the pseudo-locale (no English left in the part).
Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import pytest

from .conftest import wait_until
from .pages_support import NAMES, pages_app, pages_server, seated, stream_port  # noqa: F401
from .pseudo_support import leftover_english
from .test_takebacks_browser import PHONE, no_sideways_scroll, open_seat

pytestmark = pytest.mark.timeout(200)

WORDS = {"en": ("asks that a bot (greedy) play their seat", "A bot (greedy) plays your seat for you."),
         "zh-Hant": ("要求暫時由機器人（貪婪）代替他下棋", "機器人（貪婪）正在代替你下棋。")}


def test_a_seat_handed_over_and_taken_back_on_the_page(browser, service, pages_server, start_worker, screenshots):
    start_worker(scheduler=False)
    context = browser.new_context(viewport=PHONE)
    for lang in ("en", "zh-Hant", "x-pseudo"):
        game_id, _keys, _tokens = seated(service, "wakanda")
        ann, errors = open_seat(context, pages_server, game_id, 0, lang)
        bob, errors_bob = open_seat(context, pages_server, game_id, 1, lang)
        ann.click("#handover details.handover-offer > summary")
        offer = ann.inner_text("#handover")
        no_sideways_scroll(ann)
        ann.locator("#handover").scroll_into_view_if_needed()
        ann.screenshot(path=str(screenshots / f"offer-{lang}.png"))
        ann.click("button.handover-greedy")
        bob.wait_for_selector("#handover button.handover-accept", timeout=15000)  # live, no reload
        asked = bob.inner_text("#handover")
        no_sideways_scroll(bob)
        bob.locator("#handover").scroll_into_view_if_needed()
        bob.screenshot(path=str(screenshots / f"asked-{lang}.png"))
        bob.click("button.handover-accept")
        wait_until(lambda: (service.store.seats(game_id)[0].get("handed_over") == "greedy"), timeout=15)
        ann.wait_for_selector("#handover button.handover-return", timeout=15000)
        handed = ann.inner_text("#handover")
        ann.locator("#handover").scroll_into_view_if_needed()
        ann.screenshot(path=str(screenshots / f"handed-{lang}.png"))
        if lang in WORDS:
            assert WORDS[lang][0] in asked, asked
            assert WORDS[lang][1] in handed, handed
        else:
            for text in (offer, asked, handed):
                assert leftover_english(text, NAMES) == [], text
        ann.click("button.handover-return")
        wait_until(lambda: "bot_key" not in service.store.seats(game_id)[0], timeout=15)
        ann.wait_for_selector("#handover button.handover-return", state="detached", timeout=15000)
        assert errors == [] and errors_bob == [], errors + errors_bob
        ann.close()
        bob.close()
    context.close()
