"""The worker process: an RQ SimpleWorker (no fork per job: the state cache
lives across jobs) that takes up any submissions left when it starts.

RQ's work loop quits on an error it did not expect, such as Redis going away
in the middle of a job; this process then waits for Redis to answer again and
starts a new work loop (picking up what was left), so a Redis restart does not
take the workers down. Only a signal (SIGTERM, Ctrl-C) ends it.

    python -m workers.worker [--with-scheduler] [--nice=N] [--idle] [queue ...]

``make run`` starts move workers on ``pbem-moves`` and one background worker
(``--idle``: CPU only when moves leave it idle; with RQ's scheduler) on
``pbem-notify`` and ``pbem-mail``; with no
queue named a worker serves all three.
"""
from __future__ import annotations

import logging
import os
import sys
import threading

import redis
from rq import Queue
from rq.exceptions import StopRequested
from rq.worker import SimpleWorker

from pbem.telemetry import logs, metrics
from pbem.pipeline.drainers import DRAINERS, sweep_forever as sweep_streams
from pbem.settings.config import check_environment, settings
from pbem.store.connections import STORE_DOWN, rq_connection, store_client
from pbem.store.indexes import Indexes
from pbem.service.maintenance import sweep_forever
from pbem.notify.hooks import notice_queues
from pbem.pipeline.queues import MOVES_QUEUE, consumer_name

from .context import context

#: Anything the store or RQ's Redis raises when away (a cluster's own kinds too).
STORE_OR_REDIS = (redis.RedisError, *STORE_DOWN)
DEFAULT_QUEUES = [MOVES_QUEUE, "pbem-notify", "pbem-mail"]  # pbem-mail: inbound mail (pbem.mail_in)
log = logging.getLogger("workers.worker")


class Worker(SimpleWorker):
    """Remembers whether its work loop ended on a signal (a requested stop)."""

    signalled = False

    def request_stop(self, signum, frame):
        Worker.signalled = True
        super().request_stop(signum, frame)


def run_when_idle() -> None:
    """Background work (notifications, inbound mail, deadlines) takes the CPU
    only when nothing else wants it (Linux SCHED_IDLE; elsewhere the lowest
    nice), so under load it lags instead of slowing moves and catches up
    when the load passes."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def wait_for_redis(client: redis.Redis, stop: threading.Event) -> None:
    """Until the store and the queues' Redis (one and the same, or not) answer."""
    while not Worker.signalled and not stop.wait(0.5):
        try:
            if client.ping() and rq_connection(client).ping():
                return
        except STORE_OR_REDIS:
            pass


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    check_environment("pbem-worker")
    with_scheduler = "--with-scheduler" in argv
    nice = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--nice=")), 0)
    if nice:
        os.nice(nice)  # background work (notifications, mail) yields the CPU to moves
    if "--idle" in argv:
        run_when_idle()
    names = [a for a in argv if not a.startswith("--")] or DEFAULT_QUEUES
    logs.setup("worker" if MOVES_QUEUE in names else "worker-background")
    service, moves = context()
    # A drain asked to stop hands over to a successor within its budget.
    moves.stopping = lambda: Worker.signalled
    # Every shard's moves and notices (one of each on a plain Redis).
    streams = [*moves.queues, *notice_queues(service.store.redis)]
    try:
        Indexes(service.store.redis).ensure()  # a store from before the indexes gets them once
    except STORE_OR_REDIS:
        log.warning("could not check the indexes", exc_info=True)
    for stream in streams:
        stream.ensure_group()
        stream.free_predecessors_entries()
        stream.kick(force=True)  # pick up whatever a dead worker left behind
    stop = threading.Event()
    if len(streams) == 2:
        for stream in streams:
            threading.Thread(target=stream.sweep_forever, args=(stop,), daemon=True, name="sweeper").start()
    else:  # a cluster's shards: one sweeper thread for them all
        threading.Thread(target=sweep_streams, args=(streams, stop, streams[0].claim_idle_ms / 2000),
                         daemon=True, name="sweeper").start()
    if MOVES_QUEUE in names:
        # GET /ready wants a move worker that reported lately.
        # A client of its own: sharing the worker's made RQ's blocking dequeue
        # fail with "Timeout reading from socket" every few seconds (rq 3.0,
        # redis-py 8.1; seen, not pinned down). (The store's: a cluster's too.)
        beat = store_client(settings().redis_url, socket_timeout=5, socket_connect_timeout=2)
        threading.Thread(target=metrics.heartbeat_forever, args=(beat, consumer_name(), stop),
                         daemon=True, name="heartbeat").start()
    # Open games that expire, finished games to compact: one worker at a time.
    threading.Thread(target=sweep_forever, args=(service, settings(), stop), daemon=True, name="maintenance").start()
    connection = rq_connection(service.store.redis)
    queues = [Queue(n, connection=connection) for n in names]
    try:
        while True:
            try:
                Worker(queues, connection=connection).work(with_scheduler=with_scheduler, logging_level="WARNING")
            except STORE_OR_REDIS:
                log.warning("the work loop ended: redis unavailable", exc_info=True)
            if Worker.signalled:
                break
            log.warning("the work loop ended without a stop request; starting again once redis answers")
            wait_for_redis(service.store.redis, stop)
            if Worker.signalled:
                break
            try:
                for stream in streams:
                    stream.ensure_group()
                    stream.kick(force=True)  # the drain that was cut short, and whatever came since
            except STORE_OR_REDIS:
                log.warning("redis went away again", exc_info=True)
    except StopRequested:
        pass  # a signal between two work loops
    finally:
        stop.set()
        DRAINERS.join(5.0)  # a cluster's drainer threads hand over (they see the stop request)


if __name__ == "__main__":
    main()
