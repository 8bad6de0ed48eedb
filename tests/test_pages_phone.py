"""The pages on a phone (390 px wide) in a real browser (Playwright driving
Debian's chromium): nothing scrolls sideways on any page (the lobby, every
game's page early, in the middle and finished, as a seat and as a spectator,
a replayed version, an invitation, the rules in play, the error pages,
the API docs); the board picture is as wide as the screen at most, the
board first, fitted to the width; the zoom buttons, the keys, a pinch and a drag change the board's
view (pbem/web/static/zoom.js). Screenshots at 390 and 1280 px, in English
and in Traditional Chinese, go to test-artifacts/screenshots/<test>/."""
from __future__ import annotations

import random

import pytest

from pbem.mail_in import invites
from pbem.mail_in.addresses import invite_token
from pbem.trust import play_links as links

from .pseudo_support import leftover_english
from .pages_support import SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401
from .test_pages_browser import LinkConf, shot, watch

pytestmark = pytest.mark.timeout(600)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
GAMES = {"carcassonne": 16, "kachina": 8, "wakanda": 5, "cartoona": 16}   # moves to the game's middle

FITS = """() => {
  const doc = document.documentElement;
  const pic = document.querySelector('#picture');
  const svg = pic && pic.querySelector(':scope > svg');
  const port = pic && pic.querySelector('svg.port');
  const r = svg && svg.getBoundingClientRect(), p = pic && pic.getBoundingClientRect();
  // (a nested svg's own box is its content's: its viewport is its width and height in the root's units)
  const k = r ? r.width / (+svg.getAttribute('width') || r.width) : 1;
  const q = port && {left: r.left + port.x.baseVal.value * k, width: port.width.baseVal.value * k,
                     height: port.height.baseVal.value * k};
  if (q) q.right = q.left + q.width;
  return {scroll: doc.scrollWidth, client: doc.clientWidth,
          svg: r ? [r.left, r.right, r.width] : null, picture: p ? [p.left, p.right] : null,
          port: q ? [q.left, q.right, q.width, q.height] : null,
          viewBox: port ? port.getAttribute('viewBox') : null, zoom: pic ? pic.dataset.zoom : null,
          board: port ? (port.querySelector('[data-part=board]').getAttribute('data-box') || (b => [b.x, b.y, b.width,
                         b.height].join(' '))(port.querySelector('[data-part=board]').getBBox())) : null,
          panels: svg ? svg.querySelectorAll(':scope > [data-part=panel]').length : 0};
}"""


def fits(page, width: int = 390) -> dict:
    """Nothing wider than the screen: no sideways scroll, the picture inside it."""
    got = page.evaluate(FITS)
    assert got["scroll"] <= width, (page.url, got)
    if got["svg"]:
        left, right, w = got["svg"]
        assert 0 <= left and right <= width + 0.5 and w <= width, (page.url, got)
    return got


def numbers(text: str) -> list:
    return [float(v) for v in text.split()]


@pytest.fixture
def games_at(service):
    """Per game: a game early (one move), one in its middle and one finished;
    Carcassonne's with a seat's play link."""
    made = {}
    for name, middle in GAMES.items():
        rng = random.Random(len(name))
        stages = {}
        for stage, moves in (("early", 1), ("middle", middle), ("finished", None)):
            game_id, keys, tokens = seated(service, name, title=f"{name} {stage}")
            play(service, game_id, keys, tokens, rng, moves=moves)
            stages[stage] = game_id
        made[name] = stages
    return made


def seat_url(server, service, game_id: str) -> str:
    game = service.get_game(game_id, None)
    seat = (game["to_act"] or [0])[0]
    return links.play_link(LinkConf(server.url), game_id, seat)


def with_lang(url: str, lang: str) -> str:
    return url + ("&" if "?" in url else "?") + "lang=" + lang


def test_no_page_scrolls_sideways_and_the_board_comes_first(browser, service, pages_server, games_at, screenshots):
    url = pages_server.url
    errors = []
    for lang in ("en", "zh-Hant"):
        phone = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = phone.new_page()
        errors += watch(page)
        page.goto(with_lang(url + "/", lang))
        fits(page)
        shot(page, screenshots, f"lobby-390-{lang}")
        page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")  # the new game's form
        fits(page)
        shot(page, screenshots, f"lobby-create-390-{lang}")
        for name, stages in games_at.items():
            for stage, game_id in stages.items():
                for who, where in (("spectator", f"{url}/g/{game_id}"),
                                   ("seat", seat_url(pages_server, service, game_id))):
                    page.goto(with_lang(where, lang))
                    page.wait_for_selector("#picture svg")
                    page.wait_for_function("document.querySelector('#picture').dataset.zoom")
                    page.wait_for_timeout(150)   # the seat's own parts, fetched by the script
                    got = fits(page)
                    if stage == "middle" or (name == "carcassonne" and stage == "early"):
                        shot(page, screenshots, f"{name}-{stage}-{who}-390-{lang}")
                    # the board first, fitted to the picture's width, its whole box in view
                    if name == "cartoona":   # no parts: the whole picture is the board, fitted to the width
                        assert got["port"] is None and got["svg"][2] <= got["picture"][1] - got["picture"][0]
                        assert got["zoom"] == "1.000"
                        continue
                    assert got["port"], (name, stage, who, got)
                    left, right, width, height = got["port"]
                    pic_left, pic_right = got["picture"]
                    assert abs(left - pic_left) <= 2 and abs(right - pic_right) <= 2, got
                    assert got["zoom"] == "1.000"
                    assert got["panels"] >= 1 and got["board"], got
                    x, y, w, h = numbers(got["viewBox"])
                    bx, by, bw, bh = numbers(got["board"])
                    assert x <= bx + 0.5 and y <= by + 0.5 and x + w >= bx + bw - 0.5 and y + h >= by + bh - 0.5
                    # fitted: the board fills the port's width or its height
                    assert abs(w - bw) < 1 or abs(h - bh) < 1, got
        middle = games_at["carcassonne"]["middle"]
        rules = [f"{url}/g/{stages['middle']}/rules" for stages in games_at.values()]
        for where in (f"{url}/g/{middle}/v/3", f"{url}/g/nope", f"{url}/play/x.0.1.zz",
                      f"{url}/join/not-a-token", *rules):
            page.goto(with_lang(where, lang))
            fits(page)
        page.goto(with_lang(f"{url}/g/{middle}/v/3", lang))
        page.wait_for_selector("#picture svg.port")
        shot(page, screenshots, f"replay-v3-390-{lang}")
        phone.close()
        wide = browser.new_context(viewport=DESKTOP)
        page = wide.new_page()
        errors += watch(page)
        page.goto(with_lang(url + "/", lang))
        shot(page, screenshots, f"lobby-1280-{lang}")
        for name, stages in games_at.items():
            for stage in ("early", "middle"):
                page.goto(with_lang(seat_url(pages_server, service, stages[stage]), lang))
                page.wait_for_selector("#picture svg")
                page.wait_for_function("document.querySelector('#picture').dataset.zoom")
                got = fits(page, 1280)
                assert got["port"] is None   # as drawn: the board and its panels side by side or one above the other
                shot(page, screenshots, f"{name}-{stage}-seat-1280-{lang}")
        wide.close()
    assert errors == []


def test_the_api_docs_and_an_invitation_fit_a_phone(browser, service, pages_server, screenshots):
    game_id = service.create_game("wakanda", 2, {}, "Garden game")["id"]
    invites.invite(service, game_id, [{"email": "bob@example.test", "seat": 1, "name": "Bob"}])
    nonce = service.store.invitations(game_id)[1]["nonce"]
    token = invite_token(SECRET.encode(), game_id, 1, nonce)
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch(page)
    for lang in ("en", "zh-Hant"):
        page.goto(with_lang(f"{pages_server.url}/join/{token}", lang))
        assert page.locator("form.invitation-join").count() == 1
        fits(page)
        shot(page, screenshots, f"invitation-390-{lang}")
    page.goto(f"{pages_server.url}/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=15000)
    fits(page)
    shot(page, screenshots, "docs-390", full=False)
    assert errors == []


def test_zoom_buttons_keys_pinch_and_drag(browser, service, pages_server, screenshots):
    game_id, keys, tokens = seated(service, "carcassonne", title="Zoom")
    play(service, game_id, keys, tokens, random.Random(3), moves=20)
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    errors = watch(page)
    page.goto(f"{pages_server.url}/g/{game_id}")
    page.wait_for_selector("#picture svg.port")
    view = lambda: numbers(page.get_attribute("#picture svg.port", "viewBox"))  # noqa: E731
    zoom = lambda: float(page.get_attribute("#picture", "data-zoom"))  # noqa: E731
    fitted = view()
    assert zoom() == 1 and page.is_disabled("#zoom [data-zoom=out]") and page.is_disabled("#zoom [data-zoom=fit]")
    assert page.get_attribute("#zoom [data-zoom=in]", "aria-label") == "Zoom in"

    page.click("#zoom [data-zoom=in]")
    assert zoom() == pytest.approx(1.5)
    x, y, w, h = view()
    assert w == pytest.approx(fitted[2] / 1.5, rel=0.01)   # a third of the board's width out of view
    page.click("#zoom [data-zoom=in]")
    assert zoom() == pytest.approx(2.25)

    # a drag with the mouse (pointer events) pans: the board follows the pointer
    root = page.locator("#picture > svg").bounding_box()   # the port is the top of the picture
    port_w, port_h = (float(page.get_attribute("#picture svg.port", a)) for a in ("width", "height"))
    assert port_w == pytest.approx(root["width"], abs=1)
    cx, cy = root["x"] + port_w / 2, root["y"] + port_h / 2
    before = view()
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 30, cy + 20, steps=5)
    page.mouse.move(cx + 60, cy + 40, steps=5)
    page.mouse.up()
    after = view()
    unit = before[2] / port_w
    assert after[0] == pytest.approx(before[0] - 60 * unit, abs=2 * unit)
    assert after[1] == pytest.approx(before[1] - 40 * unit, abs=2 * unit)
    shot(page, screenshots, "zoomed-panned-390", full=False)

    page.click("#zoom [data-zoom=fit]")
    assert zoom() == 1 and view() == pytest.approx(fitted)

    # two fingers spread apart: a pinch zooms in around them (touch pointers)
    page.evaluate("""([cx, cy]) => {
      const port = document.querySelector('#picture svg.port');
      const at = (type, id, x) => port.dispatchEvent(new PointerEvent(type, {pointerId: id, pointerType: 'touch',
          isPrimary: id === 1, clientX: x, clientY: cy, bubbles: true, cancelable: true}));
      at('pointerdown', 1, cx - 20); at('pointerdown', 2, cx + 20);
      for (let d = 20; d <= 60; d += 10) { at('pointermove', 1, cx - d); at('pointermove', 2, cx + d); }
      at('pointerup', 1, cx - 60); at('pointerup', 2, cx + 60);
    }""", [cx, cy])
    assert zoom() == pytest.approx(3, rel=0.05)

    # the keys, on the focused picture
    page.click("#zoom [data-zoom=fit]")
    page.focus("#picture")
    page.keyboard.press("+")
    assert zoom() == pytest.approx(1.5)
    before = view()
    page.keyboard.press("ArrowRight")
    assert view()[0] > before[0]
    page.keyboard.press("0")
    assert zoom() == 1

    # a new version keeps the view: zoomed in, the replay's step shows the same spot
    page.click("#zoom [data-zoom=in]")
    zoomed = view()
    shown = page.inner_html("#picture")
    page.click("a[data-step=prev]")
    page.wait_for_function("(s) => document.querySelector('#picture').innerHTML !== s", arg=shown)
    page.wait_for_selector("#picture svg.port")
    assert zoom() == pytest.approx(1.5) and view()[2] == pytest.approx(zoomed[2], rel=0.05)
    fits(page)
    assert errors == []


def test_zoom_labels_read_in_chinese_and_come_from_the_catalog(browser, service, pages_server):
    """The zoom buttons' names (what a screen reader says, the tooltips) in
    Chinese, and in the pseudo-locale all inside its brackets (no English left)."""
    game_id, keys, tokens = seated(service, "wakanda", title="Zoom zh")
    page = browser.new_context(viewport=PHONE).new_page()
    said = """() => [...document.querySelectorAll('#zoom, #zoom button')].flatMap(
        b => [b.getAttribute('aria-label'), b.getAttribute('title'), b.textContent]).filter(Boolean)"""
    page.goto(f"{pages_server.url}/g/{game_id}?lang=zh-Hant")
    page.wait_for_selector("#picture svg.port")
    assert page.get_attribute("#zoom [data-zoom=in]", "aria-label") == "放大"
    assert page.get_attribute("#zoom [data-zoom=out]", "aria-label") == "縮小"
    labels = page.evaluate(said)
    assert len(labels) >= 7 and not [t for t in labels if any("a" <= c.lower() <= "z" for c in t)], labels
    page.goto(f"{pages_server.url}/g/{game_id}?lang=x-pseudo")
    page.wait_for_selector("#picture svg.port")
    assert not leftover_english(" ".join(page.evaluate(said)))


def test_a_pinch_by_touch_events_where_there_are_no_pointer_events(browser, service, pages_server):
    """An older phone's browser (no PointerEvent): zoom.js reads its touches."""
    game_id, keys, tokens = seated(service, "kachina", title="Old phone")
    play(service, game_id, keys, tokens, random.Random(5), moves=4)
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_init_script("delete window.PointerEvent; window.PointerEvent = undefined;")
    page = context.new_page()
    errors = watch(page)
    page.goto(f"{pages_server.url}/g/{game_id}")
    page.wait_for_selector("#picture svg.port")
    assert page.evaluate("window.PointerEvent") is None
    before = page.get_attribute("#picture svg.port", "viewBox")
    page.evaluate("""() => {
      const port = document.querySelector('#picture svg.port');
      const r = document.querySelector('#picture > svg').getBoundingClientRect();
      const cx = r.left + port.width.baseVal.value / 2, cy = r.top + port.height.baseVal.value / 2;
      const touch = (id, x) => new Touch({identifier: id, target: port, clientX: x, clientY: cy});
      const fire = (type, ts) => port.dispatchEvent(new TouchEvent(type, {touches: ts, changedTouches: ts,
                                                                            bubbles: true, cancelable: true}));
      fire('touchstart', [touch(1, cx - 20), touch(2, cx + 20)]);
      for (let d = 20; d <= 40; d += 5) fire('touchmove', [touch(1, cx - d), touch(2, cx + d)]);
      fire('touchend', [touch(1, cx - 40), touch(2, cx + 40)]);
    }""")
    assert float(page.get_attribute("#picture", "data-zoom")) == pytest.approx(2, rel=0.05)
    assert page.get_attribute("#picture svg.port", "viewBox") != before
    assert errors == []
