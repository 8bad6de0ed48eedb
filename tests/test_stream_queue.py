"""StreamQueue's drain loop on a real Redis: entries held back while more
urgent work waits (turn notices behind moves), never past their limit, and a
drainer taking up what an earlier job of its process held."""
from __future__ import annotations

import threading
import time

import pytest
import redis

from pbem.pipeline.queues import StreamQueue, consumer_name

# Latency budgets: run in make test's serial phase, away from the suite's own load.
pytestmark = pytest.mark.timing


def queue(redis_client, hold=None, max_hold_s=0.0, budget_s=5.0, linger_s=0.05):
    return StreamQueue(redis_client, "t:stream", "g", "t:lease", "t-queue", "nowhere.job",
                       linger_s=linger_s, budget_s=budget_s, helpers=False, hold=hold, max_hold_s=max_hold_s)


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


def test_push_and_wait_gets_the_outcome_in_the_same_round_trip(redis_client):
    q = queue(redis_client)
    q.ensure_group()
    # The drainer has a client of its own, so the round trips counted below are the pusher's.
    kw = redis_client.connection_pool.connection_kwargs
    draining = queue(redis.Redis(host=kw["host"], port=kw["port"], db=kw.get("db", 0)))
    stop = threading.Event()

    def answer(items):
        for item in items:
            redis_client.rpush(f"t:done:{item['n']}", f"outcome {item['n']}")

    def drainer():
        while not stop.is_set():
            draining.drain_fields(answer, linger_s=0.5)

    thread = threading.Thread(target=drainer, daemon=True)
    thread.start()
    try:
        time.sleep(0.1)
        # The first push finds the lease held: from then on a push also waits.
        assert q.push_and_wait({"n": "1"}, lambda pipe: pipe.incr("t:count"), "t:done:1", 2.0) == (1, None)
        assert redis_client.blpop(["t:done:1"], timeout=2)[1] == b"outcome 1"
        pipelines = []
        real = q.redis.pipeline
        q.redis.pipeline = lambda *a, **k: pipelines.append(1) or real(*a, **k)
        try:
            got = q.push_and_wait({"n": "2"}, lambda pipe: pipe.incr("t:count"), "t:done:2", 2.0)
        finally:
            q.redis.pipeline = real
        assert got == (2, b"outcome 2") and len(pipelines) == 1
    finally:
        stop.set()
        thread.join(5)


def test_push_and_wait_when_the_drainer_had_just_gone(redis_client):
    """The lease was seen held a moment ago, but nobody drains: the wait in
    the round trip runs out, the push took the lease, so a drain is enqueued."""
    q = queue(redis_client)
    q.ensure_group()
    enqueued = []
    q._enqueue_drain = lambda helper=False: enqueued.append(helper)
    q._lease_seen = time.monotonic()
    t0 = time.monotonic()
    assert q.push_and_wait({"n": "3"}, lambda pipe: pipe.incr("t:count"), "t:done:3", 0.2) == (1, None)
    assert 0.15 <= time.monotonic() - t0 < 2 and enqueued == [False]
    assert redis_client.xlen("t:stream") == 1


def test_turn_notices_hold_while_moves_queue_up(redis_client, monkeypatch):
    from pbem.notify.hooks import notice_queue
    from pbem.pipeline.queues import STREAM

    monkeypatch.setenv("PBEM_NOTICE_HOLD_BACKLOG", "3")
    monkeypatch.setenv("PBEM_NOTICE_MAX_DELAY_S", "7")
    notices = notice_queue(redis_client)
    assert notices.max_hold_s == 7
    for n in range(2):
        redis_client.xadd(STREAM, {"g": "x", "m": str(n)})
    assert not notices.hold()  # two moves in flight: a server keeping up
    redis_client.xadd(STREAM, {"g": "x", "m": "2"})
    assert notices.hold()  # a queue forming: notices wait


def test_entries_pushed_while_draining_ride_the_drainers_next_round_trip(redis_client):
    """Notices pushed by the thread draining moves go in the drain's next
    round trip (its stream read or final acknowledgement), not one of their
    own; from any other thread, or with no drain running, they go at once."""
    moves = queue(redis_client)
    notices = StreamQueue(redis_client, "t:notices", "n", "t:notices:lease", "t-notices", "nowhere.job",
                          linger_s=0.05, helpers=False)
    notices.ride_on = moves
    notices._enqueue_drain = lambda helper=False: None  # no RQ here
    moves.ensure_group()
    moves.push_many([{"n": str(i)} for i in range(3)])
    executed = []
    real_pipeline = redis_client.pipeline

    def counting(run):
        def counted(pipe, *a, **kw):
            executed.append([c[0][0] for c in pipe.command_stack])
            return run(pipe, *a, **kw)
        return counted
    moves.trips.run, notices.trips.run = counting(moves.trips.run), counting(notices.trips.run)
    seen_meanwhile, from_elsewhere = [], []

    def handle(items):
        notices.push_many([{"after": i["n"]} for i in items])
        seen_meanwhile.append(real_pipeline().xlen("t:notices").execute()[0])
        # Another thread of this process, while the drain runs: no ride.
        other = threading.Thread(target=lambda: from_elsewhere.append(moves.ride(lambda pipe: 0, print)))
        other.start()
        other.join()
    moves.drain_fields(handle)
    sent = [e[b"after"] for _, e in redis_client.xrange("t:notices")]
    assert sorted(sent) == [b"0", b"1", b"2"]
    assert seen_meanwhile and seen_meanwhile[0] == 0, "the notices went before the drain's next round trip"
    # No round trip carried notices alone: each went with an XREADGROUP or XACK of the moves.
    carrying = [cmds for cmds in executed if "XADD" in cmds]
    assert carrying and all("XREADGROUP" in cmds or "XACK" in cmds for cmds in carrying), executed
    assert from_elsewhere == [False]
    # Outside a drain they go at once, in their own round trip.
    notices.push_many([{"after": "x"}])
    assert redis_client.xlen("t:notices") == 4


def feeder(q: StreamQueue, stop: threading.Event, every_s: float = 0.02) -> threading.Thread:
    """Pushes an entry every ``every_s`` until ``stop``: a drainer that is never idle."""
    def run():
        n = 0
        while not stop.wait(every_s):
            q.push_many([{"n": str(n)}])
            n += 1
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_busy_drainer_carries_on_past_its_budget_while_nothing_else_waits(redis_client):
    """Its successor could go to another worker, whose caches are cold: with
    no other job waiting on its RQ queue it goes on in the same job, up to
    ``max_run_s``, and only then hands over."""
    # A long linger: only the budget rules end this drain, never a pause of the feeder.
    q = StreamQueue(redis_client, "t:stream", "g", "t:lease", "t-queue", "nowhere.job",
                    linger_s=0.5, budget_s=0.2, helpers=False, max_run_s=0.9)
    q.ensure_group()
    enqueued = []
    q._enqueue_drain = lambda helper=False: enqueued.append(time.monotonic())
    stop = threading.Event()
    pusher = StreamQueue(redis_client, "t:stream", "g", "t:lease", "t-queue", "nowhere.job")
    pusher._enqueue_drain = lambda helper=False: None
    thread = feeder(pusher, stop)
    try:
        t0 = time.monotonic()
        assert q.drain_fields(lambda items: None) > 0
        ran = time.monotonic() - t0
    finally:
        stop.set()
        thread.join(5)
    assert 0.85 <= ran < 3, ran  # four budgets, not one
    assert len(enqueued) == 1  # then one successor


def test_a_drainer_hands_over_without_letting_the_lease_go(redis_client):
    """A job waiting on its RQ queue (or its worker stopping) ends the run at
    the budget: the successor takes over a lease still held, so no push in
    between finds it free and starts a second drainer."""
    q = queue(redis_client, budget_s=0.2, linger_s=0.5)
    q.max_run_s = 60
    q.ensure_group()
    q.rq.enqueue("nowhere.other_job")  # something else waits for this worker
    enqueued = []
    q._enqueue_drain = lambda helper=False: enqueued.append(helper)
    stop = threading.Event()
    pusher = queue(redis_client)
    pusher._enqueue_drain = lambda helper=False: enqueued.append("kicked")
    thread = feeder(pusher, stop)
    try:
        t0 = time.monotonic()
        q.drain_fields(lambda items: None)
        assert time.monotonic() - t0 < 1.5
        assert redis_client.get("t:lease").startswith(consumer_name().encode())  # still ours, for the successor
        time.sleep(0.2)  # pushes meanwhile find it held
    finally:
        stop.set()
        thread.join(5)
    assert enqueued == [False]


def test_a_drainer_whose_lease_was_taken_leaves(redis_client):
    """Two main drainers would split every game's moves between two caches:
    one that finds the lease no longer its own stops at its next renewal."""
    q = queue(redis_client, linger_s=1.0)
    q.ensure_group()
    stop = threading.Event()
    pusher = queue(redis_client)
    pusher._enqueue_drain = lambda helper=False: None
    thread = feeder(pusher, stop)
    threading.Timer(0.3, lambda: redis_client.set("t:lease", "another-drainer", px=3000)).start()
    try:
        t0 = time.monotonic()
        q.drain_fields(lambda items: None)
        ran = time.monotonic() - t0
    finally:
        stop.set()
        thread.join(5)
    assert 0.3 <= ran < 2.5, ran  # at the first renewal after the takeover, not at the 5 s budget
    assert redis_client.get("t:lease") == b"another-drainer"  # not released: it is not ours


def test_a_busy_drainer_gathers_entries_into_batches_and_an_idle_one_does_not_wait(redis_client):
    q = StreamQueue(redis_client, "t:stream", "g", "t:lease", "t-queue", "nowhere.job",
                    linger_s=0.5, helpers=False, gather_s=0.2)
    q.ensure_group()
    pusher = queue(redis_client)
    pusher._enqueue_drain = lambda helper=False: None
    batches: list[int] = []
    first_wait: list[float] = []

    def handle(items):
        if not batches:
            first_wait.append(time.time() - float(items[0]["t"]))
        batches.append(len(items))

    def feed():
        time.sleep(0.1)  # the drainer is waiting on an empty stream
        for _ in range(60):
            pusher.push_many([{"t": repr(time.time())}])
            time.sleep(0.005)
    thread = threading.Thread(target=feed)
    thread.start()
    assert q.drain_fields(handle) == 60
    thread.join(5)
    assert first_wait[0] < 0.1, first_wait  # the first entry found it idle: no gathering
    assert sum(batches) / len(batches) >= 3, batches  # then up to 40 per 200 ms wait


def test_the_sweeper_sees_entries_no_drainer_will_take(redis_client):
    """A dead worker's pending entries, and entries never read while no
    drainer holds the lease (what a failover leaves: the read reached the old
    master only); not fresh entries, nor old ones while a drainer is leased."""
    q = queue(redis_client)
    q.claim_idle_ms = 200
    q.ensure_group()
    redis_client.xadd("t:stream", {"n": "stranded"})  # no lease taken, no job enqueued
    assert q.orphans() == 0  # fresh: a drainer may be about to read it
    time.sleep(0.25)
    assert q.orphans() == 1
    redis_client.set("t:lease", "someone", px=5000)
    assert q.orphans() == 0  # a drainer holds the lease: it reads the entry
    redis_client.xreadgroup("g", "dead", {"t:stream": ">"})
    time.sleep(0.25)
    assert q.orphans() == 1  # pending with a dead consumer: claimed by the next drain
    redis_client.delete("t:lease")
    kicked = []
    q._enqueue_drain = lambda helper=False: kicked.append(helper)
    q.kick()
    assert kicked == [False]


def test_entries_a_lost_master_delivered_are_read_again(redis_client):
    """What a failover can leave: the group's cursor past entries that no
    consumer holds pending (the new master got the cursor, not the pending
    list). XREADGROUP > would skip them for ever; the sweeper rewinds the
    cursor to just before the oldest, and only then."""
    q = queue(redis_client)
    q.ensure_group()
    fresh = redis_client.xadd("t:stream", {"n": "fresh"})
    assert not q.rewind_past_lost_reads()  # never delivered: a drain reads it anyway
    lost = [redis_client.xadd("t:stream", {"n": str(i)}) for i in range(2)]
    got = redis_client.xreadgroup("g", "dead", {"t:stream": ">"})
    assert [e[0] for e in got[0][1]] == [fresh, *lost]
    assert not q.rewind_past_lost_reads()  # pending with a consumer: claimed, not rewound
    redis_client.xack("t:stream", "g", fresh, *lost)  # the pending list lost, the entries kept
    redis_client.xdel("t:stream", fresh)                # (the fresh one was applied: acked and deleted)
    assert redis_client.xreadgroup("g", "next", {"t:stream": ">"}) == []
    assert q.rewind_past_lost_reads()
    again = redis_client.xreadgroup("g", "next", {"t:stream": ">"})
    assert [e[0] for e in again[0][1]] == lost


def test_a_restarted_worker_frees_what_its_predecessor_had_taken(redis_client, monkeypatch):
    """A worker started again under its stable name marks its dead
    predecessor's pending entries idle, so another process's drain claims
    them at once rather than ``claim_idle_ms`` after the crash; a consumer
    named by its pid (no predecessor) leaves every entry as it is."""
    q = queue(redis_client)
    q.claim_idle_ms = 60_000
    q.ensure_group()
    q.push_many([{"n": "a"}, {"n": "b"}])
    monkeypatch.setenv("PBEM_WORKER_NAME", "worker-0")
    redis_client.xreadgroup("g", consumer_name(), {"t:stream": ">"})  # the predecessor took them, then died
    other = "elsewhere:worker-1"
    assert redis_client.xautoclaim("t:stream", "g", other, q.claim_idle_ms, "0-0")[1] == []
    monkeypatch.delenv("PBEM_WORKER_NAME")
    assert q.free_predecessors_entries() == 0  # a pid-named consumer: not the predecessor's
    assert redis_client.xautoclaim("t:stream", "g", other, q.claim_idle_ms, "0-0")[1] == []
    monkeypatch.setenv("PBEM_WORKER_NAME", "worker-0")
    assert q.free_predecessors_entries() == 2
    claimed = redis_client.xautoclaim("t:stream", "g", other, q.claim_idle_ms, "0-0")[1]
    assert sorted(fields[b"n"] for _id, fields in claimed) == [b"a", b"b"]
