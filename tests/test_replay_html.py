"""`pbem replay --html`: one self-contained file with every version's
picture and the slider, opened from disk in a real browser with the
network cut off."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

from pbem.web import standalone

from .conftest import ROOT, wait_until
from .pages_support import play, seated

pytestmark = pytest.mark.timeout(300)


def finished_record(service, name: str, seed: int, players: int = 2) -> list[str]:
    game_id, keys, tokens = seated(service, name, players, title=f"A finished {name}")
    final = play(service, game_id, keys, tokens, random.Random(seed))
    assert final["status"] == "finished"
    return list(service.record_lines(game_id, None))


def test_the_file_replays_a_finished_carcassonne_game_offline(service, browser, tmp_path, screenshots):
    lines = finished_record(service, "carcassonne", 21)
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(lines) + "\n")
    made = subprocess.run([sys.executable, "-m", "pbem.cli", "replay", "--html", str(record)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    page_file = tmp_path / "game.html"
    page_file.write_text(made.stdout)
    drawn = standalone.versions(lines)
    last = len(drawn["pictures"]) - 1
    size = len(made.stdout.encode())
    raw = sum(len(p.encode()) for p in drawn["pictures"])
    print(f"replay file: {last + 1} versions, {size} bytes ({raw} bytes of SVG unpacked)")
    assert size < 400_000 < raw          # packed: a small part of the pictures' own size
    assert unpacked(made.stdout) == drawn["pictures"]   # and unpacked, every version's picture exactly
    assert "http://" not in made.stdout.replace("http://www.w3.org/", "")   # nothing to fetch
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    asked = []

    def only_the_file(route):
        asked.append(route.request.url)
        route.abort() if not route.request.url.startswith("file://") else route.continue_()

    context.route("**/*", only_the_file)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(page_file.as_uri())
    page.wait_for_selector("#picture svg")
    shot = lambda name: page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)  # noqa: E731
    shot("end")
    tiles = lambda: page.locator("#picture svg use").count()   # noqa: E731  (placed tiles)
    end_tiles = tiles()
    end_svg = page.inner_html("#picture")
    page.click("a[data-step=first]")
    wait_until(lambda: page.inner_html("#picture") != end_svg, timeout=10)
    assert page.input_value("#slider") == "0" and tiles() == 1        # the start tile alone
    page.fill("#slider", str(last // 2))
    page.dispatch_event("#slider", "input")
    wait_until(lambda: page.inner_text("#at").startswith(f"version {last // 2}"), timeout=10)
    assert 1 < tiles() < end_tiles
    # the banner and the scores are that version's too (no winner's star yet)
    words, scores, to_act = drawn["moments"][last // 2]
    assert words in ("Ann to play.", "Bob to play."), words   # whose move it was, between its events too
    assert not to_act or words == f"{('Ann', 'Bob')[to_act[0]]} to play."
    assert page.inner_text("section.status p.turn") == words
    assert page.locator("table.seats td.score").all_inner_texts() == [str(x) for x in scores]
    assert scores != drawn["result"]["scores"] and page.locator("table.seats td.marker", has_text="\u2605").count() == 0
    shot("middle")
    page.click("a[data-step=next]")
    assert page.input_value("#slider") == str(last // 2 + 1)
    page.click("#log li a >> nth=3")    # the log's entries are versions too
    assert page.url.endswith(f"#v{page.locator('#log li').nth(3).get_attribute('data-v')}")
    page.click("a[data-step=last]")
    wait_until(lambda: tiles() == end_tiles, timeout=10)
    page.set_viewport_size({"width": 390, "height": 844})
    shot("end-phone")
    assert errors == [] and all(url.startswith("file://") for url in asked)
    text = page.inner_text("main")
    assert "Game over:" in text and "Ann" in text and "Bob" in text
    assert page.locator("table.seats td.score").all_inner_texts() == [str(x) for x in drawn["result"]["scores"]]


def test_every_game_makes_a_file(service):
    for name, players in (("wakanda", 2), ("kachina", 3), ("cartoona", 2)):
        lines = finished_record(service, name, 5, players)
        html = standalone.replay_html(lines)
        versions = standalone.versions(lines)
        assert html.startswith("<!doctype html>") and f'max="{len(versions["pictures"]) - 1}"' in html
        assert "<script src=" not in html and '<link rel="stylesheet"' not in html   # all inline


def test_a_record_taken_in_play_makes_a_file_of_what_its_viewer_saw(service):
    """A spectator's record of a Kachina game in play: the file shows the
    spectator's view of every version (no hand), and says whose view it is."""
    game_id, keys, tokens = seated(service, "kachina", 2)
    play(service, game_id, keys, tokens, random.Random(4), moves=6)
    lines = list(service.record_lines(game_id, None))
    html = standalone.replay_html(lines)
    assert "as a spectator saw it while it was played" in html
    assert "The game was in play when this record was taken." in html
    assert not any("Your tiles" in svg for svg in unpacked(html))
    mine = standalone.replay_html(list(service.record_lines(game_id, tokens[0])))
    assert "as seat 0 saw it" in mine
    assert any("Your tiles" in svg for svg in unpacked(mine))   # the check sees a hand where there is one


def unpacked(html: str) -> list[str]:
    """Every version's picture, as the file's script unpacks them."""
    import base64
    import gzip
    import json
    import re
    packed = re.search(r'<script type="application/octet-stream" id="pictures">([^<]+)</script>', html).group(1)
    data = json.loads(gzip.decompress(base64.b64decode(packed)))
    return [data["pictures"][i][1].replace(standalone.HOLE, data["defs"][data["pictures"][i][0]])
            for i in data["at"]]
