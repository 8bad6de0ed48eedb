"""Prometheus metrics (``GET /metrics``), with prometheus-client in its
multiprocess mode: every gunicorn process and worker writes its counters to
files under ``PROMETHEUS_MULTIPROC_DIR`` (``make run`` sets it to
``PBEM_DATA_DIR/metrics`` and empties it at start), and whichever API process
is scraped adds them up. Without that directory each process counts alone.

Counted where it happens (cheap: a lock and a write into a memory map):
moves submitted and refused at the API, applied and refused by a worker,
submit-to-applied latency, deliveries (mail, webhooks) by outcome.
Read from Redis when scraped (``StoreCollector``): queue lengths and the age
of their oldest entry, games by status, the move workers' heartbeats.
``PBEM_METRICS=0`` leaves out the counting (not the scrape-time figures).
"""
from __future__ import annotations

import functools
import logging
import os
import time

import socket

import redis
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, multiprocess, values
from prometheus_client.core import GaugeMetricFamily

from ..store.connections import rq_connection
from ..settings.registry import env

log = logging.getLogger(__name__)

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # Files named by host and pid (``counter_HOST-PID.db``), not pid alone:
    # containers sharing one metrics volume have pids in common.
    _host = socket.gethostname().replace("_", "-")
    values.ValueClass = values.MultiProcessValue(lambda: f"{_host}-{os.getpid()}")

SUBMITTED = Counter("pbem_moves_submitted", "Moves accepted by the API (queued, or applied while it waited)")
REFUSED = Counter("pbem_moves_refused", "Moves refused, by error code and where: at the API (`submit`) or by "
                  "a worker after their 202 (`queue`)", ["code", "stage"])
APPLIED = Counter("pbem_moves_applied", "Moves applied by a worker", ["game"])
LATENCY = Histogram("pbem_move_submit_to_applied_seconds", "From a move's submission to its append",
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60))
DELIVERIES = Counter("pbem_deliveries", "Notification deliveries by channel and outcome", ["channel", "outcome"])

#: Move workers write their name and time here every ``HEARTBEAT_S``;
#: ``GET /ready`` wants one younger than ``HEARTBEAT_STALE_S``.
HEARTBEATS = "pbem:heartbeats:moves"
HEARTBEAT_S = 5.0
HEARTBEAT_STALE_S = 30.0


@functools.lru_cache(maxsize=1)
def on() -> bool:
    """``PBEM_METRICS``, read once per process (it is asked on every move)."""
    return env("PBEM_METRICS")


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def process_exited(pid: int) -> None:
    """gunicorn's ``child_exit``: a dead process's live gauges go (its counters stay)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)


# ---------------------------------------------------------------- counting

_applied_children: dict[str, object] = {}


def count_refused(code: str, stage: str) -> None:
    REFUSED.labels(code, stage).inc()


def count_delivery(channel: str, outcome: str) -> None:
    if on():
        DELIVERIES.labels(channel, outcome).inc()


def install_worker_hooks(service) -> None:
    """Count (and log, see pbem.telemetry.logs) every move a worker applies or refuses."""
    from . import logs

    count = on()

    def after_apply_batch(svc, applied):
        now = time.time()
        ids = logs.batch_request_ids.get() or {}
        for before, after, events, record in applied:
            game = after.meta.get("game", "")
            if count:
                child = _applied_children.get(game)
                if child is None:
                    child = _applied_children[game] = APPLIED.labels(game)
                child.inc()
                if "submitted" in record:
                    LATENCY.observe(max(0.0, now - record["submitted"]))
            if logs.activity.isEnabledFor(logging.INFO):
                logs.activity.info("move applied", extra={
                    "event": "move_applied", "game_id": after.id, "move_id": record.get("id"),
                    "request_id": ids.get((after.id, record.get("id"))), "version": after.version,
                    "latency_ms": round((now - record.get("submitted", now)) * 1000, 3)})

    def after_reject(svc, loaded, record):
        code = (record.get("error") or {}).get("code", "unknown")
        if count:
            REFUSED.labels(code, "queue").inc()
        if logs.activity.isEnabledFor(logging.INFO):
            ids = logs.batch_request_ids.get() or {}
            logs.activity.info("move refused", extra={
                "event": "move_refused", "game_id": loaded.id, "move_id": record.get("id"),
                "request_id": ids.get((loaded.id, record.get("id"))), "code": code})

    service.after_apply_batch.append(after_apply_batch)
    service.after_reject.append(after_reject)


def heartbeat_forever(client: redis.Redis, name: str, stop) -> None:
    """A move worker's heartbeat (a thread): its name and the time, every few seconds."""
    while True:
        try:
            pipe = client.pipeline(transaction=False)
            pipe.hset(HEARTBEATS, name, f"{time.time():.3f}")
            pipe.expire(HEARTBEATS, int(HEARTBEAT_STALE_S * 10))
            pipe.execute()
        except redis.RedisError:
            pass  # Redis away: /ready says so by itself
        if stop.wait(HEARTBEAT_S):
            return


def heartbeats(client: redis.Redis) -> dict[str, float]:
    return {k.decode(): float(v) for k, v in client.hgetall(HEARTBEATS).items()}


# ---------------------------------------------------------------- read when scraped

#: Streams and RQ queues whose length and oldest entry are shown.
STREAMS = {"moves": "pbem:submissions", "notices": "pbem:notices"}
RQ_QUEUES = ("pbem-moves", "pbem-notify", "pbem-mail")


def oldest_stream_age(client: redis.Redis, stream: str, now: float) -> float:
    """Seconds since the oldest entry of ``stream`` was added (0 when empty):
    entries are deleted once handled, and an entry's id is its time in ms."""
    first = client.xrange(stream, "-", "+", count=1)
    if not first:
        return 0.0
    ms = int(first[0][0].split(b"-")[0])
    return max(0.0, now - ms / 1000)


def queue_state(client: redis.Redis) -> dict:
    """What waits, and for how long: the readiness check and the scrape share
    it. On a cluster every shard's stream (pbem/store/shards.py), added up (the
    oldest entry of any)."""
    from ..store.connections import shards_of

    now = time.time()
    shards = shards_of(client)
    out = {}
    for name, stream in STREAMS.items():
        part = stream.removeprefix("pbem:")
        keys = [shards.key(k, part) for k in shards]
        out[name] = (sum(client.xlen(k) for k in keys), max(oldest_stream_age(client, k, now) for k in keys))
    return out


class StoreCollector:
    """Figures read from Redis at scrape time (a few commands, and one
    pipelined HGET per game for the games by status, cached for 10 s)."""

    GAMES_TTL_S = 10.0

    def __init__(self, client: redis.Redis):
        self.client = client
        self._games: tuple[float, dict] | None = None

    def describe(self):
        return []  # registered unchecked: the figures are read when collected

    def collect(self):
        now = time.time()
        length = GaugeMetricFamily("pbem_queue_length", "Entries waiting (or being handled) in a queue", labels=["queue"])
        age = GaugeMetricFamily("pbem_queue_oldest_age_seconds", "Age of a queue's oldest entry (0: empty)",
                                labels=["queue"])
        try:
            for name, (n, oldest) in queue_state(self.client).items():
                length.add_metric([name], n)
                age.add_metric([name], oldest)
            rq = rq_connection(self.client)  # RQ's own Redis (the store's unless on a cluster)
            for q in RQ_QUEUES:
                ids = rq.lrange(f"rq:queue:{q}", 0, 0)
                length.add_metric([f"rq:{q}"], rq.llen(f"rq:queue:{q}"))
                enqueued = rq.hget(f"rq:job:{ids[0].decode()}", "enqueued_at") if ids else None
                age.add_metric([f"rq:{q}"], _age_of_rq_time(enqueued, now))
            # Inbound mail stored by the listener and not yet handled, retries
            # scheduled (mail, webhooks), deadlines and reminders waiting.
            scheduled = GaugeMetricFamily("pbem_scheduled_jobs", "Jobs scheduled for later (retries, deadlines, "
                                          "reminders)", labels=["queue"])
            for q in ("pbem-notify", "pbem-mail"):
                scheduled.add_metric([q], rq.zcard(f"rq:scheduled:{q}"))
            workers = GaugeMetricFamily("pbem_move_worker_heartbeat_age_seconds",
                                        "Seconds since each move worker last reported", labels=["worker"])
            for name, ts in heartbeats(self.client).items():
                workers.add_metric([name], max(0.0, now - ts))
            games = GaugeMetricFamily("pbem_games", "Games by status", labels=["status"])
            for status, n in sorted(self._games_by_status(now).items()):
                games.add_metric([status], n)
        except redis.RedisError as err:
            log.warning("metrics: redis unavailable: %s", err)
            up = GaugeMetricFamily("pbem_store_up", "Whether Redis answered the scrape")
            up.add_metric([], 0)
            yield up
            return
        up = GaugeMetricFamily("pbem_store_up", "Whether Redis answered the scrape")
        up.add_metric([], 1)
        yield from (up, length, age, scheduled, workers, games)

    def _games_by_status(self, now: float) -> dict:
        if self._games and now - self._games[0] < self.GAMES_TTL_S:
            return self._games[1]
        from ..store.connections import shards_of
        from ..store import key

        counts: dict[str, int] = {"open": 0, "active": 0, "finished": 0}
        shards = shards_of(self.client)
        for shard in shards:  # every shard's games index (one on a plain Redis: pbem:games)
            cursor = 0
            while True:
                cursor, ids = self.client.zscan(shards.key(shard, "games"), cursor, count=1000)
                if ids:
                    pipe = self.client.pipeline(transaction=False)
                    for game_id, _ in ids:
                        pipe.hget(key(game_id.decode(), "meta"), "status")
                    for status in pipe.execute():
                        name = status.decode() if status else "unknown"
                        counts[name] = counts.get(name, 0) + 1
                if not cursor:
                    break
        self._games = (now, counts)
        return counts


def _age_of_rq_time(raw: bytes | None, now: float) -> float:
    if not raw:
        return 0.0
    from datetime import datetime, timezone

    text = raw.decode().rstrip("Z")
    try:
        then = datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return 0.0
    return max(0.0, now - then)


def exposition(client: redis.Redis, collector: StoreCollector | None = None) -> bytes:
    """The text format, for every process (multiprocess mode) or this one."""
    registry = CollectorRegistry()
    if multiprocess_dir():
        multiprocess.MultiProcessCollector(registry)
    else:
        for metric in (SUBMITTED, REFUSED, APPLIED, LATENCY, DELIVERIES):
            registry.register(metric)
    registry.register(collector or StoreCollector(client))
    return generate_latest(registry)
