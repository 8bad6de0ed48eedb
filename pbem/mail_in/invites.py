"""Inviting seats by email, and taking a seat by the invitation.

``invite`` records one invitation per seat (the address, a name, its own
nonce, when it expires: ``PBEM_INVITATION_TTL_S``) and enqueues the
invitation mail; ``send_invitation`` (a ``pbem-mail`` job) sends it with
``Reply-To: move+INVITE_TOKEN@MAIL_DOMAIN`` and the link
``PBEM_PUBLIC_URL/join/INVITE_TOKEN``. An invited seat is reserved for its
invitation until the invitee takes it, the game's creator withdraws it
(``withdraw``) or it expires: the claim of a seat checks that in its own
script (``Store.claim``), and anyone else is refused ``seat_invited``.

The invitee takes the seat by replying ``join`` (a mail-only seat, see
``Service.join``, with the invited address as its mail channel), or by the
link or the API with the token (``read_token``: a seat with the key made or
held by the browser or the client). The game starts, as always, when every
seat is taken.
"""
from __future__ import annotations

import logging
import re
import time

from rq import Queue

from ..store.connections import rq_connection
from ..errors import Conflict, NotFound, ServiceError, Unauthorized, Unprocessable
from ..store.failures import Failures
from ..notify import transport
from ..notify.config import NotifySettings
from ..notify import wording
from ..games.i18n import _, ngettext, reading
from ..games.base import SPECTATOR
from ..notify.links import links, rules_url
from ..notify.mail import header_text, paragraph
from ..notify.picture import board_png
from ..notify.readers import Reader, invitation_reader, quoted
from ..store import invitation_live
from ..service.common import preferences
from . import JOB_OPTS, QUEUE, compose, try_later
from .addresses import Recipient, invite_address, invite_token, new_invitation_nonce, read_invite_token
from .config import MailInSettings
from .store import MailStore
from .words import command_word

_EMAIL = re.compile(r"^[^@\s<>\"(),;:\\\[\]]{1,64}@[A-Za-z0-9.-]{1,253}\.?[A-Za-z0-9-]*$")
log = logging.getLogger(__name__)


def check_email(address: str) -> str:
    address = str(address or "").strip()
    if len(address) > 254 or not _EMAIL.match(address) or address != header_text(address, 254):
        raise Unprocessable("bad_email", _("not a mail address: {address}", address=repr(address[:80])))
    return address


def invite(service, game_id: str, invites: list[dict], queue: Queue | None = None, by: str = "creator") -> list[dict]:
    """Invite seats by address: ``[{"email", "seat"?, "name"?, "lang"?, "tz"?}]`` (seats in
    order of the free ones when not given). Only while the game is open; one
    invitation per seat. ``by`` is who asked ("creator", "seat N")."""
    return record(service, game_id, plan(service, game_id, invites), queue, by)


def plan(service, game_id: str, invites: list[dict]) -> list[tuple[int, str, str, str | None, dict]]:
    """Check invitations without storing anything: (seat, address, name,
    the name given, the language and zone chosen for the invitee) each. A seat taken, or reserved by a live invitation,
    is not free; an expired invitation's seat is."""
    meta = service.store.meta(game_id)
    if meta is None:
        raise NotFound("unknown_game", f"no game {game_id!r}")
    if meta.get("status") != "open":
        raise Conflict("game_started", "the game has started: its seats are taken")
    now = time.time()
    taken = set(service.store.seats(game_id)) | {s for s, i in service.store.invitations(game_id).items()
                                                 if invitation_live(i, now)}
    free = [s for s in range(int(meta["players"])) if s not in taken]
    planned: list[tuple[int, str, str, str | None, dict]] = []
    for item in invites:
        email = check_email(item.get("email"))
        chosen = preferences(item.get("lang"), item.get("tz"))
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
        given = header_text(item.get("name") or "", 64) or None
        name = given or header_text(email.split("@")[0], 64) or f"seat {seat}"
        planned.append((seat, email, name, given, chosen))
    return planned


def record(service, game_id: str, planned: list, queue: Queue | None = None, by: str = "creator",
           ttl_s: float | None = None) -> list[dict]:
    """Store planned invitations, each with its own nonce and expiry, and
    enqueue their mails. ``name`` is the seat's name should the invitee
    join by mail without one; ``public_name`` (the name the inviter gave,
    or None) is all the public lists show of an invitation; ``lang`` and
    ``tz`` (where chosen) go to the seat its invitee takes."""
    queue = queue or Queue(QUEUE, connection=rq_connection(service.store.redis))
    ttl_s = MailInSettings().invitation_ttl_s if ttl_s is None else ttl_s
    out = []
    for seat, email, name, given, *chosen in planned:
        now = time.time()
        invitation = {"email": email, "name": name, "public_name": given, "invited": now, "by": by,
                      "nonce": new_invitation_nonce(), **(chosen[0] if chosen else {})}
        if ttl_s > 0:
            invitation["expires"] = now + ttl_s
        saved = service.store.save_invitation(game_id, seat, invitation, now)
        if saved == "started":
            raise Conflict("game_started", "the game has started: its seats are taken")
        if saved != "ok":
            raise Conflict("seat_taken", f"seat {seat} was taken or invited just now")
        # Its nonce with it: withdrawn and invited again before this mail goes,
        # the seat's new invitation is sent by its own job, not by this one too.
        queue.enqueue("workers.mail_jobs.send_invitation", args=(game_id, seat),
                      kwargs={"nonce": invitation["nonce"]}, **JOB_OPTS)
        out.append({"seat": seat, "email": email, "name": name, **({"expires": invitation["expires"]}
                                                                   if ttl_s > 0 else {})})
    return out


def withdraw(service, game_id: str, seat: int) -> dict:
    """Withdraw a seat's invitation (the creator's): its token, link and
    reply stop working and the seat is free. 404 ``not_invited`` when the
    seat has none, 409 ``seat_taken`` once its invitee joined."""
    meta = service.meta(game_id)
    if not 0 <= seat < int(meta["players"]):
        raise NotFound("unknown_seat", f"game {game_id} has seats 0 to {int(meta['players']) - 1}")
    done = service.store.withdraw_invitation(game_id, seat)
    if done == "taken":
        raise Conflict("seat_taken", f"seat {seat} is taken: an invitation cannot be withdrawn once its seat "
                       "is held")
    if done == "none":
        raise NotFound("not_invited", f"seat {seat} has no invitation")
    return {"game": game_id, "seat": seat, "withdrawn": True}


def read_token(secret: bytes, token: str, game_id: str | None = None, seat: int | None = None) -> tuple[str, int, str]:
    """(game, seat, nonce) of a genuine invitation token (for ``game_id``
    and ``seat`` when given), else 401 ``bad_invitation``. Whether it is
    still the seat's invitation is the claim's to say."""
    found = read_invite_token(secret, token or "")
    if found is None:
        raise Unauthorized("bad_invitation", "this is not an invitation token of this server: it may have been "
                           "cut short or changed; use the link or the reply address of the invitation mail")
    if (game_id is not None and found[0] != game_id) or (seat is not None and found[1] != seat):
        raise Unauthorized("bad_invitation", f"this invitation is for seat {found[1]} of game {found[0]}")
    return found


def invitation_link(conf: NotifySettings, game_id: str, seat: int, nonce: str) -> str:
    """The invitation's page: take the seat from a browser (pbem/web)."""
    return f"{str(conf.public_url).rstrip('/')}/join/{invite_token(conf.secret(), game_id, seat, nonce)}"


def invitation_mail(game, game_id: str, seat: int, players: int, title: str, by: str,
                    options: dict | None = None, taken: dict | None = None,
                    link: str | None = None, expires: float | None = None,
                    reader: Reader | None = None, rules_link: str | None = None) -> tuple[str, str]:
    """Subject and text of an invitation, in the reading language (the
    caller's ``reading``; ``reader`` writes the expiry in its zone). The
    subject is fixed words, the game's name and id: nothing a person typed,
    so an invitation cannot carry someone's words into a stranger's inbox as
    its headline. The text opens with who invites (``invitation_headline``);
    the title is quoted as the inviter's words. The text says the rules in
    play in words; how moves are written is behind ``rules_link`` (the
    game's rules page), else it shows the notation of those rules only. A
    seat the rules name ("seat 0 starts") reads "your seat", or the name of
    the player who took it (``taken``: seat -> name), else "seat N"."""
    options = game.check_options(players, options or {})
    taken = taken or {}
    names = [(_("your seat") if s == seat else taken.get(s)) for s in range(players)]
    name = game.title_text()
    subject = "[pbem] " + _("Invitation to play {game} (game {id}, seat {seat})", game=name, id=game_id, seat=seat)
    join, join_name = quoted(command_word("join")), quoted(_("{join} Your Name", join=command_word("join")))
    lines = [*paragraph(invitation_headline(game, game_id, players, by, taken)), "",
             *paragraph(_("The game's title, in its creator's words: {title}", title=quoted(title))), "",
             *paragraph(_("The rules in play: {rules}", rules=wording.setup_line(game, options, players, names)))]
    if rules_link:
        lines += ["", *paragraph(_("How moves are written: {url}", url=rules_link))]
    lines += ["",
              *paragraph(_("To take the seat, reply to this mail with the word {join} on the first line (or "
                           "{join_name}). The game starts when every seat is taken; then you get a mail when it is "
                           "your turn, and you play by replying to it.", join=join, join_name=join_name)), ""]
    if link:
        # The command as it is typed, with this seat's values: only the name is the reader's to fill in.
        your_name = _("YOUR-NAME")
        command = f"pbem join {game_id} {seat} --name {your_name} --invitation {link.rstrip('/').rsplit('/', 1)[-1]}"
        lines += [_("Or take it in your browser, which makes your signing key there:"), f"  {link}",
                  _("or with the pbem command:"), f"  {command}"]
        lines.append("")
    if expires:
        lines += paragraph(_("The seat is kept for you until you take it or the invitation is withdrawn, and "
                             "until {when} at the latest.", when=(reader or Reader()).when(expires)))
    else:
        lines += paragraph(_("The seat is kept for you until you take it or the invitation is withdrawn."))
    if not rules_link:
        lines += ["", _("How moves are written:"), "", game.notation_help_for(options) or ""]
    lines += ["", *paragraph(_("If you do not want to play, or do not know who invited you, ignore this mail."))]
    return subject, "\n".join(lines)


def invitation_headline(game, game_id: str, players: int, by: str, taken: dict) -> str:
    """Who invites the reader to what, in a sentence: "Ann invites you to
    play Wakanda (game ID) with 1 other player."
    """
    name, others = game.title_text(), players - 1
    if by == "creator":
        return ngettext("The game's creator invites you to play {game} (game {id}) with {n} other player.",
                        "The game's creator invites you to play {game} (game {id}) with {n} other players.",
                        others, game=name, id=game_id)
    _word, _sep, number = by.partition(" ")
    seat = int(number) if number.isdigit() else None
    if seat is not None and taken.get(seat):
        return ngettext("{name}, a player of the game, invites you to play {game} (game {id}) with {n} other "
                        "player.",
                        "{name}, a player of the game, invites you to play {game} (game {id}) with {n} other "
                        "players.", others, name=taken[seat], game=name, id=game_id)
    return ngettext("The player at seat {seat} invites you to play {game} (game {id}) with {n} other player.",
                    "The player at seat {seat} invites you to play {game} (game {id}) with {n} other players.",
                    others, seat=number or by, game=name, id=game_id)


def send_invitation(service, game_id: str, seat: int, conf: NotifySettings | None = None, attempt: int = 1,
                    nonce: str | None = None) -> bool:
    """Send the seat's invitation mail: not if the seat is taken or its
    invitation gone, expired, or (``nonce`` given) another than the one
    this job was queued for."""
    conf = conf or NotifySettings()
    invitation = MailStore(service.store.redis).invitation(game_id, seat)
    if invitation is None or seat in service.store.seats(game_id) or not invitation_live(invitation):
        return False
    if nonce is not None and invitation.get("nonce", "") != nonce:
        return False
    nonce = invitation.get("nonce", "")
    loaded = service.load(game_id)
    reader = invitation_reader(loaded.meta, invitation)
    players = int(loaded.meta["players"])
    taken = {s: header_text(r.get("name") or "", 64) or None for s, r in service.store.seats(game_id).items()}
    game_links = {"page": links(conf, game_id)["page"], "rules": rules_url(conf, game_id)}
    with reading(reader.lang):  # the invitation's language, else the game's
        subject, text = invitation_mail(loaded.game, game_id, seat, players,
                                        header_text(loaded.meta.get("title") or game_id),
                                        invitation.get("by", "creator"), loaded.meta.get("options") or {}, taken,
                                        link=invitation_link(conf, game_id, seat, nonce) if conf.public_url else None,
                                        expires=invitation.get("expires"), reader=reader,
                                        rules_link=game_links["rules"])
        # the table as anyone sees it before the game starts (the public view)
        names = wording.seat_names(service.store.seats(game_id), players)
        png = board_png(loaded.game, loaded.state, SPECTATOR, names, None)
        msg = compose.message(kind=compose.INVITATION, to_addr=invitation["email"], sender=conf.sender,
                              subject=subject, text=text,
                              domain=conf.mail_domain, game_id=game_id, seat=seat,
                              reply_to=invite_address(conf.secret(), conf.mail_domain, game_id, seat, nonce),
                              png=png, links={"page": game_links["page"]},
                              headline=invitation_headline(loaded.game, game_id, players,
                                                           invitation.get("by", "creator"), taken),
                              offered=[command_word("join")], offered_heading=_("To take the seat, reply with:"),
                              offered_how=_("Reply to this mail with this word first, above the quoted mail: tap "
                                            "it to select it and copy it, or tap “Reply with this line”."))
    try:
        transport.send(msg, conf.smtp_url, conf.data_dir)
    except Exception as err:  # the relay is down or refused: try again later, then give up
        log.warning("invitation mail for seat %s of %s failed (attempt %s): %s", seat, game_id, attempt, err)
        if not try_later(service.store.redis, attempt, "workers.mail_jobs.send_invitation", game_id, seat,
                         job_kwargs={"nonce": nonce}):
            Failures(service.store.redis).record("invitation", game_id, seat, f"{type(err).__name__}: {err}",
                                                 attempt, "workers.mail_jobs.send_invitation", [game_id, seat, 1],
                                                 QUEUE, to=invitation["email"])
        return False
    return True


def current_invitation(store: MailStore, recipient: Recipient) -> dict | None:
    """The seat's invitation if it is still the one the recipient's token
    names (its nonce): None once it was withdrawn or replaced."""
    invitation = store.invitation(recipient.game_id, recipient.seat)
    if invitation is None or invitation.get("nonce", "") != (recipient.nonce or ""):
        return None
    return invitation


def join_by_mail(processor, recipient: Recipient, name: str = "") -> dict:
    """Take the invited seat as a mail-only seat; ``{"error": ...}`` if not."""
    service = processor.service
    invitation = current_invitation(processor.store, recipient)
    if invitation is None:
        return {"error": {"code": "not_invited", "message": _("this invitation is unknown: it was withdrawn or "
                                                              "replaced")}}
    held = service.store.seats(recipient.game_id).get(recipient.seat)
    if held is not None:
        if held.get("mail_only") and held.get("email") == invitation["email"]:
            return {"error": {"code": "joined_already", "message": _("you have this seat already")}}
        return {"error": {"code": "seat_taken", "message": _("the seat is taken already")}}
    # the seat's name, as stored: never translated (a default is "seat N" in every language)
    name = header_text(name, 64) or invitation.get("name") or f"seat {recipient.seat}"
    try:
        service.join(recipient.game_id, recipient.seat, None, name, email=invitation["email"],
                     invitation=recipient.nonce or "")
    except ServiceError as err:
        message = {"seat_taken": _("the seat is taken already"),
                   "game_started": _("the game has started without you"),
                   "invitation_expired": _("the invitation has expired"),
                   "bad_invitation": _("the invitation was withdrawn or replaced")}.get(err.code, err.message)
        return {"error": {"code": err.code, "message": message}}
    return {"seat": recipient.seat, "name": name}
