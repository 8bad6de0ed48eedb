"""Every kind of mail a player reads, built for a reader of the
pseudo-locale (``x-pseudo``: every looked-up message ⟦àççéñtéd⟧), through
real SMTP (aiosmtpd) and the inbound listener on loopback: what is left in
plain English in a text part was never looked up, unless it is a name, a
move line (which must paste back as it is), an address, a link, an id, a
date (written by ``pbem.when``, not a message) or a game's own text built
for that reader: the board, the events, the moves, the rules and the
notation, computed here in the same pseudo-locale (the games translate
them: tests/test_game_contract_languages.py; a mail that built them for
anyone else would show them in plain English here). The HTML parts too:
their text and their pictures' alt texts."""
from __future__ import annotations

import html
import json
import re
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid, parseaddr

from pbem.games.base import OMNISCIENT, GameError
from pbem.games.i18n import PSEUDO, _, reading
from pbem.mail_in import invites
from pbem.notify import install, wording
from pbem.notify.config import NotifySettings
from pbem.notify.kinds import MAY_REACT
from pbem.notify.notifier import Notifier
from pbem.store.keys import INVITATIONS, key

from .conftest import drain
from .pseudo_support import leftover_english, notation_words
from .test_mail_in_support import (mail_env, mail_in, notify_env, reply, reply_address, run_jobs,  # noqa: F401
                                   smtp, text_of)
from .test_notify_support import new_game, submit

NAMES = ["Ann", "Bob"]
#: The commands a mail names (typed like the notation: the pseudo-locale's reader types English).
COMMANDS = {"help", "board", "moves", "join"}
# What is not a message: links, addresses, Message-IDs, dates (pbem.when writes
# the pseudo-locale's in English), the subject a mail written from scratch may have.
NOT_MESSAGES = re.compile(r"https?://\S+|\S+@\S+|<[^<>\s]+>|[A-Z][a-z]{2} \d{1,2}, \d{4},? \d{1,2}:\d{2}\s?[AP]M \S+"
                          r"|\[pbem\] Game \w+, turn \d+")


def choose(redis_client, game_id: str, seat: int, **chosen) -> None:
    raw = redis_client.hget(key(game_id, "seats"), str(seat))
    redis_client.hset(key(game_id, "seats"), str(seat), json.dumps({**json.loads(raw), **chosen}))


def plain(to: str, body: str, subject: str, sender: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = make_msgid(domain="example.test")
    msg.set_content(body)
    return msg


def game_texts(service, game_id: str, names: list[str], setup_names: list | None = None) -> list[str]:
    """Every text the game writes for its readers, at every version, as
    the pseudo-locale's reader reads it."""
    last = service.load(game_id)
    game, meta = last.game, last.meta
    options, players = meta.get("options") or {}, int(meta["players"])
    out: list[str] = []
    with reading(PSEUDO):
        for version in range(last.version + 1):
            loaded = service.load(game_id, version)
            for viewer in (*range(players), OMNISCIENT):
                try:
                    out.append(game.render(loaded.state, viewer, names=names))
                except Exception:  # before the deal
                    pass
            for seat in range(players):
                try:
                    out += [game.describe(m, seat, names=names) for m in game.legal_moves(loaded.state, seat)]
                except Exception:
                    pass
        for _version, event, _move in service.store.events(game_id, 0, last.version):
            # (the mails' own words for an event the server made: a forfeit is no game's to describe)
            out += [wording.describe(game, game.redact(event, viewer), viewer, names)
                    for viewer in (*range(players), OMNISCIENT)]
        for seat_names in (names, setup_names or names):
            out.append(wording.setup_line(game, options, players, seat_names))
        out += [wording.notation(game, options), *game.notation_examples(options)]
        if meta.get("result"):
            out.append(wording.result_line(game, meta["result"], names))
    return out


def parse_error(service, game_id: str, seat: int, line: str) -> list[str]:
    """What the game says of a line it cannot read: its words, not the mail's."""
    loaded = service.load(game_id)
    with reading(PSEUDO):
        try:
            loaded.game.parse(line, loaded.state, seat, names=NAMES)
        except GameError as err:
            return [err.message, str((err.details or {}).get("expected") or "")]
    raise AssertionError(f"{line!r} reads as a move")


def html_words(msg) -> str:
    """What the HTML part shows a reader: its text and its pictures' alt texts, tags gone."""
    page = msg.get_body(("html",)).get_content()
    page = re.sub(r"<img[^>]*\salt=\"([^\"]*)\"[^>]*>", r" \1 ", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1].split(">", 1)[1]))


def english_left(text: str, allowed: list[str], words: set[str]) -> list[str]:
    flat = " ".join(NOT_MESSAGES.sub(" ", text).split())
    return leftover_english(flat, [" ".join(a.split()) for a in allowed], words)


def test_every_mail_kind_has_no_english_left_but_names_moves_and_the_games_words(service, redis_client, smtp,
                                                                                 mail_in):
    game_id, keys, _ = new_game(service, "wakanda", {"start_player": 0}, title="Evening", names=NAMES)
    for seat in (0, 1):
        choose(redis_client, game_id, seat, lang=PSEUDO)
    notifier = Notifier(service, NotifySettings())
    notifier.store.save_game_settings(game_id, {"turn_seconds": 3600, "default_action": "pass"})
    run_jobs(redis_client)
    ann, bob = "p0@example.test", "p1@example.test"
    typed: list[str] = []
    said: list[str] = []

    def send(msg, sender):
        typed.extend(msg.get_content().split("\n"))
        mail_in.send(msg, parseaddr(str(msg["To"]))[1], sender)
        run_jobs(redis_client)

    # a turn mail; an answer with help, moves, board, a move, a note and a line the game cannot read
    first_turn = smtp.to(ann, "your_turn")[-1]
    loaded = service.load(game_id)
    move = loaded.game.describe(loaded.game.legal_moves(loaded.state, 0)[0], 0, names=NAMES)
    said += parse_error(service, game_id, 0, "claim 99")
    answered = reply(first_turn, f"help\nmoves\nboard\n{move}\nThanks!\nclaim 99", ann, quote=False)
    send(answered, ann)
    send(answered, ann)  # the same mail again: "processed already"
    # Bob's move twice at one version: the second is rejected (its reason is the worker's words)
    loaded = service.load(game_id)
    legal = loaded.game.legal_moves(loaded.state, 1)
    submit(service, game_id, 1, keys, legal[0], loaded.version)
    late = submit(service, game_id, 1, keys, legal[-1], loaded.version)
    drain(service)
    run_jobs(redis_client)
    said.append(service.store.move(game_id, late["id"])["error"]["message"])
    # a reminder, the once-a-game "act out of turn" mail, a deadline the server played, a digest
    since = notifier.store.deadline(game_id, 0)["since_version"]
    assert notifier.reminder_due(game_id, 0, since)
    notifier.mail(game_id, 0, MAY_REACT, None, None)
    notifier.store.save_channels(game_id, 1, {**notifier.channels(game_id, 1), "preference": "digest"})
    notifier.deadline_due(game_id, 0, since)
    drain(service)
    run_jobs(redis_client)
    assert notifier.digest(game_id, 1)
    # answers to a mail the game moved on from, and to one that names no version
    send(reply(first_turn, move, ann, quote=False), ann)
    send(plain(str(first_turn["Reply-To"]), "claim 3", "hello", ann), ann)
    # Bob's deadline, forfeited: the game is over, and a move after it is answered so
    notifier.store.save_game_settings(game_id, {"turn_seconds": 3600, "default_action": "forfeit"})
    notifier.deadline_due(game_id, 1, notifier.store.deadline(game_id, 1)["since_version"])
    drain(service)
    run_jobs(redis_client)
    send(reply(first_turn, move, ann, quote=False), ann)

    mails = [m["msg"] for m in smtp.messages if m["msg"]["X-Pbem-Game"] == game_id]
    kinds = {m["X-Pbem-Kind"] for m in mails}
    assert kinds >= {"your_turn", "mail_reply", "move_rejected", "reminder", "may_react", "deadline_passed",
                     "digest", "game_over"}, kinds
    allowed = [*NAMES, "Evening", "Wakanda", game_id, *typed, *said, *game_texts(service, game_id, NAMES)]
    words = notation_words(allowed)
    for msg in mails:
        assert english_left(str(msg["Subject"]), allowed, {"pbem"}) == [], msg["Subject"]
        left = english_left(text_of(msg), allowed, words | COMMANDS)
        assert left == [], (msg["X-Pbem-Kind"], left, text_of(msg))
        left = english_left(html_words(msg), allowed, words | COMMANDS | {"pbem"})  # (the subject, its headline)
        assert left == [], (msg["X-Pbem-Kind"], "html", left, html_words(msg))


def test_invitations_and_their_answers_have_no_english_left(service, redis_client, smtp, mail_in):
    install(service)
    game_id = service.create_game("wakanda", 2, {"start_player": 0}, "Invited")["id"]
    invited = ["ann@example.test", "cy@example.test"]
    invites.invite(service, game_id, [{"email": e} for e in invited])
    for seat in (0, 1):  # the invitations' language, as the API stores it
        raw = redis_client.hget(key(game_id, INVITATIONS), str(seat))
        redis_client.hset(key(game_id, INVITATIONS), str(seat), json.dumps({**json.loads(raw), "lang": PSEUDO}))
    run_jobs(redis_client)
    invitation = smtp.to(invited[0], "invitation")[-1]
    typed = ["hello there", "help", "join Ann"]
    for line in typed:
        mail_in.send(reply(invitation, line, invited[0], quote=False), reply_address(invitation), invited[0])
        run_jobs(redis_client)
    mails = [m for m in smtp.to(invited[0]) + smtp.to(invited[1]) if m["X-Pbem-Kind"] in ("invitation", "join_reply")]
    assert [m["X-Pbem-Kind"] for m in mails].count("join_reply") == 3 and len(mails) == 5
    assert "⟦" in text_of(mails[-1])  # the seat, once taken, reads as its invitation did
    names = ["Ann", "seat 1"]
    with reading(PSEUDO):  # the rules in words as each invitation names the seats
        yours = _("your seat")
    allowed = [*names, "ann", "cy", "Invited", "Wakanda", game_id, *typed,
               "pbem join GAME SEAT --name NAME --invitation TOKEN",
               *game_texts(service, game_id, names, [yours, None]), *game_texts(service, game_id, names, [None, yours])]
    for msg in mails:
        assert english_left(str(msg["Subject"]), allowed, {"pbem"}) == [], msg["Subject"]
        left = english_left(text_of(msg), allowed, notation_words(allowed) | COMMANDS)
        assert left == [], (msg["X-Pbem-Kind"], left, text_of(msg))
        left = english_left(html_words(msg), allowed, notation_words(allowed) | COMMANDS | {"pbem"})
        assert left == [], (msg["X-Pbem-Kind"], "html", left, html_words(msg))
