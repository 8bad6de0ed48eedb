"""One Service per worker process, built from the environment."""
from __future__ import annotations

import functools

from pbem.settings.config import settings
from pbem.store.connections import connect
from pbem.telemetry.metrics import install_worker_hooks as install_metrics
from pbem.notify import install as install_notifications
from pbem.notify.sweeps import install as install_notify_sweeps
from pbem.service import Service, StateCache
from pbem.pipeline.shard_queues import move_queue
from pbem.store import Store


@functools.lru_cache(maxsize=1)
def context():
    """(Service, move queue): a ``MoveQueue`` on one Redis, a
    ``ShardedMoveQueue`` on a cluster (pbem/pipeline/shard_queues.py)."""
    conf = settings()
    if not conf.redis_url:
        raise RuntimeError("REDIS_URL is not set for the worker")
    client = connect(conf.redis_url)
    queue = move_queue(client, conf.claim_idle_ms, conf.drain_linger_ms / 1000, conf.drain_gather_ms / 1000)
    service = Service(Store(client), enqueue=queue.push, snapshot_every=conf.snapshot_every,
                      cache=StateCache(conf.state_cache))
    # Turn notifications: the hooks add notices to the pbem:notices stream, in
    # the move drain's next round trip.
    install_notifications(service, ride_on=queue)
    install_notify_sweeps(service)  # the sweeps do a deadline's, a vacation's end's, a gathered mail's lost job
    # Count and log each move applied or refused (pbem.telemetry.metrics, pbem.telemetry.logs).
    install_metrics(service)
    return service, queue
