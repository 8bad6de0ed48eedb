"""The worker process: an RQ SimpleWorker (no fork per job: the state cache
lives across jobs) that takes up any submissions left when it starts.

    python -m workers.worker [queue ...]
"""
from __future__ import annotations

import logging
import sys
import threading

from rq import Queue
from rq.worker import SimpleWorker

from pbem.pipeline import MOVES_QUEUE, ensure_group

from .context import context

DEFAULT_QUEUES = [MOVES_QUEUE, "pbem-notify"]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    with_scheduler = "--with-scheduler" in argv
    names = [a for a in argv if not a.startswith("--")] or DEFAULT_QUEUES
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(levelname)s %(message)s")
    service, moves = context()
    ensure_group(moves.redis)
    moves.kick(force=True)  # pick up whatever a dead worker left behind
    stop = threading.Event()
    threading.Thread(target=moves.sweep_forever, args=(stop,), daemon=True, name="sweeper").start()
    queues = [Queue(n, connection=moves.redis) for n in names]
    worker = SimpleWorker(queues, connection=moves.redis)
    try:
        worker.work(with_scheduler=with_scheduler, logging_level="WARNING")
    finally:
        stop.set()


if __name__ == "__main__":
    main()
