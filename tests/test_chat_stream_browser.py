"""The chat box live over the page's event stream in a real browser
(headless chromium) on the real pages' server, its stream process and Redis:
what was said before the page opened and each new message come over the
stream the page already holds (docs/chat.md), so no page asks
``GET .../chat`` once its stream is open (before that, after 4 s, is the
page's documented fallback: on a loaded machine a stream may open later);
a message sent on one page shows on the other within a second; a private
one never on a third reader's page."""
from __future__ import annotations

import time
from urllib.parse import urlsplit

from pbem.trust import play_links as links

from .pages_support import LinkConf, NAMES, pages_app, pages_server, seated, stream_port  # noqa: F401
from .test_chat_browser import messages, send, wait_for_text
from .test_notify_support import install

WAIT_MS = 10000
#: Each page notes when its chat first went live over the stream (game.js's
#: "pbem:chat-live" on the box, caught on its way down from the document).
LIVE_SINCE = ("window.__chatLiveSince = null; document.addEventListener('pbem:chat-live', function (e) {"
              " if (e.detail && window.__chatLiveSince === null) window.__chatLiveSince = Date.now(); }, true);")


def test_chat_comes_over_the_stream_without_polling(pages_server, service, browser, screenshots):
    url = pages_server.url
    install(service)
    game_id, _keys, tokens = seated(service, "kachina", 3, {"opening_redraw": False, "start_player": 0},
                                    title="Chat live")
    service_say(service, game_id)
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(3)]
    errors: list[str] = []
    asked: dict[int, list] = {0: [], 1: [], 2: []}  # every GET of the chat per page: (ms since epoch, url)
    try:
        ann, bob, spectator = pages = [c.new_page() for c in contexts]
        for i, p in enumerate(pages):
            p.add_init_script(LIVE_SINCE)
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.on("request", lambda r, i=i: asked[i].append((time.time() * 1000, r.url))
                 if r.method == "GET" and urlsplit(r.url).path.endswith("/chat") else None)
        ann.goto(f"{url}/")
        ann.evaluate("([g, t, n]) => PbemKeys.rememberSeat(g, 0, t, n, null)", [game_id, tokens[0], NAMES[0]])
        ann.goto(f"{url}/g/{game_id}")
        bob.goto(links.play_link(LinkConf(url), game_id, 1, expires=4102444800))
        spectator.goto(f"{url}/g/{game_id}")
        for page in pages:  # said before the pages opened: their streams' catch-up
            wait_for_text(page, "said before you came")
        for page in pages:
            page.wait_for_function("() => window.__chatLiveSince !== null", timeout=WAIT_MS)
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
        for i, page in enumerate(pages):  # no page asked for the chat once its stream was open
            since = page.evaluate("() => window.__chatLiveSince")
            # (a fetch begun just before it opened is seen here a moment later: 100 ms of grace)
            assert [u for t, u in asked[i] if t >= since + 100] == [], (i, since, asked[i])
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
