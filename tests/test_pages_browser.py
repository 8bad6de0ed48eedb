"""The pages in a real browser (Playwright driving Debian's chromium): the
lobby and a game's page, the replay slider, two seats playing a whole game
of Wakanda with WebCrypto keys, Carcassonne turns by pointing at the board,
a play link's move, and a spectator's page. Screenshots go to
test-artifacts/screenshots/<test>/ (at a desktop width and a phone's)."""
from __future__ import annotations

import random
import re
import time

import pytest

from pbem.trust.signing import make_envelope
from pbem.trust import play_links as links

from .conftest import wait_until
from .pages_support import (LinkConf, NAMES, SECRET, move_buttons, pages_app, pages_server,  # noqa: F401
                            stream_port, play, seated)

pytestmark = pytest.mark.timeout(300)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def watch(page) -> list:
    """The page's script errors, gathered: a test fails on any."""
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def shot(page, folder, name: str, full: bool = True) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full)


def picture(page) -> str:
    return page.inner_html("#picture")


def test_lobby_and_game_page_and_replay_slider(browser, service, pages_server, screenshots):
    game_id, keys, tokens = seated(service, "carcassonne", title="Tiles at noon")
    play(service, game_id, keys, tokens, random.Random(7), moves=8)
    done_id, keys2, tokens2 = seated(service, "wakanda", title="Last week's")
    play(service, done_id, keys2, tokens2, random.Random(8))
    version = service.get_game(game_id, None)["version"]
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        errors = watch(page)
        page.goto(pages_server.url + "/")
        assert page.locator("#active a", has_text="Tiles at noon").count() == 1
        shot(page, screenshots, f"lobby-{label}")
        page.click("#active a >> text=Tiles at noon")
        page.wait_for_url(f"**/g/{game_id}")
        page.wait_for_selector("#picture svg")
        shot(page, screenshots, f"game-{label}")
        assert errors == []
        now = picture(page)
        page.click("a[data-step=prev]")
        wait_until(lambda: picture(page) != now, timeout=10)
        assert page.input_value("#slider") == str(version - 1)
        assert page.url.endswith(f"/g/{game_id}/v/{version - 1}")
        back = picture(page)
        page.click("a[data-step=first]")
        wait_until(lambda: picture(page) != back, timeout=10)
        assert page.input_value("#slider") == "0"
        page.fill("#slider", "5")   # dragging the slider fires input events
        page.dispatch_event("#slider", "input")
        wait_until(lambda: page.inner_text("#at").startswith("version 5"), timeout=10)
        wait_until(lambda: page.locator("#log li.shown").get_attribute("data-v") == "5", timeout=10)
        shot(page, screenshots, f"game-v5-{label}")
        page.click("a[data-step=last]")
        wait_until(lambda: picture(page) == now, timeout=10)
        assert page.is_hidden("#past")
        context.close()


def join_from_page(page, seat: int, name: str, folder=None) -> str | None:
    """Join a free seat from the page; when the browser makes its key for it,
    the key's copy is shown and taken (the answer), then the join goes on."""
    page.click(f"button.join-seat[data-seat='{seat}']")
    page.fill("#join-name", name)
    if folder is not None:
        shot(page, folder, f"join-seat{seat}")
    page.click("form.join button[type=submit]")
    page.wait_for_selector(f"#who:has-text('You play {name}'), #backup-done")
    copy = None
    if page.locator("#backup-done").count():
        page.click("#backup-show")
        copy = page.inner_text("#backup-text")
        page.click("#backup-done")
    page.wait_for_selector(f"#who:has-text('You play {name}')")
    return copy


def test_two_seats_play_a_whole_wakanda_game_from_their_pages(browser, service, pages_server, start_worker,
                                                             screenshots):
    start_worker()
    game_id = service.create_game("wakanda", 2, {}, "Two browsers")["id"]
    pages, errors = [], []
    for seat, name in enumerate(("Ann", "Bob")):
        context = browser.new_context(viewport=DESKTOP if seat == 0 else PHONE)
        page = context.new_page()
        errors.append(watch(page))
        page.goto(f"{pages_server.url}/g/{game_id}")
        join_from_page(page, seat, name, screenshots)
        pages.append(page)
    seats = service.store.seats(game_id)
    assert {s: d["name"] for s, d in seats.items()} == {0: "Ann", 1: "Bob"}
    # Each seat joined with its own browser-made key: distinct Ed25519 public keys.
    assert seats[0]["public_key"] != seats[1]["public_key"] and len(seats[0]["public_key"]) == 43
    for page in pages:   # both pages learn that the game was dealt, without a reload by hand
        page.wait_for_selector("#slider", timeout=15000)
    moves = 0
    while True:
        game = service.get_game(game_id, None)
        if game["status"] == "finished":
            break
        seat = game["to_act"][0]
        me, other = pages[seat], pages[1 - seat]
        buttons = move_buttons(me, version=game["version"])
        if moves == 1:
            shot(me, screenshots, f"turn-seat{seat}")
        texts = buttons.all_inner_texts()
        pick = next((i for i, t in enumerate(texts) if t.startswith("claim")), 0)
        before = game["version"]
        buttons.nth(pick).click()
        me.wait_for_selector("#sent.good", timeout=15000)
        moves += 1
        after = service.get_game(game_id, None)["version"]
        assert after > before
        # The other page shows the new version without being reloaded.
        wait_until(lambda: other.get_attribute("#slider", "max") == str(after), timeout=15)
        assert other.evaluate("performance.getEntriesByType('navigation').length") == 1
    final = service.get_game(game_id, None)
    records = service.record_lines(game_id, None)
    import json
    steps = [json.loads(line) for line in records][1:]
    signed = [s for s in steps if s.get("auth") == "ed25519"]
    assert len(signed) == moves and moves >= 6
    for page in pages:
        page.wait_for_selector("p.turn:has-text('Game over')", timeout=15000)
    shot(pages[0], screenshots, "finished-desktop")
    shot(pages[1], screenshots, "finished-phone")
    winner = NAMES[final["result"]["winners"][0]] if final["result"]["winners"] else None
    if winner:
        assert winner in pages[0].inner_text("p.turn")
    assert errors == [[], []]


def test_a_cell_chosen_before_the_pages_first_refresh_stays_chosen(browser, service, pages_server):
    """The page refreshes its parts just after it loads (and on each live
    update), and attaches its chooser again: a cell tapped and turned before
    that answer came stays chosen, turned as it was (a loaded phone once
    lost the tap)."""
    game_id, _keys, _tokens = seated(service, "carcassonne", seed=b"kept choice")
    seat = service.get_game(game_id, None)["to_act"][0]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch(page)
    held, holding = [], [True]
    # the first refresh waits (and any other while holding), as on a slow phone
    page.route(re.compile(r"/live\?"), lambda route: held.append(route) if holding else route.continue_())
    page.goto(links.play_link(LinkConf(pages_server.url), game_id, seat))
    page.wait_for_selector("#chooser:not([hidden])")
    wait_until(lambda: held, timeout=10)
    target = page.locator("#picture svg rect.legal").first
    x, y = target.get_attribute("data-x"), target.get_attribute("data-y")
    target.click()
    page.wait_for_selector("#chooser .choice")
    turns = page.locator("#chooser button.turn")
    if turns.count():
        turns.click()
    said = page.inner_text("#chooser .choice")
    page.evaluate("document.querySelector('#picture svg').dataset.before = 'refresh'")
    holding.clear()
    for route in held:
        route.continue_()
    wait_until(lambda: page.evaluate("!document.querySelector('#picture svg').dataset.before"), timeout=10)
    assert page.inner_text("#chooser .choice") == said   # drawn anew, the same choice
    picked = page.locator("#picture svg rect.legal.picked")
    assert picked.count() == 1 and (picked.get_attribute("data-x"), picked.get_attribute("data-y")) == (x, y)
    assert page.locator("#picture svg g.ghost").count() == 1
    assert errors == []
    context.close()


def test_carcassonne_turns_by_pointing_at_the_board(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id = service.create_game("carcassonne", 2, {}, "Pointing")["id"]
    pages, errors, asked = [], [], [[], []]
    for seat, name in enumerate(("Ann", "Bob")):
        context = browser.new_context(viewport=DESKTOP if seat == 0 else PHONE)
        page = context.new_page()
        errors.append(watch(page))
        page.on("request", lambda r, seat=seat: asked[seat].append(r.url))
        page.goto(f"{pages_server.url}/g/{game_id}")
        join_from_page(page, seat, name)
        pages.append(page)
    for page in pages:
        page.wait_for_selector("#slider", timeout=15000)
    # Kept current by the event stream, not by polling: idle pages ask for nothing.
    wait_until(lambda: all(any("/events/stream" in u for u in urls) for urls in asked), timeout=15)
    before_idle = [len(urls) for urls in asked]
    time.sleep(4)
    assert [len(urls) for urls in asked] == before_idle
    placed_figure = False
    for turn in range(4):
        game = service.get_game(game_id, None)
        seat = game["to_act"][0]
        me, other = pages[seat], pages[1 - seat]
        label = "desktop" if seat == 0 else "phone"
        me.wait_for_selector("#chooser:not([hidden])", timeout=15000)
        cells = me.locator("#picture svg rect.legal")
        assert cells.count() >= 1
        target = cells.nth(turn % cells.count())
        x, y = int(target.get_attribute("data-x")), int(target.get_attribute("data-y"))
        target.click()
        me.wait_for_selector("#chooser .choice")
        assert me.inner_text("#chooser .choice").startswith(f"Tile at {x},{y}")
        assert me.locator("#picture svg g.ghost").count() == 1    # the tile laid on the cell, as a preview
        turns = me.locator("#chooser button.turn")
        if turns.count():
            ghost = me.inner_html("#picture svg g.ghost")
            said = me.inner_text("#chooser .choice")
            turns.click()
            turned = me.inner_text("#chooser .choice")
            assert turned != said and turned.startswith(f"Tile at {x},{y}, turned r"), (said, turned)

            def art(choice: str) -> str:
                r = choice.rsplit("turned r", 1)[1].split()[0].rstrip(",.")
                return me.inner_html(f'#chooser svg.tile-choice[data-rotation="{r}"] g.art')
            # the preview is the turned tile, unless it looks the same turned (a straight road's r0 and r180)
            assert me.locator("#picture svg g.ghost").count() == 1
            if art(said) != art(turned):
                assert me.inner_html("#picture svg g.ghost") != ghost
        spots = me.locator("#chooser svg.tile-choice.on .spot:not(.off)")
        on = None
        if spots.count() and turn % 2 == 0:
            spot = spots.nth(spots.count() - 1)
            on = spot.get_attribute("data-on")
            spot.click()
            assert "chosen" in (spot.get_attribute("class") or "")
        else:
            me.click("#chooser button.no-figure")
        shot(me, screenshots, f"turn{turn}-chooser-{label}", full=False)
        me.locator("#picture > svg").screenshot(path=str(screenshots / f"turn{turn}-board-{label}.png"))
        me.locator("#chooser").scroll_into_view_if_needed()
        shot(me, screenshots, f"turn{turn}-chooser-panel-{label}", full=False)
        go = me.locator("#chooser button.play-it")
        assert go.is_enabled()
        text = go.inner_text().removeprefix("Play: ")
        before = game["version"]
        go.click()
        me.wait_for_selector("#sent.good", timeout=15000)
        assert me.inner_text("#sent") == f"Played: {text}."
        import json
        last = [json.loads(line) for line in service.record_lines(game_id, None)][-1]
        move = last["envelope"]["move"]
        assert last["auth"] == "ed25519" and last["envelope"]["player"] == seat
        assert (move["type"], move["x"], move["y"]) == ("place_tile", x, y)
        assert move.get("on") == on
        placed_figure = placed_figure or on is not None
        after = service.get_game(game_id, None)["version"]
        assert after > before
        wait_until(lambda: other.get_attribute("#slider", "max") == str(after), timeout=15)
        assert other.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert placed_figure
    shot(pages[0], screenshots, "after-desktop")
    shot(pages[1], screenshots, "after-phone")
    assert errors == [[], []]




def test_a_mail_seats_link_plays_a_move(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, keys, tokens = seated(service, "wakanda", title="By mail")
    seat = service.get_game(game_id, None)["to_act"][0]
    url = links.play_link(LinkConf(pages_server.url), game_id, seat)
    watcher = browser.new_context(viewport=DESKTOP).new_page()
    watcher.goto(f"{pages_server.url}/g/{game_id}")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch(page)
    asked: list = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(url)
    assert page.inner_text("p.turn") == "Your turn."
    assert f"You play {NAMES[seat]}" in page.inner_text("#you")
    shot(page, screenshots, "link-phone")
    version = service.get_game(game_id, None)["version"]
    button = move_buttons(page).first
    text = button.inner_text()
    button.click()
    page.wait_for_selector("#sent.good", timeout=15000)
    assert page.inner_text("#sent") == f"Played: {text}."
    import json
    last = [json.loads(line) for line in service.record_lines(game_id, None)][-1]
    assert last["auth"] == "mail-link" and last["envelope"]["player"] == seat and "signature" not in last["envelope"]
    assert service.get_game(game_id, None)["version"] > version
    # "Played" is said on the move's answer; the page's state follows from its refresh just after
    page.wait_for_function("document.querySelector('p.turn').innerText !== 'Your turn.'", timeout=10000)
    wait_until(lambda: watcher.get_attribute("#slider", "max") != str(version), timeout=15)
    shot(page, screenshots, "link-after-phone")
    # The other seat moves (from its terminal, say): the link's page hears it over
    # its stream (a ticket the link's page asked for) and it is this seat's turn again.
    other = 1 - seat
    legal = service.legal_moves(game_id, tokens[other])
    service.submit(game_id, make_envelope(game_id, other, legal["version"], legal["moves"][0]["move"], keys[other]))
    page.wait_for_selector("p.turn:text-is('Your turn.')", timeout=15000)
    assert any("/ticket" in url for url in asked) and any("/events/stream" in url for url in asked)
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert errors == []


def test_an_expired_or_tampered_link_is_refused_with_a_clear_page(browser, service, pages_server, screenshots):
    game_id, keys, tokens = seated(service, "wakanda")
    page = browser.new_context(viewport=PHONE).new_page()
    expired = links.play_link(LinkConf(pages_server.url), game_id, 0, expires=time.time() - 60)
    resp = page.goto(expired)
    assert resp.status == 401
    assert page.inner_text("h1") == "This link does not open the game"
    assert "has expired" in page.inner_text(".message") and page.inner_text(".code").startswith("Error link_expired")
    shot(page, screenshots, "expired-phone")
    page.click("text=Watch the game as a spectator")
    page.wait_for_url(f"**/g/{game_id}")
    good = links.play_link(LinkConf(pages_server.url), game_id, 0)
    resp = page.goto(good[:-3] + "xyz")
    assert resp.status == 401 and "Error bad_link" in page.inner_text(".code")
    assert "not a play link of this server" in page.inner_text(".message")
    shot(page, screenshots, "tampered-phone")


def test_a_spectators_page_shows_no_seats_hand(browser, service, pages_server, screenshots):
    """Kachina: a seat's hand is in its own view only. The spectator's page
    (its HTML and what its script fetched) names none of the tiles in any
    hand the way the seat's page does (move texts, "Your tiles"), while the
    seat's own page, read the same way, does."""
    import re
    game_id, keys, tokens = seated(service, "kachina", players=3, title="Hidden hands")
    rng = random.Random(11)
    play(service, game_id, keys, tokens, rng, moves=6)
    spectator = browser.new_context(viewport=DESKTOP).new_page()
    errors = watch(spectator)
    answers: list = []   # every answer the spectator's page got: its HTML, its parts, pictures
    spectator.on("response", lambda r: answers.append(r))
    spectator.goto(f"{pages_server.url}/g/{game_id}")
    spectator.wait_for_selector("#picture svg")
    # One more move while it watches: its events come over the stream, its parts are fetched again.
    play(service, game_id, keys, tokens, rng, moves=1)
    game = service.get_game(game_id, None)
    assert game["status"] == "active"
    wait_until(lambda: spectator.get_attribute("#slider", "max") == str(game["version"]), timeout=15)
    spectator.wait_for_timeout(300)
    hands = {seat: service.get_game(game_id, tokens[seat])["view"]["hand"] for seat in tokens}
    assert all(hands.values()) and "hand" not in game["view"]
    seat = game["to_act"][0]
    spectator.click("a[data-step=prev]")   # and a past version's picture
    spectator.wait_for_timeout(500)
    # (the event stream's answer never ends: what it brought is in the page's DOM)
    bodies = [r.text() for r in answers if "/_web/" not in r.url and "/events/stream" not in r.url]
    assert len(bodies) >= 3
    watched = "\n".join([spectator.content(), *bodies])
    shot(spectator, screenshots, "spectator")
    mine = browser.new_context(viewport=DESKTOP).new_page()
    mine.goto(links.play_link(LinkConf(pages_server.url), game_id, seat))
    move_buttons(mine)
    own = mine.content()
    shot(mine, screenshots, f"seat{seat}")
    # (the text board, the picture's words for screen readers, is left out: its key names
    # every kind, and it names the tiles under Eagles; it is the view's, as the picture is)
    board = re.compile(r'<desc>.*?</desc>|<pre id="board-text"[^>]*>.*?</pre>', re.S)
    words = lambda html, kind: re.search(rf"\b{kind}\b", board.sub("", html)) is not None  # noqa: E731
    assert "Your tiles" in own and "Your tiles" not in watched
    assert any(words(own, kind) for kind in hands[seat])          # the check can see a hand
    for hand in hands.values():
        for kind in hand:
            assert not words(watched, kind), kind
    assert errors == []


def test_a_seat_taken_elsewhere_plays_from_the_page(browser, service, pages_server, start_worker, screenshots):
    """A seat joined from the terminal (its token and key in ~/.pbem) is taken
    up in the browser: the token says which seat, the imported key signs."""
    start_worker()
    game_id, keys, tokens = seated(service, "wakanda")
    seat = service.get_game(game_id, None)["to_act"][0]
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch(page)
    page.goto(f"{pages_server.url}/g/{game_id}")
    page.click("details.elsewhere summary")
    page.fill("#seat-token", tokens[seat])
    page.fill("#seat-key", keys[seat])
    shot(page, screenshots, "elsewhere-phone")
    page.click("details.elsewhere button[type=submit]")
    page.wait_for_selector(f"#who:has-text('You play {NAMES[seat]}')")
    buttons = move_buttons(page)
    assert page.inner_text("p.turn") == "Your turn."
    buttons.first.click()
    page.wait_for_selector("#sent.good", timeout=15000)
    import json
    last = [json.loads(line) for line in service.record_lines(game_id, None)][-1]
    assert last["auth"] == "ed25519" and last["envelope"]["player"] == seat
    assert errors == []


def test_a_decision_in_anothers_turn_on_its_seats_page(browser, service, pages_server, start_worker, screenshots):
    """The dragon's second step is Bob's (P1's) in Ann's (P0's) turn: his page says so by
    name, not "Your turn", offers the two steps, and plays one from the page; the page of
    the seat whose turn it is says it waits for the other seat."""
    from .test_carcassonne_windows import DRAGON, scripted
    t = scripted(service, DRAGON)
    t.play(0, "dragon N")
    assert t.to_act() == [1]
    start_worker()             # (the link's move goes through the move queue)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch(page)
    page.goto(links.play_link(LinkConf(pages_server.url), t.id, 1))
    page.wait_for_selector("#picture svg")
    assert page.inner_text("p.turn") == "P0's turn: the game waits for your decision."
    buttons = move_buttons(page)
    assert sorted(buttons.nth(i).inner_text() for i in range(buttons.count())) == ["dragon E", "dragon W"]
    shot(page, screenshots, "dragon-step-phone")
    theirs = browser.new_context(viewport=DESKTOP).new_page()
    theirs.goto(links.play_link(LinkConf(pages_server.url), t.id, 0))
    assert theirs.inner_text("p.turn") == "P1 to play."
    page.locator("#play form.moves button", has_text="dragon E").click()
    page.wait_for_selector("#sent.good", timeout=15000)
    assert page.inner_text("#sent") == "Played: dragon E."
    assert t.view()["dragon"] == {"x": 1, "y": 0}
    shot(page, screenshots, "dragon-stepped-phone")
    assert errors == []
    context.close()
