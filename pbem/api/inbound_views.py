"""Mail endpoints: inbound mail over HTTP, and invitations by email.

``POST /inbound/email`` takes one raw RFC 5322 message (for operators whose
mail provider forwards inbound mail over HTTP), protected by the operator's
``PBEM_INBOUND_SECRET`` bearer. Like the SMTP listener it only checks the
recipient token and the size, stores the message and enqueues its
processing (``pbem-mail``): the answer to the player goes out by mail.

``POST /games/{game_id}/invitations`` invites seats of an open game by email;
a reply ``join`` to the invitation takes the seat (see docs/email.md).
"""
from __future__ import annotations

import secrets

from flask import request
from flask.views import MethodView
from marshmallow import ValidationError, fields, post_load, validate
from werkzeug.exceptions import RequestEntityTooLarge

from ..errors import Forbidden, ServiceError, Unauthorized, Unprocessable
from ..mail_in import invites
from ..mail_in.addresses import read_recipient
from ..mail_in.listener import accept
from ..mail_in.store import MailStore
from ..service import CREATOR
from . import limits, security as sec
from .common import bearer, mail_conf, service, take_invitation_slots
from .parsing import Blueprint
from .schemas import Line, Strict, invitation_list, merge_invitations
from ..games.i18n import _

class MailTooLarge(ServiceError):
    status, code = 413, "mail_too_large"


inbound_bp = Blueprint("mail", __name__, description="Play by email: inbound mail over HTTP, invitations")

RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")


class Inbound(Strict):
    accepted = fields.List(fields.String(), metadata={"description": "the token addresses the mail was queued for"})
    id = fields.String(metadata={"description": "the stored message's id"})


class InboundQuery(Strict):
    to = fields.List(Line(validate=validate.Length(1, 320)), load_default=list,
                     metadata={"description": "envelope recipient(s); else the message's "
                                              "Delivered-To, X-Original-To, To and Cc headers"})


class InviteRequest(Strict):
    invitations = invitation_list()
    invites = invitation_list(deprecated=True)

    @post_load
    def _invitations(self, data, **kwargs):
        data = merge_invitations(data, "invites", required=True)
        if not data["invitations"]:
            raise ValidationError("Shorter than minimum length 1.", "invitations")
        return data


class Invited(Strict):
    seat = fields.Integer()
    email = fields.String()
    name = fields.String()
    expires = fields.Float(metadata={"description": "Unix time the seat stops being kept for the invitee "
                                                    "(absent: never, `PBEM_INVITATION_TTL_S` is 0)"})


class Withdrawn(Strict):
    game = fields.String()
    seat = fields.Integer()
    withdrawn = fields.Boolean()


class Invitations(Strict):
    game = fields.String()
    invitations = fields.List(fields.Nested(Invited))


def _check_secret(conf) -> None:
    if not conf.inbound_secret:
        raise Forbidden("inbound_disabled", _("inbound mail over HTTP is off: set PBEM_INBOUND_SECRET"))
    scheme, _space, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not secrets.compare_digest(given.strip().encode(), conf.inbound_secret.encode()):
        raise Unauthorized("bad_inbound_secret", _("send 'Authorization: Bearer <PBEM_INBOUND_SECRET>'"))


class TooManyMails(ServiceError):
    status, code = 429, "too_many_mails"

    def __init__(self, code: str, message: str, retry_after: int):
        super().__init__(code, message, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after)}


def _recipients(raw: bytes, given: list[str], secret: bytes, domain: str) -> list:
    from email import message_from_bytes
    from email.policy import default as default_policy
    from email.utils import getaddresses

    candidates = list(given)
    if not candidates:
        msg = message_from_bytes(raw, policy=default_policy)
        for name in RECIPIENT_HEADERS:
            try:
                values = [str(v) for v in msg.get_all(name) or []]
            except Exception:  # an unreadable header
                continue
            candidates += [addr for _name, addr in getaddresses(values) if addr]
    out: list = []
    for addr in candidates:
        found = read_recipient(secret, domain, addr)
        if found and found.address not in [r.address for r in out]:
            out.append(found)
    return out[:10]


@inbound_bp.route("/inbound/email")
class InboundEmailView(MethodView):
    @inbound_bp.arguments(InboundQuery, location="query")
    @sec.declare(inbound_bp, sec.INBOUND)
    @limits.limited(inbound_bp, "inbound")
    @inbound_bp.doc(requestBody={
        "required": True, "description": "one raw RFC 5322 message",
        "content": {"message/rfc822": {"schema": {"type": "string", "format": "binary"}}}})
    @inbound_bp.response(202, Inbound)
    def post(self, query):
        """Take one raw inbound mail for a `move+TOKEN@MAIL_DOMAIN` address
        and queue it; the player's answer goes out by mail."""
        conf, nconf = mail_conf()
        _check_secret(conf)
        request.max_content_length = conf.max_bytes
        try:
            raw = request.get_data(cache=False)
        except RequestEntityTooLarge:
            raise MailTooLarge("mail_too_large", _("the mail is larger than {n} bytes", n=conf.max_bytes)) from None
        if len(raw) > conf.max_bytes:
            raise MailTooLarge("mail_too_large", _("the mail is larger than {n} bytes", n=conf.max_bytes))
        if not raw.strip():
            raise Unprocessable("empty_mail", _("the body must be one raw RFC 5322 message"))
        found = _recipients(raw, query["to"], nconf.secret(), nconf.mail_domain)
        if not found:
            raise Unprocessable("no_token_recipient",
                                _("no recipient is a genuine move+TOKEN@{domain} address", domain=nconf.mail_domain))
        client = service().store.redis
        mail = MailStore(client)
        accepted = [r.address for r in found if mail.take_slot(r.game_id, r.seat, conf.per_hour)]
        if not accepted:
            wait = max(mail.slot_wait(r.game_id, r.seat) for r in found)
            raise TooManyMails("too_many_mails", _("more than {n} mails this hour for this address; try again in "
                                                   "{wait} s", n=conf.per_hour, wait=wait), retry_after=wait)
        raw_id = accept(client, raw, accepted, conf)
        return {"accepted": accepted, "id": raw_id}


@inbound_bp.route("/games/<game_id>/invitations")
class InvitationsView(MethodView):
    @sec.declare(inbound_bp, sec.CREATOR_OR_SEAT)
    @limits.limited(inbound_bp, "invite", per_token=True)
    @inbound_bp.arguments(InviteRequest)
    @inbound_bp.response(201, Invitations)
    def post(self, body, game_id):
        """Invite seats of an open game by email (one invitation per seat,
        free seats in order unless `seat` is given). Each invited seat is
        kept for its invitee (anyone else gets `409 seat_invited`) until
        they take it, the creator withdraws it (DELETE
        /games/{id}/invitations/{seat}) or it expires
        (`PBEM_INVITATION_TTL_S`). The invitee takes it by replying `join`
        to the invitation mail, by its link (`/join/TOKEN`, a page that
        makes a key in the browser), or with the token in `invitation` of
        POST /games/{id}/seats/{seat}; the game starts when every seat is
        taken. The body's list is `invitations` (`invites`, its old name,
        is read too: deprecated).

        Only the game's creator (`Authorization: Bearer` the `creator_token`
        of `POST /games`) or a seated player (a seat's token) may invite:
        401 `missing_token` / `bad_token` otherwise. A game, and a client
        address, may have `PBEM_INVITES_PER_HOUR` (20) invitations sent an
        hour: 429 `too_many_requests` with `Retry-After` beyond. The mail's
        subject is fixed words, the game's name and id; the title appears
        in its text only, as the creator's words."""
        service_ = service()
        actor = service_.actor(game_id, bearer())
        planned = invites.plan(service_, game_id, body["invitations"])  # checked before anything is counted
        take_invitation_slots(game_id, len(planned))
        done = invites.record(service_, game_id, planned, by="creator" if actor == CREATOR else f"seat {actor}")
        return {"game": game_id, "invitations": done}, 201


@inbound_bp.route("/games/<game_id>/invitations/<int:seat>")
class InvitationView(MethodView):
    @sec.declare(inbound_bp, sec.CREATOR)
    @inbound_bp.response(200, Withdrawn)
    def delete(self, game_id, seat):
        """Withdraw a seat's invitation (the game's creator only: `403
        creator_only` for a seat's token): its token, link and mail reply
        stop working, and the seat is free for anyone (or for another
        invitation). `404 not_invited` when the seat has none, `409
        seat_taken` once its invitee took it."""
        if service().actor(game_id, bearer()) != CREATOR:
            raise Forbidden("creator_only", _("only the game's creator may withdraw an invitation"))
        return invites.withdraw(service(), game_id, seat)


def register(api) -> None:
    api.register_blueprint(inbound_bp)
    # The security schemes are declared once, in create_app (security.SCHEMES).
