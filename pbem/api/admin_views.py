"""The operator's operations (``Authorization: Bearer <PBEM_ADMIN_TOKEN>``),
under ``/admin``: abandon, compact or delete a game, see its queue (moves
waiting, notices waiting, deadlines, failed deliveries), list and retry
deliveries that gave up, run the sweeps now. ``pbem admin ...`` calls them.
Without ``PBEM_ADMIN_TOKEN`` they answer ``403 admin_disabled``."""
from __future__ import annotations

import json

from flask.views import MethodView
from marshmallow import fields, validate

from ..errors import Forbidden, NotFound, Unauthorized
from ..store.failures import KINDS, Failures
from ..service.maintenance import sweep_once
from ..notify.hooks import NOTICES
from ..notify.store import NotifyStore
from ..pipeline.queues import STREAM as SUBMISSIONS
from . import security as sec
from .common import bearer, is_operator, service, settings
from .parsing import Blueprint
from .schemas import GameSummary, Int, Line, QueryInt, Strict
from ..games.i18n import _

admin_bp = Blueprint("admin", __name__, url_prefix="/admin", description="The operator's operations")

#: Stream entries looked at for a game's waiting moves and notices.
SCAN_ENTRIES = 10_000


class AbandonRequest(Strict):
    why = Line(load_default="", validate=validate.Length(0, 200),
               metadata={"description": "said in the GameAbandoned event and the result's detail"})


class Deleted(Strict):
    game = fields.String()
    keys = Int(metadata={"description": "how many Redis keys went"})
    failures_forgotten = Int()


class Compacted(Strict):
    game = fields.String()
    outcome = fields.String(metadata={"description": "ok, done (already), not_finished, queued (a move still "
                                                     "waits to be settled) or moved"})


class QueuedMove(Strict):
    id = fields.String()
    seat = Int(allow_none=True)
    auth = fields.String(allow_none=True)
    expected_version = Int(allow_none=True)
    submitted = fields.Float(allow_none=True)


class Failure(Strict):
    id = fields.String()
    kind = fields.String(metadata={"description": "webhook, mail (a turn mail), answer (a reply to a player's "
                                                  "mail), invitation"})
    game = fields.String(allow_none=True)
    seat = Int(allow_none=True)
    error = fields.String()
    failed_at = fields.Float()
    attempts = Int()
    to = fields.String(allow_none=True, metadata={"description": "the mail's address (mails)"})
    url = fields.String(allow_none=True, metadata={"description": "the webhook's URL (webhooks)"})
    delivery_id = fields.String(allow_none=True)


class FailureList(Strict):
    deliveries = fields.List(fields.Nested(Failure))


class Retried(Strict):
    retried = fields.Nested(Failure)
    job = fields.String(metadata={"description": "the RQ job that tries it again (from its first attempt)"})


class DeliveriesQuery(Strict):
    game = Line(validate=validate.Length(1, 64))
    kind = Line(validate=validate.OneOf(KINDS))
    limit = QueryInt(load_default=100, validate=validate.Range(1, 1000))


class QueueState(Strict):
    game = fields.String()
    status = fields.String()
    version = Int()
    archived = fields.Boolean(metadata={"description": "compacted into one archive (Store.compact)"})
    queued_moves = fields.List(fields.Nested(QueuedMove), metadata={
        "description": "moves recorded as queued, not yet applied or rejected (no move's content)"})
    submissions_waiting = Int(metadata={"description": "its entries in the submissions stream, not yet drained"})
    notices_waiting = Int(metadata={"description": "its entries in the notices stream, not yet sent"})
    deadlines = fields.List(fields.Dict(), metadata={"description": "each running deadline: seat, at, "
                                                                   "reminder_at, since_version, action, jobs"})
    deadline_settings = fields.Dict(allow_none=True)
    paused = fields.Dict(allow_none=True)
    pause_requests = fields.List(Int())
    failed_deliveries = fields.List(fields.Nested(Failure))


class Swept(Strict):
    expired = fields.List(fields.String(), metadata={"description": "open games nobody joined, deleted"})
    compacted = fields.List(fields.String(), metadata={"description": "finished games compacted"})
    dealt = fields.List(fields.String(), metadata={"description": "games whose every seat was taken but whose last "
                                                                 "joiner died before the deal: dealt now"})
    rematches = fields.List(fields.String(), metadata={"description": "finished games whose rematch was offered "
                                                                     "`PBEM_REMATCH_WAIT_S` ago: decided now"})
    deadlines = fields.List(fields.String(), metadata={"description": "deadlines past their time whose job did not "
                                                                     "play them (lost, or a worker died in it): "
                                                                     "played now, as GAME:SEAT"})
    turn_mails = fields.List(fields.String(), metadata={"description": "gathered turn mails whose job was lost or "
                                                                      "died while sending: sent now, as GAME:SEAT"})
    vacations = fields.List(fields.String(), metadata={"description": "vacations past their end whose end job did "
                                                                     "not run (lost, or a worker died in it): ended "
                                                                     "now, by their ids"})


def check_operator() -> None:
    """The operator's token, or 403 admin_disabled / 401 bad_token."""
    if not settings().admin_token:
        raise Forbidden("admin_disabled", _("there is no operator: PBEM_ADMIN_TOKEN is not set"))
    if not is_operator(bearer()):
        raise Unauthorized("bad_token", _("this operation needs the operator's token (PBEM_ADMIN_TOKEN)"))


def _failures() -> Failures:
    return Failures(service().store.redis)


def _public(entry: dict) -> dict:
    return {k: entry.get(k) for k in Failure._declared_fields if k in entry}


def _waiting(stream: str, game_id: str, game_of) -> int:
    entries = service().store.redis.xrange(stream, "-", "+", count=SCAN_ENTRIES)
    return sum(1 for _entry, fields_ in entries if game_of(fields_) == game_id)


def _notice_game(fields_: dict) -> str | None:
    try:
        return json.loads(fields_.get(b"a", b"[]"))[0]
    except (ValueError, IndexError, TypeError):
        return None


@admin_bp.route("/games/<game_id>")
class AdminGameView(MethodView):
    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.response(200, QueueState)
    def get(self, game_id):
        """A game's queue: moves waiting to be applied, notices waiting to be
        sent, running deadlines, the clock, failed deliveries."""
        check_operator()
        svc = service()
        meta = svc.meta(game_id)
        queued = [{"id": m, "seat": (r.get("envelope") or {}).get("player"), "auth": r.get("auth"),
                   "expected_version": (r.get("envelope") or {}).get("expected_version"),
                   "submitted": r.get("submitted")}
                  for m, r in sorted(svc.store.all_moves(game_id).items()) if r.get("status") == "queued"]
        notify = NotifyStore(svc.store.redis)
        return {"game": game_id, "status": meta.get("status"), "version": meta["version"],
                "archived": bool(meta.get("archived")), "queued_moves": queued,
                "submissions_waiting": _waiting(SUBMISSIONS, game_id,
                                                lambda f: (f.get(b"g") or b"").decode() or None),
                "notices_waiting": _waiting(NOTICES, game_id, _notice_game),
                "deadlines": [{"seat": s, **r} for s, r in sorted(notify.deadlines(game_id).items())],
                "deadline_settings": notify.game_settings(game_id), "paused": notify.paused(game_id),
                "pause_requests": notify.pause_votes(game_id),
                "failed_deliveries": [_public(e) for e in _failures().list(game_id)]}

    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.response(200, Deleted)
    def delete(self, game_id):
        """Delete a game: every key of it (log, moves, seats, notifications,
        mail...) and its index entries; its failed deliveries are forgotten.
        It cannot be undone."""
        check_operator()
        return {"game": game_id, **service().delete_game(game_id)}


@admin_bp.route("/games/<game_id>/abandon")
class AbandonView(MethodView):
    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.arguments(AbandonRequest, required=False)
    @admin_bp.response(200, GameSummary)
    def post(self, body, game_id):
        """End a game in play as abandoned: a server-made `GameAbandoned`
        event in the log, the game finished with a result whose `reason` is
        `abandoned` (`outcome` no_winner). Again: the same answer. A game not
        started is 409 `game_not_started` (delete it instead)."""
        check_operator()
        return service().abandon(game_id, (body or {}).get("why", ""))


@admin_bp.route("/games/<game_id>/compact")
class CompactView(MethodView):
    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.response(200, Compacted)
    def post(self, game_id):
        """Compact a finished game now, without waiting for
        `PBEM_COMPACT_AFTER_S` (every read answers the same after)."""
        check_operator()
        return {"game": game_id, "outcome": service().compact(game_id)}


@admin_bp.route("/deliveries")
class DeliveriesView(MethodView):
    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.arguments(DeliveriesQuery, location="query")
    @admin_bp.response(200, FailureList)
    def get(self, query):
        """Deliveries that gave up, newest first: webhooks past their last
        attempt (or refused), turn mails, answers to players' mails and
        invitations the relay kept refusing."""
        check_operator()
        return {"deliveries": [_public(e) for e in _failures().list(query.get("game"), query.get("kind"),
                                                                    query["limit"])]}


@admin_bp.route("/deliveries/<failure_id>/retry")
class RetryView(MethodView):
    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.response(200, Retried)
    def post(self, failure_id):
        """Try a delivery that gave up again, from its first attempt (it
        leaves the list; should it fail again, it comes back under a new id)."""
        check_operator()
        done = _failures().retry(failure_id)
        if done is None:
            raise NotFound("unknown_delivery", _("no failed delivery {id}", id=repr(failure_id)))
        return {"retried": _public(done), "job": done["retried_job"]}


@admin_bp.route("/sweep")
class SweepView(MethodView):
    @sec.declare(admin_bp, sec.OPERATOR)
    @admin_bp.response(200, Swept)
    def post(self):
        """Run the sweeps now: expire open games nobody joined
        (`PBEM_OPEN_GAME_TTL_S`), compact finished games past
        `PBEM_COMPACT_AFTER_S`, deal games whose every seat is taken but
        that are still open (their last joiner died before the deal),
        decide rematches offered `PBEM_REMATCH_WAIT_S` ago (the
        workers run them every `PBEM_SWEEP_EVERY_S`)."""
        check_operator()
        return sweep_once(service(), settings())


def register(api) -> None:
    api.register_blueprint(admin_bp)
