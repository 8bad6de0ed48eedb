"""One pipelined round trip to Redis on a connection of the calling thread's
own, for the hot paths of the move pipeline (a submission's queue-and-wait,
a drainer's stream read and its appends).

redis-py's ``Pipeline.execute`` checks a connection out of the shared pool
for every round trip: a lock, a fork check, a socket poll, connection-count
bookkeeping, a retry wrapper and the reset after. Measured on this machine
that is 35-45 us of client CPU a round trip out of 150-200, and a move takes
three. Here each thread keeps one connection of its own (the pool's own
connection class and settings), and the commands are still recorded on a
redis-py pipeline and their replies parsed by redis-py, so callers see the
same reply types as from ``execute``.
"""
from __future__ import annotations

import os
import threading

import redis
from redis.client import Pipeline


class RoundTrips:
    def __init__(self, client: redis.Redis):
        self.client = client
        self._local = threading.local()

    def pipeline(self) -> Pipeline:
        return self.client.pipeline(transaction=False)

    def _connection(self):
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():  # a forked child never shares a socket
            pool = self.client.connection_pool
            conn = self._local.conn = pool.connection_class(**pool.connection_kwargs)
            self._local.pid = os.getpid()
        # As the pool does before lending one: a connection with something to
        # read (the server closed it, say) is replaced by a fresh one.
        try:
            if conn.can_read():
                raise redis.ConnectionError("connection not ready")
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            conn.disconnect()
        return conn

    def run(self, pipe: Pipeline, raise_on_error: bool = True, durable: bool = False) -> list:
        """Send the commands recorded on ``pipe`` and return their replies,
        in order, parsed as ``pipe.execute()`` would. An error reply is
        raised (the first), or returned in its place with ``raise_on_error``
        False. A connection error is raised: nothing is sent again, since a
        write may or may not have run. (``durable``: on a cluster, wait for
        a replica, see pbem/store/cluster_trips.py; one server has none.)"""
        commands = pipe.command_stack
        if not commands:
            return []
        conn = self._connection()
        replies = []
        try:
            conn.send_packed_command(conn.pack_commands([args for args, _ in commands]))
            for args, options in commands:
                try:
                    replies.append(self.client.parse_response(conn, args[0], **options))
                except redis.ResponseError as err:
                    replies.append(err)
        except BaseException:
            conn.disconnect()  # whatever is left unread must not answer the next request
            raise
        finally:
            pipe.command_stack = []
        if raise_on_error:
            for reply in replies:
                if isinstance(reply, redis.ResponseError):
                    raise reply
        return replies

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.disconnect()


def round_trips(client):
    """The hot round trips for ``client``: these, or on a Redis Cluster
    their cluster counterpart (pbem/store/cluster_trips.py)."""
    from redis.cluster import RedisCluster

    if isinstance(client, RedisCluster):
        from .cluster_trips import ClusterRoundTrips

        return ClusterRoundTrips(client)
    return RoundTrips(client)
