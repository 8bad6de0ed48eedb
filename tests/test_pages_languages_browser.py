"""The pages in Traditional Chinese and in the pseudo-locale, in a real
browser (Playwright driving Debian's chromium): every page type says its
language (``<html lang>``), the switch works and is remembered, a Chinese
browser (Accept-Language zh-TW) gets Chinese, ``?lang`` wins; in the
pseudo-locale no page leaves English a player reads (what the templates
and the scripts write, on screen and in aria-labels, titles and
placeholders), names, move lines and ids aside. Screenshots of each
game's page in both languages, at a phone's width and a desktop's, go to
test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import random
import time

import pytest

from pbem.mail_in import invites
from pbem.mail_in.addresses import invite_token
from pbem.trust import play_links as links
from pbem.trust.signing import generate_key
from pbem.web import standalone

from .conftest import drain, wait_until
from .pages_support import LinkConf, NAMES, SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401
from .pseudo_support import leftover_english

pytestmark = pytest.mark.timeout(400)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: Texts a page shows as they are in any language: the product's name and
#: the switch's own name for English (each language is named in itself).
ALWAYS = ("pbem", "English")




def watch(page) -> list:
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    # (a refused link's page is answered 401: the browser says so, as it should)
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and "status of 401" not in msg.text else None)
    return errors


def lang_of(page) -> str:
    return page.evaluate("document.documentElement.lang")


# The games' own texts on a page (the board's picture, the log, the move
# lines, a move's button): the games' catalogs' business, and move lines
# stay English in the pseudo-locale (they must paste back).
GAME_TEXTS = """[...document.querySelectorAll(
    '#picture, #chooser .tiles, #log li, #play .move-list button, #chooser .other, pre, time, .backup-key code, .key')]
  .map(e => e.innerText)"""
# What a player reads besides the screen's text: labels read out, tooltips, placeholders.
ATTRIBUTE_TEXTS = """[...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')]
  .filter(e => !e.closest('#picture, .tiles'))
  .flatMap(e => ['aria-label', 'title', 'placeholder', 'alt'].map(a => e.getAttribute(a)).filter(Boolean))"""


# Carcassonne's places on a tile (the notation's: N, NL, EL...), which the
# figure chooser labels its spots with: they paste back as written.
PLACES = [a + b for a in "NESW" for b in ("", "L", "R", "E", "W")]


def english_left(page, *allowed) -> list:
    """The English words the page shows (and reads out) in the pseudo-locale
    that no message wrapped, the games' texts and ``allowed`` aside."""
    assert lang_of(page) == "x-pseudo"
    keep = [*ALWAYS, *allowed, *page.evaluate(GAME_TEXTS)]
    text = page.evaluate("document.body.innerText") + "\n" + "\n".join(page.evaluate(ATTRIBUTE_TEXTS))
    # The board in words for screen readers (#board-text): the game's text board,
    # its move lines in the notation, as the picture is the game's (GAME_TEXTS)
    board = page.evaluate("(document.getElementById('board-text') || {}).innerText || ''")
    if board:
        text = text.replace(board, " ")
    return leftover_english(text, keep, PLACES)


def test_every_page_type_in_the_pseudo_locale_leaves_no_english(browser, service, pages_server, tmp_path,
                                                                screenshots):
    carc, keys, tokens = seated(service, "carcassonne", title="Tiles")
    play(service, carc, keys, tokens, random.Random(3), moves=6)
    done, keys2, tokens2 = seated(service, "wakanda", title="Done")
    play(service, done, keys2, tokens2, random.Random(4))
    waiting = service.create_game("kachina", 3, {}, "Waiting", listed=True)["id"]  # the lobby's open games too
    service.join(waiting, 0, generate_key()[1], "Ann")
    invites.record(service, waiting, [(1, "bob@example.test", "Bob", "Bob")])
    nonce = service.store.invitation(waiting, 1)["nonce"]
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    errors = watch(page)
    found = {}

    def check(where, *allowed):
        left = english_left(page, *allowed)
        if left:
            found[where] = left
        page.screenshot(path=str(screenshots / f"{where}.png"), full_page=True)

    page.goto(f"{pages_server.url}/?lang=x-pseudo")
    check("lobby", "Tiles", "Done", "Waiting", *NAMES)
    page.goto(f"{pages_server.url}/g/{carc}/v/2")   # remembered; a past version: "you are looking at..."
    page.wait_for_selector("#past:not([hidden])")
    page.click("a[data-step=prev]")                  # the label the script writes
    wait_until(lambda: page.input_value("#slider") == "1", timeout=10)
    check("game-past", "Tiles", *NAMES, carc)
    seat = service.get_game(carc, None)["to_act"][0]
    page.goto(links.play_link(LinkConf(pages_server.url), carc, seat))
    page.wait_for_selector("#chooser:not([hidden])")
    page.locator("#picture svg rect.legal").first.click()
    page.wait_for_selector("#chooser .choice")
    check("play-link-chooser", "Tiles", *NAMES, carc)
    page.goto(f"{pages_server.url}/g/{waiting}")
    page.click("button.join-seat[data-seat='2']")
    page.fill("#join-name", "Cyd")
    check("join-form", "Waiting", *NAMES, waiting)
    page.click("form.join button[type=submit]")
    page.wait_for_selector("#backup-done")
    page.click("#backup-show")
    check("backup", "Waiting", *NAMES, waiting)
    page.click("#backup-done")
    page.wait_for_selector("#keys .key")
    check("seat-held", "Waiting", *NAMES, waiting)
    command = f"pbem join {waiting} 1 --name NAME --invitation {invite_token(SECRET.encode(), waiting, 1, nonce)}"
    page.goto(f"{pages_server.url}/join/{invite_token(SECRET.encode(), waiting, 1, nonce)}")
    check("invitation", "Waiting", *NAMES, waiting, command)
    page.goto(links.play_link(LinkConf(pages_server.url), carc, 0, expires=time.time() - 60))
    # (the error's own message is the API's: its catalog, not the page's)
    check("error", page.inner_text(".message"))
    page.goto(f"{pages_server.url}/g/{done}")
    check("finished", "Done", *NAMES, done)
    replay = tmp_path / "replay.html"
    replay.write_text(standalone.replay_html(list(service.record_lines(done, None)), lang="x-pseudo"))
    page.goto(replay.as_uri())
    page.click("a[data-step=first]")
    wait_until(lambda: page.input_value("#slider") == "0", timeout=10)
    check("replay-file", "Done", *NAMES, done)
    assert found == {}
    assert errors == []
    context.close()


def test_every_page_type_in_chinese_and_the_switch_is_remembered(browser, service, pages_server, tmp_path,
                                                                 screenshots):
    carc, keys, tokens = seated(service, "carcassonne", title="午後")
    play(service, carc, keys, tokens, random.Random(5), moves=4)
    waiting = service.create_game("kachina", 3, {}, "等人", listed=True)["id"]
    service.join(waiting, 0, generate_key()[1], "小明")
    invites.record(service, waiting, [(1, "bob@example.test", "阿美", "阿美")])
    nonce = service.store.invitation(waiting, 1)["nonce"]
    context = browser.new_context(viewport=PHONE, locale="zh-TW")   # Accept-Language: zh-TW
    page = context.new_page()
    errors = watch(page)
    page.goto(pages_server.url + "/")
    assert lang_of(page) == "zh-Hant" and page.inner_text("h1") == "遊戲"
    assert "等待玩家" not in page.inner_text("main") and "已邀請：阿美" in page.inner_text("#open")
    page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
    page.click("#active a >> text=午後")
    page.wait_for_url(f"**/g/{carc}")
    page.wait_for_selector("#who")
    assert lang_of(page) == "zh-Hant" and page.inner_text("#who") == "你正以觀戰者身分觀看。"
    assert page.inner_text("details.elsewhere summary") == "使用在別處取得的座位"   # written by the script
    assert page.get_attribute("a[data-step=first]", "aria-label") == "第一個版本"
    version = service.get_game(carc, None)["version"]
    page.click("a[data-step=prev]")
    page.wait_for_selector("#past:not([hidden])")
    assert page.inner_text("#at") == f"第{version - 1}版／共{version}版"
    assert page.inner_text("#past span") == f"你正在看第{version - 1}版；遊戲目前是第{version}版。"
    # The switch: English, remembered on the next page (the browser still asks for Chinese)...
    page.click("nav.langs a[lang=en]")
    page.wait_for_url("**?lang=en")
    assert lang_of(page) == "en" and page.inner_text("#who") == "You are watching as a spectator."
    page.goto(pages_server.url + "/")
    assert lang_of(page) == "en" and page.inner_text("h1") == "Games"
    # ... and back.
    page.click("nav.langs a[lang=zh-Hant]")
    page.wait_for_url("**?lang=zh-Hant")
    assert lang_of(page) == "zh-Hant"
    page.goto(f"{pages_server.url}/g/{carc}")
    assert lang_of(page) == "zh-Hant"
    # ?lang wins over the remembered choice and the browser's.
    page.goto(f"{pages_server.url}/g/{carc}?lang=en")
    assert lang_of(page) == "en"
    page.goto(f"{pages_server.url}/g/{carc}?lang=zh-Hant")
    # An invitation taken in Chinese: its page, the key's copy, the join.
    page.goto(f"{pages_server.url}/join/{invite_token(SECRET.encode(), waiting, 1, nonce)}")
    assert lang_of(page) == "zh-Hant" and "你受邀進行1號座位" in page.inner_text("main")
    assert page.input_value("#join-name") == "阿美"
    page.screenshot(path=str(screenshots / "invitation.png"), full_page=True)
    page.click("form.invitation-join button[type=submit]")
    page.wait_for_selector("#backup-done")
    assert page.inner_text("#backup-title") == "保存新金鑰的備份"
    assert page.inner_text("#backup-done") == "繼續：入座1號座位"
    page.screenshot(path=str(screenshots / "invitation-backup.png"), full_page=True)
    page.click("#backup-show")
    page.click("#backup-done")
    page.wait_for_url(f"**/g/{waiting}")
    page.wait_for_selector("#who:has-text('你在這個瀏覽器以阿美（1號座位）進行遊戲。')")
    page.wait_for_selector("#keys .key")
    assert page.inner_text("#keys .key").startswith("你的金鑰：")
    page.screenshot(path=str(screenshots / "seat-held.png"), full_page=True)
    # A refused link's page.
    page.goto(links.play_link(LinkConf(pages_server.url), carc, 0, expires=time.time() - 60))
    assert lang_of(page) == "zh-Hant" and page.inner_text("h1") == "這個連結無法開啟遊戲"
    assert page.inner_text(".code").startswith("錯誤 link_expired")
    # The replay file, made for a Chinese reader.
    play(service, carc, keys, tokens, random.Random(6))
    replay = tmp_path / "replay.html"
    replay.write_text(standalone.replay_html(list(service.record_lines(carc, None)), lang="zh-Hant"))
    page.goto(replay.as_uri())
    assert lang_of(page) == "zh-Hant" and page.inner_text("p.turn").startswith("遊戲結束：")
    page.click("a[data-step=first]")
    wait_until(lambda: page.inner_text("#at").startswith("第0版／共"), timeout=10)
    page.screenshot(path=str(screenshots / "replay-file.png"), full_page=True)
    assert errors == []
    context.close()


#: Players' names for the screenshots: short and long ones, in both scripts.
SCREEN_NAMES = {"en": ("Ann", "Bartholomew Fitzgerald-Smythe", "Cyd"),
                "zh-Hant": ("王小明", "司馬相如與卓文君的粉絲團", "歐陽菲菲")}
GAMES = (("carcassonne", 2, 10), ("kachina", 3, 9), ("cartoona", 2, 6), ("wakanda", 2, 6))


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_screenshots_of_each_games_page(browser, service, pages_server, screenshots, lang):
    """Each game's page for the seat to act (its play link), in each
    language at a phone's and a desktop's width: nothing runs off the side
    of a phone's screen (the board scrolls in its own box)."""
    for name, players, moves in GAMES:
        game_id = service.create_game(name, players, {}, f"{name} {lang}")["id"]
        keys, tokens = {}, {}
        for seat in range(players):
            keys[seat], public = generate_key()
            tokens[seat] = service.join(game_id, seat, public, SCREEN_NAMES[lang][seat])["token"]
        drain(service)
        play(service, game_id, keys, tokens, random.Random(11), moves=moves)
        seat = service.get_game(game_id, None)["to_act"][0]
        url = links.play_link(LinkConf(pages_server.url), game_id, seat) + f"?lang={lang}"
        for size, label in ((PHONE, "390"), (DESKTOP, "1280")):
            context = browser.new_context(viewport=size)
            page = context.new_page()
            errors = watch(page)
            page.goto(url)
            page.wait_for_selector("#picture svg, #picture pre")
            page.wait_for_timeout(300)
            assert lang_of(page) == lang
            page.screenshot(path=str(screenshots / f"{name}-{lang}-{label}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], (name, label, width)
            assert errors == []
            context.close()
