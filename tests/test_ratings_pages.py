"""The ratings in pages, in a real browser: two finished Wakanda games of
two players against the server's random bot (played through the API by
the bot runner, a real worker applying the moves), then the ratings page
/r/wakanda at a phone's width and a desktop's, in English, Traditional
Chinese and the pseudo-locale (no English left), nothing scrolling
sideways; "my games" shows the player's rating; the ratings table as the
API answers it; an unknown game type's page is a 404. Screenshots go to
test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import time

import pytest
import requests

from pbem.bots.runner import BotSeat, play_game
from pbem.client import Client
from pbem.service import bots as bot_seats
from pbem.trust.signing import generate_key

from .pseudo_support import leftover_english

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
NAMES = ("Ann", "Bob")


def bot_vs(url: str, redis, name: str, seed: int) -> tuple[str, str]:
    """A finished game: ``name`` (a key of its own) against the server's random bot, both played here
    through the API; (game id, the player's public key)."""
    c = Client(url)
    game_id = c.create_game("wakanda", 2, bots={1: "random"})["id"]
    private, public = generate_key()
    c.join(game_id, 0, public, name)
    bot = bot_seats.bot_credentials(redis, game_id)[1]
    # Both seats in one runner (each with its own key): one of them always acts.
    play_game(Client(url), game_id, [BotSeat(0, private, "random"),
                                     BotSeat(1, bot["private_key"], "random", bot["token"])], seed=seed)
    return game_id, public


@pytest.fixture
def rated(api_server, start_worker, redis_client):
    start_worker(scheduler=False)
    return api_server.url, [bot_vs(api_server.url, redis_client, name, i) for i, name in enumerate(NAMES)]


def open_create_form(page) -> None:
    """Unfold the lobby's form to create a game (folded on a phone)."""
    if page.locator("details#create[open]").count() == 0:
        page.click("details#create > summary")


def create_and_open(page) -> str:
    """Submit the lobby's form, past the key backup prompt, to the new game's page: its id."""
    page.click("#create-form button[type=submit]")
    page.wait_for_function("() => location.pathname.startsWith('/g/') || document.querySelector('#backup-done')")
    if page.locator("#backup-done").count():
        page.click("#backup-show")
        page.click("#backup-done")
    page.wait_for_url("**/g/*", timeout=20_000)
    return page.url.rsplit("/g/", 1)[1].split("?")[0]


def test_the_ratings_page_and_my_games(rated, browser, screenshots):
    url, played = rated
    table = requests.get(f"{url}/ratings/wakanda", timeout=10).json()
    assert table["games_rated"] == 2
    assert {r["name"] for r in table["ratings"]} == {"Ann", "Bob", "Bot (random)"}
    for lang, words in (("en", ("Ratings: Wakanda", "Bot (random)", "Player")),
                        ("zh-Hant", ("積分", "機器人（隨機）", "玩家"))):
        for label, size in (("390", PHONE), ("1280", DESKTOP)):
            context = browser.new_context(viewport=size)
            page = context.new_page()
            page.goto(f"{url}/r/wakanda?lang={lang}")
            text = page.inner_text("main")
            assert all(w in text for w in words), text
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (lang, label)
            page.screenshot(path=str(screenshots / f"ratings-{lang}-{label}.png"), full_page=True)
            context.close()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{url}/r/wakanda?lang=x-pseudo")
    left = leftover_english(page.inner_text("main"), allowed_texts=("Ann", "Bob", "pbem"))
    assert not left, left
    context.close()
    # "My games" of the browser holding Ann's seat: her rating, by name, linked to the table.
    game_id, public = played[0]
    mine = requests.get(f"{url}/my-games", params={"seat": f"{game_id}.0"}, timeout=10).json()["html"]
    ann = next(r for r in table["ratings"] if r["player"] == f"key:{public}")
    assert "Your ratings" in mine and 'href="/r/wakanda"' in mine and f"{ann['rating']:.1f}" in mine
    assert "Bob" not in mine
    zh = requests.get(f"{url}/my-games", params={"seat": f"{game_id}.0"}, headers={"Accept-Language": "zh-TW"},
                      timeout=10).json()["html"]
    assert "你的積分" in zh
    # The player's page itself (a browser's navigation) shows them too.
    page_html = requests.get(f"{url}/my-games", params={"key": public}, headers={"Accept": "text/html"},
                             timeout=10).text
    assert "Your ratings" in page_html and f"{ann['rating']:.1f}" in page_html
    # The game's page marks the bot seat as a bot.
    page = requests.get(f"{url}/g/{game_id}?lang=zh-Hant", timeout=10).text
    assert "機器人（隨機）" in page and '<span class="bot-mark">機器人</span>' in page


def test_an_unknown_game_types_ratings_page(api_server):
    resp = requests.get(f"{api_server.url}/r/chess", timeout=10)
    assert resp.status_code == 404


def test_a_bot_seat_asked_for_on_the_lobbys_form(api_server, browser, screenshots):
    url = api_server.url
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{url}/?lang=en")
    open_create_form(page)
    page.select_option("#create-game", "wakanda")
    page.select_option("#create-players", "2")
    page.fill("#create-name", "Ann")
    page.select_option("#invite-bot-1", "random")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator('.invite[data-seat="1"]').screenshot(path=str(screenshots / "form-bot-390-en.png"))
    game_id = create_and_open(page)
    game = requests.get(f"{url}/games/{game_id}", timeout=10).json()
    assert [(s["name"], s["bot"]) for s in game["seats"]] == [("Ann", None), ("Bot (random)", "random")]
    assert game["status"] == "active"
    page.wait_for_selector(".seat-1 .bot-mark")
    context.close()


def test_bots_for_the_free_seats_asked_for_on_the_lobbys_form(api_server, browser, screenshots, redis_client):
    """The wait and the level chosen on the form, at a phone's width, in both
    languages (the pseudo-locale: no English left in the new fieldset)."""
    url = api_server.url
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    for lang, words in (("zh-Hant", ("沒人坐的座位交給機器人", "1 小時", "機器人（搜尋）")), ("x-pseudo", ())):
        page.goto(f"{url}/?lang={lang}")
        open_create_form(page)
        text = page.inner_text("#create-bots-fill")
        assert all(w in text for w in words), text
        assert lang != "x-pseudo" or not leftover_english(text), leftover_english(text)
        page.locator("#create-bots-fill").screenshot(path=str(screenshots / f"form-bots-fill-390-{lang}.png"))
    page.goto(f"{url}/?lang=en")
    open_create_form(page)
    page.select_option("#create-game", "wakanda")
    page.select_option("#create-players", "2")
    page.fill("#create-name", "Ann")
    page.check("#create-open")
    page.select_option("#create-bots-after", "3600")
    page.select_option("#create-bots-level", "search")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator("#create-bots-fill").screenshot(path=str(screenshots / "form-bots-fill-390-en.png"))
    game_id = create_and_open(page)
    context.close()
    game = requests.get(f"{url}/games/{game_id}", timeout=10).json()
    assert game["status"] == "open" and [s["bot"] for s in game["seats"]] == [None, None]
    due = redis_client.zscore(bot_seats.FILL, game_id)
    assert due is not None and 3500 < due - time.time() <= 3600
    assert bot_seats.fill_level(redis_client, game_id) == "search"


def test_a_seat_handed_to_a_bot_on_the_games_page(api_server, start_worker, browser, screenshots):
    """"Played by a bot (level) for NAME" in the players' table, in both
    languages (no English left in the pseudo-locale), at a phone's width."""
    start_worker(scheduler=False)
    url = api_server.url
    c = Client(url)
    game_id = c.create_game("wakanda", 2)["id"]
    (ann, ann_pub), (bob, bob_pub) = generate_key(), generate_key()
    c.join(game_id, 0, ann_pub, "Ann")
    c.join(game_id, 1, bob_pub, "Bob")
    assert c.move(game_id, {"handover": "request", "level": "greedy"}, ann, 0)["status"] == "applied"
    assert c.move(game_id, {"handover": "accept"}, bob, 1)["status"] == "applied"
    from .test_bots_runner import wait_handed
    wait_handed(c, game_id, 0, "greedy")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    for lang, words in (("en", "played by a bot (greedy) for Ann"), ("zh-Hant", "由機器人（貪婪）代替Ann下棋"),
                        ("x-pseudo", None)):
        page.goto(f"{url}/g/{game_id}?lang={lang}")
        row = page.locator(".seat-0").first
        text = row.inner_text()
        if words:
            assert words in text, text
        else:
            left = leftover_english(text, allowed_texts=("Ann",))
            assert not left, left
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), lang
        page.evaluate("document.querySelector('.seat-0').scrollIntoView()")  # one step: the live page may put its parts in place again
        page.screenshot(path=str(screenshots / f"handed-over-{lang}-390.png"))  # the table is redrawn live: the page
    context.close()
