"""RoundTrips on a real Redis: the same replies as redis-py's pipeline, one
connection per thread, error replies in place, and a connection the server
dropped replaced before it is used."""
from __future__ import annotations

import threading

import pytest
import redis

from pbem.store.roundtrip import RoundTrips


def record(client: redis.Redis, n: int):
    pipe = client.pipeline(transaction=False)
    pipe.set(f"k{n}", "v", nx=True, px=5000)
    pipe.set(f"k{n}", "w", nx=True, px=5000)
    pipe.rpush(f"l{n}", "a", "b")
    pipe.blpop([f"l{n}"], timeout=1)
    pipe.xadd(f"s{n}", {"f": "1"})
    pipe.xrange(f"s{n}")
    pipe.hgetall("nothing")
    return pipe


def test_replies_are_parsed_as_the_pipeline_parses_them(redis_client):
    trips = RoundTrips(redis_client)
    mine = trips.run(record(redis_client, 1))
    theirs = record(redis_client, 2).execute()
    assert mine[:4] == [True, None, 2, (b"l1", b"a")] and theirs[:4] == [True, None, 2, (b"l2", b"a")]
    assert mine[6] == theirs[6] == {}
    (entry_id, fields), = mine[5]
    assert entry_id == mine[4] and fields == {b"f": b"1"}
    assert [type(r) for r in mine] == [type(r) for r in theirs]


def test_an_error_reply_takes_its_place_and_the_rest_still_run(redis_client):
    trips = RoundTrips(redis_client)
    redis_client.set("text", "x")
    pipe = redis_client.pipeline(transaction=False)
    pipe.incr("text")
    pipe.evalsha("0" * 40, 0)
    pipe.set("after", "1")
    replies = trips.run(pipe, raise_on_error=False)
    assert isinstance(replies[0], redis.ResponseError)
    assert isinstance(replies[1], redis.exceptions.NoScriptError)
    assert replies[2] is True and redis_client.get("after") == b"1"
    pipe = redis_client.pipeline(transaction=False)
    pipe.incr("text")
    pipe.set("later", "1")
    with pytest.raises(redis.ResponseError):
        trips.run(pipe)
    assert redis_client.get("later") == b"1"  # every reply was read: the connection is in step
    pipe = redis_client.pipeline(transaction=False)
    pipe.get("after")
    assert trips.run(pipe) == [b"1"]


def test_each_thread_has_its_own_connection(redis_client):
    trips = RoundTrips(redis_client)
    ids: dict[int, list] = {0: [], 1: []}

    def my_id(n):
        for _ in range(2):
            pipe = redis_client.pipeline(transaction=False)
            pipe.client_id()
            ids[n].append(trips.run(pipe)[0])
    threads = [threading.Thread(target=my_id, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a, b), (c, d) = ids[0], ids[1]
    assert a == b and c == d and a != c


def test_a_connection_the_server_dropped_is_replaced_before_use(redis_client):
    trips = RoundTrips(redis_client)
    pipe = redis_client.pipeline(transaction=False)
    pipe.client_id()
    first = trips.run(pipe)[0]
    redis_client.client_kill_filter(_id=first)
    pipe = redis_client.pipeline(transaction=False)
    pipe.incr("counted")
    pipe.client_id()
    count, second = trips.run(pipe)
    assert count == 1 and second != first and redis_client.get("counted") == b"1"


def test_no_server_is_a_connection_error(redis_client):
    kw = redis_client.connection_pool.connection_kwargs
    nowhere = redis.Redis(host=kw["host"], port=1, socket_connect_timeout=1)
    pipe = nowhere.pipeline(transaction=False)
    pipe.get("x")
    with pytest.raises(redis.ConnectionError):
        RoundTrips(nowhere).run(pipe)
