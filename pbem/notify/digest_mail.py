"""A player's digest as one mail (pbem.notify.digests): every game waiting
for them, each with its board's picture (inline, by Content-ID), the lines
to reply with, and those lines' reply links to that game's own reply
address and subject, as its turn mail has them; so a move replied from a
digest plays in its game. A reply to the digest itself goes to the first
game listed (its Reply-To and its Message-ID say which, and at what
version). Each section is built in its seat's language (the notices were);
the frame in the first section's."""
from __future__ import annotations

import secrets
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

from ..games.i18n import _, language, ngettext, reading
from . import html_mail as h
from .kinds import DIGEST, Notice, subject_of
from .mail import (EXAMPLES_HEADING, PASTE_HINT, _deadline_line, header_text, link_lines, paragraph, people_links,
                   picture_cid, subject)
from .tokens import reply_address


def compose(notices: list[Notice], to_addr: str, secret: bytes, domain: str, sender: str) -> EmailMessage:
    with reading(notices[0].lang):
        return _compose(notices, to_addr, secret, domain, sender)


def _about(n: Notice) -> str:
    return _("{title} ({game}), version {version}, for {name}", title=header_text(n.title),
             game=n.game_title or n.game, version=n.version, name=header_text(n.seat_name))


def _compose(notices: list[Notice], to_addr: str, secret: bytes, domain: str, sender: str) -> EmailMessage:
    first = notices[0]
    count = len(notices)
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = header_text("[pbem] " + ngettext("{n} game waits for you", "{n} games wait for you", count,
                                                      n=count), 200)
    msg["From"] = Address(display_name="pbem", addr_spec=header_text(sender))
    msg["To"] = Address(display_name=header_text(first.seat_name, 64), addr_spec=header_text(to_addr, 254))
    msg["Reply-To"] = reply_address(secret, domain, first.game_id, first.seat)
    msg["Date"] = formatdate(usegmt=True)
    # the form of a turn mail's: a reply to the digest itself answers the first game at its version
    msg["Message-ID"] = f"<{first.game_id}.{first.seat}.{first.version}.{DIGEST}.{secrets.token_hex(6)}@{domain}>"
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Pbem-Kind"] = DIGEST
    # two sentences, not the forms of one: what they say differs, not only the number
    intro = (_("This game waits for your move. Reply with a move line first, above the quoted mail.") if count == 1
             else _("These games wait for your move. Each lists the lines to reply with: a reply to this mail "
                    "plays in the first game; for another, reply to its own address, with its subject, as its "
                    "links do."))
    text = paragraph(intro)
    parts = [h.headline(_("Your games waiting for you")), h.para(intro)]
    related = []
    for n in notices:
        with reading(n.lang):
            address = reply_address(secret, domain, n.game_id, n.seat)
            line_subject = "Re: " + subject(n.title, subject_of(n), n.version)
            text += ["", "=" * 8, _about(n), ""]
            if n.board:
                text += [_("The board as you see it:"), "", n.board, ""]
            if n.examples:
                text += [_(EXAMPLES_HEADING)] + [f"  {m['text']}" for m in n.examples]
                text += paragraph(_(PASTE_HINT))
            text += paragraph(_("To play in this game, write to {address} with the subject “{subject}”.",
                                address=address, subject=line_subject))
            text += ["", _deadline_line(n)] + link_lines(n.links)
            section = [h.heading(_about(n))]
            if n.picture:
                cid = picture_cid(domain)
                related.append((n.picture, cid))
                section.append(h.picture(cid, _("The board as you see it"), h.png_width(n.picture)))
            elif n.board:
                section.append(h.text_board(n.board))
            if n.examples:
                section.append(h.box(h.heading(_(EXAMPLES_HEADING).rstrip(":\uff1a"), first=True) +
                                     h.reply_lines([m["text"] for m in n.examples], address, line_subject)))
            section.append(h.para(_deadline_line(n)))
            if n.links:
                section.append(h.buttons(people_links(n.links)))
            parts += section
    msg.set_content("\n".join(text) + "\n")
    msg.add_alternative(h.page("\n".join(parts)), subtype="html")
    html_part = msg.get_payload()[-1]
    for i, (png, cid) in enumerate(related):
        html_part.add_related(png, "image", "png", cid=f"<{cid}>", filename=f"board-{i + 1}.png", disposition="inline")
    msg["Content-Language"] = language()
    return msg
