"""The browser's key and seats, in a real browser (Playwright driving
Debian's chromium): the key is kept non-extractable, its one copy is
offered when it is made (and the copy is the key the seat was taken with),
two seats of one game joined from one browser both stay playable, the page
shows a held seat as its player, and what an older page stored (a readable
key, one token per game) is taken over: the key locked, its last copy
offered once, the seat still playing."""
from __future__ import annotations

import json

import pytest

from pbem.trust.signing import generate_key, public_key_of

from .pages_support import move_buttons, pages_app, pages_server, stream_port, seated  # noqa: F401
from .test_pages_browser import DESKTOP, PHONE, join_from_page, shot, watch

pytestmark = pytest.mark.timeout(300)

#: What this page's IndexedDB and localStorage hold of keys and seats, and
#: whether a script on the page can read any private key out.
STORED = """async () => {
    const db = await new Promise((ok, bad) => {
        const r = indexedDB.open("pbem", 1);
        r.onupgradeneeded = () => r.result.createObjectStore("keys");
        r.onsuccess = () => ok(r.result); r.onerror = () => bad(r.error); });
    const all = await new Promise(ok => {
        const out = {}, t = db.transaction("keys").objectStore("keys").openCursor();
        t.onsuccess = () => { const c = t.result; if (!c) return ok(out); out[c.key] = c.value; c.continue(); }; });
    const keys = {};
    for (const [id, pair] of Object.entries(all)) {
        let exported = "read";
        for (const format of ["pkcs8", "jwk"]) {
            try { await crypto.subtle.exportKey(format, pair.privateKey); }
            catch (e) { exported = e.name; }
        }
        const pub = await crypto.subtle.exportKey("raw", pair.publicKey);
        keys[id] = {extractable: pair.privateKey.extractable, exported,
                    public: btoa(String.fromCharCode(...new Uint8Array(pub))).replace(/\\+/g, "-")
                            .replace(/\\//g, "_").replace(/=+$/, ""), fields: Object.keys(pair).sort()};
    }
    const storage = {};
    for (let i = 0; i < localStorage.length; i++) storage[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
    const own = await PbemKeys.load();
    const shown = await PbemKeys.exportPrivate(own).then(() => "shown", e => "refused");
    return {keys, storage, shown};
}"""


def records(service, game_id: str) -> list[dict]:
    return [json.loads(line) for line in service.record_lines(game_id, None)][1:]


def both_widths(page, folder, name: str) -> None:
    """The page as it is now, at a desktop's width and a phone's."""
    shot(page, folder, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    shot(page, folder, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def test_two_seats_from_one_browser_with_a_locked_key_saved_once(browser, service, pages_server, start_worker,
                                                                 screenshots):
    start_worker()
    game_id = service.create_game("wakanda", 2, {}, "One browser, two seats")["id"]
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()
    errors = watch(page)
    page.goto(f"{pages_server.url}/g/{game_id}")
    # Seat 0: the browser makes its key, and offers its one copy before the seat is taken.
    page.click("button.join-seat[data-seat='0']")
    page.fill("#join-name", "Ann")
    page.click("form.join button[type=submit]")
    page.wait_for_selector("#backup-done")
    assert page.is_hidden("form.join") and not service.store.seats(game_id)   # not joined while it is offered
    both_widths(page, screenshots, "backup-offered")
    with page.expect_download() as download:
        page.click("#backup-download")
    assert download.value.suggested_filename == "pbem-key.json"
    saved = json.loads(open(download.value.path()).read())
    assert public_key_of(saved["private_key"]) == saved["public_key"]
    page.click("#backup-show")
    assert page.inner_text("#backup-text") == saved["private_key"]
    both_widths(page, screenshots, "backup-shown")
    page.click("#backup-done")
    page.wait_for_selector("#who:has-text('You play Ann (seat 0)')")
    assert page.locator(".backup").count() == 0
    seats = service.store.seats(game_id)
    assert seats[0]["public_key"] == saved["public_key"]   # the copy is the key the seat was taken with
    both_widths(page, screenshots, "joined-one")
    stored = page.evaluate(STORED)
    assert set(stored["keys"]) == {"default"}
    assert stored["keys"]["default"] == {"extractable": False, "exported": "InvalidAccessError",
                                         "public": saved["public_key"], "fields": ["privateKey", "publicKey"]}
    assert stored["shown"] == "refused"
    assert saved["private_key"] not in json.dumps(stored["storage"])
    # Seat 1 from the same page: the browser's key again, no copy offered a second time.
    assert join_from_page(page, 1, "Bob") is None
    page.wait_for_selector("#slider", timeout=15000)   # the game was dealt
    seats = service.store.seats(game_id)
    assert seats[1]["public_key"] == saved["public_key"]
    stored = page.evaluate(STORED)
    tokens = {k: json.loads(v) for k, v in stored["storage"].items() if k.startswith("pbem.token.")}
    assert set(tokens) == {f"pbem.token.{game_id}.0", f"pbem.token.{game_id}.1"}   # both kept
    assert {t["key"] for t in tokens.values()} == {saved["public_key"]} and "pbem.seats" not in stored["storage"]
    # The page plays the seat joined last and shows the other as this browser's too: no Join button.
    page.wait_for_selector("#who:has-text('You play Bob (seat 1)')")
    assert page.locator("button.join-seat").count() == 0
    assert "(you)" in page.inner_text("#players tr.seat-1")
    assert "(yours here)" in page.inner_text("#players tr.seat-0")
    assert page.get_attribute("#keys button.seat-choice[aria-pressed=true]", "data-seat") == "1"
    both_widths(page, screenshots, "two-seats")
    # Both seats play from this one browser, switching between them.
    played = []
    for turn in range(4):
        game = service.get_game(game_id, None)
        seat, name = game["to_act"][0], ("Ann", "Bob")[game["to_act"][0]]
        if f"You play {name}" not in page.inner_text("#who"):
            switch = "#players button.switch-seat" if turn % 2 else "#keys button.seat-choice"
            page.click(f"{switch}[data-seat='{seat}']")
            page.wait_for_selector(f"#who:has-text('You play {name} (seat {seat})')")
            if turn == 1:
                both_widths(page, screenshots, "switched")
        buttons = move_buttons(page, version=game["version"])
        before = game["version"]
        buttons.first.click()
        page.wait_for_selector("#sent.good", timeout=15000)
        assert service.get_game(game_id, None)["version"] > before
        last = records(service, game_id)[-1]
        assert last["auth"] == "ed25519" and last["envelope"]["player"] == seat
        played.append(seat)
    assert set(played) == {0, 1}
    assert errors == []
    context.close()


OLD_PAGE = """async ([game, seat, token, name, key]) => {
    // What keys.js stored before keys were locked: an extractable pair under "default",
    // and one seat a game in the "pbem.seats" map.
    const bytes = Uint8Array.from(atob(key.replace(/-/g, "+").replace(/_/g, "/") + "="), c => c.charCodeAt(0));
    const der = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22,
                                0x04, 0x20, ...bytes]);
    const priv = await crypto.subtle.importKey("pkcs8", der, {name: "Ed25519"}, true, ["sign"]);
    const jwk = await crypto.subtle.exportKey("jwk", priv);
    const pub = await crypto.subtle.importKey("jwk", {kty: "OKP", crv: "Ed25519", x: jwk.x}, {name: "Ed25519"}, true,
                                              ["verify"]);
    const db = await new Promise((ok, bad) => {
        const r = indexedDB.open("pbem", 1);
        r.onupgradeneeded = () => r.result.createObjectStore("keys");
        r.onsuccess = () => ok(r.result); r.onerror = () => bad(r.error); });
    await new Promise(ok => { const t = db.transaction("keys", "readwrite");
        t.objectStore("keys").put({privateKey: priv, publicKey: pub}, "default"); t.oncomplete = ok; });
    db.close();
    localStorage.setItem("pbem.seats", JSON.stringify({[game]: {seat, token, name}}));
}"""


def test_an_older_pages_key_and_seat_are_taken_over(browser, service, pages_server, start_worker, screenshots):
    start_worker()
    game_id, keys, tokens = seated(service, "wakanda", title="Kept from before")
    seat = service.get_game(game_id, None)["to_act"][0]
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = watch(page)
    page.goto(pages_server.url + "/")
    page.evaluate(OLD_PAGE, [game_id, seat, tokens[seat], ("Ann", "Bob")[seat], keys[seat]])
    page.goto(f"{pages_server.url}/g/{game_id}")
    name = ("Ann", "Bob")[seat]
    page.wait_for_selector(f"#who:has-text('You play {name} (seat {seat})')")
    # The key was locked on loading; its last copy is offered, once.
    page.wait_for_selector("#backup-done")
    assert "last chance" in page.inner_text(".backup h2")
    both_widths(page, screenshots, "migrated-offer")
    page.click("#backup-show")
    assert page.inner_text("#backup-text") == keys[seat]
    page.click("#backup-done")
    assert page.locator(".backup").count() == 0
    stored = page.evaluate(STORED)
    assert stored["keys"]["default"]["extractable"] is False and stored["keys"]["default"]["exported"] != "read"
    assert stored["keys"]["default"]["public"] == public_key_of(keys[seat])
    assert "pbem.seats" not in stored["storage"]
    assert json.loads(stored["storage"][f"pbem.token.{game_id}.{seat}"])["token"] == tokens[seat]
    page.reload()
    page.wait_for_selector(f"#who:has-text('You play {name}')")
    page.wait_for_selector("#keys .key")
    assert page.locator(".backup").count() == 0   # offered once only
    # The seat plays as before, signed by the same (now locked) key.
    move_buttons(page).first.click()
    page.wait_for_selector("#sent.good", timeout=15000)
    last = records(service, game_id)[-1]
    assert last["auth"] == "ed25519" and last["envelope"]["player"] == seat
    both_widths(page, screenshots, "migrated-played")
    assert errors == []
    context.close()


def test_a_key_imported_for_a_seat_taken_elsewhere_keeps_the_browsers_own(browser, service, pages_server,
                                                                          start_worker, screenshots):
    """A browser with its own key (and a seat it signs for) takes up a seat
    joined from a terminal with that seat's key: the imported key is kept
    beside the browser's, locked too, and each seat signs with its own."""
    start_worker()
    mine = service.create_game("wakanda", 2, {}, "Mine")["id"]
    theirs, keys, tokens = seated(service, "wakanda", title="From the terminal")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch(page)
    page.goto(f"{pages_server.url}/g/{mine}")
    own = join_from_page(page, 0, "Ann")
    assert own and public_key_of(own) == service.store.seats(mine)[0]["public_key"]
    seat = service.get_game(theirs, None)["to_act"][0]
    page.goto(f"{pages_server.url}/g/{theirs}")
    page.click("details.elsewhere summary")
    page.fill("#seat-token", tokens[seat])
    page.fill("#seat-key", keys[seat])
    page.click("details.elsewhere button[type=submit]")
    page.wait_for_selector("#who:has-text('You play')")
    move_buttons(page).first.click()
    page.wait_for_selector("#sent.good", timeout=15000)
    last = records(service, theirs)[-1]
    assert last["auth"] == "ed25519" and last["envelope"]["player"] == seat
    stored = page.evaluate(STORED)
    assert stored["keys"]["default"]["public"] == public_key_of(own)     # the browser's own key stays its own
    assert stored["keys"][f"key:{public_key_of(keys[seat])}"]["extractable"] is False
    assert all(k["exported"] != "read" for k in stored["keys"].values())
    assert page.locator(".backup").count() == 0   # a key typed in is not offered back
    assert errors == []
    context.close()
