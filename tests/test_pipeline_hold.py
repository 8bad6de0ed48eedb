"""StreamQueue's drain loop on a real Redis: entries held back while more
urgent work waits (turn notices behind moves), never past their limit, and a
drainer taking up what an earlier job of its process held."""
from __future__ import annotations

import threading
import time

from pbem.pipeline import StreamQueue


def queue(redis_client, hold=None, max_hold_s=0.0, budget_s=5.0):
    return StreamQueue(redis_client, "t:stream", "g", "t:lease", "t-queue", "nowhere.job",
                       linger_s=0.05, budget_s=budget_s, helpers=False, hold=hold, max_hold_s=max_hold_s)


def test_entries_wait_while_held_then_go(redis_client):
    busy = threading.Event()
    busy.set()
    q = queue(redis_client, hold=busy.is_set, max_hold_s=30)
    q.ensure_group()
    q.push_many([{"n": str(i)} for i in range(3)])
    handled: list[tuple[float, str]] = []
    t0 = time.monotonic()
    threading.Timer(0.4, busy.clear).start()
    done = q.drain_fields(lambda items: handled.extend((time.monotonic() - t0, i["n"]) for i in items))
    assert done == 3 and [n for _, n in handled] == ["0", "1", "2"]
    assert min(t for t, _ in handled) >= 0.4  # nothing went while held
    assert redis_client.xlen("t:stream") == 0 and redis_client.xpending("t:stream", "g")["pending"] == 0


def test_held_entries_go_once_they_have_waited_long_enough(redis_client):
    q = queue(redis_client, hold=lambda: True, max_hold_s=0.3)
    q.ensure_group()
    q.push_many([{"n": "late"}])
    handled = []
    t0 = time.monotonic()
    q.drain_fields(lambda items: handled.extend(i["n"] for i in items))
    assert handled == ["late"] and 0.25 <= time.monotonic() - t0 < 5


def test_a_successor_job_takes_up_what_its_process_held(redis_client):
    q = queue(redis_client, hold=lambda: True, max_hold_s=30, budget_s=0.2)
    q.ensure_group()
    q.push_many([{"n": "a"}, {"n": "b"}])
    enqueued = []
    q._enqueue_drain = lambda helper=False: enqueued.append(helper)
    handled = []
    assert q.drain_fields(lambda items: handled.extend(i["n"] for i in items)) == 0
    assert handled == [] and enqueued == [False]  # held past the budget: a successor carries on
    assert redis_client.xpending("t:stream", "g")["pending"] == 2
    successor = queue(redis_client)  # nothing to wait for any more
    assert successor.drain_fields(lambda items: handled.extend(i["n"] for i in items)) == 2
    assert handled == ["a", "b"] and redis_client.xpending("t:stream", "g")["pending"] == 0
