"""A past version's page is all of that moment, over real HTTP: the banner
(whose turn it was), the players' table and its scores, the log's
highlight, as the picture already was; and the slider's answer
(``/g/{id}/live?at=N``) is the same moment, through the same filter, for
the caller its token names."""
from __future__ import annotations

import random
import re

import pytest

from pbem.games.base import canonical

from .pages_support import NAMES, SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401

pytestmark = pytest.mark.timeout(120)


def scores_in(players_html: str) -> list:
    """The players' table's scores, by seat."""
    return [int(s) if s else None for s in re.findall(r'<td class="score">(-?\d*)</td>', players_html)]


def part(page: str, section: str) -> str:
    return page.split(f'<section id="{section}"')[1].split("</section>")[0]


def banner(html: str) -> str:
    return re.search(r'<p class="turn[^"]*">(.*?)</p>', html, re.S).group(1)


def a_past_version(service, game_id, final_scores) -> int:
    """A version whose scores differ from the end's and whose seat to act is
    not the last one's: what would show if the page mixed two moments."""
    last = service.get_game(game_id, None)["version"]
    for version in range(last - 20, 0, -1):
        at = service.state_at(game_id, None, version)
        if at["view"]["scores"] != final_scores and at["to_act"] and any(at["view"]["scores"]):
            return version
    for version in range(last - 1, 0, -1):   # a low-scoring game: scores of nought then
        at = service.state_at(game_id, None, version)
        if at["view"]["scores"] != final_scores and at["to_act"]:
            return version
    raise AssertionError("no version to look at")


def test_a_past_versions_page_shows_that_versions_banner_players_and_scores(service, pages_server, http):
    game_id, keys, tokens = seated(service, "carcassonne", title="Then and now")
    final = play(service, game_id, keys, tokens, random.Random(4))
    assert final["status"] == "finished"
    version = a_past_version(service, game_id, final["result"]["scores"])
    then = service.state_at(game_id, None, version)
    assert then["status"] == "active" and then["result"] is None

    now_page = http.get(f"{pages_server.url}/g/{game_id}").text
    assert banner(now_page).startswith("Game over")
    assert scores_in(part(now_page, "players")) == final["result"]["scores"]

    page = http.get(f"{pages_server.url}/g/{game_id}/v/{version}").text
    words = banner(page)
    assert words == f"{' and '.join(NAMES[s] for s in then['to_act'])} to play.", words
    players = part(page, "players")
    assert scores_in(players) == then["view"]["scores"] != final["result"]["scores"]
    assert "&#x2605;" not in players and "\u2605" not in players, "a winner's star before the end"
    for seat in range(2):
        row = re.search(rf'<tr class="seat seat-{seat}[^"]*"', players).group(0)
        assert ("to-act" in row) == (seat in then["to_act"]), row
    assert f'<li data-v="{version}" class="shown">' in page
    assert page.count('class="shown"') == 1
    # between two events of one move nobody is to act: the banner names whose move it was
    between = next(v for v in range(1, 30) if not service.state_at(game_id, None, v)["to_act"])
    mover = service.state_at(game_id, None, between)["active"]
    assert banner(http.get(f"{pages_server.url}/g/{game_id}/v/{between}").text) == f"{NAMES[mover]} to play."
    # the picture is the same moment's: its panel says the turn the text board says
    picture = page.split('id="picture"')[1].split("</div>")[0]
    number = re.search(r"Carcassonne - turn (\d+)", then["text"]).group(1)
    assert f"Turn {number} \u00b7" in picture and "Game over" not in picture


def test_the_sliders_answer_is_the_moment_for_its_caller(service, pages_server, http):
    game_id, keys, tokens = seated(service, "kachina", title="Hands")
    play(service, game_id, keys, tokens, random.Random(2), moves=16)
    now = service.get_game(game_id, None)
    assert now["status"] == "active"
    version = now["version"] // 2
    answers = {}
    for who, token in (("spectator", None), ("seat 0", tokens[0]), ("seat 1", tokens[1])):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        resp = http.get(f"{pages_server.url}/g/{game_id}/live?at={version}", headers=headers)
        assert resp.status_code == 200, resp.text
        body = resp.json()
        assert body["shown"] == version and body["version"] == now["version"]
        assert set(body["parts"]) == {"status", "players"}
        then = service.state_at(game_id, token, version)
        assert scores_in(body["parts"]["players"]) == then["view"]["scores"]
        expected = ("Your turn." if token and then["to_act"] == [int(who[-1])]
                    else f"{' and '.join(NAMES[s] for s in then['to_act'])} to play.")
        assert banner(body["parts"]["status"]) == expected
        # the same picture the version's own address draws for that caller (one filter)
        svg = http.get(f"{pages_server.url}/g/{game_id}/v/{version}.svg", headers=headers).text
        assert body["picture"] == svg
        answers[who] = body["picture"]
    # each seat's own hand: three different pictures, none of them another's
    assert len(set(answers.values())) == 3
    # the current parts are unchanged by it
    live = http.get(f"{pages_server.url}/g/{game_id}/live").json()
    assert live["shown"] == now["version"] and "play" in live["parts"]


def test_a_bad_version_for_the_slider_is_refused(service, pages_server, http):
    game_id, keys, tokens = seated(service, "wakanda")
    play(service, game_id, keys, tokens, random.Random(1), moves=2)
    bad = http.get(f"{pages_server.url}/g/{game_id}/live?at=x1")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    far = http.get(f"{pages_server.url}/g/{game_id}/live?at=999")
    assert far.status_code == 404 and far.json()["error"]["code"] == "unknown_version"


def test_the_sliders_answer_reads_in_the_pages_language(service, pages_server, http):
    """Its banner and players are the catalogs' words: none left in English
    in the pseudo-locale, and Chinese in zh-Hant."""
    from html import unescape

    from .pseudo_support import leftover_english
    game_id, keys, tokens = seated(service, "carcassonne")
    final = play(service, game_id, keys, tokens, random.Random(6))
    version = a_past_version(service, game_id, final["result"]["scores"])
    pseudo = http.get(f"{pages_server.url}/g/{game_id}/live?at={version}&lang=x-pseudo").json()
    words = unescape(re.sub(r"<[^>]+>", " ", pseudo["parts"]["status"] + pseudo["parts"]["players"]))
    assert leftover_english(words, allowed_texts=NAMES) == []
    chinese = http.get(f"{pages_server.url}/g/{game_id}/live?at={version}&lang=zh-Hant").json()
    turn = banner(chinese["parts"]["status"])
    assert re.search(r"[\u4e00-\u9fff]", turn) and "to play" not in turn, turn
    assert "玩家" in chinese["parts"]["players"]
