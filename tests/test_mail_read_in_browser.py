"""Mails as a person reads them: a Kachina game played through the real
stack (the service, the notices drainer and mail jobs on real Redis, the
maildir), its invitation, a turn mail and the game-over mail read back
from the maildir, their HTML part opened in chromium with its inline
picture resolved (each ``cid:`` part written beside it), at 390 and 1280 px
wide, in English and in Traditional Chinese.

What a reader must find: nothing scrolls sideways at 390 px; the picture
fits the column; the type is sans-serif (not the client's default serif);
the lines to reply with are near the top, above what happened, each a
block one tap selects whole (and a ``mailto:`` reply link holding it, to
the mail's Reply-To, under its subject); the instructions say a reply with
one plays it; the game-over mail opens with who won and the scores, then
the picture, then what happened; the invitation names who invites, links
the game's page and its rules page and carries no notation; names are
escaped, never markup. Screenshots go to
test-artifacts/screenshots/<test>/ (set ``FONTCONFIG_FILE=/tmp/web-fonts/fonts.conf``
for the Chinese faces). The answer to ``join`` is titled "you joined the game".
"""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from pbem.trust import signing
from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, _, ngettext, reading
from pbem.games.base import SPECTATOR
from pbem.mail_in import invites
from pbem.notify import wording
from pbem.notify.picture import board_png
from pbem.notify.mail import EXAMPLES_HEADING, REPLY_HOW
from pbem.store.keys import key

from .conftest import drain
from .mail_reader import Maildir, html_of, html_with_images, picture_of, text_of
from .test_mail_in_support import (invited_game, mail_env, mail_in, notify_env, reply,  # noqa: F401
                                   reply_address, run_jobs, smtp)
from .test_mail_languages import choose
from .pseudo_support import leftover_english, notation_words
from .pages_support import pages_app, pages_server, stream_port  # noqa: F401
from .test_notify_support import new_game, submit


ODD = "Ann & <i>Co</i>"  # a name that must read as text, never as markup
ODD_TITLE = "Evening & co? #1=2"  # a title a reply link must carry whole: & ? # = percent-encoded
ORDER = ["chief", "sun", "ogre", "eagle", "wolf", "warrior", "hummingbird", "koshari"] * 2
WIDTHS = {390: 844, 1280: 900}


@pytest.fixture
def maildir(mail_env, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")  # out to $PBEM_DATA_DIR/maildir
    return Maildir(tmp_path / "maildir")


def play_first_legal(service, redis_client, game_id, keys):
    now = service.load(game_id)
    seat = sorted(now.game.to_act(now.state))[0]
    submit(service, game_id, seat, keys, now.game.legal_moves(now.state, seat)[0])
    drain(service)
    run_jobs(redis_client)


def look(browser, msg, folder, stem, width):
    """The mail's HTML part in a browser ``width`` px wide, its pictures
    loaded; a full-page screenshot saved. Returns the page (close it)."""
    path = html_with_images(msg, folder / "parts", stem)
    page = browser.new_page(viewport={"width": width, "height": WIDTHS[width]})
    page.goto(path.as_uri())
    page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    page.screenshot(path=str(folder / f"{stem}-{width}.png"), full_page=True)
    return page


def top_of(page, text: str) -> float:
    """Where the innermost element showing ``text`` starts, in CSS px from the top."""
    return page.evaluate("""(text) => {
        const all = Array.from(document.body.querySelectorAll('*')).filter(el => el.textContent.includes(text));
        const el = all[all.length - 1];
        if (!el) return -1;
        const box = el.getBoundingClientRect();
        return box.height > 0 ? box.top + window.scrollY : -1;
    }""", text)


def read_as_a_person(page, width):
    """What holds for every mail at any width: nothing wider than the
    screen, the pictures inside the column, sans-serif type."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the mail scrolls sideways"
    for right, natural, shown in page.evaluate(
            "Array.from(document.images).map(i => [i.getBoundingClientRect().right, i.naturalWidth, i.width])"):
        assert right <= width and shown <= natural
    family = page.evaluate("getComputedStyle(document.querySelector('h1')).fontFamily")
    assert "sans-serif" in family and "serif" not in family.replace("sans-serif", "")


def tap_selects(page, line: str) -> None:
    """A tap on the line's block selects the line whole."""
    block = page.locator("div[style*='user-select:all']").filter(has_text=re.compile(f"^{re.escape(line)}$"))
    assert block.count() == 1, line
    block.click()
    assert page.evaluate("window.getSelection().toString()").strip() == line


def mailto_of(page, line: str) -> tuple[str, dict]:
    href = page.evaluate("""(line) => Array.from(document.querySelectorAll('a[href^="mailto:"]'))
        .map(a => a.getAttribute('href')).find(h => decodeURIComponent(h.split('body=')[1]) === line)""", line)
    assert href, f"no reply link holding {line!r}"
    parts = urlsplit(href)
    return unquote(parts.path), {k: v[0] for k, v in parse_qs(parts.query).items()}


@pytest.mark.parametrize("lang", [ENGLISH, CHINESE])
def test_invitation_turn_and_game_over_mails_read_well_on_a_phone_and_a_desktop(
        service, redis_client, maildir, browser, screenshots, lang):
    folder = screenshots

    # -- the invitation: seat 0 (ODD) invites seat 1 to an open game
    game_id = service.create_game("kachina", 2, {"tile_order": ORDER, "opening_redraw": False,
                                                 "start_player": 0}, "Evening")["id"]
    private, public = signing.generate_key()
    service.join(game_id, 0, public, ODD, email="p0@example.test")
    invites.invite(service, game_id, [{"email": "guest@example.test", "lang": lang}], by="seat 0")
    run_jobs(redis_client)
    invitation = maildir.to("guest@example.test", "invitation")[-1]
    text, page_html = text_of(invitation), html_of(invitation)
    with reading(lang):
        headline = ngettext("{name}, a player of the game, invites you to play {game} (game {id}) with {n} other "
                            "player.", "{name}, a player of the game, invites you to play {game} (game {id}) with "
                            "{n} other players.", 1, name=ODD, game=_("Kachina"), id=game_id)  # its name in the reader's language
        join_heading = _("To take the seat, reply with:").rstrip(":：")
        notation_heading = _("How moves are written:")
    assert " ".join(headline.split()) in " ".join(text.split())  # the text part opens with it too
    assert "&lt;i&gt;Co&lt;/i&gt;" in page_html and "<i>Co</i>" not in page_html  # escaped, never markup
    assert f"/g/{game_id}/rules" in text and f"/g/{game_id}/rules" in page_html
    assert f"/g/{game_id}\"" in page_html  # the game's page, a button
    assert notation_heading + "\n" not in text and len(text) < 2500  # the notation is behind the link
    _cid, image = picture_of(invitation)
    loaded = service.load(game_id)
    with reading(lang):  # the table as anyone sees it: the spectator's view, nobody's hand
        names = wording.seat_names(service.store.seats(game_id), 2)
        assert image == board_png(loaded.game, loaded.state, SPECTATOR, names, None)
    for width in WIDTHS:
        page = look(browser, invitation, folder, f"{lang}-invitation", width)
        read_as_a_person(page, width)
        assert page.locator("h1").inner_text() == headline  # who invites, first, as text
        assert 0 <= top_of(page, join_heading) < 1.4 * WIDTHS[width]
        join = page.evaluate("document.querySelector('div[style*=\"user-select:all\"]').textContent")
        tap_selects(page, join)
        to, fields = mailto_of(page, join)
        assert to == str(invitation["Reply-To"]) and fields["subject"] == f"Re: {invitation['Subject']}"
        page.close()

    # -- a turn mail, with something to tell, and the game-over mail
    game_id, keys, _tokens = new_game(service, "kachina", {"tile_order": ORDER, "opening_redraw": False,
                                                           "start_player": 0}, title=ODD_TITLE, names=(ODD, "Bob"))
    for seat in (0, 1):
        choose(redis_client, game_id, seat, lang=lang)
    run_jobs(redis_client)
    for _step in range(2):
        play_first_legal(service, redis_client, game_id, keys)
    turn = maildir.to("p0@example.test", "your_turn")[-1]
    text, page_html = text_of(turn), html_of(turn)
    assert ODD_TITLE in str(turn["Subject"])  # what each reply link's subject must carry whole
    assert "&lt;i&gt;Co&lt;/i&gt;" in page_html and "<i>Co</i>" not in page_html
    with reading(lang):
        examples_heading, how, happened = _(EXAMPLES_HEADING).rstrip(":："), _(REPLY_HOW), _("What happened")
    lines = [line.strip() for line in text.split(_examples_heading(lang))[1].split("\n\n")[0].split("\n")[1:]
             if line.startswith("  ")]
    assert lines, text
    for width in WIDTHS:
        page = look(browser, turn, folder, f"{lang}-turn", width)
        read_as_a_person(page, width)
        reply_at, log_at = top_of(page, how), top_of(page, happened)
        assert 0 <= top_of(page, examples_heading) <= reply_at < log_at  # the lines above the log
        assert reply_at < 1.6 * WIDTHS[width], reply_at  # near the top: picture, then the lines
        first_line = top_of(page, lines[0])
        assert first_line < 1.8 * WIDTHS[width], first_line
        for line in lines:
            tap_selects(page, line)
            to, fields = mailto_of(page, line)
            assert to == str(turn["Reply-To"]) and fields["subject"] == f"Re: {turn['Subject']}"
            assert fields["body"] == line
        page.close()

    while service.load(game_id).meta["status"] == "active":
        play_first_legal(service, redis_client, game_id, keys)
    over = maildir.to("p0@example.test", "game_over")[-1]
    text = text_of(over)
    with reading(lang):
        scores_word = _("Final scores: {scores}", scores="").strip()
    # the text part: who won and the scores before the board and the events
    assert text.index(scores_word) < text.index(_board_heading(lang)) < text.index(_happened_heading(lang))
    for width in WIDTHS:
        page = look(browser, over, folder, f"{lang}-game-over", width)
        read_as_a_person(page, width)
        scores_at = top_of(page, scores_word)
        picture_at = page.evaluate("document.images[0].getBoundingClientRect().top + window.scrollY")
        assert 0 <= scores_at < picture_at < top_of(page, happened)
        assert scores_at < 0.5 * WIDTHS[width]  # it opens with the result
        page.close()


def _examples_heading(lang):
    with reading(lang):
        return _(EXAMPLES_HEADING)


def _board_heading(lang):
    with reading(lang):
        return _("The board as you see it:")


def _happened_heading(lang):
    with reading(lang):
        return _("What happened:")


def test_the_answer_to_join_says_you_joined_not_your_invitation(service, redis_client, smtp, mail_in):
    game_id = service.create_game("wakanda", 2, {}, "Joined")["id"]
    invites.invite(service, game_id, [{"email": "ann@example.test"}])
    run_jobs(redis_client)
    invitation = smtp.to("ann@example.test", "invitation")[-1]
    mail_in.send(reply(invitation, "help", "ann@example.test"), reply_address(invitation), "ann@example.test")
    mail_in.send(reply(invitation, "join", "ann@example.test"), reply_address(invitation), "ann@example.test")
    run_jobs(redis_client)
    help_answer, joined = smtp.to("ann@example.test", "join_reply")[-2:]
    assert help_answer["Subject"].endswith(": your invitation (v0)"), help_answer["Subject"]
    assert joined["Subject"].endswith(": you joined the game (v0)"), joined["Subject"]
    assert "your invitation" not in joined["Subject"]


@pytest.mark.parametrize("lang", [ENGLISH, CHINESE])
def test_the_rules_page_an_invitation_links_to_shows_the_rules_and_notation_on_a_phone(
        service, redis_client, pages_server, http, browser, screenshots, lang):
    """``/g/ID/rules``: the rules in play in words and the notation of those
    rules only, in the game's language, readable at 390 px."""
    every = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege", "abbey_mayor",
             "princess_dragon", "tower", "count", "bridges_castles_bazaars"]
    game_id = service.create_game("carcassonne", 3, {"expansions": every}, "All <b>in</b>")["id"]
    redis_client.hset(key(game_id, "meta"), "lang", lang)  # the game's language (POST /games lang)
    loaded = service.load(game_id)
    with reading(lang):
        notation = loaded.game.notation_help_for(loaded.meta["options"])
        rules_heading = _("The rules in play")
    resp = http.get(f"{pages_server.url}/g/{game_id}/rules")
    assert resp.status_code == 200 and f'<html lang="{lang}">' in resp.text
    assert "All &lt;b&gt;in&lt;/b&gt;" in resp.text and "<b>in</b>" not in resp.text
    assert rules_heading in resp.text and html.escape(notation.split("\n")[0], quote=False) in resp.text
    assert http.get(f"{pages_server.url}/g/nosuchgame/rules").status_code == 404
    if lang == ENGLISH:  # the page's own words are all messages (the pseudo-locale leaves no English)
        pseudo = http.get(f"{pages_server.url}/g/{game_id}/rules?lang={PSEUDO}").text
        with reading(PSEUDO):
            game_texts = [loaded.game.notation_help_for(loaded.meta["options"]),
                          wording.setup_line(loaded.game, loaded.game.check_options(3, loaded.meta["options"]), 3,
                                             wording.seat_names({}, 3))]
        shown = html.unescape(re.sub(r"<[^>]+>", " ", pseudo.split("<main", 1)[1].split(">", 1)[1].split("</main>", 1)[0]))
        assert leftover_english(" ".join(shown.split()), [" ".join(t.split()) for t in game_texts] +
                                ["All <b>in</b>", game_id], notation_words(game_texts)) == []
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="zh-TW" if lang == CHINESE else "en-US")
    try:
        page.goto(f"{pages_server.url}/g/{game_id}/rules")
        assert page.evaluate("document.documentElement.lang") == lang
        page.screenshot(path=str(screenshots / f"rules-{lang}-390-top.png"))
        page.screenshot(path=str(screenshots / f"rules-{lang}-390.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.close()


def test_an_answer_to_a_mail_reads_well_on_a_phone(service, redis_client, smtp, mail_in, browser, screenshots):
    """The answer to ``board`` (which is also a turn mail: the seat is to
    act): its words as they are, its board in a box of its own, the lines
    to reply with near the top, a tap from selected, at 390 px."""
    game_id = invited_game(service, redis_client, smtp, mail_in, options={"start_player": 0})
    turn = smtp.to("ann@example.test", "your_turn")[-1]
    mail_in.send(reply(turn, "board", "ann@example.test"), reply_address(turn), "ann@example.test")
    run_jobs(redis_client)
    answer = smtp.to("ann@example.test", "mail_reply")[-1]
    lines = [line.strip() for line in text_of(answer).split(EXAMPLES_HEADING)[1].split("\n\n")[0].split("\n")[1:]
             if line.startswith("  ")]
    assert lines and answer["X-Pbem-Game"] == game_id
    for width in WIDTHS:
        page = look(browser, answer, screenshots, "answer", width)
        read_as_a_person(page, width)
        assert 0 <= top_of(page, REPLY_HOW) < 1.6 * WIDTHS[width]
        assert page.evaluate("document.querySelectorAll('pre').length") >= 1  # the board, as drawn
        tap_selects(page, lines[0])
        to, fields = mailto_of(page, lines[0])
        assert to == str(answer["Reply-To"]) and fields["subject"] == f"Re: {answer['Subject']}"
        page.close()
