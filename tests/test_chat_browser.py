"""The chat box on a game's page in a real browser (headless chromium), four
browser contexts on the real pages' server and its Redis: seat 0 with its
token in the browser (the API's /games/{id}/chat), seats 1 and 2 through
their turn mails' play links (/play/LINK/chat), and a spectator. A message
sent on one page appears on the others without reloading; a private one
only on its two seats' pages; a spectator reads and cannot write; a
message said by mail (the ``say`` command) appears too; the players' text
is text, never markup. Screenshots at 390 and 1280 px, in English and
Traditional Chinese (set ``FONTCONFIG_FILE=/tmp/web-fonts/fonts.conf``)."""
from __future__ import annotations

from pbem.mail_in import chat_command
from pbem.trust import play_links as links

from .pseudo_support import leftover_english
from .pages_support import LinkConf, NAMES, pages_app, pages_server, seated, stream_port  # noqa: F401

WAIT_MS = 10000
WIDTHS = {390: 844, 1280: 900}


def messages(page) -> list[str]:
    return page.locator("#chat-list li").all_inner_texts()


def wait_for_text(page, text: str) -> None:
    page.wait_for_function("(t) => Array.from(document.querySelectorAll('#chat-list li .text'))"
                           ".some(e => e.textContent === t)", arg=text, timeout=WAIT_MS)


def send(page, text: str, to: int | None = None) -> None:
    page.fill("#chat-text", text)
    page.select_option("#chat-to", "" if to is None else str(to))
    page.click("#chat-form button[type=submit]")
    wait_for_text(page, text)


def test_chat_live_between_pages_private_ones_only_on_their_two(pages_server, service, browser, screenshots):
    url = pages_server.url
    game_id, _keys, tokens = seated(service, "kachina", 3, {"opening_redraw": False, "start_player": 0},
                                    title="Chat night")
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(4)]
    errors: list[str] = []
    try:
        pages = [c.new_page() for c in contexts]
        for p in pages:
            p.on("pageerror", lambda e: errors.append(str(e)))
        ann, bob, cyd, spectator = pages
        # Seat 0 holds its token in this browser (as after a join on the page).
        ann.goto(f"{url}/")
        ann.evaluate("([g, t, n]) => PbemKeys.rememberSeat(g, 0, t, n, null)", [game_id, tokens[0], NAMES[0]])
        ann.goto(f"{url}/g/{game_id}")
        for page, seat in ((bob, 1), (cyd, 2)):
            page.goto(links.play_link(LinkConf(url), game_id, seat, expires=4102444800))
        spectator.goto(f"{url}/g/{game_id}")
        for page in (ann, bob, cyd):
            page.wait_for_selector("#chat-form:not([hidden])", timeout=WAIT_MS)
        # A spectator reads, and is told it cannot write; it has no form.
        spectator.wait_for_selector("#chat-spectator:not([hidden])", timeout=WAIT_MS)
        assert spectator.locator("#chat-form").is_hidden()
        # A seat cannot pick itself.
        assert ann.locator("#chat-to option[value='0']").is_disabled()

        send(ann, "Hello <b>all</b> & good luck")
        for page in (bob, cyd, spectator):  # live: no reload
            wait_for_text(page, "Hello <b>all</b> & good luck")
            assert page.locator("#chat-list b").count() == 0  # text, never markup

        send(ann, "Bob, only for you", to=1)
        wait_for_text(bob, "Bob, only for you")
        assert "(to you only)" in bob.locator("#chat-list li.private").inner_text()
        # Said by mail (the reply's `say` line, as the mail job runs it): public.
        done, _lines = chat_command.say(service, game_id, 2, "說：我用郵件說話", list(NAMES[:3]))
        assert done
        for page in (ann, bob, cyd, spectator):
            wait_for_text(page, "我用郵件說話")
        # Cyd and the spectator have read everything said after the private one: never that one.
        for page in (cyd, spectator):
            assert not any("only for you" in m for m in messages(page)), messages(page)
        assert any("(to Bob only)" in m for m in messages(ann))

        # A refusal is said under the box (the server's message), nothing added.
        before = len(messages(bob))
        bob.fill("#chat-text", "ring\u0007ring")
        bob.click("#chat-form button[type=submit]")
        bob.wait_for_selector("#chat-note.bad", timeout=WAIT_MS)
        assert len(messages(bob)) == before

        # Nothing wider than the phone; the pages in both languages at both widths.
        for lang in ("en", "zh-Hant"):
            for width, height in WIDTHS.items():
                for who, page in (("seat0", ann), ("spectator", spectator)):
                    page.set_viewport_size({"width": width, "height": height})
                    page.goto(page.url.split("?")[0] + f"?lang={lang}")
                    wait_for_text(page, "我用郵件說話")
                    if lang == "zh-Hant":
                        assert page.locator("#chat-heading").inner_text() == "聊天"
                    assert page.evaluate("document.documentElement.scrollWidth") <= width
                    page.locator("#chat").scroll_into_view_if_needed()
                    page.screenshot(path=str(screenshots / f"chat-{who}-{lang}-{width}.png"), full_page=True)
        # No English left in the box in the pseudo-locale (names and the players' words aside).
        bob.goto(bob.url.split("?")[0] + "?lang=x-pseudo")
        wait_for_text(bob, "Bob, only for you")
        bob.fill("#chat-text", "x" * 3)
        bob.evaluate("document.getElementById('chat-note').textContent = ''")
        shown = bob.locator("#chat").inner_text() + " " + bob.get_attribute("#chat-text", "placeholder")
        said = ["Hello <b>all</b> & good luck", "Bob, only for you", "我用郵件說話", *NAMES[:3]]
        assert leftover_english(shown, allowed_texts=said, allowed_words=["PM", "AM"]) == []
        assert errors == []
    finally:
        for c in contexts:
            c.close()
