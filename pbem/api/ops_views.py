"""Operations: request ids and activity lines for every request,
``GET /metrics`` (Prometheus text) and ``GET /ready`` (readiness; ``GET
/health`` stays liveness)."""
from __future__ import annotations

import time

import redis
from flask import Response, current_app, g, request
from flask.views import MethodView

from ..telemetry import logs, metrics
from ..settings.registry import env
from . import schemas as s
from . import security as sec
from .parsing import Blueprint

bp = Blueprint("operations", __name__, description="Readiness and metrics, for load balancers and Prometheus")

HEADER = "X-Request-ID"


# These two run on every request (a no-op costs about 350 µs of CPU): they
# read the header from the WSGI environ and make ids without a syscall.
_ENVIRON_KEY = "HTTP_X_REQUEST_ID"


def begin() -> None:
    rid = g.request_id = logs.incoming_request_id(request.environ.get(_ENVIRON_KEY))
    logs.request_id.set(rid)
    if logs.activity.isEnabledFor(20):
        g.started = time.perf_counter()


def finish(response: Response) -> Response:
    rid = g.get("request_id") or logs.new_request_id()
    response.headers.add(HEADER, rid)
    if logs.activity.isEnabledFor(20):
        view_args = request.view_args or {}
        logs.activity.info("request", extra={
            "event": "request", "request_id": rid, "method": request.method, "path": logs.redact(request.path),
            "status": response.status_code, "ms": logs.since(g.get("started", time.perf_counter())),
            "game_id": view_args.get("game_id"), "move_id": view_args.get("move_id") or g.get("move_id")})
    logs.request_id.set(None)
    return response


@bp.route("/ready")
class ReadyView(MethodView):
    @sec.declare(bp, sec.NONE)
    @bp.response(200, s.Ready)
    @bp.alt_response(503, schema=s.Ready, description="not ready: `checks` says why")
    def get(self):
        """Readiness: 200 when Redis answers, a move worker has reported
        within the last 30 s, and the oldest queued move is younger than
        `PBEM_READY_MAX_QUEUE_AGE_S`; else 503 with the failing checks.
        (`GET /health` is liveness: the API process answers.)"""
        client = current_app.extensions["pbem"].store.redis
        checks: dict[str, dict] = {}
        try:
            client.ping()
            checks["redis"] = {"ok": True}
        except redis.RedisError as err:
            checks["redis"] = {"ok": False, "error": str(err)[:200]}
        if checks["redis"]["ok"]:
            now = time.time()
            try:
                beats = metrics.heartbeats(client)
                fresh = {n: round(now - t, 1) for n, t in beats.items() if now - t < metrics.HEARTBEAT_STALE_S}
                checks["workers"] = {"ok": bool(fresh), "reporting": sorted(fresh)}
                length, oldest = metrics.queue_state(client)["moves"]
                limit = env("PBEM_READY_MAX_QUEUE_AGE_S")
                checks["queue"] = {"ok": oldest <= limit, "length": length, "oldest_age_s": round(oldest, 3),
                                   "max_age_s": limit}
            except redis.RedisError as err:
                checks["redis"] = {"ok": False, "error": str(err)[:200]}
        ready = all(c["ok"] for c in checks.values()) and len(checks) == 3
        return {"status": "ready" if ready else "not_ready", "checks": checks}, 200 if ready else 503


@bp.route("/metrics")
class MetricsView(MethodView):
    @sec.declare(bp, sec.NONE)
    @bp.doc(responses={200: {"description": "the Prometheus text format (version 0.0.4)",
                             "content": {"text/plain": {"schema": {"type": "string"}}}}})
    def get(self):
        """Metrics in the Prometheus text format, added up over every API
        process and worker (prometheus-client's multiprocess mode): moves
        submitted, applied and refused by code, submit-to-applied latency,
        deliveries by outcome, queue lengths and their oldest entry's age,
        games by status, the move workers' heartbeats."""
        ext = current_app.extensions
        collector = ext.setdefault("pbem_store_collector", metrics.StoreCollector(ext["pbem"].store.redis))
        body = metrics.exposition(ext["pbem"].store.redis, collector)
        return Response(body, mimetype="text/plain; version=0.0.4; charset=utf-8")


def register(api) -> None:
    app = api._app
    # First of all: a request refused by another hook still gets its id.
    app.before_request_funcs.setdefault(None, []).insert(0, begin)
    app.after_request(finish)
    api.register_blueprint(bp)
