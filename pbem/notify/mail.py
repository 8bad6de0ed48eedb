"""Email composition: multipart text + HTML, reply token, threading headers.

Headers are built with ``email.message.EmailMessage`` under ``email.policy.SMTP``
(which refuses CR/LF in header values); every piece of user text that reaches
a header is cleaned first (``header_text``), so a name or title can never
start a header of its own.
"""
from __future__ import annotations

import html
import re
import secrets
import time
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid

from ..invisible import without_invisible_format
from .kinds import (DEADLINE_PASSED, DIGEST, GAME_OVER, MAY_REACT, MOVE_REJECTED, REMINDER, YOUR_TURN, Notice,
                    in_others_turn, subject_of)
from .links import for_people
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


def when(ts: float | None) -> str:
    if ts is None:
        return "none"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts))


#: The heading of the moves a mail offers (tests and players look for it).
EXAMPLES_HEADING = "What you may do now, for example:"


def joined(names: list[str], seats) -> str:
    """Some seats' names in words: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    words = [names[s] if 0 <= s < len(names) else f"seat {s}" for s in sorted(seats)]
    if not words:
        return "nobody"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def others_turn_line(names: list[str], active: int) -> str:
    """The opening to a seat that owes a decision in ``active``'s turn."""
    return f"It is {joined(names, [active])}'s turn, and the game waits for your decision."


def thread_root(game_id: str, seat: int, domain: str) -> str:
    return f"<game.{game_id}.{seat}@{domain}>"


def _scores(n: Notice) -> str:
    """The final scores by name ("Ann 12, Bob 8")."""
    return ", ".join(f"{n.names[i] if i < len(n.names) else f'seat {i}'} {x}"
                     for i, x in enumerate(n.result.get("scores", [])))


def _opening(n: Notice) -> list[str]:
    """What the mail is about, in a sentence or two."""
    others = in_others_turn(n.active, n.seat)
    if n.kind == YOUR_TURN:
        return [others_turn_line(n.names, n.active) if others else "It is your turn."]
    if n.kind == MAY_REACT:
        return [f"It is {joined(n.names, n.turn)}'s turn, and you may act out of turn meanwhile.",
                "The game does not wait for you: reply with one of the moves below while it is someone",
                "else's turn, or not at all. This is the only mail you get about it; your turn mails",
                "come as usual."]
    if n.kind == REMINDER:
        return [f"Reminder: the game still waits for your decision in {joined(n.names, [n.active])}'s turn; "
                f"the deadline is {when(n.deadline)}." if others else
                f"Reminder: it is still your turn; the deadline is {when(n.deadline)}."]
    if n.kind == DEADLINE_PASSED:
        return ["The deadline passed."]
    if n.kind == MOVE_REJECTED:
        return ["Your move was rejected."]
    if n.kind == GAME_OVER:
        return ["The game is over."]
    if n.kind == DIGEST:
        return ["What happened in your game since the last digest:"] + [f"  - {line}" for line in n.lines]
    return []


def _text_body(n: Notice) -> str:
    out = [f"{header_text(n.title)} ({n.game_title or n.game}), version {n.version}, "
           f"for {header_text(n.seat_name)}", ""]
    out += _opening(n)
    if n.message:
        out += ["", n.message]
    if n.events:
        out += ["", "What happened:"] + [f"  {e['version']}. {e['text']}" for e in n.events]
    if n.result:
        out += ["", n.result_text or "The result:", f"Final scores: {_scores(n)}"]
    if n.board:
        out += ["", "The board as you see it:", "", n.board]
    if n.examples:
        out += ["", EXAMPLES_HEADING] + [f"  {m['text']}" for m in n.examples]
        out += ["(copy a line into your reply, above the quoted mail; 'moves' lists them all)"]
    if n.kind in (YOUR_TURN, REMINDER) or (n.kind == DEADLINE_PASSED and n.deadline):
        out += ["", f"Deadline: {when(n.deadline)}"]
    if n.links:
        out += [""] + [f"{name}: {url}" for name, url in for_people(n.links).items()]
    return "\n".join(out) + "\n"


def _html_body(n: Notice, cid: str | None) -> str:
    e = html.escape
    parts = [f"<h2>{e(header_text(n.title))} &mdash; {e(subject_of(n))}</h2>",
             f"<p>{e(n.game_title or n.game)}, version {n.version}, for {e(header_text(n.seat_name))}</p>"]
    opening = _opening(n)
    if opening:
        parts.append("<p>" + e(" ".join(x.strip() for x in opening if not x.startswith("  - "))) + "</p>")
    if n.message:
        parts.append(f"<p>{e(n.message)}</p>")
    if n.lines:
        parts.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in n.lines) + "</ul>")
    if n.events:
        parts.append("<h3>What happened</h3><ol>" +
                     "".join(f"<li value=\"{int(ev['version'])}\">{e(ev['text'])}</li>" for ev in n.events) + "</ol>")
    if n.result:
        parts.append(f"<h3>Result</h3><p>{e(n.result_text)}<br>Final scores: {e(_scores(n))}</p>")
    if cid:
        parts.append(picture_html(cid))
    if n.board:
        parts.append(f"<h3>The board as you see it</h3><pre>{e(n.board)}</pre>")
    if n.examples:
        parts.append(f"<h3>{e(EXAMPLES_HEADING.rstrip(':'))}</h3><ul>" +
                     "".join(f"<li><code>{e(m['text'])}</code></li>" for m in n.examples) + "</ul>")
    if n.kind in (YOUR_TURN, REMINDER):
        parts.append(f"<p>Deadline: {e(when(n.deadline))}</p>")
    if n.links:
        parts.append(links_html(for_people(n.links)))
    return "<!doctype html><html><body>" + "\n".join(parts) + "</body></html>\n"


def links_html(links: dict) -> str:
    e = html.escape
    return "<p>" + " &middot; ".join(f"<a href=\"{e(u)}\">{e(k)}</a>" for k, u in links.items()) + "</p>"


def picture_html(cid: str) -> str:
    """The picture, referenced by its part's Content-ID (``cid`` without <>)."""
    return f"<p><img src=\"cid:{html.escape(cid)}\" alt=\"The board as you see it\"></p>"


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


def compose(n: Notice, to_addr: str, secret: bytes, domain: str, sender: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = header_text(f"[pbem] {n.title}: {subject_of(n)} (v{n.version})", 200)
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
    add_html(msg, _html_body(n, cid), n.picture, cid)
    return msg
