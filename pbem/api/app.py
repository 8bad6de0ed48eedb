"""The REST API (flask-smorest): ``create_app`` assembles the views (each
module of views depends on ``common`` and the service, never on another)
and answers every error in one format:

    {"error": {"code": "stale_version", "message": "...", "status": 409, "details": {...}}}
"""
from __future__ import annotations

import importlib.util
import logging
import os

import redis
from flask import Flask, current_app, request, send_from_directory
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from ..docgen import error_docs
from ..telemetry import logs
from ..settings.config import Settings, settings as load_settings
from ..errors import CODES, ServiceError, meaning_of
from ..games.i18n import _
from ..games.base import GameError
from ..store.connections import STORE_DOWN, connect
from .ratelimit import RateLimits
from ..service import Service, StateCache
from ..pipeline.shard_queues import move_queue
from ..store import Store
from . import admin_views, game_views, headers, inbound_views, limits, notify_views, ops_views, record_schemas
from . import chat_views, reader, rematch_views, stream_views, subscription_views, takeback_views
from . import vacation_views
from . import ratings_views
from .error_format import error_response
from . import schemas as s
from . import security as sec

log = logging.getLogger(__name__)

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "body_too_large", 415: "unsupported_media_type",
              422: "invalid_request", 429: "too_many_requests", 500: "internal_error", 503: "unavailable"}


class PbemApi(Api):
    ERROR_SCHEMA = s.ErrorSchema

    def _register_error_handlers(self):
        app = self._app
        app.register_error_handler(HTTPException, self.handle_http_exception)
        app.register_error_handler(ServiceError, lambda e: error_response(e.status, e.code, e.message, e.details,
                                                                          e.headers))
        app.register_error_handler(GameError, lambda e: error_response(422, e.code, e.message, e.details))
        for unavailable in STORE_DOWN:  # a lost connection; on a cluster a failover or a slot moving too
            app.register_error_handler(unavailable, self._store_down)

    @staticmethod
    def _store_down(error):
        log.warning("redis unavailable: %s", error)
        return error_response(503, "store_unavailable", _("the game store is unreachable; try again shortly"),
                              headers={"Retry-After": "2"})

    def handle_http_exception(self, error: HTTPException):
        status = error.code or 500
        # Keep werkzeug's own headers (a 405's Allow, say).
        headers = {k: v for k, v in error.get_headers() if k.lower() not in ("content-type", "content-length")}
        data = getattr(error, "data", None) or {}
        code = HTTP_CODES.get(status, "http_error")
        # werkzeug's own descriptions are English: the code's meaning is read instead
        message = data.get("message") or (meaning_of(code) if code in CODES else error.description or error.name)
        details = None
        errors = data.get("errors") or data.get("messages")
        if errors:
            details = {"fields": errors}
            message = _("the request does not match the schema")
            if status == 400 or _is_json_error(errors):
                code, status = "malformed_json", 400
                message = _("the body is not valid JSON")
        if status == 413:
            message = _("the body is larger than {n} bytes", n=current_app.config["MAX_CONTENT_LENGTH"])
        if status == 500:
            log.error("internal error: %s", error)
            message = _("internal error")
        headers.update(data.get("headers") or {})
        return error_response(status, code, message, details, headers)


def _is_json_error(errors) -> bool:
    text = str(errors)
    return "Invalid JSON body" in text


class PbemFlask(Flask):
    def log_exception(self, exc_info) -> None:
        # Flask's own line names the path: a play link's is a credential.
        self.logger.error("Exception on %s [%s]", logs.redact(request.path), request.method, exc_info=exc_info)


def before_view() -> None:
    """Before any body is read: a required token's presence, then the
    operation's rate limit, if it declares one (one lookup of the view)."""
    method = sec.view_method()
    sec.check_first(method)
    limits.check(method)


def swagger_ui_dir() -> str:
    """Swagger UI 5's assets, from the swagger-ui-py wheel (Swagger UI 5 reads
    OpenAPI 3.1; the swagger-ui-bundle wheel's 4.x could not). Found without
    importing the package, which would pull in its framework adapters."""
    spec = importlib.util.find_spec("swagger_ui")
    return os.path.join(spec.submodule_search_locations[0], "static")


#: the docs page on a phone (390 px): Swagger UI's own styles let the long
#: tables of the description (the error codes) push the page sideways
DOCS_PHONE_CSS = """
/* pbem: nothing wider than a phone's screen */
.swagger-ui .info table, .swagger-ui .markdown table, .swagger-ui .renderedMarkdown table {
  display: block; max-width: 100%; overflow-x: auto; }
.swagger-ui .info code, .swagger-ui .markdown code, .swagger-ui td { overflow-wrap: anywhere; }
.swagger-ui pre { white-space: pre-wrap; overflow-wrap: anywhere; }
"""


def _swagger_asset(filename: str):
    if filename == "swagger-ui.css":   # Swagger UI's styles, and the phone's few more
        with open(os.path.join(swagger_ui_dir(), filename), encoding="utf-8") as f:
            css = f.read() + DOCS_PHONE_CSS
        return current_app.response_class(css, mimetype="text/css", headers={"Cache-Control": "max-age=86400"})
    return send_from_directory(swagger_ui_dir(), filename, max_age=86400)


def create_app(conf: Settings | None = None, client: redis.Redis | None = None) -> Flask:
    conf = conf or load_settings()
    # Its own templates first: /docs's page (swagger_ui.html) takes the place of flask-smorest's.
    app = PbemFlask("pbem", template_folder="api/templates")
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
        client = connect(conf.redis_url, socket_timeout=5, socket_connect_timeout=2, health_check_interval=10)
    queue = move_queue(client, conf.claim_idle_ms, conf.drain_linger_ms / 1000)  # per shard on a cluster
    app.extensions["pbem_settings"] = conf
    app.extensions["pbem"] = Service(Store(client), enqueue=queue.push, snapshot_every=conf.snapshot_every,
                                     cache=StateCache(conf.state_cache), enqueue_wait=queue.push_wait,
                                     enqueue_checked=queue.push_checked)
    app.add_url_rule("/_swagger-ui/<path:filename>", "swagger_ui_assets", _swagger_asset)
    api = PbemApi(app)
    app.extensions["pbem_api"] = api
    app.extensions["pbem_limits"] = RateLimits(client, conf.rate_limits, conf.limit_rates)
    app.before_request(before_view)
    reader.register(app)  # the reader's language, before anything else reads a request
    record_schemas.register(api)  # before the views: their fields point at these components
    for bp in (game_views.ops, game_views.games_bp, game_views.moves_bp):
        api.register_blueprint(bp)
    notify_views.register(api)  # notifications: channels, webhooks, deadlines (and the Service hooks)
    vacation_views.register(api)  # a player's vacation: the deadlines of all their games pause
    inbound_views.register(api)  # play by email: inbound mail over HTTP, invitations
    stream_views.register(api)  # the live event stream: its 307 to the stream process, tickets
    subscription_views.register(api)  # announcements of open games by mail (double opt-in)
    chat_views.register(api)  # the players' chat (pbem/service/chat.py)
    takeback_views.register(api)  # takebacks by consent: what waits for answers
    rematch_views.register(api)  # a finished game's rematch: offer, accept, decline
    ratings_views.register(api)  # ratings per game type (pbem/ratings)
    admin_views.register(api)  # the operator's: abandon, compact, delete, queues, failed deliveries, sweeps
    from .. import web  # the HTML pages (not API operations: outside the OpenAPI document)
    web.register(app)
    ops_views.register(api)  # request ids and activity lines, /ready, /metrics
    headers.register(app)  # nosniff, framing and a Content-Security-Policy on every answer
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

Languages: a game has one (`lang` on POST /games: `en` or `zh-Hant`), a seat may have its
own (`lang` and `tz` at its join or on its invitation; PATCH /games/{id}/seats/{seat}).
Every text an answer holds (`board`, `text`, the legal moves' lines, an error's `message`)
is in the reader's language: `?lang=` if given, else the language of the seat whose token
is sent, else `Accept-Language` (`zh-TW`, `zh-HK`, `zh-Hant`: Traditional Chinese), else the
game's, else English. `Content-Language` says which; codes and move JSON never change.
"""
