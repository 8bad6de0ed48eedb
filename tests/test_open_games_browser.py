"""Open games on the lobby page in a real browser (Playwright driving Debian's
chromium, the real server on loopback): a browser that never saw the game
finds it on the lobby at 390 px, makes its key, joins the free seat, and
the game starts; the lobby with open games fits 390 px and 1280 px, in
English and in Traditional Chinese (screenshots kept)."""
from __future__ import annotations

import pytest

from pbem.trust.signing import generate_key

from .conftest import api_server, wait_until  # noqa: F401

pytestmark = pytest.mark.timeout(180)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIDEWAYS = "document.documentElement.scrollWidth"


def create(http, url, **body) -> dict:
    r = http.post(f"{url}/games", json={"open": True, **body})
    assert r.status_code == 201, r.text
    return r.json()


def take(http, url, game_id, seat, name):
    r = http.post(f"{url}/games/{game_id}/seats/{seat}", json={"public_key": generate_key()[1], "name": name})
    assert r.status_code == 201, r.text


def test_a_browser_that_never_saw_the_game_joins_it_from_the_lobby_and_it_starts(api_server, http, browser,
                                                                                 screenshots):
    url = api_server.url
    garden = create(http, url, game="wakanda", players=2, title="Garden game")
    take(http, url, garden["id"], 0, "Ann")
    tea = create(http, url, game="carcassonne", players=3, title="午後的茶會", lang="zh-Hant",
                 options={"expansions": ["inns_cathedrals"]})
    take(http, url, tea["id"], 0, "小明")
    secret = create(http, url, game="kachina", players=2, title="Kitchen table", open=False)
    errors: list = []
    for lang in ("en", "zh-Hant"):
        for size, viewport in (("390", PHONE), ("1280", DESKTOP)):
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.goto(f"{url}/?lang={lang}")
            page.wait_for_selector(f'li.open-game[data-game="{tea["id"]}"]')
            assert "Kitchen table" not in page.inner_text("main") and secret["id"] not in page.content()
            assert page.evaluate(SIDEWAYS) <= viewport["width"], (lang, size)
            page.screenshot(path=str(screenshots / f"lobby-open-{size}-{lang}.png"), full_page=True)
            context.close()

    # A new browser (no key, no seat) at 390 px, in Chinese: joins Garden's free seat.
    context = browser.new_context(viewport=PHONE, locale="zh-TW")
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{url}/")
    card = page.locator(f'li.open-game[data-game="{garden["id"]}"]')
    assert "語言：英文" in card.inner_text() and "2個座位中有1個空位" in card.inner_text()
    card.locator("button[type=submit]").click()          # no name yet: told, nothing sent
    assert "請填上你的名字" in card.locator(".sent").inner_text()
    card.locator(".join-name").fill("阿美")
    card.locator("button[type=submit]").click()
    page.wait_for_selector("#backup-done")               # a key made now: its one copy offered first
    page.screenshot(path=str(screenshots / "lobby-open-join-backup-390-zh-Hant.png"), full_page=True)
    assert page.evaluate(SIDEWAYS) <= PHONE["width"]
    page.click("#backup-show")                            # seen (copied): then on, without a confirm
    page.click("#backup-done")
    page.wait_for_url(f"**/g/{garden['id']}")
    game = wait_until(lambda: (lambda g: g if g["status"] == "active" else None)(
        http.get(f"{url}/games/{garden['id']}").json()))
    assert [s["name"] for s in game["seats"]] == ["Ann", "阿美"]
    held = page.evaluate("PbemKeys.heldSeats()")
    assert [(h["game"], h["seat"]) for h in held] == [(garden["id"], 1)]
    # The game is in play now: no longer among the open games, listed as in play.
    page.goto(f"{url}/")
    assert page.locator(f'li.open-game[data-game="{garden["id"]}"]').count() == 0
    assert page.locator(f'#active tr[data-game="{garden["id"]}"]').count() == 1
    context.close()
    assert errors == []
