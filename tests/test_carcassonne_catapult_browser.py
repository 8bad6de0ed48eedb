"""The Catapult's round on the game page, in a real browser at 390 px through a
real server: Ann owes her secret shot after Bob's; her page shows the fair, the
round in the panel and her follower within reach ringed; in English she touches
it and sees the confirm panel; in Chinese (zh-Hant) she touches it and plays
it, and Bob's knock-out and hers are resolved. Nothing scrolls sideways.
Screenshots: test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import json
import re

import pytest

from pbem.trust import play_links as links
from pbem.trust.signing import make_envelope

from .conftest import wait_until
from .pages_support import pages_app, pages_server, seated, stream_port  # noqa: F401
from .test_pages_axe import LinkConf
from .test_touch_browser import PHONE, no_sideways_scroll, touch_key, watch

pytestmark = pytest.mark.timeout(300)

OPTIONS = {"draw_order": ["U", "CA4", "E", "E"], "start_player": 0, "expansions": ["catapult"],
           "catapult_mode": "abstract"}
SCRIPT = [(0, "place 1,0 r0 follower road E"), (1, "place 0,1 r0"), (1, "catapult knockout"),
          (1, "shoot 1,0 road E")]


def test_the_catapult_round_on_the_page_in_both_languages(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, keys, tokens = seated(service, "carcassonne", options=OPTIONS)
    for seat, text in SCRIPT:
        parsed = service.parse(game_id, tokens[seat], text)
        service.submit(game_id, make_envelope(game_id, seat, parsed["version"], parsed["move"], keys[seat]))
        wait_until(lambda: service.get_game(game_id, None)["version"] > parsed["version"], timeout=20)
    version = service.get_game(game_id, None)["version"]
    assert service.get_game(game_id, None)["to_act"] == [0]
    for lang in ("en", "zh-Hant"):
        context = browser.new_context(viewport=PHONE, locale="zh-TW" if lang == "zh-Hant" else "en-US")
        page = context.new_page()
        errors = watch(page)
        page.goto(links.play_link(LinkConf(pages_server.url), game_id, 0) + f"?lang={lang}")
        page.wait_for_selector("#touch-panel.step")
        svg = page.inner_html("#picture")
        assert "#f2c230" in svg                                  # the fair
        assert page.locator('#picture .legal-segment[data-x="1"][data-y="0"]').count() == 1
        text = page.inner_text("body")
        if lang == "en":
            assert "Catapult round (knock-out) at the fair" in text and "still to shoot: Ann" in text, text
            assert "Bob has taken a secret shot." in text and "aims at" not in text, text
        else:
            assert "已秘密發射" in text and "瞄準" not in text, text
            assert "的攻城車回合（擊倒）：尚未發射：Ann" in text, text
        no_sideways_scroll(page)
        page.screenshot(path=str(screenshots / f"round-{lang}.png"), full_page=False)
        touch = json.loads(page.locator("#play .touch-data").text_content())
        legal = json.loads(page.locator("#play .legal-data").text_content())
        index = next(i for i, m in enumerate(legal) if m["move"].get("x") == 1)
        for key in touch["paths"][index]:
            touch_key(page, key, key in touch["offboard"])
        page.wait_for_selector("#touch-panel.confirm")
        ask = page.inner_text("#touch-panel .ask")
        if lang == "en":
            assert ask == "Play: shoot 1,0 road E?", ask
        else:
            assert "發射 1,0 道路 E" in ask and re.search(r"[\u4e00-\u9fff]{2}", ask.replace("發射 1,0 道路 E", "")), ask
        page.screenshot(path=str(screenshots / f"confirm-{lang}.png"), full_page=False)
        no_sideways_scroll(page)
        if lang == "zh-Hant":
            page.click("#touch-panel button.play-it")
            page.wait_for_selector("#sent.good", timeout=15000)
            wait_until(lambda: service.get_game(game_id, None)["version"] > version, timeout=20)
            view = service.get_game(game_id, None)["view"]
            assert view["followers"] == [] and view["catapult"] is None and view["supply"] == [7, 7]
        assert errors == []
        context.close()
