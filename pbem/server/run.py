"""``make run``: the whole server on one machine with embedded defaults.

Starts the embedded Redis (Valkey or Redis, ``PBEM_REDIS_SERVER``; its
append-only file on, ``appendfsync always``, data under ``$PBEM_DATA_DIR``
or ./var) unless ``REDIS_URL`` names a Redis, then the API under gunicorn,
RQ workers (the background one runs RQ's scheduler), the SMTP listener and
the event-stream process. pbem/server/supervisor.py keeps them running: any child
that dies, Redis included, is started again (Redis from its append-only
file, on the same port); Ctrl-C stops them all in order.

It prints one line as it starts, then, once every part answers, one banner
with every address a person needs (pbem/server/banner.py); a clean start logs no
warning.
"""
from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys

from . import banner
from ..telemetry import logs
from ..settings.config import check_environment, env, settings
from .embedded_redis import EmbeddedRedis, die_with_parent
from ..mail_in.config import MailInSettings
from ..notify.config import NotifySettings
from .supervisor import Child, Supervisor

log = logging.getLogger("pbem.run")


def main() -> int:
    check_environment("pbem")  # a bad setting: one line each, and nothing started
    logs.setup("supervisor")
    conf = settings()
    conf.data_dir.mkdir(parents=True, exist_ok=True)
    env_ = dict(os.environ)
    children: list[Child] = []
    redis_server = None
    print(f"pbem: starting (data in {conf.data_dir})...", flush=True)
    if conf.redis_url:
        redis_url, redis_note = conf.redis_url, "REDIS_URL"
    else:
        redis_server = EmbeddedRedis(conf.data_dir / "redis", port=conf.redis_port, appendfsync=conf.appendfsync,
                                     kind=env("PBEM_REDIS_SERVER"))
        children.append(Child("redis", lambda: redis_server.start().process, halt=lambda c: redis_server.stop()))
        redis_url = redis_server.url
        redis_note = (f"embedded {redis_server.kind}, its files in {conf.data_dir / 'redis'}, "
                      f"appendfsync {conf.appendfsync}")
    env_["REDIS_URL"] = redis_url
    env_["PBEM_DATA_DIR"] = str(conf.data_dir)
    # Metrics: every process writes its own files here, GET /metrics adds
    # them up (prometheus-client's multiprocess mode). Counts start afresh.
    metrics_dir = conf.data_dir / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env_.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir))
    workers, api_workers = env("PBEM_WORKERS"), env("WEB_CONCURRENCY")

    def child(name: str, args: list[str], quiet: bool = False) -> None:
        # Each child in its own session: a terminal's Ctrl-C reaches only this
        # supervisor, which stops the children in order (API, workers, then Redis).
        # A worker keeps its name across restarts (PBEM_WORKER_NAME): started
        # again, it takes back at once the moves it held when it died.
        # ``quiet``: its standard output (the one line with its address, when
        # run alone) is not shown: the banner names that address. Its log
        # (standard error) is.
        child_env = {**env_, "PBEM_WORKER_NAME": name} if name.startswith("worker") else env_
        stdout = subprocess.DEVNULL if quiet else None
        children.append(Child(name, lambda: subprocess.Popen(args, env=child_env, start_new_session=True,
                                                             stdout=stdout, preexec_fn=die_with_parent)))

    # 16 threads a process: a move sent with ``Prefer: wait`` holds its thread
    # until a worker has applied it, and 8 capped the moves in flight. The
    # worker is gthread answering gunicorn's own errors as JSON, closing after
    # an answer given before the body was read (pbem/server/http_worker.py). The
    # request lines come from the app (pbem/api/ops_views.py, with request
    # ids), not from gunicorn's access log.
    child("api", [sys.executable, "-m", "gunicorn", "pbem.server.wsgi:app", "--bind", f"{conf.host}:{conf.port}",
                  "--workers", str(api_workers), "--worker-class", "pbem.server.http_worker.Worker",
                  "--threads", str(env("PBEM_API_THREADS")), "--config", "python:pbem.server.gunicorn_conf",
                  # The app is imported once, by the master, and forked: a
                  # restarted API (or gunicorn worker) answers a second or two
                  # sooner than if each worker imported it.
                  "--preload",
                  "--error-logfile", "-", "--log-level", "warning"])
    for i in range(workers):
        child(f"worker-{i}", [sys.executable, "-m", "workers.worker", "pbem-moves"])
    # Notifications and inbound mail in their own worker, at a lower CPU
    # priority, so that under load they lag instead of slowing moves. It runs
    # RQ's scheduler (deadlines, reminders, retries are scheduled jobs).
    child("worker-background", [sys.executable, "-m", "workers.worker", "--with-scheduler", "--idle",
                                "pbem-notify", "pbem-mail"])
    # Play by email: the inbound SMTP listener.
    child("mail-in", [sys.executable, "-m", "pbem.mail_in.listener"], quiet=True)
    # Live event streams: one asyncio process holds every open stream, so
    # none holds a gunicorn thread (the API answers its path with a 307 here).
    child("stream", [sys.executable, "-m", "pbem.stream"], quiet=True)
    # Bots: plays the bot seats games were created with, through this API
    # over HTTP like any other client (pbem/bots/__main__.py).
    child("bots", [sys.executable, "-m", "pbem.bots"], quiet=True)

    supervisor = Supervisor(children)
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    try:
        if redis_server:
            try:
                children[0].proc = redis_server.start().process
            except RuntimeError as err:
                print(f"pbem: the embedded Redis did not start: {err}", file=sys.stderr, flush=True)
                return 1
            children[0].started = supervisor.clock()
        for c in children[1 if redis_server else 0:]:
            supervisor._start(c)
        parts = banner.Parts(conf, NotifySettings(data_dir=conf.data_dir), MailInSettings(), redis_url, redis_note,
                             workers, api_workers)
        supervisor.run(announce=banner.Announcement(parts, lambda text: print(text, flush=True)))
    finally:
        print("pbem: stopping...", flush=True)
        supervisor.stop_all()
        print("pbem: stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
