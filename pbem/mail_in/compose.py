"""Outgoing mails of the inbound side: answers to processed mails,
invitations and welcome mails.

Built with ``EmailMessage`` under ``policy.SMTP`` (CR/LF in a header value
raises); every piece of text that reaches a header goes through
``pbem.notify.mail.header_text`` first, and nothing from the incoming
mail's headers is copied except its Message-ID, and only when it has the
shape of one.
"""
from __future__ import annotations

import re
import secrets
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

from ..games.i18n import CHINESE, _, language
from ..notify import html_mail as h
from ..notify.mail import (EXAMPLES_HEADING, REPLY_HOW, WIDTH, add_html, header_text, link_lines, people_links,
                           picture_cid)

_MESSAGE_ID = re.compile(r"^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@\-\[\]]{3,250}>$")

REPLY = "mail_reply"
INVITATION = "invitation"
JOIN_REPLY = "join_reply"


def _address(value: str) -> Address | str:
    addr = header_text(value, 254)
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain or " " in addr:
        raise ValueError(f"not a mail address: {addr!r}")
    return Address(addr_spec=addr)


def message(*, kind: str, to_addr: str, sender: str, subject: str, text: str, domain: str,
            game_id: str, seat: int | str = "x", version: int | None = None, reply_to: str | None = None,
            in_reply_to: str | None = None, references: list[str] | None = None, png: bytes | None = None,
            links: dict | None = None, offered: list[str] | None = None, headline: str = "",
            offered_heading: str = "", offered_how: str = "") -> EmailMessage:
    """One answer or invitation, in the language it is built in (the
    caller's ``reading``: its texts are). ``links`` close the text. The
    HTML alternative shows the same text under ``headline`` (else the
    subject), with ``png`` (the board as the reader sees it) as a picture
    (``pbem.notify.mail.add_html``) and ``offered`` (lines the text offers
    to reply with, under ``offered_heading`` and ``offered_how``) as blocks a tap selects, each
    with a reply link holding it."""
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = header_text(subject, 200)
    msg["From"] = Address(display_name="pbem", addr_spec=header_text(sender, 254))
    msg["To"] = _address(to_addr)
    if reply_to:
        msg["Reply-To"] = _address(reply_to)
    msg["Date"] = formatdate(usegmt=True)
    vpart = version if version is not None else "x"
    msg["Message-ID"] = f"<{game_id}.{seat}.{vpart}.{kind}.{secrets.token_hex(6)}@{header_text(domain, 200)}>"
    refs = [r for r in (references or []) if _MESSAGE_ID.match(r)][-8:]
    if in_reply_to and _MESSAGE_ID.match(in_reply_to):
        msg["In-Reply-To"] = in_reply_to
        if in_reply_to not in refs:
            refs.append(in_reply_to)
    if refs:
        msg["References"] = " ".join(refs)
    # An answer to a person's mail; auto-responders must not answer it back.
    msg["Auto-Submitted"] = "auto-replied" if kind in (REPLY, JOIN_REPLY) else "auto-generated"
    msg["X-Pbem-Game"] = header_text(game_id, 64)
    msg["X-Pbem-Kind"] = kind
    if version is not None:
        msg["X-Pbem-Version"] = str(int(version))
    text = text if text.endswith("\n") else text + "\n"
    if links:
        text += "\n" + "".join(f"{line}\n" for line in link_lines(links))
    msg.set_content(text)
    cid = picture_cid(domain) if png else None
    body = _html(headline or header_text(subject, 200), text, cid, png, people_links(links or {}), offered or [],
                 offered_heading, offered_how, str(msg["Reply-To"]) if reply_to else None, str(msg["Subject"]))
    add_html(msg, body, png, cid)
    # after the parts: setting a body drops the Content- headers set before it
    msg["Content-Language"] = language()
    return msg


def _html(headline: str, text: str, cid: str | None, png: bytes | None, links: dict, offered: list[str],
          offered_heading: str, offered_how: str, reply_to: str | None, subject: str) -> str:
    """The text part's words laid out for a mail app (``html_mail``): the
    headline, the picture, the lines to reply with, the buttons, then the
    text itself, its paragraphs as prose and its drawn blocks (a board) as
    they are, scrolling inside their own box."""
    parts = [h.headline(headline)]
    if cid:
        parts.append(h.picture(cid, _("The board as you see it"), h.png_width(png)))
    if offered:
        parts.append(h.box(h.heading((offered_heading or _(EXAMPLES_HEADING)).rstrip(":\uff1a"), first=True) +
                           h.para(offered_how or _(REPLY_HOW)) + h.reply_lines(offered, reply_to, f"Re: {subject}")))
    if links:
        parts.append(h.buttons(links))
    blocks = _blocks(text)
    if blocks and blocks[0].split() == headline.split():
        blocks = blocks[1:]  # shown as the headline
    parts += [h.text_board(block) if _drawn(block) else h.prose(_unwrapped(block)) for block in blocks]
    return h.page("\n".join(parts))


def _blocks(text: str) -> list[str]:
    """The text's paragraphs (split at blank lines), except that a drawn
    block keeps its blank lines."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        if out and _drawn(block) and _drawn(out[-1]):
            out[-1] += "\n\n" + block
        elif block.strip():
            out.append(block)
    return out


_URL_LINE = re.compile(r"^\s+https?://\S+\s*$")


def _unwrapped(block: str) -> str:
    """A paragraph without the breaks the text part wrapped it at
    (``paragraph``: at ``WIDTH`` columns, in every language but Chinese),
    so it fills the screen's width; a line that starts indented (a move)
    keeps its own line, and a link alone on its line its indent too."""
    lines = [line.strip() if _URL_LINE.match(line) else line for line in block.split("\n")]
    if language() == CHINESE:
        return "\n".join(lines)
    out = [lines[0]]
    for line in lines[1:]:
        prev = out[-1].rsplit("\n", 1)[-1]
        if len(prev) >= WIDTH - 20 and line[:1] not in ("", " ") and not prev.startswith(" ") \
                and not prev.endswith(":"):
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out)


_DRAWN = re.compile(r"\S {2,}\S|[\u2500-\u259f]|[|+]-{2,}")


def _drawn(block: str) -> bool:
    """Whether a block is drawn (a text board, a table): its columns line
    up, so it must not be wrapped (two spaces inside a line, box drawing)."""
    return sum(1 for line in block.split("\n") if _DRAWN.search(line)) >= 2
