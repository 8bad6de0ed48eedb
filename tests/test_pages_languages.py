"""The pages' language over real HTTP: ``?lang`` (remembered in a cookie),
else the seat's language on its play link, else ``Accept-Language``, else
the game's; ``<html lang>`` says which; the scripts' messages come in the
page's language; times are the reader's, their zone named.

The seat's and the game's languages are read as the API stores them (the
seat's JSON in the seats hash has ``lang`` and ``tz``; the game's meta has
``lang``) and as the summary hands them on (``lang`` on the summary and on
each seat's row)."""
from __future__ import annotations

import json
import re
import time

import pytest

from pbem.store.keys import key
from pbem.trust import play_links as links
from pbem.when import when

from .pages_support import LinkConf, SECRET, pages_app, pages_server, stream_port, seated  # noqa: F401

pytestmark = pytest.mark.timeout(120)
CHINESE_HEADINGS = ("開放中：加入座位", "進行中", "已結束")


def set_seat(redis_client, game_id: str, seat: int, **fields) -> None:
    raw = json.loads(redis_client.hget(key(game_id, "seats"), seat))
    redis_client.hset(key(game_id, "seats"), seat, json.dumps({**raw, **fields}))


def html_lang(text: str) -> str:
    return re.search(r'<html lang="([^"]+)"', text).group(1)




def test_lang_in_the_address_wins_and_is_remembered(service, pages_server, http):
    seated(service, "wakanda", title="Evening")
    english = http.get(pages_server.url + "/")
    assert html_lang(english.text) == "en" and "Open: join a seat" in english.text
    assert "pbem_lang" not in english.headers.get("Set-Cookie", "")
    chosen = http.get(pages_server.url + "/?lang=zh-Hant", headers={"Accept-Language": "en-US"})
    assert html_lang(chosen.text) == "zh-Hant"
    assert all(h in chosen.text for h in CHINESE_HEADINGS) and "Open: join a seat" not in chosen.text
    cookie = chosen.headers["Set-Cookie"]
    assert cookie.startswith("pbem_lang=zh-Hant;") and "SameSite=Lax" in cookie and "Path=/" in cookie
    # The next page, with no ?lang and an English browser: still Chinese (the session keeps the cookie).
    again = http.get(pages_server.url + "/", headers={"Accept-Language": "en-US"})
    assert html_lang(again.text) == "zh-Hant" and "Set-Cookie" not in again.headers
    # The switch on the page: a link to each language, the page's own not a link.
    assert '<a href="?lang=en" lang="en" hreflang="en" rel="alternate">English</a>' in again.text
    assert '<b lang="zh-Hant" aria-current="true">中文</b>' in again.text
    back = http.get(pages_server.url + "/?lang=en", headers={"Accept-Language": "zh-TW"})
    assert html_lang(back.text) == "en" and back.headers["Set-Cookie"].startswith("pbem_lang=en;")
    assert html_lang(http.get(pages_server.url + "/", headers={"Accept-Language": "zh-TW"}).text) == "en"
    # Nonsense is no choice: the browser's language decides.
    http.cookies.clear()
    odd = http.get(pages_server.url + "/?lang=klingon", headers={"Accept-Language": "zh-TW"})
    assert html_lang(odd.text) == "zh-Hant" and "Set-Cookie" not in odd.headers


@pytest.mark.parametrize("accept, lang", [("zh-TW,zh;q=0.9,en;q=0.8", "zh-Hant"), ("zh-HK", "zh-Hant"),
                                          ("zh-Hant-TW", "zh-Hant"), ("zh-CN,zh-Hans;q=0.9", "en"),
                                          ("en-GB", "en"), ("fr, de", "en")])
def test_the_browsers_language_picks_the_page_language(service, pages_server, http, accept, lang):
    game_id, keys, tokens = seated(service, "kachina")
    for path in ("/", f"/g/{game_id}", "/g/nosuchgame"):
        resp = http.get(pages_server.url + path, headers={"Accept-Language": accept})
        assert html_lang(resp.text) == lang, path
        assert "Accept-Language" in resp.headers.get("Vary", "")


def test_a_play_link_reads_its_seats_language_and_zone(service, pages_server, http, redis_client):
    game_id, keys, tokens = seated(service, "wakanda", title="茶會")
    set_seat(redis_client, game_id, 1, lang="zh-Hant", tz="Europe/Paris")
    redis_client.hset(key(game_id, "meta"), "lang", "en")
    expires = int(time.time()) + 3 * 86400
    chinese = links.play_link(LinkConf(pages_server.url), game_id, 1, expires=expires)
    english = links.play_link(LinkConf(pages_server.url), game_id, 0, expires=expires)
    page = http.get(chinese, headers={"Accept-Language": "en-US"}).text
    assert html_lang(page) == "zh-Hant"
    assert "你透過回合通知信裡的連結以<b>Bob</b>（1號座位）進行遊戲" in page
    # the link's end, in the seat's zone and language, the zone named; the machine's reading in UTC
    assert when(expires, "Europe/Paris", "zh-Hant") in page
    assert "Europe/Paris" not in page and "中歐" in page
    assert f'datetime="{time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(expires))}"' in page
    # The other seat chose nothing: its browser's language, then the game's.
    theirs = http.get(english, headers={"Accept-Language": "zh-TW"}).text
    assert html_lang(theirs) == "zh-Hant" and when(expires, None, "zh-Hant") in theirs
    assert "台北標準時間" in theirs
    assert html_lang(http.get(english).text) == "en"
    plain = http.get(english, headers={"Accept-Language": "en"}).text
    assert when(expires, None, "en") in plain and "UTC" in plain
    # ?lang wins over the seat's own language.
    assert html_lang(http.get(chinese + "?lang=en").text) == "en"


def test_the_games_language_comes_after_the_browsers(service, pages_server, http, redis_client):
    game_id, keys, tokens = seated(service, "wakanda")
    redis_client.hset(key(game_id, "meta"), "lang", "zh-Hant")
    assert html_lang(http.get(f"{pages_server.url}/g/{game_id}").text) == "zh-Hant"
    assert html_lang(http.get(f"{pages_server.url}/g/{game_id}", headers={"Accept-Language": "en"}).text) == "en"
    live = http.get(f"{pages_server.url}/g/{game_id}/live?log=1").json()
    assert live["lang"] == "zh-Hant" and "玩家" in live["parts"]["players"]


def test_the_scripts_messages_come_translated_in_the_page(service, pages_server, http):
    game_id, keys, tokens = seated(service, "carcassonne")

    def messages(page: str) -> dict:
        block = re.search(r'<script type="application/json" id="pbem-messages">(.*?)</script>', page, re.S)
        return json.loads(block.group(1))

    english = messages(http.get(f"{pages_server.url}/g/{game_id}?lang=en").text)
    assert english == {"lang": "en", "messages": {}, "plurals": {}}    # the messages are English
    chinese = messages(http.get(f"{pages_server.url}/g/{game_id}?lang=zh-Hant").text)
    assert chinese["lang"] == "zh-Hant"
    assert chinese["messages"]["Played: {move}."] == "已執行：{move}。"
    assert chinese["messages"]["Save a copy of your new key"] == "保存新金鑰的備份"     # backup.js
    assert chinese["messages"]["version <b>{shown}</b> of {last}"].startswith("第<b>{shown}</b>版")  # replay.js
    assert chinese["plurals"]["This browser holds {n} seat of this game. Play as:"][1].startswith("這個瀏覽器")
    # only the scripts' own messages: the templates' stay out of the page's block
    assert "Open: join a seat" not in chinese["messages"]
    pseudo = messages(http.get(f"{pages_server.url}/g/{game_id}?lang=x-pseudo").text)
    assert all(text.startswith("⟦") for text in pseudo["messages"].values())


def test_error_pages_and_the_live_parts_read_the_page_language(service, pages_server, http):
    game_id, keys, tokens = seated(service, "wakanda")
    missing = http.get(f"{pages_server.url}/g/nosuchgame?lang=zh-Hant")
    assert missing.status_code == 404 and html_lang(missing.text) == "zh-Hant"
    assert "<h1>找不到</h1>" in missing.text and "<code>unknown_game</code>" in missing.text
    expired = links.play_link(LinkConf(pages_server.url), game_id, 0, expires=time.time() - 60)
    refused = http.get(expired, headers={"Accept-Language": "zh-TW"})
    assert refused.status_code == 401 and "這個連結無法開啟遊戲" in refused.text
    assert "以觀戰者身分觀看這場遊戲" in refused.text
    seat = service.get_game(game_id, None)["to_act"][0]
    live = http.get(f"{pages_server.url}/g/{game_id}/live?log=1&lang=zh-Hant",
                    headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    assert "輪到你了。" in live["parts"]["status"] and "你的動作" in live["parts"]["play"]
    assert "Set-Cookie" not in http.get(f"{pages_server.url}/g/{game_id}/live?lang=zh-Hant").headers
