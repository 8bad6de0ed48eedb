"""Notification endpoints: a seat's channels and webhook (its bearer token),
the webhook delivery log, a game's deadline settings, pause and resume.

Registered by ``register(api)`` from ``create_app``, which also installs the
Service hooks that enqueue notification jobs.
"""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields, validate

from ..errors import Conflict, Unauthorized, Unprocessable
from ..notify import install
from ..notify.sweeps import install as install_notify_sweeps
from ..notify.config import NotifySettings
from ..notify.notifier import Notifier
from ..notify.digests import CHOICES as DIGESTS
from ..notify.store import PREFERENCES
from ..service import CREATOR
from . import security as sec
from .common import (bearer, check_deadline, check_webhook_url, is_operator, notifier, public_channels,
                     register_webhook, save_deadline_settings, service)
from .parsing import Blueprint
from .schemas import DeadlineSettings, Int, Line, QueryInt, ReaderQuery, Strict, one_line
from ..games.i18n import _

notify_bp = Blueprint("notifications", __name__, url_prefix="/games",
                      description="Turn notifications: email, webhooks, deadlines")


# -- schemas -----------------------------------------------------------------


class WebhookInfo(Strict):
    id = fields.String()
    url = fields.String()
    enabled = fields.Boolean()
    registered = fields.Float()
    disabled_reason = fields.String(allow_none=True)
    disabled_at = fields.Float(allow_none=True)


class Channels(Strict):
    email = fields.String(allow_none=True)
    preference = fields.String(metadata={"description": "every (a mail per turn), reminder (reminders only) "
                                                        "or digest (one mail a day)"})
    webhook = fields.Nested(WebhookInfo, allow_none=True)
    digest = fields.String(metadata={"description": "off, daily or hourly (pbem.notify.digests)"})
    pending_webhook_url = fields.String(allow_none=True, metadata={
        "description": "a URL given at join: nothing is sent to it until it is registered (POST .../webhook)"})


class ChannelsUpdate(Strict):
    email = fields.Email(allow_none=True, validate=[validate.Length(max=254), one_line])
    preference = Line(validate=validate.OneOf(PREFERENCES))
    digest = Line(validate=validate.OneOf(DIGESTS), metadata={
        "description": "daily or hourly: turn mails held and sent as one mail listing every game waiting for "
                       "this address, with their pictures; off: a mail per turn"})


class WebhookRegister(Strict):
    url = fields.Url(schemes={"http", "https"}, require_tld=False, validate=[validate.Length(max=2000), one_line],
                     metadata={"description": "omit to register the URL given at join"})


class WebhookRegistered(WebhookInfo):
    secret = fields.String(metadata={"description": "the whsec_ signing secret: shown once, keep it"})


class DeliveriesQuery(ReaderQuery):
    limit = QueryInt(load_default=100, validate=validate.Range(1, 500))


class DeliveryAttempt(Strict):
    delivery_id = fields.String()
    webhook_id = fields.String(metadata={"description": "the webhook-id header (the same on every retry)"})
    kind = fields.String()
    attempt = Int()
    url = fields.String(allow_none=True)
    status = Int(allow_none=True, metadata={"description": "HTTP status, null when there was no answer"})
    outcome = fields.String(metadata={"description": "delivered, retrying, gave_up, disabled (410), refused, skipped"})
    error = fields.String(allow_none=True)
    duration_ms = fields.Float()
    next_attempt_at = fields.Float()
    logged = fields.Float()


class Deliveries(Strict):
    deliveries = fields.List(fields.Nested(DeliveryAttempt))


class SeatDeadline(Strict):
    seat = Int()
    at = fields.Float()
    reminder_at = fields.Float(allow_none=True)
    since_version = Int()


class GameDeadlines(Strict):
    settings = fields.Nested(DeadlineSettings, allow_none=True)
    paused = fields.Dict(allow_none=True)
    pause_requests = fields.List(Int(), metadata={
        "description": "seats that asked for a pause: the clock pauses once every seat has"})
    deadlines = fields.List(fields.Nested(SeatDeadline))


# -- webhook payload (documented in the spec's webhooks section) --------------


class PayloadEvent(Strict):
    version = Int()
    event = fields.Dict(metadata={"description": "the event as this seat may see it"})
    text = fields.String()


class PayloadGame(Strict):
    id = fields.String()
    type = fields.String()
    title = fields.String()
    status = fields.String()
    version = Int()
    to_act = fields.List(Int())
    active = Int(allow_none=True, metadata={
        "description": "the seat whose turn of the round it is, where a seat in `to_act` may owe a decision in "
                       "it (a Carcassonne dragon step or bid); null where each seat to act is in its own turn"})


class PayloadData(Strict):
    kind = fields.String(validate=validate.OneOf(["your_turn", "reminder", "deadline_passed", "move_rejected",
                                                  "game_over", "vacation", "rematch_offered", "rematch_started",
                                                  "rematch_off"]))
    lang = fields.String(metadata={"description": "the language of the texts (event texts, board, moves, message): "
                                                  "the seat's, else the game's (`en`, `zh-Hant`)"})
    game = fields.Nested(PayloadGame)
    seat = Int()
    events = fields.List(fields.Nested(PayloadEvent))
    board = fields.String(metadata={"description": "render(state, seat): the board as this seat sees it"})
    legal_moves = fields.List(fields.Dict(), metadata={"description": "a few legal moves: {move, text}"})
    deadline = fields.Float(allow_none=True, metadata={"description": "unix time of this seat's deadline"})
    result = fields.Dict(allow_none=True, metadata={"description": "scores, placings, winners (game_over)"})
    message = fields.String()
    links = fields.Dict(keys=fields.String(), values=fields.String())


class WebhookPayload(Strict):
    type = fields.String(metadata={"description": "pbem.<kind>"})
    timestamp = fields.String(metadata={"description": "ISO 8601, UTC"})
    data = fields.Nested(PayloadData)


# -- helpers -----------------------------------------------------------------


def _seat(game_id: str, seat: int) -> int:
    return service().seat_viewer(game_id, seat, bearer())


def _caller(game_id: str) -> tuple[str, int | None]:
    """Who asks: ("operator", None) for PBEM_ADMIN_TOKEN, ("creator", None)
    for the game's creator token, ("seat N", N) for a seat's token."""
    token = bearer()
    if is_operator(token):
        return "operator", None
    if token is None:
        raise Unauthorized("missing_token", _("send a seat's bearer token, the game's creator token (or the "
                                              "operator's)"))
    who = service().actor(game_id, token)
    return (CREATOR, None) if who == CREATOR else (f"seat {who}", who)


def _actor(game_id: str) -> str:
    """Who may change a game's settings: the operator, the creator or a seat's owner."""
    return _caller(game_id)[0]


# -- views -------------------------------------------------------------------


@notify_bp.route("/<game_id>/seats/<int:seat>/notifications")
class ChannelsView(MethodView):
    @sec.declare(notify_bp, sec.SEAT)
    @notify_bp.response(200, Channels)
    def get(self, game_id, seat):
        """A seat's notification channels (its bearer token)."""
        _seat(game_id, seat)
        return public_channels(notifier().channels(game_id, seat))

    @sec.declare(notify_bp, sec.SEAT)
    @notify_bp.arguments(ChannelsUpdate, required=False)  # no body: nothing changes
    @notify_bp.response(200, Channels)
    def patch(self, body, game_id, seat):
        """Change the email address (null: no mail) and the preference."""
        _seat(game_id, seat)
        n = notifier()
        ch = n.channels(game_id, seat)
        ch.update(body)
        n.store.save_channels(game_id, seat, ch)
        return public_channels(ch)


@notify_bp.route("/<game_id>/seats/<int:seat>/webhook")
class WebhookView(MethodView):
    @sec.declare(notify_bp, sec.SEAT)
    @notify_bp.arguments(WebhookRegister, required=False)  # no body: the URL given at join
    @notify_bp.response(201, WebhookRegistered)
    def post(self, body, game_id, seat):
        """Register (or replace) the seat's webhook. The signing secret is in
        this answer only. URLs resolving to loopback, private, link-local or
        metadata addresses are refused (422 webhook_url_refused)."""
        _seat(game_id, seat)
        n = notifier()
        ch = n.channels(game_id, seat)
        url = body.get("url") or ch.get("pending_webhook_url")
        if not url:
            raise Unprocessable("missing_url", _("give a url (none was given at join)"))
        check_webhook_url(url)
        return register_webhook(game_id, seat, url, n, ch)

    @sec.declare(notify_bp, sec.SEAT)
    @notify_bp.response(204)
    def delete(self, game_id, seat):
        """Remove the seat's webhook (pending retries stop)."""
        _seat(game_id, seat)
        n = notifier()
        ch = n.channels(game_id, seat)
        ch["webhook"] = None
        ch["pending_webhook_url"] = None
        n.store.save_channels(game_id, seat, ch)


@notify_bp.route("/<game_id>/seats/<int:seat>/webhook/deliveries")
class DeliveriesView(MethodView):
    @sec.declare(notify_bp, sec.SEAT)
    @notify_bp.arguments(DeliveriesQuery, location="query")
    @notify_bp.response(200, Deliveries)
    def get(self, query, game_id, seat):
        """The webhook delivery log of a seat, newest first: every attempt."""
        _seat(game_id, seat)
        return {"deliveries": notifier().store.attempts(game_id, seat, query["limit"])}


def _deadlines_out(n: Notifier, game_id: str) -> dict:
    return {"settings": n.store.game_settings(game_id), "paused": n.store.paused(game_id),
            "pause_requests": n.store.pause_votes(game_id),
            "deadlines": [{"seat": s, "at": r["at"], "reminder_at": r.get("reminder_at"),
                           "since_version": r["since_version"]} for s, r in sorted(n.store.deadlines(game_id).items())]}


@notify_bp.route("/<game_id>/deadline")
class DeadlineView(MethodView):
    @sec.declare(notify_bp, sec.NONE)
    @notify_bp.response(200, GameDeadlines)
    def get(self, game_id):
        """A game's deadline settings and the deadlines running now."""
        service().meta(game_id)
        return _deadlines_out(notifier(), game_id)

    @sec.declare(notify_bp, sec.CREATOR_SEAT_OR_OPERATOR)
    @notify_bp.arguments(DeadlineSettings)
    @notify_bp.response(200, GameDeadlines)
    def put(self, body, game_id):
        """Set the turn deadline, the reminder and the default action (pass,
        random legal move, forfeit). A seat's owner may set them while the game
        waits for players; the operator at any time."""
        meta = service().meta(game_id)
        actor = _actor(game_id)
        if meta.get("status") != "open" and actor != "operator":
            raise Conflict("game_started", _("deadline settings are fixed once the game has started"))
        check_deadline(body)
        n = notifier()
        save_deadline_settings(game_id, body, actor, n)
        if meta.get("status") == "active" and body["turn_seconds"]:
            loaded = n.service.load(game_id)
            for seat in sorted(loaded.game.to_act(loaded.state)):
                if not n.store.deadline(game_id, seat):
                    n.schedule_deadline(game_id, seat, loaded.version)
        return _deadlines_out(n, game_id)


@notify_bp.route("/<game_id>/pause")
class PauseView(MethodView):
    @sec.declare(notify_bp, sec.CREATOR_SEAT_OR_OPERATOR)
    @notify_bp.response(200, GameDeadlines)
    def post(self, game_id):
        """Stop the deadline clock (moves are still accepted); resume restarts
        each running deadline with the time it had left.

        The game's creator (its `creator_token`) or the operator pauses at
        once. A seat's token asks for a pause: the clock stops once every
        seat has asked (`pause_requests` lists who has), so no seat can stop
        its opponent's clock alone."""
        meta = service().meta(game_id)
        if meta.get("status") == "finished":
            raise Conflict("game_over", _("the game is over"))
        who, seat = _caller(game_id)
        n = notifier()
        if seat is None:
            n.pause(game_id, who)
        elif len(n.store.add_pause_vote(game_id, seat)) >= int(meta["players"]) and not n.store.paused(game_id):
            n.pause(game_id, "every seat")
        return _deadlines_out(n, game_id)


@notify_bp.route("/<game_id>/resume")
class ResumeView(MethodView):
    @sec.declare(notify_bp, sec.CREATOR_SEAT_OR_OPERATOR)
    @notify_bp.response(200, GameDeadlines)
    def post(self, game_id):
        """Restart the deadline clock after a pause: any seat, the creator or
        the operator. While the clock runs, a seat's resume withdraws its
        own request for a pause (409 not_paused if it had none). A pause a
        player's vacation holds ends with the vacation (409 on_vacation; the
        operator may still resume)."""
        service().meta(game_id)
        who, seat = _caller(game_id)
        n = notifier()
        if (n.store.paused(game_id) or {}).get("by") == "vacation" and who != "operator":
            raise Conflict("on_vacation", _("a player's vacation holds this game's deadlines: they run again when "
                                            "it ends"))
        if not n.store.paused(game_id):
            if seat is not None and n.store.remove_pause_vote(game_id, seat):
                return _deadlines_out(n, game_id)
            raise Conflict("not_paused", _("the game is not paused"))
        n.resume(game_id)
        return _deadlines_out(n, game_id)


WEBHOOK_DOC = {
    "post": {
        "summary": "A turn notification for one seat",
        "description": (
            "Sent to a seat's registered webhook. Signed per Standard Webhooks: headers `webhook-id` "
            "(the same on every retry of one notification), `webhook-timestamp` (unix seconds) and "
            "`webhook-signature` (`v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the "
            "`whsec_` secret shown at registration). Answer 2xx to accept; any other status or a "
            "timeout is retried with exponential backoff and jitter for more than a day; 410 Gone "
            "disables the endpoint. `data` holds only what this seat may see."),
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WebhookPayload"}}}},
        "responses": {"200": {"description": "accepted (any 2xx)"},
                      "410": {"description": "gone: the endpoint is disabled, no more deliveries"}},
    }
}


def register(api) -> None:
    """Register the blueprint, document the webhook, install the Service hooks."""
    app = api._app
    app.extensions["pbem_notify_settings"] = NotifySettings()
    api.register_blueprint(notify_bp)
    api.spec.components.schema("WebhookPayload", schema=WebhookPayload)
    api.spec.options.setdefault("webhooks", {})["turnNotification"] = WEBHOOK_DOC
    service = app.extensions.get("pbem")
    if service is not None:
        install(service)
        install_notify_sweeps(service)  # POST /admin/sweep runs them too
