"""The chat box live over the page's event stream in a real browser
(headless chromium) on the real pages' server, its stream process and Redis:
what was said before the page opened and each new message come over the
stream the page already holds (docs/chat.md), so neither page ever asks
``GET .../chat``; a message sent on one page shows on the other within a
second; a private one never on a third reader's page."""
from __future__ import annotations

import time
from urllib.parse import urlsplit

from pbem.trust import play_links as links

from .pages_support import LinkConf, NAMES, pages_app, pages_server, seated, stream_port  # noqa: F401
from .test_chat_browser import messages, send, wait_for_text
from .test_notify_support import install

WAIT_MS = 10000


def test_chat_comes_over_the_stream_without_polling(pages_server, service, browser, screenshots):
    url = pages_server.url
    install(service)
    game_id, _keys, tokens = seated(service, "kachina", 3, {"opening_redraw": False, "start_player": 0},
                                    title="Chat live")
    service_say(service, game_id)
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(3)]
    errors: list[str] = []
    asked: list[str] = []  # every GET of the chat, on any page
    try:
        ann, bob, spectator = pages = [c.new_page() for c in contexts]
        for p in pages:
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.on("request", lambda r: asked.append(r.url) if r.method == "GET" and urlsplit(r.url).path.endswith("/chat") else None)
        ann.goto(f"{url}/")
        ann.evaluate("([g, t, n]) => PbemKeys.rememberSeat(g, 0, t, n, null)", [game_id, tokens[0], NAMES[0]])
        ann.goto(f"{url}/g/{game_id}")
        bob.goto(links.play_link(LinkConf(url), game_id, 1, expires=4102444800))
        spectator.goto(f"{url}/g/{game_id}")
        for page in pages:  # said before the pages opened: their streams' catch-up
            wait_for_text(page, "said before you came")
        send(ann, "live over the stream")  # shown on the sender's page by its own stream, too
        sent = time.monotonic()
        for page in (bob, spectator):
            wait_for_text(page, "live over the stream")
        assert time.monotonic() - sent < 1.0
        send(ann, "Bob, only you", to=1)
        wait_for_text(bob, "Bob, only you")
        send(bob, "seen by all")
        wait_for_text(spectator, "seen by all")
        assert not any("only you" in m for m in messages(spectator)), messages(spectator)
        assert asked == [], asked  # no page asked for the chat: it all came over the stream
        assert errors == []
        spectator.locator("#chat").scroll_into_view_if_needed()
        spectator.screenshot(path=str(screenshots / "chat-stream-spectator-390.png"))
        bob.locator("#chat").scroll_into_view_if_needed()
        bob.screenshot(path=str(screenshots / "chat-stream-seat1-390.png"))
    finally:
        for c in contexts:
            c.close()


def service_say(service, game_id: str) -> None:
    from pbem.service import chat
    chat.say(service, game_id, 2, "said before you came", None, chat.ChatLimits())
