"""The hot round trips (pbem/store/roundtrip.py) on a Redis Cluster.

Every hot pipeline of pbem touches one slot: a game's keys and its shard's
stream, lease and notices share it (pbem/store/shards.py). So a pipeline goes, as
one packet, to the master of that slot, over a connection taken from a
free-list of that node's (one thread's at a time, never a pool checkout),
and the replies are parsed by that node's redis-py client:
redis-py's ClusterPipeline costs 250-300 us more client CPU a round trip
(it resolves a routing policy and the keys of every command, and checks a
connection out of a pool per node), and a move takes three.

What the cluster answers instead of a reply is handled as redis-py's
ClusterPipeline handles it: a command answered MOVED, ASK or TRYAGAIN (its
slot moved, is moving, or is half-moved) did not run; it is sent again on
its own through the cluster client, which follows the redirection (ASKING)
or waits and tries again. Should it still fail, or the cluster be down for
the slot, the caller gets ``StoreBusy``, a ``redis.ConnectionError``: the
API answers it with 503 ``store_unavailable`` and Retry-After, a drainer
leaves its entries pending for the next one. A connection that fails is
not sent again (a write may or may not have run) and the slot table is
refreshed for the next call. A pipeline whose keys span several nodes is
left to ClusterPipeline.

``durable``: the submission round trips (the API's queue-and-wait) end with
``WAIT n ms`` (n: ``PBEM_CLUSTER_WAIT_REPLICAS``, capped by the replicas the
master has), after a write of their own (the *fence*: a served BLPOP's pop
may not count as this connection's write), so that when it returns a
replica holds everything the master had done when the outcome was popped:
the submission, and the append that settled it. An answer that says
``queued`` or ``applied`` then survives the master's death (its replica is
promoted with it). A replica that does not acknowledge in time makes it
``NotReplicated`` (503): the move may still apply; the client asks again.
A move's record read as an answer (``GET .../moves/ID``, the wait after a
submission whose outcome did not come in its round trip) waits the same way
(``Store.move(durable=True)``), so no ``applied`` is ever answered that is
on the master alone; a drainer's own round trips (its read, its appends)
never wait: the replica catches up behind them, and a lost read or append
is redone from the stream, which the submission's wait made durable.

The cost, measured on this machine (loopback, the replica on the same
host, tests/test_cluster_faults.py and ``bench/pipeline.py --cluster``):
about 90 us more per answered round trip (120 -> 210 us median for a
two-command pipeline), about one network round trip to the nearest replica
elsewhere, and none of the drainer's throughput: WAIT blocks only the API
thread that asked, not the master.
"""
from __future__ import annotations

import logging
import os
import threading
import time

import redis
from redis.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import AskError, ClusterDownError, ClusterError, MovedError, TryAgainError

from ..settings.registry import env

log = logging.getLogger(__name__)

#: Replies that mean "not here, not now": the command did not run.
REDIRECTS = (MovedError, AskError, TryAgainError)


class StoreBusy(redis.ConnectionError):
    """The cluster could not take a command now (a slot moving, a failover):
    retryable, like a lost connection."""


class NotReplicated(StoreBusy):
    """The master did it, but no replica acknowledged it in time."""


# Commands whose first argument is their one key (the hot paths' commands).
_FIRST_KEY = {b"SET", b"GET", b"HSET", b"HSETNX", b"HGET", b"HGETALL", b"HMGET", b"HDEL", b"XADD", b"XACK",
              b"XDEL", b"XLEN", b"RPUSH", b"LPUSH", b"LPOP", b"BLPOP", b"EXPIRE", b"PEXPIRE", b"DEL",
              b"ZADD", b"ZREM", b"XRANGE", b"XAUTOCLAIM", b"XPENDING", b"LTRIM", b"LRANGE", b"INCR",
              b"INCRBY", b"GETDEL", b"SADD", b"SREM", b"SMEMBERS", b"PTTL", b"DECRBY", b"EXISTS"}


def _name(arg) -> bytes:
    return arg.upper().encode() if isinstance(arg, str) else bytes(arg).upper()


def _key_bytes(key) -> bytes:
    return key.encode() if isinstance(key, str) else bytes(key)


def commands_of(pipe) -> list[tuple[tuple, dict]]:
    """(args, options) of every command recorded on a redis-py pipeline,
    cluster or not."""
    strategy = getattr(pipe, "_execution_strategy", None)
    if strategy is not None:
        return [(c.args, c.options) for c in strategy.command_queue]
    return list(pipe.command_stack)


def _clear(pipe) -> None:
    strategy = getattr(pipe, "_execution_strategy", None)
    if strategy is not None:
        strategy.command_queue = []
    else:
        pipe.command_stack = []


class ClusterRoundTrips:
    """``RoundTrips`` for a ``RedisCluster``: same ``run``."""

    #: Least time between two refreshes of the slot table after failures.
    REFRESH_EVERY_S = 0.5

    def __init__(self, client: RedisCluster, wait_replicas: int | None = None, wait_ms: int | None = None):
        self.client = client
        self.wait_replicas = env("PBEM_CLUSTER_WAIT_REPLICAS") if wait_replicas is None else wait_replicas
        self.wait_ms = env("PBEM_CLUSTER_WAIT_MS") if wait_ms is None else wait_ms
        #: Connections not in use, by node, any thread's (see ``_connection``).
        self._idle: dict[str, list] = {}
        self._idle_lock = threading.Lock()
        self._pid = os.getpid()
        self._refreshed = 0.0
        self._refresh_lock = threading.Lock()

    def pipeline(self):
        return self.client.pipeline(transaction=False)

    # -- routing -------------------------------------------------------------

    def _slot(self, args) -> int | None:
        name = _name(args[0])
        if name in (b"EVALSHA", b"EVAL"):
            return key_slot(_key_bytes(args[3])) if int(args[2]) > 0 else None
        if name in _FIRST_KEY:
            return key_slot(_key_bytes(args[1]))
        if name == b"WAIT":
            return None
        if name in (b"XREADGROUP", b"XREAD"):  # keys after STREAMS (redis-py would ask the server)
            at = next(i for i, a in enumerate(args) if _name(a) == b"STREAMS")
            return key_slot(_key_bytes(args[at + 1]))
        return self.client.determine_slot(*args)

    def _connection(self, node):
        """A connection to ``node`` for one round trip, given back after it
        (``_give``): a free-list per node rather than one per thread, since
        a cluster's drainers are threads that live one drain each, and a
        connection per thread cost every drain a connect, HELLO and CLIENT
        SETINFO (0.4 new connections a move, measured). No pool checkout:
        a lock held for a list pop."""
        if self._pid != os.getpid():  # a forked child never shares a socket
            self._idle, self._pid = {}, os.getpid()
        with self._idle_lock:
            free = self._idle.get(node.name)
            conn = free.pop() if free else None
        if conn is None:
            pool = node.redis_connection.connection_pool
            conn = pool.connection_class(**pool.connection_kwargs)
        try:
            if conn.can_read():  # the server closed it, say: a fresh one
                raise redis.ConnectionError("connection not ready")
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            conn.disconnect()
        return conn

    def _refresh(self) -> None:
        """Read the slot table again (a failover, a slot moved), at most
        every REFRESH_EVERY_S, whichever thread asks."""
        with self._refresh_lock:
            if time.monotonic() - self._refreshed < self.REFRESH_EVERY_S:
                return
            self._refreshed = time.monotonic()
        try:
            self.client.nodes_manager.initialize()
        except Exception as err:  # no node answers yet: the next failure asks again
            log.warning("cluster: could not refresh the slot table: %s", err)

    def replicas_of(self, slot: int) -> int:
        nodes = self.client.nodes_manager.slots_cache.get(slot) or []
        return max(0, len(nodes) - 1)

    # -- running -------------------------------------------------------------

    def run(self, pipe, raise_on_error: bool = True, durable: bool = False) -> list:
        """Send the commands recorded on ``pipe``, in one packet to the one
        master of their slot; their replies, parsed as ``pipe.execute()``
        would. See the module doc for redirections, failures and ``durable``."""
        commands = commands_of(pipe)
        _clear(pipe)
        if not commands:
            return []
        slots = {s for s in (self._slot(args) for args, _ in commands) if s is not None}
        nodes = {self.client.nodes_manager.get_node_from_slot(s).name for s in slots}
        if len(nodes) != 1:  # several masters (or none named): redis-py's own cluster pipeline
            replay = self.client.pipeline(transaction=False)
            for args, options in commands:
                replay.execute_command(*args, **options)
            return self._cluster_errors(replay.execute(raise_on_error=raise_on_error))
        slot = next(iter(slots))
        node = self.client.nodes_manager.get_node_from_slot(slot)
        wait = min(self.wait_replicas, self.replicas_of(slot)) if durable else 0
        sent = list(commands)
        if wait:
            fence = self._fence_key(commands)
            sent += [(("SET", fence, "1", "PX", 1000), {}), (("WAIT", wait, self.wait_ms), {})]
        conn = self._connection(node)
        parse = node.redis_connection.parse_response
        replies = []
        try:
            conn.send_packed_command(conn.pack_commands([args for args, _ in sent]))
            for args, options in sent:
                try:
                    replies.append(parse(conn, args[0], **options))
                except redis.ResponseError as err:
                    replies.append(err)
        except (redis.ConnectionError, redis.TimeoutError, OSError) as err:
            conn.disconnect()
            self._refresh()
            raise err if isinstance(err, redis.RedisError) else redis.ConnectionError(str(err))
        except BaseException:
            conn.disconnect()  # whatever is left unread must not answer the next request
            raise
        finally:
            self._give(node, conn)  # disconnected: it connects again when next used
        if wait:
            acked = replies.pop()
            replies.pop()  # the fence
        replies = self._redirected(commands, replies)
        if wait and not isinstance(acked, Exception) and acked < wait:
            self._refresh()  # a replica gone: the table says so soon, and the wait is capped
            raise NotReplicated(f"{acked} of {wait} replicas acknowledged within {self.wait_ms} ms")
        if raise_on_error:
            for reply in replies:
                if isinstance(reply, redis.ResponseError):
                    raise reply
        return replies

    def _redirected(self, commands, replies) -> list:
        """Send again, one by one through the cluster client (which follows
        MOVED and ASK and waits out TRYAGAIN), each command that did not run
        here; a redirection it cannot follow is ``StoreBusy``."""
        for i, reply in enumerate(replies):
            if isinstance(reply, ClusterDownError):
                self._refresh()
                raise StoreBusy(str(reply))
            if not isinstance(reply, REDIRECTS):
                continue
            if isinstance(reply, MovedError):
                self._refresh()
            args, options = commands[i]
            try:
                replies[i] = self.client.execute_command(*args, **options)
            except (*REDIRECTS, ClusterError) as err:  # ClusterError: redis-py gave up ("TTL exhausted")
                raise StoreBusy(f"{_name(args[0]).decode()}: {err}") from err
            except redis.ResponseError as err:
                replies[i] = err
        return replies

    @staticmethod
    def _cluster_errors(replies: list) -> list:
        for reply in replies:
            if isinstance(reply, (*REDIRECTS, ClusterError)):
                raise StoreBusy(str(reply))
        return replies

    @staticmethod
    def _fence_key(commands) -> bytes:
        """A key in the slot of the pipeline's first key (its hash tag kept)."""
        for args, _ in commands:
            name = _name(args[0])
            if name in (b"EVALSHA", b"EVAL"):
                if int(args[2]) > 0:
                    key = _key_bytes(args[3])
                    break
            elif name != b"WAIT":
                key = _key_bytes(args[1])
                break
        start = key.find(b"{")
        if start > -1 and key.find(b"}", start + 1) > start + 1:
            return key + b":fence"
        return b"{" + key + b"}:fence"

    def _give(self, node, conn) -> None:
        with self._idle_lock:
            self._idle.setdefault(node.name, []).append(conn)

    def close(self) -> None:
        with self._idle_lock:
            idle, self._idle = self._idle, {}
        for conns in idle.values():
            for conn in conns:
                conn.disconnect()
