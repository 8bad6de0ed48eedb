"""What a Redis key holds, by its type, for tests that show nothing stored
changed. Not DUMP's bytes: Valkey dumps a large hash (a hash table, not a
listpack) in its table's order, which rehashing changes with no write at all."""
from __future__ import annotations

import time


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


def settled_keys(client, quiet_s: float = 0.3, timeout: float = 10) -> dict:
    """``every_key`` once the server has stopped writing: the same contents
    twice ``quiet_s`` apart and no RQ job running (a worker may still be
    dealing or draining after the last request answered). The snapshot a
    test compares with after requests that must store nothing."""
    deadline = time.monotonic() + timeout
    last = every_key(client)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = every_key(client)
        if now == last and not any(k.startswith(b"rq:execution:") for k in now):
            return now
        last = now
    raise AssertionError(f"the server kept writing for {timeout} s")
