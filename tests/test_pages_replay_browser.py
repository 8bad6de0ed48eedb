"""The replay slider in a real browser: moving it puts the chosen version's
banner (whose turn it was), players' table and scores in place with its
picture, and the log's highlight; back at the end, the current ones. A
version's own page keeps its moment when the script has fetched the live
parts. Screenshots in test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import random
import re

import pytest

from pbem.trust import play_links as links

from .conftest import wait_until
from .pages_support import NAMES, SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401
from .test_pages_browser import DESKTOP, PHONE, LinkConf, shot, watch

pytestmark = pytest.mark.timeout(300)


def scores(page) -> list:
    return [int(t) if t.strip() else None for t in page.locator("#players td.score").all_inner_texts()]


def turn(page) -> str:
    return page.inner_text("#status p.turn").strip()


def to_play(to_act) -> str:
    return f"{' and '.join(NAMES[s] for s in to_act)} to play."


def slide_to(page, version: int) -> None:
    page.fill("#slider", str(version))   # dragging the slider fires input events
    page.dispatch_event("#slider", "input")


def test_moving_the_slider_shows_that_versions_banner_players_and_scores(browser, service, pages_server,
                                                                         screenshots):
    game_id, keys, tokens = seated(service, "carcassonne", title="Then and now")
    final = play(service, game_id, keys, tokens, random.Random(4))
    assert final["status"] == "finished"
    last = final["version"]
    # two past moments with different scores and different seats to act
    moments = {}
    for version in range(last - 10, 0, -1):
        at = service.state_at(game_id, None, version)
        key = (tuple(at["view"]["scores"]), tuple(at["to_act"]))
        if at["to_act"] and at["view"]["scores"] != final["result"]["scores"] and \
                all(key != (tuple(m["view"]["scores"]), tuple(m["to_act"])) for m in moments.values()) and \
                all(m["to_act"] != at["to_act"] for m in moments.values()):
            moments[version] = at
        if len(moments) == 2:
            break
    assert len(moments) == 2
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        errors = watch(page)
        page.goto(f"{pages_server.url}/g/{game_id}")
        page.wait_for_selector("#picture svg")
        assert turn(page).startswith("Game over")
        assert scores(page) == final["result"]["scores"]
        for version, at in moments.items():
            slide_to(page, version)
            wait_until(lambda: turn(page) == to_play(at["to_act"]), timeout=10)
            wait_until(lambda: scores(page) == at["view"]["scores"], timeout=10)
            assert page.locator("#log li.shown").get_attribute("data-v") == str(version)
            assert page.locator("#players tr.to-act").count() == len(at["to_act"])
            assert page.locator("#players td.marker", has_text="\u2605").count() == 0   # no winner yet
            number = re.search(r"Carcassonne - turn (\d+)", at["text"]).group(1)
            assert f"Turn {number} \u00b7" in page.inner_html("#picture")   # the picture: the same moment
            assert page.is_visible("#past")
        shot(page, screenshots, f"past-{label}")
        page.click("a[data-step=last]")
        wait_until(lambda: turn(page).startswith("Game over"), timeout=10)
        assert scores(page) == final["result"]["scores"]
        assert page.is_hidden("#past")
        # a version's own page: the moment stays once the script has fetched the live parts
        version, at = next(iter(moments.items()))
        with page.expect_response(lambda r: "/live" in r.url):
            page.goto(f"{pages_server.url}/g/{game_id}/v/{version}")
        page.wait_for_timeout(300)
        assert turn(page) == to_play(at["to_act"])
        assert scores(page) == at["view"]["scores"]
        # an early version, in Chinese (the whole moment in the page's language)
        early = service.state_at(game_id, None, 4)
        with page.expect_response(lambda r: "/live" in r.url):
            page.goto(f"{pages_server.url}/g/{game_id}/v/4?lang=zh-Hant")
        page.wait_for_timeout(300)
        assert "to play" not in turn(page) and scores(page) == early["view"]["scores"]
        shot(page, screenshots, f"early-zh-{label}")
        assert errors == []
        context.close()


def test_a_seats_slider_shows_its_own_past(browser, service, pages_server, screenshots):
    """Through a play link (the seat's page): a past version's banner speaks
    to the seat ("Your turn.") when it was theirs, and its hand is its own."""
    game_id, keys, tokens = seated(service, "kachina", title="Hands")
    play(service, game_id, keys, tokens, random.Random(2), moves=12)
    now = service.get_game(game_id, None)
    seat = now["to_act"][0]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch(page)
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, seat))
    page.wait_for_selector("#picture svg")
    assert turn(page).startswith("Your turn")
    seen = 0
    for version in range(now["version"] - 1, 0, -1):
        at = service.state_at(game_id, tokens[seat], version)
        if not at["to_act"]:
            continue
        slide_to(page, version)
        expected = "Your turn." if at["to_act"] == [seat] else to_play(at["to_act"])
        wait_until(lambda: turn(page) == expected, timeout=10)
        wait_until(lambda: scores(page) == at["view"]["scores"], timeout=10)
        assert page.is_hidden("#play")
        seen += expected == "Your turn."
        if seen and version < now["version"] - 4:
            break
    assert seen
    shot(page, screenshots, "seat-past-phone")
    page.click("a[data-step=last]")
    wait_until(lambda: turn(page).startswith("Your turn"), timeout=10)
    assert page.is_visible("#play")
    assert errors == []
    context.close()
