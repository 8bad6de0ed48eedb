"""The game pages pass axe-core (the accessibility checker) with no
violation (issue 28): every game's page at 390 px wide, as the seat to move
sees it (the play link's page, its spots to touch marked, and again in the
middle of a move) and as a spectator. axe-core comes from the npm registry
(``npm pack axe-core@4``), kept in test-artifacts/axe/ between runs; without
npm the test is skipped, saying so."""
from __future__ import annotations

import random
import shutil
import subprocess
import tarfile

import pytest

from pbem.trust import play_links as links

from .conftest import ARTIFACTS
from .pages_support import LinkConf, SECRET, pages_app, pages_server, play, seated, stream_port  # noqa: F401

pytestmark = pytest.mark.timeout(300)
PHONE = {"width": 390, "height": 844}
GAMES = ("kachina", "wakanda", "carcassonne", "cartoona")




@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script (axe.min.js), packed from the npm registry once."""
    cache = ARTIFACTS / "axe"
    script = cache / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if not npm:
            pytest.skip("the accessibility check needs npm to fetch axe-core (apt-get install npm)")
        cache.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([npm, "pack", "axe-core@4", "--pack-destination", str(cache)], capture_output=True,
                              text=True, timeout=180)
        assert done.returncode == 0, f"npm pack axe-core@4 failed: {done.stderr[-2000:]}"
        packed = sorted(cache.glob("axe-core-*.tgz"))[-1]
        with tarfile.open(packed) as tar:
            script.write_bytes(tar.extractfile("package/axe.min.js").read())
    return script.read_text(encoding="utf-8")


def violations(page, axe_source: str) -> list:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source)
    return page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + ": " + n.failureSummary) }));
    }""")


def started(service, name: str, moves: int) -> tuple[str, dict]:
    game_id, keys, tokens = seated(service, name, 2)
    play(service, game_id, keys, tokens, random.Random(3), moves=moves)
    return game_id, tokens


@pytest.mark.parametrize("name", GAMES)
def test_a_game_page_has_no_accessibility_violation(name, browser, service, pages_server, axe_source, screenshots):
    game_id, _tokens = started(service, name, 4)
    seat = service.get_game(game_id, None)["to_act"][0]
    # (axe is put into the page as a script of its own: the pages' policy allows none)
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{pages_server.url}/g/{game_id}")
    page.wait_for_selector("#picture svg")
    page.wait_for_load_state("networkidle")
    assert violations(page, axe_source) == [], "the spectator's page"
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, seat))
    page.wait_for_selector("#play form.moves")
    page.wait_for_load_state("networkidle")
    assert violations(page, axe_source) == [], "the seat to move"
    spot = page.locator("#picture [data-pick].pickable[tabindex='0']")
    if spot.count():   # in the middle of a move: one spot touched, the next ones marked
        spot.first.click()
        page.wait_for_selector("#touch-panel:not([hidden])")
        assert violations(page, axe_source) == [], "the seat to move, one spot touched"
    page.screenshot(path=str(screenshots / f"{name}-seat.png"), full_page=True)
    context.close()


def test_the_check_finds_a_violation(browser, axe_source):
    """The check itself: a page with a picture and no text for it fails it."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_content('<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1>'
                     '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>')
    assert [v["id"] for v in violations(page, axe_source)] == ["image-alt"]
    context.close()
