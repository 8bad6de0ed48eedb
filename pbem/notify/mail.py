"""Email composition: multipart text + HTML, reply token, threading headers.

Headers are built with ``email.message.EmailMessage`` under ``email.policy.SMTP``
(which refuses CR/LF in header values); every piece of user text that reaches
a header is cleaned first (``header_text``), so a name or title can never
start a header of its own.
"""
from __future__ import annotations

import json
import re
import secrets
import textwrap
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid

from ..games.i18n import CHINESE, N_, _, join_words, language, ngettext, reading
from ..invisible import without_invisible_format
from .kinds import (DEADLINE_PASSED, DIGEST, GAME_OVER, MAY_REACT, MOVE_REJECTED, REMINDER, YOUR_TURN, Notice,
                    in_others_turn, subject_of)
from . import html_mail as h
from .links import for_people
from .readers import Reader
from .tokens import reply_address

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_SURROGATE = re.compile("[\ud800-\udfff]")


def header_text(value: str, limit: int = 120) -> str:
    """User text made safe for a header: control characters (CR, LF, ...)
    become a space, invisible format characters (bidirectional controls,
    zero width spaces...; pbem/invisible.py) are taken out, lone surrogates
    (which no charset can encode, so the mail could never be sent) become
    U+FFFD; long text is cut. The API refuses all of them in names and
    titles; this guards what was stored before it did, and text from
    elsewhere (mail replies: ``join Name``)."""
    text = without_invisible_format(_CONTROL.sub(" ", str(value or "")))
    return _SURROGATE.sub("\ufffd", text).strip()[:limit]


#: The heading of the moves a mail offers (tests and players look for it; a
#: message, shown translated: ``_(EXAMPLES_HEADING)``).
EXAMPLES_HEADING = N_("What you may do now, for example:")
#: The hint under the moves a mail offers.
PASTE_HINT = N_("(copy a line into your reply, above the quoted mail; “moves” lists them all)")
#: What the HTML part says above the lines it offers (each a block one tap selects).
REPLY_HOW = N_("To play one, reply to this mail with that line first, above the quoted mail: tap a line to "
               "select it and copy it, or tap “Reply with this line”. A reply “moves” lists them all.")
#: What a person is shown for each link (``pbem.notify.links.for_people``).
LINK_LABELS = {"page": N_("The game's page"), "play": N_("Play from your browser"),
               "record": N_("The game's record")}
#: Where the text part is wrapped: English at 76 columns, as mail is read;
#: Chinese is left to the reader's mail program (it has no spaces to break at).
WIDTH = 76


def joined(names: list[str], seats) -> str:
    """Some seats' names in words: "Ann", "Ann and Bob", "Ann, Bob and Cy"
    (in the reader's language: "Ann、Bob和Cy")."""
    return join_words([names[s] if 0 <= s < len(names) else _("seat {n}", n=s) for s in sorted(seats)])


def others_turn_line(names: list[str], active: int) -> str:
    """The opening to a seat that owes a decision in ``active``'s turn."""
    return _("It is {name}'s turn, and the game waits for your decision.", name=joined(names, [active]))


# What a paragraph is never broken inside: a quoted text (a move line, a
# player's words), so it reads, and pastes, whole.
_QUOTE = re.compile(r"“[^“”]*”|「[^「」]*」")
_KEPT_SPACE = "\x1f"


def paragraph(text: str, indent: str = "") -> list[str]:
    """A sentence or more as the text part's lines: wrapped at ``WIDTH`` where
    words are spaced, never inside a quote; left whole in Chinese."""
    if language() == CHINESE:
        return [indent + text]
    kept = _QUOTE.sub(lambda m: m.group(0).replace(" ", _KEPT_SPACE), text.replace(_KEPT_SPACE, " "))
    lines = textwrap.wrap(kept, WIDTH, initial_indent=indent, subsequent_indent=indent,
                          break_long_words=False, break_on_hyphens=False) or [indent]
    return [line.replace(_KEPT_SPACE, " ") for line in lines]


def people_links(links: dict) -> dict:
    """The links a mail shows a person, by what each is in words."""
    return {_(LINK_LABELS[k]): url for k, url in for_people(links).items()}


def link_lines(links: dict) -> list[str]:
    return [_("{what}: {url}", what=label, url=url) for label, url in people_links(links).items()]


def thread_root(game_id: str, seat: int, domain: str) -> str:
    return f"<game.{game_id}.{seat}@{domain}>"


def _scores(n: Notice) -> str:
    """The final scores by name ("Ann 12 points, Bob 8 points")."""
    return _(", ").join(ngettext("{name} {n} point", "{name} {n} points", x,
                                 name=n.names[i] if i < len(n.names) else _("seat {n}", n=i))
                        for i, x in enumerate(n.result.get("scores", [])))


def _deadline(n: Notice) -> str:
    return Reader(n.lang, n.tz).when(n.deadline)


def _deadline_line(n: Notice) -> str:
    """The turn's deadline in the reader's zone, said ("Deadline: Dec 3, 2026, 3:43 PM UTC")."""
    return _("Deadline: {deadline}", deadline=_deadline(n)) if n.deadline is not None else _("There is no deadline.")


def _opening(n: Notice) -> list[str]:
    """What the mail is about, in a sentence or two (one item a paragraph;
    a digest's lines as they are)."""
    others = in_others_turn(n.active, n.seat)
    if n.kind == YOUR_TURN:
        return [others_turn_line(n.names, n.active) if others else _("It is your turn.")]
    if n.kind == MAY_REACT:
        return [_("It is {names}'s turn, and meanwhile you may act out of turn. The game does not wait for "
                  "you: reply with one of the moves below while it is someone else's turn, or not at all. "
                  "This is the only mail you get about it; your turn mails come as usual.",
                  names=joined(n.names, n.turn))]
    if n.kind == REMINDER:  # the deadline follows, on its own line
        return [_("Reminder: the game still waits for your decision in {name}'s turn.",
                  name=joined(n.names, [n.active])) if others else _("Reminder: it is still your turn.")]
    # a message says these itself, with what followed
    if n.kind == DEADLINE_PASSED:
        return [] if n.message else [_("The deadline passed.")]
    if n.kind == MOVE_REJECTED:
        return [] if n.message else [_("Your move was rejected.")]
    if n.kind == GAME_OVER:
        return [_("The game is over.")]
    if n.kind == DIGEST:
        return [_("What happened in your game since the last digest:")]
    return []


def digest_line(line: str) -> str:
    """One line of a digest: stored as ``{"version", "title"}`` by the turn
    mail it stands for, worded now for its reader (an older plain line as it is)."""
    try:
        item = json.loads(line)
        return _("Your turn in {title} (version {version})", title=item["title"], version=item["version"])
    except (ValueError, TypeError, KeyError):
        return line


def _about(n: Notice) -> str:
    return _("{title} ({game}), version {version}, for {name}", title=header_text(n.title),
             game=n.game_title or n.game, version=n.version, name=header_text(n.seat_name))


def _text_body(n: Notice) -> str:
    """The text part, in the order of the HTML part: what it is about, the
    result (a game over opens with it), the board, what to reply with, the
    deadline, then what happened and the links."""
    out = [_about(n)]
    opening = _opening(n)
    if opening:
        out.append("")
        for item in opening:
            out += paragraph(item)
        out += [f"  - {digest_line(line)}" for line in n.lines]
    if n.message:
        out += [""] + paragraph(n.message)
    if n.result:
        out += ["", n.result_text or _("The result:"), _("Final scores: {scores}", scores=_scores(n))]
    if n.board:
        out += ["", _("The board as you see it:"), "", n.board]
    if n.examples:
        out += ["", _(EXAMPLES_HEADING)] + [f"  {m['text']}" for m in n.examples]
        out += paragraph(_(PASTE_HINT))
    if n.kind in (YOUR_TURN, REMINDER) or (n.kind == DEADLINE_PASSED and n.deadline):
        out += ["", _deadline_line(n)]
    if n.chat:
        out += ["", _("Chat since your last move:")] + [f"  {line}" for line in n.chat]
    if n.events:
        out += ["", _("What happened:")] + [f"  {e['version']}. {e['text']}" for e in n.events]
    if n.links:
        out += [""] + link_lines(n.links)
    return "\n".join(out) + "\n"


def _html_body(n: Notice, cid: str | None, reply_to: str | None, subject_line: str) -> str:
    """The HTML part: the same as the text part, laid out for a mail app
    (``html_mail``): the headline, the result, the picture (else the board
    as text), the lines to reply with, each a tap from selected or from a
    reply holding it, the deadline and the buttons; what happened and the
    board as text below."""
    opening = _opening(n)
    parts = [h.small(_about(n))]
    if opening:
        parts.append(h.headline(opening[0]))
        parts += [h.para(item) for item in opening[1:]]
    else:
        parts.append(h.headline(f"{header_text(n.title)} \u2014 {subject_of(n)}"))
    if n.message:
        parts.append(h.para(n.message))
    if n.lines:
        parts.append(h.bullets([digest_line(x) for x in n.lines]))
    if n.result:
        parts.append(h.para(n.result_text or _("The result:"), strong=True))
        parts.append(h.para(_("Final scores: {scores}", scores=_scores(n))))
    if cid:
        parts.append(h.picture(cid, _("The board as you see it"), h.png_width(n.picture)))
    elif n.board:
        parts += [h.heading(_("The board as you see it")), h.text_board(n.board)]
    if n.examples:
        parts.append(h.box(h.heading(_(EXAMPLES_HEADING).rstrip(":\uff1a"), first=True) + h.para(_(REPLY_HOW)) +
                           h.reply_lines([m["text"] for m in n.examples], reply_to, f"Re: {subject_line}")))
    if n.kind in (YOUR_TURN, REMINDER) or (n.kind == DEADLINE_PASSED and n.deadline):
        parts.append(h.para(_deadline_line(n)))
    if n.links:
        parts.append(h.buttons(people_links(n.links)))
    if n.chat:  # the players' words: escaped as text (h.bullets), never markup
        parts += [h.heading(_("Chat since your last move")), h.bullets(n.chat)]
    if n.events:
        parts += [h.heading(_("What happened")), h.log(n.events)]
    if cid and n.board:
        parts += [h.heading(_("The board as text")), h.text_board(n.board)]
    return h.page("\n".join(parts))


def picture_cid(domain: str) -> str:
    """A fresh Content-ID for a mail's picture, without the angle brackets."""
    return make_msgid("board", domain=header_text(domain, 200))[1:-1]


def add_html(msg: EmailMessage, body: str, png: bytes | None, cid: str | None) -> None:
    """The HTML alternative of ``msg``; with a picture, a multipart/related
    part holding the HTML and the PNG it shows by ``cid:`` (mail clients
    show such an image inline, and text-only readers keep the text part)."""
    msg.add_alternative(body, subtype="html")
    if png and cid:
        html_part = msg.get_payload()[-1]
        html_part.add_related(png, "image", "png", cid=f"<{cid}>", filename="board.png", disposition="inline")


def subject(title: str, what: str, version: int) -> str:
    """A mail's subject: "[pbem] TITLE: WHAT (vN)". The frame is fixed, in
    every language: replies are read by its "(vN)" (pbem.mail_in.reading);
    ``what`` is in the reader's language. A header that is not ASCII goes
    RFC 2047-encoded in UTF-8 (``policy.SMTP``)."""
    return header_text(f"[pbem] {header_text(title)}: {what} (v{int(version)})", 200)


def compose(n: Notice, to_addr: str, secret: bytes, domain: str, sender: str) -> EmailMessage:
    """The mail of a notice, every word in its reader's language (``n.lang``:
    the notice's own texts were built in it too, pbem.notify.notifier)."""
    with reading(n.lang):
        return _compose(n, to_addr, secret, domain, sender)


def _compose(n: Notice, to_addr: str, secret: bytes, domain: str, sender: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = subject(n.title, subject_of(n), n.version)
    msg["From"] = Address(display_name="pbem", addr_spec=header_text(sender))
    msg["To"] = Address(display_name=header_text(n.seat_name, 64), addr_spec=header_text(to_addr, 254))
    msg["Reply-To"] = reply_address(secret, domain, n.game_id, n.seat)
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = f"<{n.game_id}.{n.seat}.{n.version}.{n.kind}.{secrets.token_hex(6)}@{domain}>"
    root = thread_root(n.game_id, n.seat, domain)
    msg["In-Reply-To"] = root
    msg["References"] = root
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Pbem-Game"] = n.game_id
    msg["X-Pbem-Kind"] = n.kind
    msg.set_content(_text_body(n))
    cid = picture_cid(domain) if n.picture else None
    add_html(msg, _html_body(n, cid, str(msg["Reply-To"]), str(msg["Subject"])), n.picture, cid)
    # after the parts: setting a body drops the Content- headers set before it
    msg["Content-Language"] = language()
    return msg
