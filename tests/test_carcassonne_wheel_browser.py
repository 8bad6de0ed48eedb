"""The Wheel of Fortune's Plague on the play page, in a real browser at 390 px through a
real server, the move queue and a worker: both seats owe the Plague at once; each
touches its own follower, ringed on the picture, and plays it. The page's picture shows
the wheel, the pig's sector and the crowns; nothing scrolls sideways; no script error.
Bob's page is also opened in Traditional Chinese. Screenshots:
test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import json

import pytest

from pbem.trust import play_links as links
from pbem.trust.signing import make_envelope

from .conftest import drain, wait_until
from .pages_support import pages_app, pages_server, stream_port, seated  # noqa: F401
from .test_carcassonne_wheel_by_mail import PLAGUE
from .test_pages_axe import LinkConf
from .test_touch_browser import PHONE, no_sideways_scroll, open_pages, touch_key

pytestmark = pytest.mark.timeout(300)


def test_both_seats_answer_the_plague_by_touch(browser, service, pages_server, start_worker, screenshots):
    order, expansions, options, script = PLAGUE
    game_id, keys, tokens = seated(service, "carcassonne", options={"draw_order": order, "start_player": 0,
                                                                    "expansions": expansions})
    for seat, text in script:
        parsed = service.parse(game_id, tokens[seat], text)
        service.submit(game_id, make_envelope(game_id, seat, parsed["version"], parsed["move"], keys[seat]))
        drain(service)
    assert service.get_game(game_id, None)["to_act"] == [0, 1]
    start_worker()
    pages, errors, context = open_pages(browser, service, pages_server, game_id, 2)
    for seat, spot in ((1, "1,-3"), (0, "-1,-3")):
        page = pages[seat]
        page.bring_to_front()
        page.wait_for_selector("#touch-panel.step", timeout=15000)
        text = page.inner_text("#picture")
        assert "[Plague]" in text and "Crown spaces" in text, text
        legal = json.loads(page.locator("#play .legal-data").text_content())
        touch = json.loads(page.locator("#play .touch-data").text_content())
        assert [m["move"]["type"] for m in legal] == ["plague"]
        assert touch["paths"][0][0] == f"cell:{spot}" or touch["paths"][0][0].startswith(f"seg:{spot}")
        if seat == 1:
            page.screenshot(path=str(screenshots / "plague-bob.png"), full_page=False)
            page.locator("#picture > svg").screenshot(path=str(screenshots / "plague-board.png"))
        before = service.get_game(game_id, None)["version"]
        for step, key in enumerate(touch["paths"][0]):
            touch_key(page, key, key in touch["offboard"])
            if step < len(touch["paths"][0]) - 1:
                page.wait_for_selector("#touch-panel.step button.back")
        page.wait_for_selector("#touch-panel.confirm")
        assert page.inner_text("#touch-panel .ask") == f"Play: {legal[0]['text']}?"
        page.click("#touch-panel button.play-it")
        page.wait_for_selector("#sent.good", timeout=15000)
        wait_until(lambda: service.get_game(game_id, None)["version"] > before, timeout=20)
        no_sideways_scroll(page)
    game = service.get_game(game_id, None)
    assert game["to_act"] == [1] and game["view"]["supply"] == [7, 7] and game["view"]["wheel"]["plague"] is None
    # Bob's page in Chinese: the wheel's line and his placement to come
    chinese = browser.new_context(viewport=PHONE)
    zh = chinese.new_page()
    zh.goto(pages_server.url + "/?lang=zh-Hant")          # the language cookie, then Bob's link
    zh.goto(links.play_link(LinkConf(pages_server.url), game_id, 1))
    zh.wait_for_selector("#picture svg")
    assert "粉紅豬在瘟疫" in zh.inner_text("#picture") or "瘟疫" in zh.inner_text("#picture")
    zh.screenshot(path=str(screenshots / "after-plague-zh.png"), full_page=False)
    no_sideways_scroll(zh)
    chinese.close()
    assert errors == [[], []]
    context.close()
