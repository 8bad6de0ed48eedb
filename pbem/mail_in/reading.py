"""Reading an inbound message: its commands, the version it answers, and
whether it is an automatic mail that must not be answered.

Parsing is the standard library's (``email`` with ``policy.default``); a
broken MIME structure is reported, never raised. The commands are the first
paragraph of unquoted lines of the text part (or of the HTML part turned into
text when there is no text part), stopping at a signature (``-- ``), a client's
reply marker ("On ... wrote:", "-----Original Message-----", an Outlook
header block or rule) or a blank line after the first command. A text part
sent ``format=flowed`` (Thunderbird, Apple Mail) has its soft line breaks
joined first (``unflow``, RFC 3676), so a long line the client wrapped is
read as the one line the player wrote.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from html.parser import HTMLParser

from ..games.base import plain_width
from ..games.i18n import _

MAX_LINE = 200
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\u0085\ufffd]+")

_SUBJECT_VERSION = (
    re.compile(r"\(v(\d{1,9})\)"),                         # "[pbem] Title: your turn (v12)" (the last one)
    re.compile(r"\bturn\s+#?(\d{1,9})\b", re.I),           # "[pbem] Game abc, turn 12"
    re.compile(r"\bversion\s+#?(\d{1,9})\b", re.I),
)
# Our outgoing Message-IDs: <GAME.SEAT.VERSION.kind.random@domain>
_OUR_MESSAGE_ID = re.compile(r"<([a-z0-9]{1,64})\.(\d{1,2})\.(\d{1,9})\.[a-z_]+\.[0-9a-f]+@[^>]+>", re.I)
_MESSAGE_ID = re.compile(r"^<[^<>\s]{1,250}>$")
# Chinese clients too: Thunderbird's "於 2026/12/3 下午 03:43, pbem 寫道:",
# Gmail's "2026年12月3日 週四 下午3:43 pbem <...> 寫道：" (a full-width colon).
_WROTE_START = re.compile(r"^((on|am|le|el|il|op|den|於|在)\b|\d{1,4}\s*[年/.-]).{0,300}$", re.I)
_WROTE_END = re.compile(r"(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|寫道|写道)\s*[:：]\s*$", re.I)
_ORIGINAL = re.compile(r"^(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht)\s*-{2,}"
                       r"|_{10,}|-{10,})\s*$", re.I)
_HEADER_LINE = re.compile(r"^\*?(from|sent|date|to|subject|cc|von|gesendet|de|envoyé)\s*:\*?\s", re.I)
_MOBILE = re.compile(r"^(sent from my|get outlook for|sent with|envoyé de mon)\b", re.I)


@dataclass
class Incoming:
    message_id: str
    subject: str = ""
    commands: list[str] = field(default_factory=list)  # as the notation reads them (full width made plain)
    typed: list[str] = field(default_factory=list)     # the same lines as the player typed them (to quote)
    version: int | None = None
    version_source: str | None = None
    source: str = "text"             # "text", "html" or "none"
    problem: str | None = None       # why no text could be read (malformed MIME...)
    defects: list[str] = field(default_factory=list)
    auto: str | None = None          # why this looks like an automatic mail
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)


class _HtmlText(HTMLParser):
    """The visible text of an HTML mail, quoted parts (blockquote, Gmail and
    Outlook quote containers) left out."""

    BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "hr", "ul", "ol"}
    SKIP = {"blockquote", "style", "script", "head", "title"}
    QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "divrplyfwdmsg", "appendonsend")
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        tag = tag.lower()
        if tag in self.BLOCK:
            self.parts.append("\n")
        if tag in self.VOID:
            return
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").lower()
        ident = (attrs.get("id") or "").lower()
        skip = tag in self.SKIP or any(c in classes or c in ident for c in self.QUOTE_CLASSES)
        self.stack.append((tag, skip))
        if skip:
            self.skipping += 1

    def handle_endtag(self, tag):
        tag = tag.lower()
        if tag in self.BLOCK:
            self.parts.append("\n")
        for i in range(len(self.stack) - 1, -1, -1):  # close up to the matching open tag
            if self.stack[i][0] == tag:
                for _tag, skip in self.stack[i:]:
                    if skip:
                        self.skipping -= 1
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data.replace("\xa0", " "))

    def text(self) -> str:
        text = "".join(self.parts)
        return "\n".join(line.strip() for line in text.split("\n"))


def html_to_text(markup: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # HTMLParser is lenient; anything else is a broken mail
        pass
    return parser.text()


def _wrote_marker(lines: list[str], i: int) -> int | None:
    """If an "On <date>, <name> wrote:" marker starts at line i (clients wrap
    it over up to three lines), the index of its last line."""
    if not _WROTE_START.match(lines[i].strip()):
        return None
    for j in range(i, min(i + 3, len(lines))):
        if _WROTE_END.search(lines[j].strip()):
            return j
    return None


def unflow(text: str, delsp: bool = False) -> str:
    """A ``format=flowed`` text as its writer typed it (RFC 3676): a line
    ending in a space is soft-broken and joins the next line of the same
    quote depth (with ``delsp=yes`` that space was added by the client and
    goes); the space a client stuffs in front of a line starting with a
    space, ``>`` or ``From `` goes; the signature separator ``-- `` is never
    flowed. Quoted paragraphs come back with one ``> `` per depth."""
    out: list[str] = []
    para: list = []  # [depth, text] of the paragraph being joined

    def emit():
        depth, joined = para
        out.append((">" * depth + " " if depth else "") + joined)
        para.clear()

    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing (and the space after the quote marks)
        flowed = line.endswith(" ") and line != "-- "
        if flowed and delsp:
            line = line[:-1]
        if para and para[0] != depth:
            emit()  # a flowed line before a change of depth is a fixed one
        if para:
            para[1] += line
        else:
            para[:] = [depth, line]
        if not flowed:
            emit()
    if para:
        emit()
    return "\n".join(out)


def is_flowed(part) -> tuple[bool, bool]:
    """(format=flowed, delsp=yes) of a text/plain part."""
    if part.get_content_type() != "text/plain":
        return False, False
    fmt = str(part.get_param("format", "") or "").strip().lower()
    delsp = str(part.get_param("delsp", "") or "").strip().lower()
    return fmt == "flowed", delsp == "yes"


def command_lines(text: str, limit: int = 20) -> list[str]:
    """The command lines of a mail's text, as the notation reads them."""
    return [plain for _typed, plain in typed_command_lines(text, limit)]


def typed_command_lines(text: str, limit: int = 20) -> list[tuple[str, str]]:
    """The command lines of a mail's text: (as the player typed it, to quote
    back; as the notation reads it: full width made plain)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(lines) and len(out) < limit:
        raw = lines[i]
        line = raw.strip()
        if raw.rstrip("\n") in ("-- ", "--") or line == "--":
            break  # signature
        if _ORIGINAL.match(line) or _MOBILE.match(line):
            break
        if line.startswith(">"):
            i += 1
            continue
        end = _wrote_marker(lines, i)
        if end is not None:
            if out:
                break
            i = end + 1  # a quote comes first (bottom posting): the commands follow it
            continue
        if _HEADER_LINE.match(line) and i + 1 < len(lines) and _HEADER_LINE.match(lines[i + 1].strip()):
            break  # an Outlook-style header block of the quoted mail
        if not line:
            if out:
                break
            i += 1
            continue
        # Full-width letters, digits, commas and spaces (a Chinese keyboard's)
        # read as the notation's ASCII: ``help``, ``board`` and moves alike.
        typed = _CONTROL.sub(" ", line).strip()
        line = plain_width(typed).strip()
        if line:
            out.append((typed[:MAX_LINE], line[:MAX_LINE]))
        i += 1
    return out


def _content(part) -> str:
    try:
        return part.get_content()
    except (LookupError, UnicodeError, AssertionError, KeyError, ValueError):
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else str(payload)


def _message_id(msg, raw: bytes) -> str:
    value = " ".join(str(msg.get("Message-ID", "") or "").split())
    if _MESSAGE_ID.match(value):
        return value
    return "<sha256." + hashlib.sha256(raw).hexdigest() + "@pbem.invalid>"


def _auto(msg) -> str | None:
    auto = str(msg.get("Auto-Submitted", "") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = str(msg.get("Precedence", "") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "List-Id"):
        if msg.get(name) is not None:
            return name
    return None


def version_of(msg, subject: str, game_id: str | None = None) -> tuple[int | None, str | None]:
    """The game version a mail answers: our header, the subject, else the
    Message-ID of our mail it replies to."""
    header = str(msg.get("X-Pbem-Version", "") or "").strip()
    if header.isdigit() and len(header) < 10:
        return int(header), "header"
    for pattern in _SUBJECT_VERSION:
        found = list(pattern.finditer(subject))
        if found:
            return int(found[-1].group(1)), "subject"
    ids = " ".join(str(msg.get(h, "") or "") for h in ("In-Reply-To", "References"))
    found = [m for m in _OUR_MESSAGE_ID.finditer(ids) if game_id is None or m.group(1).lower() == game_id]
    if found:
        return int(found[-1].group(3)), "in-reply-to"
    return None, None


def read(raw: bytes, game_id: str | None = None, limit: int = 20) -> Incoming:
    msg: EmailMessage = message_from_bytes(raw, policy=default_policy)
    try:
        subject = " ".join(str(msg.get("Subject", "") or "").split())[:300]
    except Exception:  # an undecodable header
        subject = ""
    incoming = Incoming(message_id=_message_id(msg, raw), subject=subject, auto=_auto(msg))
    incoming.in_reply_to = str(msg.get("In-Reply-To", "") or "").strip() or None
    incoming.references = str(msg.get("References", "") or "").split()[-10:]
    incoming.version, incoming.version_source = version_of(msg, subject, game_id)
    defects = list(msg.defects)
    for part in msg.walk():
        defects.extend(part.defects)
    incoming.defects = sorted({type(d).__name__ for d in defects})
    try:
        body = msg.get_body(preferencelist=("plain", "html"))
    except Exception:
        body = None
    if body is None and msg.is_multipart():
        incoming.source, incoming.problem = "none", (
            _("the mail's MIME structure is broken or it has no text part ({defects})",
              defects=", ".join(incoming.defects)) if incoming.defects
            else _("the mail's MIME structure is broken or it has no text part"))
        return incoming
    if body is None:
        if msg.get_content_maintype() != "text":
            incoming.source, incoming.problem = "none", (
                _("the mail has no readable text part: its MIME structure is broken ({defects})",
                  defects=", ".join(incoming.defects)) if incoming.defects
                else _("the mail has no readable text part: it is {type}", type=msg.get_content_type()))
            return incoming
        body = msg
    text = _content(body)
    if body.get_content_subtype() == "html":
        incoming.source = "html"
        text = html_to_text(text)
    if not isinstance(text, str):
        incoming.source, incoming.problem = "none", _("the mail's text could not be decoded")
        return incoming
    flowed, delsp = is_flowed(body)
    if flowed:
        text = unflow(text, delsp)
    lines = typed_command_lines(text, limit)
    incoming.typed, incoming.commands = [t for t, _p in lines], [p for _t, p in lines]
    return incoming
