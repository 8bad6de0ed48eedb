"""Drainers as threads, for a sharded store.

With one Redis a drain job lingers in its RQ worker (one shard, one
drainer, one worker busy). With a dozen shards a dozen drainers must run at
once, more than there are worker processes, and RQ runs one job at a time
per worker: a drain job on a cluster therefore starts the drain in a thread
of its worker process and returns at once. The drain itself is the same
(``StreamQueue.drain_fields``: the lease, the linger, the hand-over to a
successor job after ``max_run_s``, helpers), and the state cache and the
connections are the process's, shared by its drainer threads, whose work
is mostly waiting on Redis. RQ still decides which process takes a shard,
as it takes the job.

A thread that fails leaves its entries pending and its lease to expire;
the sweeper (``sweep_forever``) kicks a drain for them. A worker asked to
stop makes its drainers hand over (``stopping``) and waits a moment for
them.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import redis

from ..store.connections import STORE_DOWN

log = logging.getLogger(__name__)


class Drainers:
    def __init__(self):
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def start(self, name: str, drain: Callable[[], int]) -> threading.Thread:
        def run():
            try:
                drain()
            except STORE_DOWN as err:  # its entries stay pending; the sweeper kicks a drain
                log.warning("drainer %s: redis unavailable (%s)", name, err)
            except Exception:
                log.exception("drainer %s failed", name)
            finally:
                with self._lock:
                    self._threads.discard(threading.current_thread())

        thread = threading.Thread(target=run, name=f"drain {name}", daemon=True)
        with self._lock:
            self._threads.add(thread)
        thread.start()
        return thread

    @property
    def running(self) -> int:
        with self._lock:
            return len(self._threads)

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))


#: The worker process's drainer threads.
DRAINERS = Drainers()


def sweep_forever(streams: list, stop: threading.Event, every_s: float) -> None:
    """One sweeper thread for every stream of the process (``StreamQueue.
    sweep_forever`` watches one): kick a drain where a dead worker left
    entries pending."""
    while not stop.wait(every_s):
        for stream in streams:
            try:
                stream.sweep_once()
            except (redis.RedisError, *STORE_DOWN):
                log.warning("sweeper: %s unavailable", stream.stream, exc_info=True)
