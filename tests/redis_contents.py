"""What a Redis key holds, by its type, for tests that show nothing stored
changed. Not DUMP's bytes: Valkey dumps a large hash (a hash table, not a
listpack) in its table's order, which rehashing changes with no write at all."""
from __future__ import annotations

import re
import time

#: Keys that change with no request at all while a worker runs: its heartbeat
#: (every 5 s), RQ's worker and scheduler records and registry cleanups.
LIVENESS = re.compile(rb"^(pbem:heartbeats:.*|rq:workers?(:.*)?|rq:scheduler.*|rq:clean_registries:.*)$")


def contents(client, key) -> tuple | None:
    """(type, value) of ``key``: strings as bytes, hashes as dicts, lists and
    streams in order, sets as sets, sorted sets with their scores."""
    kind = client.type(key)
    kind = kind.decode() if isinstance(kind, bytes) else kind
    if kind == "none":
        return None
    read = {
        "string": lambda: client.get(key),
        "hash": lambda: client.hgetall(key),
        "list": lambda: client.lrange(key, 0, -1),
        "set": lambda: client.smembers(key),
        "zset": lambda: client.zrange(key, 0, -1, withscores=True),
        "stream": lambda: client.xrange(key),
    }[kind]
    return kind, read()


def every_key(client, keys=None) -> dict:
    """{key: contents} of ``keys``, or of every key of the server."""
    names = sorted(client.keys("*")) if keys is None else keys
    return {k: contents(client, k) for k in names}


def stored_keys(client) -> dict:
    """``every_key`` but the workers' liveness records: what requests can
    have stored, for a test that compares it before and after some."""
    return every_key(client, [k for k in sorted(client.keys("*")) if not LIVENESS.match(k)])


def settled_keys(client, quiet_s: float = 0.3, timeout: float = 10) -> dict:
    """``stored_keys`` once the server has stopped writing: the same contents
    twice ``quiet_s`` apart and no RQ job running (a worker may still be
    dealing or draining after the last request answered). The snapshot a
    test compares with after requests that must store nothing."""
    deadline = time.monotonic() + timeout
    last = stored_keys(client)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = stored_keys(client)
        if now == last and not any(k.startswith(b"rq:execution:") for k in now):
            return now
        last = now
    raise AssertionError(f"the server kept writing for {timeout} s")
