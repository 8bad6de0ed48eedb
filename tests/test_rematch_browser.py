"""A rematch on the game's page, in a real browser (Playwright driving
Debian's chromium): two players, each in their own browser holding their
seat's key and token. Ann offers from the finished game's page (390 px,
English), Bob accepts from his (1280 px, Chinese): the page then links to
the new game, and Bob takes his seat there with the same key ("play your
seat in the rematch": a signed join) and plays the first move, the seats
rotated. A spectator sees where the rematch stands and no button; nothing
scrolls sideways at 390 px."""
from __future__ import annotations

import random

import pytest

from .pages_support import move_buttons, pages_app, pages_server, play, seated, stream_port  # noqa: F401
from .test_pages_browser import DESKTOP, PHONE, shot, watch
from .test_pages_keys import OLD_PAGE

pytestmark = pytest.mark.timeout(300)

SHORT = {"draw_order": ["U", "V"], "start_player": 0}


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def holding(browser, url: str, game_id: str, seat: int, name: str, key: str, token: str, viewport: dict,
            lang: str):
    """A browser (its own context) holding one seat of ``game_id``, as an
    older page stored it (taken over on the first load, its copy offered once)."""
    context = browser.new_context(viewport=viewport, locale="zh-TW" if lang == "zh-Hant" else "en-US")
    page = context.new_page()
    errors = watch(page)
    page.goto(f"{url}/?lang={lang}")
    page.evaluate(OLD_PAGE, [game_id, seat, token, name, key])
    page.goto(f"{url}/g/{game_id}")
    page.wait_for_selector("#backup-done")
    page.click("#backup-done")
    return context, page, errors


def test_a_rematch_offered_and_accepted_on_the_page_and_played(browser, service, pages_server, start_worker,
                                                                screenshots):
    start_worker()
    game_id, keys, tokens = seated(service, "carcassonne", options=SHORT, title="Two tiles")
    assert play(service, game_id, keys, tokens, random.Random(1))["status"] == "finished"
    url = pages_server.url

    ann_ctx, ann, ann_errors = holding(browser, url, game_id, 0, "Ann", keys[0], tokens[0], PHONE, "en")
    ann.wait_for_selector("#rematch .rematch-offer:not([hidden])")
    assert "Any player may offer a rematch" in ann.inner_text("#rematch")
    shot(ann, screenshots, "offer-en-390")
    ann.click("#rematch .rematch-offer")
    ann.wait_for_selector("#rematch[data-status=offered]")
    assert "Ann offers a rematch." in ann.inner_text("#rematch") and "Waiting for: Bob." in ann.inner_text("#rematch")
    ann.wait_for_timeout(50)  # the script has run on the new page: Ann answered, so no button
    assert ann.locator("#rematch button:not([hidden])").count() == 0
    assert sideways(ann) == 0
    shot(ann, screenshots, "offered-en-390")

    # a spectator sees the offer, no button
    spectator = browser.new_context(viewport=PHONE).new_page()
    spectator.goto(f"{url}/g/{game_id}?lang=en")
    assert "Ann offers a rematch." in spectator.inner_text("#rematch")
    spectator.wait_for_load_state("load")
    assert spectator.locator("#rematch button:not([hidden])").count() == 0
    spectator.context.close()

    bob_ctx, bob, bob_errors = holding(browser, url, game_id, 1, "Bob", keys[1], tokens[1], DESKTOP, "zh-Hant")
    bob.wait_for_selector("#rematch .rematch-accept:not([hidden])")
    assert "Ann提議再來一局。" in bob.inner_text("#rematch")
    shot(bob, screenshots, "asked-zh-1280")
    bob.click("#rematch .rematch-accept")
    bob.wait_for_selector("#rematch[data-status=started] .rematch-go:not([hidden])")
    new_id = service.rematch_of(game_id)["new_game"]
    assert bob.get_attribute(".rematch-link a", "href") == f"/g/{new_id}"
    shot(bob, screenshots, "started-zh-1280")
    bob.click("#rematch .rematch-go")
    bob.wait_for_url(f"**/g/{new_id}")
    bob.wait_for_selector("#who:has-text('Bob')")   # Bob now holds seat 0 of the new game, and plays first
    dealt = service.load(new_id).version
    move_buttons(bob).first.click()
    bob.wait_for_selector("#sent.good", timeout=15000)
    assert service.load(new_id).version > dealt
    assert service.store.seats(new_id)[0]["public_key"] == service.store.seats(game_id)[1]["public_key"]
    shot(bob, screenshots, "rematch-played-zh-1280")

    # Ann's page links to the new game too
    ann.reload()
    ann.wait_for_selector("#rematch[data-status=started] .rematch-go:not([hidden])")
    assert sideways(ann) == 0
    shot(ann, screenshots, "started-en-390")
    assert ann_errors == [] and bob_errors == []
    ann_ctx.close()
    bob_ctx.close()


def test_a_rematch_offered_and_accepted_through_play_links(browser, service, pages_server, start_worker, http,
                                                           screenshots):
    """A turn mail's play link is a seat: its page shows the rematch buttons
    and they answer through the link (no key, no token in the browser); once
    begun, "play your seat" opens a play link of the seat it plays in the
    rematch, valid no longer than the link it came from."""
    from pbem.trust import play_links as links

    from .pages_support import LinkConf
    start_worker()
    game_id, _keys, _tokens = seated(service, "carcassonne", options=SHORT, title="Two links")
    assert play(service, game_id, _keys, _tokens, random.Random(1))["status"] == "finished"
    url = pages_server.url
    ann_link, bob_link = (links.play_link(LinkConf(url), game_id, seat) for seat in (0, 1))

    # nothing begun yet: the link has no seat in a rematch, and nothing is stored
    early = http.post(bob_link + "/rematch/seat")
    assert early.status_code == 404 and early.json()["error"]["code"] == "unknown_seat", early.text
    assert service.rematch_of(game_id)["status"] == "none"

    ann_ctx = browser.new_context(viewport=PHONE, locale="en-US")
    ann = ann_ctx.new_page()
    ann_errors = watch(ann)
    ann.goto(ann_link + "?lang=en")
    ann.click("#rematch .rematch-offer:not([hidden])")
    ann.wait_for_selector("#rematch[data-status=offered]")
    assert "Ann offers a rematch." in ann.inner_text("#rematch")
    ann.wait_for_timeout(50)  # the script has run on the new page: Ann answered, so no button
    assert ann.locator("#rematch button:not([hidden])").count() == 0
    assert sideways(ann) == 0
    shot(ann, screenshots, "link-offered-en-390")

    bob_ctx = browser.new_context(viewport=PHONE, locale="zh-TW")
    bob = bob_ctx.new_page()
    bob_errors = watch(bob)
    bob.goto(bob_link + "?lang=zh-Hant")
    bob.wait_for_selector("#rematch .rematch-decline:not([hidden])")
    assert bob.evaluate("localStorage.length") == 0   # no key: the link is the seat
    shot(bob, screenshots, "link-asked-zh-390")
    bob.click("#rematch .rematch-accept")
    bob.wait_for_selector("#rematch[data-status=started] .rematch-go:not([hidden])")
    new_id = service.rematch_of(game_id)["new_game"]
    assert sideways(bob) == 0
    shot(bob, screenshots, "link-started-zh-390")
    bob.click("#rematch .rematch-go")
    bob.wait_for_url(f"**/play/{new_id}.0.*")   # Bob plays seat 0 of the rematch (the seats rotated)
    assert bob.get_attribute("main.game", "data-game") == new_id
    assert "Bob" in bob.inner_text("#you")
    new_link = bob.url.split("/play/", 1)[1].split("?")[0]
    assert links.read_token(LinkConf.secret(), new_link)[2] == links.read_token(LinkConf.secret(),
                                                                                 bob_link.split("/play/")[1])[2]
    assert ann_errors == [] and bob_errors == []
    ann_ctx.close()
    bob_ctx.close()
