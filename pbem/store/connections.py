"""Connections to the store and to the job queues, from their URLs.

``REDIS_URL`` names the store: the event store, seats, moves, snapshots,
seeds, notification and mail state, the move and notice streams. It is one
Redis (``redis://host:port/db``) or a Redis Cluster (Valkey's too, the same
protocol): ``redis+cluster://host:port[,host:port...]`` (``rediss+cluster``
for TLS; user and password as in a redis URL), reached through redis-py's
``RedisCluster``. The nodes listed are where it starts; it learns the rest.

RQ's queues (the drain kicks, notification, mail and deadline jobs) need a
plain Redis: RQ does not speak Cluster. ``PBEM_QUEUE_REDIS_URL`` names it;
unset, the queues share the store's Redis (one Redis for everything, as
``make run`` has it), which a cluster cannot be.

The clients carry what goes with them: ``rq_connection(client)`` is the
queue Redis of a store client, ``shards_of(client)`` its shard layout
(pbem/store/shards.py), so that code holding the store client finds both without
new arguments.
"""
from __future__ import annotations

from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import AskError, ClusterError, SlotNotCoveredError, TryAgainError

from ..settings.registry import env
from .shards import Shards

CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}

#: What the store raises when it cannot answer now, to be tried again: the
#: API answers 503 ``store_unavailable`` with Retry-After. On a cluster also a
#: failover under way (CLUSTERDOWN), a slot not served, a slot half-moved
#: (TRYAGAIN) or a redirection not followed (ASK, MOVED).
STORE_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, ClusterError, TryAgainError,
              AskError, SlotNotCoveredError)


def is_cluster_url(url: str | None) -> bool:
    return bool(url) and urlsplit(url).scheme in CLUSTER_SCHEMES


def cluster_nodes(url: str) -> tuple[list[tuple[str, int]], dict]:
    """The start nodes and the connection options of a cluster URL."""
    parts = urlsplit(url)
    if parts.scheme not in CLUSTER_SCHEMES:
        raise ValueError(f"not a cluster URL: {url!r}")
    userinfo, _, hosts = parts.netloc.rpartition("@")
    options: dict = {}
    if userinfo:
        user, _, password = userinfo.partition(":")
        if password:
            options["password"] = unquote(password)
            if user:
                options["username"] = unquote(user)
        elif user:
            options["password"] = unquote(user)
    if CLUSTER_SCHEMES[parts.scheme]:
        options["ssl"] = True
    nodes = []
    for hostport in hosts.split(","):
        host, _, port = hostport.strip().rpartition(":")
        if not host:
            host, port = port, "6379"
        nodes.append((host.strip("[]"), int(port)))
    if not nodes:
        raise ValueError(f"no nodes in {url!r}")
    return nodes, options


def shard_count() -> int:
    return env("PBEM_SHARDS")


def store_client(url: str, **kw) -> redis.Redis | RedisCluster:
    """A client of the store at ``url``, plain or cluster; ``kw`` are
    redis-py connection options (timeouts...)."""
    if not is_cluster_url(url):
        return redis.Redis.from_url(url, **kw)
    nodes, options = cluster_nodes(url)
    kw.pop("health_check_interval", None)  # per node, and the cluster client checks its own
    return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in nodes], **options, **kw)


def connect(url: str, queue_url: str | None = None, **kw):
    """The store client, with its queue Redis and its shard layout attached
    (``rq_connection``, ``shards_of``). On a cluster the layout is checked
    against the one stored in it."""
    queue_url = queue_url if queue_url is not None else env("PBEM_QUEUE_REDIS_URL")
    client = store_client(url, **kw)
    if is_cluster_url(url):
        if not queue_url:
            raise RuntimeError("REDIS_URL names a cluster: set PBEM_QUEUE_REDIS_URL to a plain Redis for "
                               "RQ's queues (RQ does not speak Cluster)")
        shards = Shards.for_cluster(shard_count())
        shards.check_registry(client)
    else:
        shards = Shards.plain()
    attach(client, redis.Redis.from_url(queue_url, **kw) if queue_url else client, shards)
    return client


def attach(client, queue, shards: Shards):
    client.pbem_queue = queue
    client.pbem_shards = shards
    return client


def rq_connection(client) -> redis.Redis:
    """The plain Redis that holds RQ's queues for this store client (the
    client itself unless ``connect`` named another)."""
    return getattr(client, "pbem_queue", None) or client


def shards_of(client) -> Shards:
    """The shard layout of a store client: one plain shard unless ``connect``
    made it a cluster's."""
    shards = getattr(client, "pbem_shards", None)
    if shards is None:
        shards = Shards.for_cluster(shard_count()) if isinstance(client, RedisCluster) else Shards.plain()
        client.pbem_shards = shards
    return shards


def is_cluster(client) -> bool:
    return isinstance(client, RedisCluster)


def async_store_client(url: str, **kw):
    """``store_client`` for asyncio (the event-stream process)."""
    if not is_cluster_url(url):
        import redis.asyncio as aredis

        return aredis.Redis.from_url(url, **kw)
    from redis.asyncio.cluster import ClusterNode as AsyncNode, RedisCluster as AsyncCluster

    nodes, options = cluster_nodes(url)
    return AsyncCluster(startup_nodes=[AsyncNode(h, p) for h, p in nodes], **options, **kw)
