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
from email.utils import formatdate

from .kinds import DEADLINE_PASSED, DIGEST, GAME_OVER, MOVE_REJECTED, REMINDER, SUBJECTS, YOUR_TURN, Notice
from .tokens import reply_address

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_SURROGATE = re.compile("[\ud800-\udfff]")


def header_text(value: str, limit: int = 120) -> str:
    """User text made safe for a header: control characters (CR, LF, ...)
    become a space, lone surrogates (which no charset can encode, so the
    mail could never be sent) become U+FFFD; long text is cut. The API
    refuses both in names and titles; this guards what was stored before
    it did, and text from elsewhere (mail replies)."""
    text = _CONTROL.sub(" ", str(value or ""))
    return _SURROGATE.sub("\ufffd", text).strip()[:limit]


def when(ts: float | None) -> str:
    if ts is None:
        return "none"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts))


def thread_root(game_id: str, seat: int, domain: str) -> str:
    return f"<game.{game_id}.{seat}@{domain}>"


def _text_body(n: Notice) -> str:
    out = [f"{header_text(n.title)} ({n.game}), seat {n.seat} ({header_text(n.seat_name)}), version {n.version}", ""]
    if n.kind == YOUR_TURN:
        out.append("It is your turn.")
    elif n.kind == REMINDER:
        out.append(f"Reminder: it is still your turn; the deadline is {when(n.deadline)}.")
    elif n.kind == DEADLINE_PASSED:
        out.append("The deadline passed.")
    elif n.kind == MOVE_REJECTED:
        out.append("Your move was rejected.")
    elif n.kind == GAME_OVER:
        out.append("The game is over.")
    elif n.kind == DIGEST:
        out.append("What happened in your game since the last digest:")
        out += [f"  - {line}" for line in n.lines]
    if n.message:
        out += ["", n.message]
    if n.events:
        out += ["", "What happened:"] + [f"  {e['version']}. {e['text']}" for e in n.events]
    if n.result:
        scores = ", ".join(f"seat {i}: {s}" for i, s in enumerate(n.result.get("scores", [])))
        out += ["", f"Final scores: {scores}", verdict(n.result)]
    if n.board:
        out += ["", "The board as you see it:", "", n.board]
    if n.examples:
        out += ["", "What you may do now, for example:"] + [f"  {m['text']}" for m in n.examples]
    if n.kind in (YOUR_TURN, REMINDER) or (n.kind == DEADLINE_PASSED and n.deadline):
        out += ["", f"Deadline: {when(n.deadline)}"]
    if n.links:
        out += [""] + [f"{name}: {url}" for name, url in n.links.items()]
    return "\n".join(out) + "\n"


def verdict(result: dict) -> str:
    """Who won, from a result's ``outcome`` (a result stored before it
    existed reads as won): never "Winner(s): seat 0" for a lost solo game."""
    winners = result.get("winners") or []
    if result.get("outcome", "won") == "won" and winners:
        return "Winner(s): seat " + ", ".join(str(w) for w in winners)
    return "Lost: no winner." if result.get("outcome") == "lost" else "No winner."


def _html_body(n: Notice, text: str) -> str:
    e = html.escape
    parts = [f"<h2>{e(header_text(n.title))} &mdash; {e(SUBJECTS.get(n.kind, n.kind))}</h2>",
             f"<p>{e(n.game)}, seat {n.seat} ({e(header_text(n.seat_name))}), version {n.version}</p>"]
    if n.message:
        parts.append(f"<p>{e(n.message)}</p>")
    if n.lines:
        parts.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in n.lines) + "</ul>")
    if n.events:
        parts.append("<h3>What happened</h3><ol>" +
                     "".join(f"<li value=\"{int(ev['version'])}\">{e(ev['text'])}</li>" for ev in n.events) + "</ol>")
    if n.result:
        parts.append(f"<h3>Result</h3><p>scores {e(str(n.result.get('scores')))}; {e(verdict(n.result))}</p>")
    if n.board:
        parts.append(f"<h3>The board as you see it</h3><pre>{e(n.board)}</pre>")
    if n.examples:
        parts.append("<h3>What you may do now, for example</h3><ul>" +
                     "".join(f"<li><code>{e(m['text'])}</code></li>" for m in n.examples) + "</ul>")
    if n.kind in (YOUR_TURN, REMINDER):
        parts.append(f"<p>Deadline: {e(when(n.deadline))}</p>")
    if n.links:
        parts.append("<p>" + " &middot; ".join(f"<a href=\"{e(u)}\">{e(k)}</a>" for k, u in n.links.items()) + "</p>")
    return "<!doctype html><html><body>" + "\n".join(parts) + "</body></html>\n"


def compose(n: Notice, to_addr: str, secret: bytes, domain: str, sender: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = header_text(f"[pbem] {n.title}: {SUBJECTS.get(n.kind, n.kind)} (v{n.version})", 200)
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
    text = _text_body(n)
    msg.set_content(text)
    msg.add_alternative(_html_body(n, text), subtype="html")
    return msg
