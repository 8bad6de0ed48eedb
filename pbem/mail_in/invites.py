"""Inviting seats by email, and taking a seat by replying ``join``.

``invite`` records one invitation per seat (the address and a name) and
enqueues the invitation mail; ``send_invitation`` (a ``pbem-mail`` job)
sends it with ``Reply-To: move+INVITE_TOKEN@MAIL_DOMAIN``; the reply ``join``
takes the seat as a mail-only seat (no signing key, see ``Service.join``)
with the invited address as its mail channel. The game starts, as always,
when every seat is taken.
"""
from __future__ import annotations

import logging
import re
import textwrap
import time

from rq import Queue

from ..connections import rq_connection
from ..errors import Conflict, NotFound, ServiceError, Unprocessable
from ..failures import Failures
from ..notify import transport
from ..notify.config import NotifySettings
from ..notify import wording
from ..notify.mail import header_text
from . import JOB_OPTS, QUEUE, compose, try_later
from .addresses import Recipient, invite_address
from .store import MailStore

_EMAIL = re.compile(r"^[^@\s<>\"(),;:\\\[\]]{1,64}@[A-Za-z0-9.-]{1,253}\.?[A-Za-z0-9-]*$")
log = logging.getLogger(__name__)


def check_email(address: str) -> str:
    address = str(address or "").strip()
    if len(address) > 254 or not _EMAIL.match(address) or address != header_text(address, 254):
        raise Unprocessable("bad_email", f"not a mail address: {address[:80]!r}")
    return address


def invite(service, game_id: str, invites: list[dict], queue: Queue | None = None, by: str = "creator") -> list[dict]:
    """Invite seats by address: ``[{"email", "seat"?, "name"?}]`` (seats in
    order of the free ones when not given). Only while the game is open; one
    invitation per seat. ``by`` is who asked ("creator", "seat N")."""
    return record(service, game_id, plan(service, game_id, invites), queue, by)


def plan(service, game_id: str, invites: list[dict]) -> list[tuple[int, str, str]]:
    """Check invitations without storing anything: (seat, address, name) each."""
    meta = service.store.meta(game_id)
    if meta is None:
        raise NotFound("unknown_game", f"no game {game_id!r}")
    if meta.get("status") != "open":
        raise Conflict("game_started", "the game has started: its seats are taken")
    store = MailStore(service.store.redis)
    taken = set(service.store.seats(game_id)) | set(store.invitations(game_id))
    free = [s for s in range(int(meta["players"])) if s not in taken]
    planned: list[tuple[int, str, str]] = []
    for item in invites:
        email = check_email(item.get("email"))
        seat = item.get("seat")
        if seat is None:
            if not free:
                raise Conflict("no_free_seat", "every seat is taken or invited already")
            seat = free.pop(0)
        else:
            seat = int(seat)
            if not 0 <= seat < int(meta["players"]):
                raise NotFound("unknown_seat", f"game {game_id} has seats 0 to {int(meta['players']) - 1}")
            if seat in taken or seat in (p[0] for p in planned):
                raise Conflict("seat_taken", f"seat {seat} is taken or invited already")
            if seat in free:
                free.remove(seat)
        name = header_text(item.get("name") or email.split("@")[0], 64) or f"seat {seat}"
        planned.append((seat, email, name))
    return planned


def record(service, game_id: str, planned: list[tuple[int, str, str]], queue: Queue | None = None,
           by: str = "creator") -> list[dict]:
    """Store planned invitations and enqueue their mails."""
    store = MailStore(service.store.redis)
    queue = queue or Queue(QUEUE, connection=rq_connection(service.store.redis))
    out = []
    for seat, email, name in planned:
        if not store.save_invitation(game_id, seat, {"email": email, "name": name, "invited": time.time(),
                                                     "by": by}):
            raise Conflict("seat_taken", f"seat {seat} was invited already")
        queue.enqueue("workers.mail_jobs.send_invitation", game_id, seat, **JOB_OPTS)
        out.append({"seat": seat, "email": email, "name": name})
    return out


def invitation_mail(game, game_id: str, seat: int, players: int, title: str, by: str,
                    options: dict | None = None, taken: dict | None = None) -> tuple[str, str]:
    """Subject and text of an invitation. The subject is fixed words, the
    game's name and id: nothing a person typed, so an invitation cannot
    carry someone's words into a stranger's inbox as its headline. The
    title is in the text, quoted as the inviter's words. The text says the
    rules in play in words and shows the notation of those rules only; a
    seat the rules name ("seat 0 starts") reads "your seat", or the name of
    the player who took it (``taken``: seat -> name), else "seat N"."""
    options = game.check_options(players, options or {})
    names = [("your seat" if s == seat else (taken or {}).get(s)) for s in range(players)]
    name = game.title or game.name
    inviter = "the game's creator" if by == "creator" else f"the player at {by}"
    subject = f"[pbem] Invitation to play {name} (game {game_id}, seat {seat})"
    lines = [f"You are invited by {inviter} to play {name} (game {game_id}),",
             f"with {players - 1} other player(s).", "",
             f"The game's title, in its creator's words: \"{title}\"", "",
             *textwrap.wrap("The rules in play: " + wording.setup_line(game, options, players, names), 76), "",
             "To take the seat, reply to this mail with the word 'join' on the first line",
             "(or 'join Your Name'). The game starts when every seat is taken; then you get a",
             "mail when it is your turn, and you play by replying to it.", "",
             "How moves are written:", "", game.notation_help_for(options) or "", "",
             "If you do not want to play, or do not know who invited you, ignore this mail."]
    return subject, "\n".join(lines)


def send_invitation(service, game_id: str, seat: int, conf: NotifySettings | None = None, attempt: int = 1) -> bool:
    conf = conf or NotifySettings()
    invitation = MailStore(service.store.redis).invitation(game_id, seat)
    if invitation is None or seat in service.store.seats(game_id):
        return False
    loaded = service.load(game_id)
    subject, text = invitation_mail(loaded.game, game_id, seat, int(loaded.meta["players"]),
                                    header_text(loaded.meta.get("title") or game_id), invitation.get("by", "creator"),
                                    loaded.meta.get("options") or {},
                                    {s: header_text(r.get("name") or "", 64) or None
                                     for s, r in service.store.seats(game_id).items()})
    msg = compose.message(kind=compose.INVITATION, to_addr=invitation["email"], sender=conf.sender,
                          subject=subject, text=text,
                          domain=conf.mail_domain, game_id=game_id, seat=seat,
                          reply_to=invite_address(conf.secret(), conf.mail_domain, game_id, seat))
    try:
        transport.send(msg, conf.smtp_url, conf.data_dir)
    except Exception as err:  # the relay is down or refused: try again later, then give up
        log.warning("invitation mail for seat %s of %s failed (attempt %s): %s", seat, game_id, attempt, err)
        if not try_later(service.store.redis, attempt, "workers.mail_jobs.send_invitation", game_id, seat):
            Failures(service.store.redis).record("invitation", game_id, seat, f"{type(err).__name__}: {err}",
                                                 attempt, "workers.mail_jobs.send_invitation", [game_id, seat, 1],
                                                 QUEUE, to=invitation["email"])
        return False
    return True


def join_by_mail(processor, recipient: Recipient, name: str = "") -> dict:
    """Take the invited seat as a mail-only seat; ``{"error": ...}`` if not."""
    service = processor.service
    invitation = processor.store.invitation(recipient.game_id, recipient.seat)
    if invitation is None:
        return {"error": {"code": "not_invited", "message": "this invitation is unknown"}}
    held = service.store.seats(recipient.game_id).get(recipient.seat)
    if held is not None:
        if held.get("mail_only") and held.get("email") == invitation["email"]:
            return {"error": {"code": "joined_already", "message": "you have this seat already"}}
        return {"error": {"code": "seat_taken", "message": "the seat is taken already"}}
    name = header_text(name, 64) or invitation.get("name") or f"seat {recipient.seat}"
    try:
        service.join(recipient.game_id, recipient.seat, None, name, email=invitation["email"])
    except ServiceError as err:
        message = {"seat_taken": "the seat is taken already",
                   "game_started": "the game has started without you"}.get(err.code, err.message)
        return {"error": {"code": err.code, "message": message}}
    return {"seat": recipient.seat, "name": name}
