"""A seat handed to a bot on the game page, in a real browser at a phone's
width: Ann offers her seat to a bot with a button, Bob sees the request
arrive live and accepts; Ann's page says a bot plays for her and she takes
the seat back with a button; a real worker applies the moves. The live path
in Traditional Chinese; each state read in English and the pseudo-locale too
(no English left in the part). Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import pytest

from .conftest import wait_until
from .pages_support import NAMES, pages_app, pages_server, seated, stream_port  # noqa: F401
from .pseudo_support import leftover_english
from .test_takebacks_browser import PHONE, no_sideways_scroll, open_seat

pytestmark = pytest.mark.timeout(200)

#: What each state's part says, in each language (None: the pseudo-locale, no English left).
WORDS = {"offer": {"en": "Away for a while? Let a bot play your seat", "zh-Hant": "讓機器人代替你下棋"},
         "asked": {"en": "Ann asks that a bot (greedy) play their seat", "zh-Hant": "Ann要求暫時由機器人（貪婪）代替他下棋"},
         "handed": {"en": "A bot (greedy) plays your seat for you.", "zh-Hant": "機器人（貪婪）正在代替你下棋。"}}


def test_a_seat_handed_over_and_taken_back_on_the_page(browser, service, pages_server, start_worker, screenshots):
    start_worker(scheduler=False)
    context = browser.new_context(viewport=PHONE)
    game_id, _keys, _tokens = seated(service, "wakanda")
    ann, errors = open_seat(context, pages_server, game_id, 0, "zh-Hant")
    bob, errors_bob = open_seat(context, pages_server, game_id, 1, "zh-Hant")

    def read(state: str, seat: int, live) -> None:
        """The part as the live page shows it (zh-Hant), then in English and the pseudo-locale."""
        for lang in ("zh-Hant", "en", "x-pseudo"):
            page, errs = (live, []) if lang == "zh-Hant" else open_seat(context, pages_server, game_id, seat, lang)
            if state == "offer":
                page.click("#handover details.handover-offer > summary")
            text = page.inner_text("#handover")
            if lang == "x-pseudo":
                assert leftover_english(text, NAMES) == [], text
            else:
                assert WORDS[state][lang] in text, (lang, text)
            no_sideways_scroll(page)
            page.evaluate("document.getElementById('handover').scrollIntoView()")  # one step: the live page may put it in place again
            page.screenshot(path=str(screenshots / f"{state}-{lang}.png"))
            assert errs == [], errs
            if page is not live:
                page.close()

    assert bob.locator("#handover details.handover-offer").count() == 1  # Bob may offer his seat too
    read("offer", 0, ann)
    ann.click("button.handover-greedy")
    bob.wait_for_selector("#handover button.handover-accept", timeout=30000)  # live, no reload
    ann.wait_for_selector("#handover .handover-said", timeout=30000)
    assert ann.locator("#handover button").count() == 0  # the asker waits
    read("asked", 1, bob)
    bob.click("button.handover-accept")
    wait_until(lambda: service.store.seats(game_id)[0].get("handed_over") == "greedy", timeout=30)
    ann.wait_for_selector("#handover button.handover-return", timeout=30000)
    read("handed", 0, ann)
    ann.click("button.handover-return")
    wait_until(lambda: "bot_key" not in service.store.seats(game_id)[0], timeout=30)
    ann.wait_for_selector("#handover button.handover-return", state="detached", timeout=30000)
    assert errors == [] and errors_bob == [], errors + errors_bob
    context.close()
