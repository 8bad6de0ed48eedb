"""The sweeps: open games nobody joined expire (``PBEM_OPEN_GAME_TTL_S``),
finished games are compacted once their grace has passed
(``PBEM_COMPACT_AFTER_S``), and a game whose every seat is taken but whose
last joiner died before its deal is dealt (``Service.deal_waiting``), and
rematches offered ``PBEM_REMATCH_WAIT_S`` ago are decided (``Service.rematches_due``),
and what the notifications add (``Service.also_sweep``: a deadline, a
vacation's end or a gathered turn mail whose job did not run is done,
pbem.notify.sweeps).
Each worker runs ``sweep_forever`` in a thread;
a lock in Redis lets one of them sweep at a time, every
``PBEM_SWEEP_EVERY_S``. Each step is safe to run twice or to be cut short
(``Service.expire_open_games``, ``Service.compact_finished``).
"""
from __future__ import annotations

import logging
import threading

import redis

from ..settings.config import Settings
from . import Service

log = logging.getLogger(__name__)

LOCK = "pbem:maintenance:lock"


def sweep_once(service: Service, conf: Settings, now: float | None = None) -> dict:
    """One pass of the sweeps; what each did."""
    dealt = service.deal_waiting(now)
    expired = service.expire_open_games(conf.open_game_ttl_s, now) if conf.open_game_ttl_s > 0 else []
    compacted = service.compact_finished(conf.compact_after_s, now)
    rematches = service.rematches_due(conf.rematch_wait_s, now)
    out = {"expired": expired, "compacted": compacted, "dealt": dealt, "rematches": rematches}
    for sweep in getattr(service, "also_sweep", ()):
        out.update(sweep(service, now))
    if any(out.values()):
        log.info("sweep: %s", ", ".join(f"{len(ids)} {what}" for what, ids in out.items() if ids))
    return out


def sweep_forever(service: Service, conf: Settings, stop: threading.Event) -> None:
    """A worker's background thread: sweep when this worker holds the lock."""
    every = max(0.05, conf.sweep_every_s)
    while not stop.wait(every):
        try:
            if service.store.redis.set(LOCK, "1", nx=True, px=max(50, int(every * 900))):
                sweep_once(service, conf)
        except redis.RedisError:
            log.warning("sweep: redis unavailable", exc_info=True)
        except Exception:
            log.exception("sweep failed")
