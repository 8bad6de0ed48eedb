"""The REST API (flask-smorest). Views are thin: read the request, call one
service function, return. Every error leaves in one format:

    {"error": {"code": "stale_version", "message": "...", "status": 409, "details": {...}}}
"""
from __future__ import annotations

import importlib.util
import logging
import os

import redis
from flask import Flask, Response, current_app, request, send_from_directory
from flask.views import MethodView
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from .. import error_docs, games
from ..config import Settings, settings as load_settings
from ..errors import ServiceError, Unauthorized, Unprocessable
from ..games.base import GameError
from ..pipeline import MoveQueue
from ..service import Service, StateCache
from ..mail_in import invites
from ..store import Store
from . import inbound_views, notify_views, record_schemas, stream_views
from .parsing import Blueprint
from . import schemas as s
from . import security as sec

log = logging.getLogger(__name__)

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "body_too_large", 415: "unsupported_media_type",
              422: "invalid_request", 429: "too_many_requests", 500: "internal_error", 503: "unavailable"}


def error_response(status: int, code: str, message: str, details: dict | None = None, headers=None):
    body = {"error": {"code": code, "message": message, "status": status}}
    if details:
        body["error"]["details"] = details
    return body, status, headers or {}


class PbemApi(Api):
    ERROR_SCHEMA = s.ErrorSchema

    def _register_error_handlers(self):
        app = self._app
        app.register_error_handler(HTTPException, self.handle_http_exception)
        app.register_error_handler(ServiceError, lambda e: error_response(e.status, e.code, e.message, e.details,
                                                                          e.headers))
        app.register_error_handler(GameError, lambda e: error_response(422, e.code, e.message, e.details))
        app.register_error_handler(redis.ConnectionError, self._store_down)
        app.register_error_handler(redis.TimeoutError, self._store_down)
        app.register_error_handler(redis.BusyLoadingError, self._store_down)

    @staticmethod
    def _store_down(error):
        log.warning("redis unavailable: %s", error)
        return error_response(503, "store_unavailable", "the game store is unreachable; try again shortly",
                              headers={"Retry-After": "2"})

    def handle_http_exception(self, error: HTTPException):
        status = error.code or 500
        # Keep werkzeug's own headers (a 405's Allow, say).
        headers = {k: v for k, v in error.get_headers() if k.lower() not in ("content-type", "content-length")}
        data = getattr(error, "data", None) or {}
        code = HTTP_CODES.get(status, "http_error")
        message = data.get("message") or error.description or error.name
        details = None
        errors = data.get("errors") or data.get("messages")
        if errors:
            details = {"fields": errors}
            message = "the request does not match the schema"
            if status == 400 or _is_json_error(errors):
                code, status = "malformed_json", 400
                message = "the body is not valid JSON"
        if status == 413:
            message = f"the body is larger than {current_app.config['MAX_CONTENT_LENGTH']} bytes"
        if status == 500:
            log.error("internal error: %s", error)
            message = "internal error"
        headers.update(data.get("headers") or {})
        return error_response(status, code, message, details, headers)


def _is_json_error(errors) -> bool:
    text = str(errors)
    return "Invalid JSON body" in text


def create_game(body: dict) -> dict:
    """A new game with, optionally, its deadline settings and email
    invitations; everything is checked before anything is stored."""
    invited = [i["seat"] for i in body["invite"] if i.get("seat") is not None]
    if any(not 0 <= seat < body["players"] for seat in invited) or len(set(invited)) != len(invited):
        raise Unprocessable("bad_invite", "invited seats must be distinct seats of the game")
    if len(body["invite"]) > body["players"]:
        raise Unprocessable("bad_invite", "more invitations than seats")
    for item in body["invite"]:
        invites.check_email(item["email"])
    if body["deadline"]:
        notify_views.check_deadline(body["deadline"])
    if body["invite"]:
        # The caller is the creator: no credential, but the client address's
        # hourly allowance (counted last, when nothing else can refuse).
        service().check_new_game(body["game"], body["players"], body["options"])
        inbound_views.take_invitation_slots(None, len(body["invite"]))
    game = service().create_game(body["game"], body["players"], body["options"], body["title"])
    if body["deadline"]:
        notify_views.set_deadline_at_creation(game["id"], body["deadline"])
    if body["invite"]:
        inbound_views.count_invitations_at_creation(game["id"], len(body["invite"]))
        invites.invite(service(), game["id"], body["invite"])
    return game


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("bad_token", "use 'Authorization: Bearer <token>'")
    return token.strip()


def service() -> Service:
    return current_app.extensions["pbem"]


def prefer_wait() -> float:
    """Seconds asked for by ``Prefer: wait=N`` (RFC 7240), capped."""
    for part in request.headers.get("Prefer", "").split(","):
        name, _, value = part.strip().partition("=")
        if name.strip().lower() == "wait":
            try:
                return max(0.0, min(float(value), float(current_app.config["PBEM_MAX_WAIT"])))
            except ValueError:
                return 0.0
    return 0.0


ops = Blueprint("ops", __name__, description="Health, game types and the benchmark's no-op")
games_bp = Blueprint("games", __name__, url_prefix="/games", description="Games, seats, views and the log")
moves_bp = Blueprint("moves", __name__, url_prefix="/games", description="Signed moves and their outcomes")


@ops.route("/health")
class HealthView(MethodView):
    @sec.declare(ops, sec.NONE)
    @ops.response(200, s.Health)
    def get(self):
        return {"status": "ok", "redis": bool(service().store.redis.ping())}


@ops.route("/noop")
class NoopView(MethodView):
    @sec.declare(ops, sec.NONE)
    @ops.response(200, s.Noop)
    def post(self):
        """Does nothing: the baseline the pipeline benchmark compares against."""
        return {"ok": True}


@ops.route("/game-types")
class GameTypesView(MethodView):
    @sec.declare(ops, sec.NONE)
    @ops.response(200, s.GameTypes)
    def get(self):
        """Every registered game, with its options and text notation help."""
        return {"games": [{"name": g.name, "version": g.version, "title": g.title or g.name,
                           "min_players": g.min_players, "max_players": g.max_players,
                           "options": g.describe_options(), "notation_help": g.notation_help,
                           "concurrency": g.concurrency, "concurrency_doc": g.concurrency_doc}
                          for g in games.all_games()]}


@games_bp.route("")
class GamesView(MethodView):
    @sec.declare(games_bp, sec.NONE)
    @games_bp.arguments(s.ListGamesQuery(), location="query")
    @games_bp.response(200, s.GameList)
    def get(self, query):
        """List games, newest first."""
        return {"games": service().list_games(query.get("status"), query["offset"], query["limit"])}

    @sec.declare(games_bp, sec.NONE)
    @games_bp.arguments(s.CreateGame())
    @games_bp.response(201, s.CreatedGame)
    def post(self, body):
        """Create a game. Its seed stays secret; sha256(seed) is published now.
        The answer's `creator_token` (shown once) is the creator's credential:
        invitations, pausing the clock."""
        game = create_game(body)
        game["links"] = stream_views.links(game["id"])
        return game, 201, {"Location": f"/games/{game['id']}"}


@games_bp.route("/<game_id>")
class GameView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.arguments(s.BoardQuery(), location="query")
    @games_bp.response(200, s.GameSummary)
    def get(self, query, game_id):
        """Status, version, whose turn, and the caller's own view (bearer token
        optional: without one, the spectator's view)."""
        out = service().get_game(game_id, bearer(), whole=query["board"] == "whole")
        out["links"] = stream_views.links(game_id)
        return out, 200, {"ETag": f'"{out["version"]}"'}


@games_bp.route("/<game_id>/seats/<int:seat>")
class SeatView(MethodView):
    @sec.declare(games_bp, sec.NONE)
    @games_bp.arguments(s.JoinSeat())
    @games_bp.response(201, s.Joined)
    def post(self, body, game_id, seat):
        """Take a seat with an Ed25519 public key. The game starts when every
        seat is taken. The bearer token (and, with a webhook_url, the
        webhook's signing secret) is shown once."""
        url = body["webhook_url"]
        if url:
            notify_views.check_webhook_url(url)  # refused before anything is stored
        joined = service().join(game_id, seat, body["public_key"], body["name"], body["email"], url)
        if url:
            joined["webhook"] = notify_views.register_webhook_at_join(game_id, seat, url)
        return joined


@games_bp.route("/<game_id>/seats/<int:seat>/view")
class SeatPrivateView(MethodView):
    @sec.declare(games_bp, sec.SEAT)
    @games_bp.arguments(s.BoardQuery(), location="query")
    @games_bp.response(200, s.GameSummary)
    def get(self, query, game_id, seat):
        """A seat's private view: only that seat's bearer token opens it."""
        return {**service().seat_view(game_id, seat, bearer(), whole=query["board"] == "whole"),
                "links": stream_views.links(game_id)}


@games_bp.route("/<game_id>/legal-moves")
class LegalMovesView(MethodView):
    @sec.declare(games_bp, sec.SEAT)
    @games_bp.response(200, s.LegalMoves)
    def get(self, game_id):
        """The caller's legal moves now, as JSON and in text notation."""
        return service().legal_moves(game_id, bearer())


@games_bp.route("/<game_id>/parse")
class ParseView(MethodView):
    @sec.declare(games_bp, sec.SEAT)
    @games_bp.arguments(s.ParseRequest())
    @games_bp.response(200, s.Parsed)
    def post(self, body, game_id):
        """Read a move in the game's text notation, for the caller's seat."""
        return service().parse(game_id, bearer(), body["text"])


@games_bp.route("/<game_id>/events")
class EventsView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.arguments(s.EventsQuery(), location="query")
    @games_bp.response(200, s.EventPage)
    def get(self, query, game_id):
        """Events after a version, redacted for the caller (public once the game is over)."""
        return service().events(game_id, bearer(), query["after"], query["limit"])


@games_bp.route("/<game_id>/states/<int:version>")
class StateAtView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.response(200, s.StateAt)
    def get(self, game_id, version):
        """The state at any version (replay), redacted for the caller."""
        return service().state_at(game_id, bearer(), version)


@games_bp.route("/<game_id>/record")
class RecordView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.response(200, content_type="application/x-ndjson",
                       description="JSON lines: a header (RecordHeader), one line per step (RecordStep), and "
                                   "once the game is finished the end (RecordEnd)")
    @games_bp.doc(responses={"200": {"content": {"application/x-ndjson": {"schema": record_schemas.RECORD_LINE}}}})
    def get(self, game_id):
        """The whole signed log as JSON lines, verifiable offline (`pbem verify`).

        Each line is one JSON object: first the header (`"record": "pbem-game"`:
        the game, its options, the seats' public keys, `seed_sha256`, who asked),
        then one step per move in log order (`move_id`, `version_before`,
        `version_after`, `auth`, the `events`, and the `envelope` as signed), and,
        once the game is over, the end (`"end": true`, the revealed `seed`, the
        `result`). While the game runs, what the caller may not see is withheld
        (events' `secret`, some envelopes). docs/record.md has every field and
        how to verify a record offline: each signature, the seed, every draw."""
        lines = list(service().record_lines(game_id, bearer()))
        return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")


@moves_bp.route("/<game_id>/moves")
class MovesView(MethodView):
    @sec.declare(moves_bp, sec.NONE)
    @moves_bp.arguments(s.Envelope())
    @moves_bp.response(202, s.MoveRecord)
    @moves_bp.alt_response(200, schema=s.MoveRecord, description="settled within Prefer: wait=N")
    def post(self, envelope, game_id):
        """Submit a signed move. Answers 202 with the move's URL once it is
        queued; with `Prefer: wait=N` waits up to N seconds for the outcome.

        What can be told at once is answered at once: the schema (422
        `invalid_request`), the signature (401 `bad_signature`), the nonce (409
        `nonce_reused`), whose turn it is and whether the move is legal on the
        current state (422, the game's code). The move's id is known before
        sending (see the Envelope schema), and the answer's `Location` names it.

        **A stale move** (its `expected_version` is not the game's version) is
        refused in one of two ways, depending on timing:

        * at once, 409 `stale_version` (`details.version` is the game's
          version), when the server already sees the game has moved on;
        * after a 202, when another move was appended between this move's
          check and its turn in the queue (two seats racing, or a seat's
          moves sent back to back without waiting): the move's status then
          turns `rejected` with `error.code` `stale_version` (GET
          /games/{id}/moves/{move_id}, or this answer with `Prefer: wait=N`).

        Either way nothing was applied: read the game, and sign the move again
        at the new version with a new nonce. (A game whose `concurrency` is
        `window`, see GET /game-types, lets a move signed at an older version
        stand while its seat still answers the window open since then:
        several seats answering one reaction window, or Kachina's redraw.)

        **Retrying** after a timeout or a 503: send the same envelope (the
        same nonce), never a newly signed one. A `503 store_unavailable` or a
        timeout can come back for a move that was recorded just before the
        store went away, and is applied when it returns. A resent envelope
        whose move is known is `409 nonce_reused` with its `move_id` in
        `details`, whatever the game's status (even if that move ended the
        game): the first try was recorded, and its outcome is at
        `GET /games/{id}/moves/{move_id}`."""
        wait = prefer_wait()
        record = service().submit(game_id, envelope, wait=wait)
        headers = {"Location": f"/games/{game_id}/moves/{record['id']}"}
        if wait:
            headers["Preference-Applied"] = f"wait={int(wait)}"
            if record["status"] != "queued":
                return record, 200, headers
        return record, 202, headers


@moves_bp.route("/<game_id>/moves/<move_id>")
class MoveView(MethodView):
    @sec.declare(moves_bp, sec.OPTIONAL_SEAT)
    @moves_bp.arguments(s.MoveStatusQuery(), location="query")
    @moves_bp.response(200, s.MoveRecord)
    def get(self, query, game_id, move_id):
        """A move's status: queued, applied (with the new version) or rejected (code and message).

        Anyone may ask (a spectator without a token); the envelope is shown as
        the caller may see it. `?wait=N` waits up to N seconds for a queued
        move to settle. A move accepted with 202 can still be `rejected`:
        `stale_version` when another move got in first, or any of the game's
        codes when the state it was checked against changed."""
        return service().move_status(game_id, move_id, bearer(), min(query["wait"], current_app.config["PBEM_MAX_WAIT"]))


def swagger_ui_dir() -> str:
    """Swagger UI 5's assets, from the swagger-ui-py wheel (Swagger UI 5 reads
    OpenAPI 3.1; the swagger-ui-bundle wheel's 4.x could not). Found without
    importing the package, which would pull in its framework adapters."""
    spec = importlib.util.find_spec("swagger_ui")
    return os.path.join(spec.submodule_search_locations[0], "static")


def _swagger_asset(filename: str):
    return send_from_directory(swagger_ui_dir(), filename, max_age=86400)


def create_app(conf: Settings | None = None, client: redis.Redis | None = None) -> Flask:
    conf = conf or load_settings()
    app = Flask("pbem")
    app.config.update(
        API_TITLE="pbem",
        API_VERSION="1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        # Swagger UI 5's assets come from the swagger-ui-py wheel: the docs work offline.
        OPENAPI_SWAGGER_UI_URL="/_swagger-ui/",
        MAX_CONTENT_LENGTH=conf.max_body,
        PBEM_MAX_WAIT=conf.max_wait,
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION + "\n" + error_docs.spec_description()},
            "x-error-codes": error_docs.spec_codes(),
            "components": {"securitySchemes": sec.SCHEMES},
        },
    )
    if client is None:
        if not conf.redis_url:
            raise RuntimeError("REDIS_URL is not set")
        client = redis.Redis.from_url(conf.redis_url, socket_timeout=5, socket_connect_timeout=2,
                                      health_check_interval=10)
    queue = MoveQueue(client, conf.claim_idle_ms, conf.drain_linger_ms / 1000)
    app.extensions["pbem_settings"] = conf
    app.extensions["pbem"] = Service(Store(client), enqueue=queue.push, snapshot_every=conf.snapshot_every,
                                     cache=StateCache(conf.state_cache), enqueue_wait=queue.push_wait,
                                     enqueue_checked=queue.push_checked)
    app.add_url_rule("/_swagger-ui/<path:filename>", "swagger_ui_assets", _swagger_asset)
    api = PbemApi(app)
    app.extensions["pbem_api"] = api
    app.before_request(sec.check_first)  # a required token is checked before the body is read
    record_schemas.register(api)  # before the views: their fields point at these components
    for bp in (ops, games_bp, moves_bp):
        api.register_blueprint(bp)
    notify_views.register(api)  # notifications: channels, webhooks, deadlines (and the Service hooks)
    inbound_views.register(api)  # play by email: inbound mail over HTTP, invitations
    stream_views.register(api)  # the live event stream: its 307 to the stream process, tickets
    from .. import web  # the HTML pages (not API operations: outside the OpenAPI document)
    web.register(app)
    return app


API_DESCRIPTION = """\
pbem: an asynchronous, play-by-email turn server for board games.

Moves are signed: a move is an envelope `{game, player, expected_version, move, nonce,
signature}` where `signature` is Ed25519 (unpadded base64url) over the RFC 8785 canonical
JSON of the envelope without `signature`, made with the key registered when the seat was
joined. Reads of a seat's private view use the bearer token returned by the join.

A move's id is known before it is sent: the first 24 hex digits of sha256 over the UTF-8
of `game NUL player NUL nonce` (see the Envelope schema). Each operation declares its
`security`: `seatToken` (required), `[{}, seatToken]` (optional: anonymous allowed, a
token shows that seat's view), none, `creatorToken` (the `creator_token` that POST /games
answers with, for invitations and the clock), `operatorToken` or `inboundSecret`.

The record (GET /games/{id}/record) is JSON lines: RecordHeader, RecordStep..., RecordEnd;
docs/record.md says how to verify it offline. Events share the Event frame; each game's
`view` is described, with examples, in docs/views/<game>.md.

Every error has one shape: `{"error": {"code", "message", "status", "details"}}`; the
codes are stable.
"""
