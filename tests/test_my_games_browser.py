"""The player's page (/my-games) in a real browser (Playwright driving
Debian's chromium), opened by a ``games`` mail's link: the games of the
address and of the seat the browser holds, merged by its script into one
list in the one order (waiting for you, the others, the finished ones),
each with its last move's time in the reader's language; in English and in
Chinese, at 390 px (nothing scrolls sideways) and 1280 px."""
from __future__ import annotations

import pytest

from pbem.trust import address_links
from pbem.trust.signing import public_key_of

from .pages_support import SECRET, pages_app, pages_server, seated, stream_port  # noqa: F401
from .test_my_games import ANN, anns_games
from .test_pages_browser import DESKTOP, PHONE, shot, watch

pytestmark = pytest.mark.timeout(300)

WORDS = {"en": {"waiting": "Waiting for you", "others": "Your other games", "finished": "Your finished games",
                "moved": "last move", "signed": "Signed in for ann@example.test"},
         "zh-Hant": {"waiting": "等你行動", "others": "你的其他遊戲", "finished": "你已結束的遊戲",
                     "moved": "最後一步", "signed": "已以 ann@example.test 登入"}}


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_my_games_opened_by_the_mails_link_lists_the_address_and_the_browsers_seats(
        browser, service, pages_server, screenshots, monkeypatch):
    games = anns_games(service)
    # a game Ann plays from this browser with a key, under no address: Bob's turn in it
    held, keys, tokens = seated(service, "carcassonne", options={"draw_order": ["U", "V"], "start_player": 1},
                                title="From this browser")
    link = address_links.make(SECRET.encode(), "link", ANN, 600)
    for lang, viewport, width in (("en", PHONE, 390), ("zh-Hant", DESKTOP, 1280), ("en", DESKTOP, 1280),
                                  ("zh-Hant", PHONE, 390)):
        context = browser.new_context(viewport=viewport, locale="zh-TW" if lang == "zh-Hant" else "en-US",
                                      timezone_id="Asia/Taipei" if lang == "zh-Hant" else "America/New_York")
        page = context.new_page()
        errors = watch(page)
        page.goto(f"{pages_server.url}/?lang={lang}")
        page.evaluate("""([game, token, key]) => localStorage.setItem("pbem.token." + game + ".0",
                          JSON.stringify({token: token, name: "Ann", key: key}))""",
                      [held, tokens[0], public_key_of(keys[0])])
        page.goto(f"{pages_server.url}/my-games/signin/{link}")
        assert page.url.endswith("/my-games")
        # the script adds the browser's game to the server's list of the address's
        page.wait_for_selector(f'tr[data-game="{held}"]')
        words = WORDS[lang]
        assert words["signed"] in " ".join(page.inner_text("form.signed-in").split())
        rows = page.eval_on_selector_all("tr[data-game]", "rows => rows.map(r => r.dataset.game)")
        assert rows == [games["new_turn"], games["old_turn"], held, games["bobs_turn"], games["finished"]], rows
        headings = page.eval_on_selector_all(".mine-list h3", "hs => hs.map(h => h.textContent)")
        # (then "Your ratings", the finished game's: tests/test_ratings_pages.py)
        assert headings[:3] == [words["waiting"], words["others"], words["finished"]]
        assert words["moved"] in page.inner_text(f'tr[data-game="{games["finished"]}"]')
        assert page.locator("tr.waiting").count() == 2
        if width == 390:
            assert sideways(page) == 0
        shot(page, screenshots, f"my-games-{lang}-{width}")
        assert errors == []
        context.close()

    # a browser holding no seat, signed in for the address: the lobby's "my games" lists the address's
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{pages_server.url}/my-games/signin/{link}")
    page.goto(f"{pages_server.url}/?lang=en")
    page.wait_for_selector("#mine:not([hidden]) tr[data-game]")
    rows = page.eval_on_selector_all("#mine tr[data-game]", "rows => rows.map(r => r.dataset.game)")
    assert rows == [games[k] for k in ("new_turn", "old_turn", "bobs_turn", "finished")]
    assert page.get_attribute("#mine-title a", "href") == "/my-games"
    context.close()
