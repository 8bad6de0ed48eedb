"""The Service hooks: one small notice per applied (or rejected) move.

They do a few in-memory calls (who must act, before and after) and add one
entry to the notices stream (one pipelined round trip, no RQ job per move);
they never send, never load and never raise into the move path
(``Service._run_hook`` logs whatever they raise).
"""
from __future__ import annotations

import json
import logging
import time

from ..store.connections import shards_of
from ..games import takeback
from ..games.base import SPECTATOR
from ..pipeline.queues import StreamQueue
from ..settings.registry import env
log = logging.getLogger(__name__)

#: The RQ queue of every notification job (``workers.notify_jobs``).
QUEUE = "pbem-notify"
NOTICES = "pbem:notices"  # one shard's notices on a plain Redis; on a cluster each shard has its own


def notice_queue(client, shard: int = 0) -> StreamQueue:
    """Turn notices travel like moves: a stream drained by lingering jobs on
    ``pbem-notify`` (pbem.pipeline), one pipelined round trip per move.

    Moves come first: while submissions wait in their stream, notices wait
    too (up to ``PBEM_NOTICE_MAX_DELAY_S``, 30 s by default, after which they
    go whatever the load). A quiet server sends them at once; a burst of
    moves defers them to its end instead of sharing the CPU and Redis with
    it.

    On a Redis Cluster each shard has its notices stream (in its slot, so a
    move's notice rides in its drain's round trip to the same master), held
    back by its own shard's submissions."""
    shards = shards_of(client)
    submissions = shards.key(shard, "submissions")
    linger = env("PBEM_NOTICE_LINGER_MS") / 1000
    max_delay = env("PBEM_NOTICE_MAX_DELAY_S")
    backlog = env("PBEM_NOTICE_HOLD_BACKLOG")
    # No helpers and a short budget: notices may lag a little under load,
    # but they never hold both workers while moves wait.
    return StreamQueue(client, shards.key(shard, "notices"), "notifiers", shards.key(shard, "notices:lease"), QUEUE,
                       "workers.notify_jobs.drain_notices", linger_s=linger, budget_s=1.0, helpers=False,
                       hold=lambda: client.xlen(submissions) >= backlog, max_hold_s=max_delay,
                       job_kwargs={"shard": shard} if shards.cluster else None)


def notice_queues(client) -> list[StreamQueue]:
    """Every shard's notice queue (one on a plain Redis)."""
    return [notice_queue(client, k) for k in shards_of(client)]


def _to_act(loaded) -> list[int]:
    if loaded.meta.get("status") != "active":
        return []
    try:
        return sorted(loaded.game.to_act(loaded.state))
    except Exception:  # a state before setup, say
        return []


def _turn_of(loaded) -> list[int]:
    """Whose turn it is (``Game.turn_of``: the seats the game waits for)."""
    if loaded.meta.get("status") != "active":
        return []
    try:
        return sorted(loaded.game.turn_of(loaded.state))
    except Exception:
        return []


def _in_secret(loaded, record: dict, events: list) -> bool:
    """Whether the move is withheld from a spectator, sender and all (a
    Cartoona secret theft): nothing public may then tell who made it."""
    envelope = record.get("envelope") or {}
    if not envelope or not loaded.game.filters_moves or loaded.meta.get("status") == "finished":
        return False
    try:
        return loaded.game.redact_move(envelope["move"], envelope["player"], SPECTATOR, events) is None
    except Exception:
        return False


def rematch_news(service, game_id: str, what: str, seat: int | None) -> None:
    """The service's ``after_rematch`` hook: a job for the notification
    workers, which tell the players (pbem/notify/rematch.py)."""
    from rq import Queue

    from ..store.connections import rq_connection
    Queue(QUEUE, connection=rq_connection(service.store.redis)).enqueue(
        "workers.notify_jobs.rematch_news", game_id, what, seat, result_ttl=0, failure_ttl=7 * 86400,
        job_timeout=120)


def install(service, queue: StreamQueue | None = None, ride_on: StreamQueue | None = None) -> None:
    """Register the notification hooks on a Service (once). ``PBEM_NOTIFY=0``
    leaves them out (the pipeline benchmark's "notifications off").
    ``ride_on``: the move queue this process drains; a batch's notices then
    go in its next round trip (``StreamQueue.ride``) instead of one of their own."""
    if getattr(service, "_notify_installed", False) or not env("PBEM_NOTIFY"):
        return
    shards = shards_of(service.store.redis)
    if queue is not None or not shards.cluster:
        notices = queue or notice_queue(service.store.redis)
        notices.ride_on = ride_on
        by_shard = [notices]
    else:  # a shard's notices go to its stream, riding on its move queue's round trips
        by_shard = notice_queues(service.store.redis)
        for k, notices in enumerate(by_shard):
            notices.ride_on = ride_on.for_shard(k) if ride_on is not None else None

    def shard_of(game_id: str) -> int:
        return shards.of_game(game_id) if len(by_shard) > 1 else 0

    def after_apply_batch(svc, applied):
        batches: dict[int, list] = {}
        now_ms = str(int(time.time() * 1000))  # how late a drainer handles it (pbem.notify.notifier.behind)
        for before, after, events, record in applied:
            mover = (record.get("envelope") or {}).get("player")
            # The last five are newer (a drainer reading an older entry
            # defaults them): how the move came (a mail's mover is answered
            # with the board; a deadline's is told what the server played),
            # whose turn it was and is, the move's id, and whether it was
            # made in secret.
            batches.setdefault(shard_of(after.id), []).append({"k": "after_move", "t": now_ms, "a": json.dumps(
                [after.id, before.version, after.version, _to_act(before), _to_act(after), mover,
                 after.meta.get("status") == "finished", record.get("auth"), _turn_of(before), _turn_of(after),
                 record.get("id"), _in_secret(after, record, events)])})
            if any(takeback.is_meta(event) for event in events):  # asked, answered, taken back: told apart
                batches[shard_of(after.id)].append({"k": "takeback", "t": now_ms, "a": json.dumps(
                    [after.id, before.version, after.version, mover])})
        for shard, entries in batches.items():
            by_shard[shard].push_many(entries)  # one round trip for the whole batch (a drain's is one shard's)

    def after_reject(svc, loaded, record):
        if (record.get("envelope") or {}).get("player") is not None:
            by_shard[shard_of(loaded.id)].push_fields({"k": "after_reject", "a": json.dumps([loaded.id, record["id"]])})

    service.after_apply_batch.append(after_apply_batch)
    if isinstance(getattr(service, "after_reject", None), list):
        service.after_reject.append(after_reject)
    if isinstance(getattr(service, "after_rematch", None), list):
        service.after_rematch.append(rematch_news)
    service._notify_installed = True
