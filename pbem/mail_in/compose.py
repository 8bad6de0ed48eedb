"""Outgoing mails of the inbound side: answers to processed mails,
invitations and welcome mails.

Built with ``EmailMessage`` under ``policy.SMTP`` (CR/LF in a header value
raises); every piece of text that reaches a header goes through
``pbem.notify.mail.header_text`` first, and nothing from the incoming
mail's headers is copied except its Message-ID, and only when it has the
shape of one.
"""
from __future__ import annotations

import html
import re
import secrets
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

from ..games.i18n import language
from ..notify.mail import add_html, header_text, link_lines, links_html, page, people_links, picture_cid, picture_html

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
            links: dict | None = None) -> EmailMessage:
    """One answer or invitation, in the language it is built in (the
    caller's ``reading``: its texts are). ``links`` close the text; with
    ``png`` (the board as the reader sees it) an HTML alternative shows the
    picture above the same text (``pbem.notify.mail.add_html``)."""
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
    if png:
        cid = picture_cid(domain)
        add_html(msg, _html(subject, text, cid, people_links(links or {})), png, cid)
    # after the parts: setting a body drops the Content- headers set before it
    msg["Content-Language"] = language()
    return msg


def _html(subject: str, text: str, cid: str, links: dict) -> str:
    """The answer's text as it reads in the text part, under its picture."""
    e = html.escape
    return page(f"<h2>{e(header_text(subject, 200))}</h2>\n{picture_html(cid)}\n"
                f"<pre style=\"white-space: pre-wrap\">{e(text)}</pre>\n" + (links_html(links) if links else ""))
