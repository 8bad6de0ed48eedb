"""On a phone (390 px wide, a real browser): the touch spots of Kachina and
Wakanda are big enough for a finger and the panels' text big enough to read.

The seat to move in the middle of a game: every `#picture [data-pick]`
spot (the hand's tiles, the held pieces, the headdress, the board's cells
and villages) is at least 44 x 44 CSS px (WCAG 2.5.5, Apple's HIG), no two
spots overlap, every text of the panels is drawn at 12 CSS px or more, and
nothing scrolls sideways; in English and in Traditional Chinese (screenshots
in test-artifacts/screenshots/<test>/). The panels are their narrow twins
(``draw(narrow=True)``, put in place by static/zoom.js): on a wide screen
the picture is as drawn, with no spot twice."""
from __future__ import annotations

import random

import pytest

from .pages_support import SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401
from .test_pages_browser import shot, watch
from .test_pages_phone import DESKTOP, PHONE, fits, seat_url, with_lang

pytestmark = pytest.mark.timeout(600)
MIDDLE = {"kachina": 8, "wakanda": 5}

MEASURE = """() => {
  const pic = document.querySelector('#picture');
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const spots = [...pic.querySelectorAll('[data-pick]')].map(e => ({
      key: e.getAttribute('data-pick'), box: box(e), pickable: e.classList.contains('pickable'),
      board: !!e.closest('svg.port')}));
  const texts = [...pic.querySelectorAll(':scope > svg > [data-part=panel] text')]
    .filter(t => t.textContent.trim())
    .map(t => ({text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a}));
  return {spots, texts,
          layouts: [...pic.querySelectorAll(':scope > svg > [data-layout]')].map(g => g.getAttribute('data-layout'))};
}"""


def overlap(a, b) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


@pytest.mark.parametrize("name", sorted(MIDDLE))
def test_touch_spots_fit_a_finger_and_panel_text_reads_at_390(name, browser, service, pages_server, screenshots):
    game_id, keys, tokens = seated(service, name, title=f"{name} thumbs", seed=b"thumbs")
    play(service, game_id, keys, tokens, random.Random(11), moves=MIDDLE[name])
    assert service.get_game(game_id, None)["status"] != "finished"
    url = seat_url(pages_server, service, game_id)
    errors = []
    for lang in ("en", "zh-Hant"):
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True)
        page = context.new_page()
        errors += watch(page)
        page.goto(with_lang(url, lang))
        page.wait_for_selector("#picture svg.port")
        page.wait_for_selector("#picture [data-pick].pickable")
        fits(page)
        got = page.evaluate(MEASURE)
        shot(page, screenshots, f"{name}-seat-390-{lang}")
        page.locator("#picture").screenshot(path=str(screenshots / f"{name}-picture-390-{lang}.png"))
        assert got["layouts"] and set(got["layouts"]) == {"narrow"}, got["layouts"]
        spots = got["spots"]
        assert any(s["pickable"] for s in spots), spots
        small = lambda spots: [(s["key"], [round(v, 1) for v in s["box"][2:]]) for s in spots  # noqa: E731
                               if s["box"][2] < 44 or s["box"][3] < 44]
        assert not small([s for s in spots if not s["board"]]), (lang, spots)
        assert any(not s["board"] for s in spots) and any(s["board"] for s in spots)
        if small([s for s in spots if s["board"]]):
            # a board wider than 7 cells cannot show 44 px cells in 356 px: one zoom step in, they are
            page.click("#zoom [data-zoom=in]")
            zoomed = [s for s in page.evaluate(MEASURE)["spots"] if s["board"]]
            assert not small(zoomed), (lang, small(zoomed))
            page.click("#zoom [data-zoom=fit]")
        crossed = [(a["key"], b["key"]) for i, a in enumerate(spots) for b in spots[i + 1:]
                   if overlap(a["box"], b["box"]) > 0.5]
        assert not crossed, (lang, crossed)
        assert len(got["texts"]) >= 5
        tiny = [(t["text"], round(t["px"], 1)) for t in got["texts"] if t["px"] < 11.95]
        assert not tiny, (lang, tiny)
        # a tap on a spot of the narrow panel is a touch: the chooser takes it
        first = page.locator("#picture [data-pick].pickable").first
        key = first.get_attribute("data-pick")
        first.tap()
        page.wait_for_selector(f"#picture [data-pick='{key}'].picked")
        context.close()

        # a wide screen: the picture as drawn, the narrow twins out of the document
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        errors += watch(page)
        page.goto(with_lang(url, lang))
        page.wait_for_selector("#picture [data-pick].pickable")
        got = page.evaluate(MEASURE)
        assert set(got["layouts"]) == {"wide"}, got["layouts"]
        keys_drawn = [s["key"] for s in got["spots"]]
        assert len(keys_drawn) == len(set(keys_drawn)) or name == "kachina"   # (a hand may hold a kind twice)
        context.close()
    assert errors == []


def _spots(group) -> set:
    return {e.get("data-pick") for e in group.iter() if e.get("data-pick") is not None}


@pytest.mark.parametrize("name", sorted(MIDDLE))
def test_the_narrow_twin_has_every_spot_of_the_wide_panels_and_mail_goes_without(name):
    """Over many states of random games: the narrow panels (hidden as drawn)
    hold the same touch spots as the wide ones they stand for, and a picture
    drawn without ``narrow`` (the mails') has no twin."""
    import xml.etree.ElementTree as ET

    from pbem import games
    from pbem.pictures import svg as picture

    game = games.get(name)
    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.start(2, game.check_options(2, {}))
        state = game.apply(state, game.setup(state, rng))
        for _step in range(30):
            acting = sorted(game.to_act(state))
            if not acting:
                break
            seat = acting[0]
            legal = game.legal_moves(state, seat)
            view = game.view(state, seat)
            root = ET.fromstring(picture(name, view, names=["Ann", "Bob"], viewer=seat, legal=legal, narrow=True))
            parts = [g for g in root if g.get("data-part")]
            wide = set().union(*(_spots(g) for g in parts if g.get("data-layout") == "wide"))
            narrow = [g for g in parts if g.get("data-layout") == "narrow"]
            assert narrow and all(g.get("display") == "none" and g.get("data-box") for g in narrow)
            assert set().union(*(_spots(g) for g in narrow)) == wide
            seen += bool(wide)
            mail = picture(name, view, names=["Ann", "Bob"], viewer=seat, legal=legal)
            assert "data-layout" not in mail
            move = rng.choice(legal)
            state = game.apply(state, game.decide(state, seat, move, rng))
    assert seen >= 10
