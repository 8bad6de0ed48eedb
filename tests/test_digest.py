"""Digests (pbem.notify.digests) through the real API server, a real worker
with RQ's scheduler, SMTP on loopback and the inbound listener: a player
whose seats chose a daily digest gets, instead of turn mails, one mail
listing both games waiting for them, each with its picture inline; a move
replied from it (a game's own reply line) is applied; a mail line chooses
the digest too; read at 390 px in a browser; the pseudo-locale leaves no
English. A "day" lasts ``PERIOD_S`` here (``PBEM_DIGEST_PERIOD``)."""
from __future__ import annotations

import re
from email.message import EmailMessage
from email.policy import SMTP
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from pbem.games.i18n import PSEUDO
from pbem.mail_in.digest_command import is_digest_line
from pbem.notify import install
from pbem.notify.config import NotifySettings
from pbem.notify.digests import Digests
from pbem.notify.notifier import Notifier
from pbem.trust import signing

from .conftest import api_server, wait_until  # noqa: F401
from .mail_reader import html_of, html_with_images
from .pseudo_support import leftover_english
from .test_mail_in_support import mail_env, mail_in, reply, text_of  # noqa: F401
from .test_mail_pseudo import NOT_MESSAGES, choose, html_words
from .test_notify_support import notify_env, smtp  # noqa: F401

PERIOD_S = 3
ANN = "ann@example.test"


@pytest.fixture
def digest_env(mail_env, monkeypatch):
    monkeypatch.setenv("PBEM_DIGEST_PERIOD", str(PERIOD_S))
    return mail_env


def _game(service, http, base, ann_key: str, other: str, title: str) -> str:
    """Ann (seat 0, to act first) chooses the daily digest before her opponent joins."""
    game_id = service.create_game("wakanda", 2, {"start_player": 0}, title)["id"]
    token = service.join(game_id, 0, ann_key, "Ann", email=ANN)["token"]
    r = http.patch(f"{base}/games/{game_id}/seats/0/notifications", json={"digest": "daily"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["digest"] == "daily", r.text
    service.join(game_id, 1, signing.generate_key()[1], other, email=f"{other.lower()}@example.test")
    return game_id


def _links(msg) -> list[tuple[str, str, str]]:
    """The reply links of a digest's HTML: (address, subject, line)."""
    out = []
    for href in re.findall(r'href="(mailto:[^"]+)"', html_of(msg)):
        href = href.replace("&amp;", "&")
        parts = urlsplit(href)
        query = parse_qs(parts.query)
        out.append((unquote(parts.path), query["subject"][0], query["body"][0]))
    return out


def test_digest_lines():
    # the word alone too: answered with the choices (pbem/mail_in/commands.py: never taken for a move)
    for line in ("digest daily", "Digest: hourly", "digest off", "摘要 每天", "摘要：每小時", "digest weekly", "digest"):
        assert is_digest_line(line), line
    for line in ("digests are nice to have", "place 1,0"):
        assert not is_digest_line(line), line


def test_a_daily_digest_of_two_games_replaces_turn_mails_and_a_reply_from_it_plays(
        digest_env, api_server, service, http, smtp, mail_in, start_worker, browser, screenshots):
    install(service)
    ann_key = signing.generate_key()[1]
    one = _game(service, http, api_server.url, ann_key, "Bob", "Morning")
    two = _game(service, http, api_server.url, ann_key, "Cy", "Evening")
    start_worker()
    digest = wait_until(lambda: smtp.to(ANN, "digest"), timeout=PERIOD_S + 15)[0]
    assert not smtp.to(ANN, "your_turn")  # held: no mail per turn
    assert str(digest["Subject"]) == "[pbem] 2 games wait for you"
    text = text_of(digest)
    assert "Morning (Wakanda)" in text and "Evening (Wakanda)" in text, text
    # each board's picture, inline, named by the HTML
    pngs = [p for p in digest.walk() if p.get_content_type() == "image/png"]
    assert len(pngs) == 2 and all(p["Content-ID"] and p.get_content()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert all(f"cid:{p['Content-ID'].strip('<>')}" in html_of(digest) for p in pngs)

    # read at 390 px: nothing scrolls sideways, the pictures fit
    path = html_with_images(digest, screenshots / "parts", "digest")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(path.as_uri())
    page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("Math.max(...Array.from(document.images).map(i => i.getBoundingClientRect().right))") <= 390
    page.screenshot(path=str(screenshots / "digest-390.png"), full_page=True)
    page.close()

    # a move replied from the digest: game two's own reply line, to its own address
    before = service.load(two).version
    address, subject, line = next(link for link in _links(digest) if "Evening" in link[1])
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = ANN, address, subject
    msg["Message-ID"] = "<from-digest@example.test>"
    msg.set_content(line + "\n")
    mail_in.send(msg, address, ANN)
    wait_until(lambda: service.load(two).version > before, timeout=15)
    moved = service.store.events(two, before)[0]
    assert service.store.move(two, moved[2])["auth"] == "mail-token"

    # a mail line chooses the digest too: off again, for the first game listed (a reply to the digest itself)
    first = str(digest["Message-ID"]).strip("<").split(".")[0]
    assert first in (one, two) and f"/g/{first}" in text.split("========")[1]
    mail_in.send(reply(digest, "digest off", ANN), str(digest["Reply-To"]), ANN)
    wait_until(lambda: Notifier(service, NotifySettings()).channels(first, 0).get("digest") == "off", timeout=15)
    assert Notifier(service, NotifySettings()).channels(({one, two} - {first}).pop(), 0)["digest"] == "daily"


def test_the_digest_in_the_pseudo_locale_leaves_no_english(digest_env, service, redis_client, smtp):
    install(service)
    ann_key = signing.generate_key()[1]
    games = []
    for title, other in (("Morning", "Bob"), ("Evening", "Cy")):
        game_id = service.create_game("wakanda", 2, {"start_player": 0}, title)["id"]
        service.join(game_id, 0, ann_key, "Ann", email=ANN)
        service.join(game_id, 1, signing.generate_key()[1], other, email=f"{other.lower()}@example.test")
        choose(redis_client, game_id, 0, lang=PSEUDO)
        games.append(game_id)
    notifier = Notifier(service, NotifySettings())
    digests = Digests(notifier)
    for game_id in games:
        digests.hold(game_id, 0, 0, ANN, "daily")
    assert digests.send(ANN) == 2 and digests.send(ANN) == 0  # sent once
    msg = smtp.to(ANN, "digest")[-1]
    allowed = ["Ann", "Bob", "Cy", "Morning", "Evening", *games]
    for game_id in games:
        loaded = service.load(game_id)
        allowed += [loaded.game.render(loaded.state, 0)]
        allowed += [loaded.game.describe(m, 0) for m in loaded.game.legal_moves(loaded.state, 0)]
    words = {w.lower() for a in allowed for w in re.findall(r"[A-Za-z]{2,}", a)} | {"pbem", "re", "wakanda"}
    for text in (str(msg["Subject"]), text_of(msg), html_words(msg)):
        flat = " ".join(NOT_MESSAGES.sub(" ", text).split())
        assert leftover_english(flat, allowed, words) == [], text
