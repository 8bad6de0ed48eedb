"""The Service hooks: enqueue one small job per applied (or rejected) move.

They do a few in-memory calls (who must act, before and after) and one RQ
enqueue; they never send, never load and never raise into the move path
(``Service._run_hook`` logs whatever they raise).
"""
from __future__ import annotations

import logging
import os

from rq import Queue

from . import QUEUE

log = logging.getLogger(__name__)

OPTS = {"result_ttl": 0, "failure_ttl": 7 * 86400, "job_timeout": 300}


def _to_act(loaded) -> list[int]:
    if loaded.meta.get("status") != "active":
        return []
    try:
        return sorted(loaded.game.to_act(loaded.state))
    except Exception:  # a state before setup, say
        return []


def install(service, queue: Queue | None = None) -> None:
    """Register the notification hooks on a Service (once). ``PBEM_NOTIFY=0``
    leaves them out (for benchmarks comparing the pipeline with and without)."""
    if getattr(service, "_notify_installed", False) or os.environ.get("PBEM_NOTIFY", "1") == "0":
        return
    queue = queue or Queue(QUEUE, connection=service.store.redis)

    def after_apply(svc, before, after, events, record):
        mover = (record.get("envelope") or {}).get("player")
        queue.enqueue("workers.notify_jobs.after_move", after.id, before.version, after.version,
                      _to_act(before), _to_act(after), mover, after.meta.get("status") == "finished", **OPTS)

    def after_reject(svc, loaded, record):
        if (record.get("envelope") or {}).get("player") is not None:
            queue.enqueue("workers.notify_jobs.after_reject", loaded.id, record["id"], **OPTS)

    service.after_apply.append(after_apply)
    if isinstance(getattr(service, "after_reject", None), list):
        service.after_reject.append(after_reject)
    service._notify_installed = True
