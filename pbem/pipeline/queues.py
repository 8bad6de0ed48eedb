"""The move pipeline between the API and the workers.

Submissions go onto one Redis stream read by a consumer group. RQ carries
only *drain* jobs, and a drain job applies every submission it finds, then
*lingers*: it keeps reading the stream (XREADGROUP BLOCK) for
``linger_s`` after the last submission before it returns to RQ. While a
drainer listens it holds a lease, and submissions enqueue no job at all:
they reach the drainer through the stream, so RQ's own per-job cost (about
57 Redis commands) is paid once per busy period, not per move. When there
is a backlog the drainer asks for one helper drain on the other worker.

Only when no drainer holds the lease does a submission enqueue a job (the
lease is taken with SET NX, so one job per idle period). A drainer that
releases its lease reads the stream once more, so a submission that found
the lease held is never left behind.

The same machinery (``StreamQueue``) carries turn notifications: the
after-apply hook adds an entry to ``pbem:notices`` and a lingering drainer on
the ``pbem-notify`` queue handles them, so a move costs the notification path
one pipelined round trip and no RQ job.

A worker killed mid-drain leaves its entries pending in the group and its
lease expires; every worker's sweeper thread notices entries idle longer
than ``claim_idle_ms`` and kicks a drain, which claims them (XAUTOCLAIM);
applying a move twice is harmless (the append is idempotent by move id).

On a Redis Cluster each shard (pbem/store/shards.py) has a stream of its own, its
lease and its drainer (``MoveQueue(client, shard=k)``; pbem/pipeline/shard_queues.py
routes a game's moves to its shard's queue), and a drain job names its
shard. With one plain Redis there is one shard, with the keys above.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from typing import Callable

import redis
from rq import Queue

from ..telemetry import logs
from ..store.connections import STORE_DOWN, rq_connection, shards_of
from ..store.roundtrip import round_trips
from ..settings.registry import env
from ..store import dumps

log = logging.getLogger(__name__)

STREAM = "pbem:submissions"
GROUP = "appliers"
DRAIN_LEASE = "pbem:drain:lease"
LEASE_MS = 3000
MOVES_QUEUE = "pbem-moves"
DRAIN_JOB = "workers.jobs.drain_moves"
LISTENING_S = 0.2  # a lease seen held this recently: a drainer is still listening (it lingers longer)
HOLD_POLL_S = 0.05  # how often held entries ask again
HOLD_QUIET_S = 2.0  # how long hold() must have said no before they go
HOLD_BATCH = 8  # entries handled between two checks of hold()

# Release a lease only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# Extend a lease only if it is still ours.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


def consumer_name() -> str:
    """This process's consumer in the streams' groups. A worker given a
    stable ``PBEM_WORKER_NAME`` (``make run`` names its workers ``worker-N``)
    keeps it across restarts, so a worker started again after a crash reads
    back at once what its predecessor had taken (its first read is its own
    pending entries) instead of waiting ``PBEM_CLAIM_IDLE_MS`` for a claim."""
    name = env("PBEM_WORKER_NAME")
    return f"{socket.gethostname()}:{name or os.getpid()}"


class StreamQueue:
    """A Redis stream drained by lingering RQ jobs (see the module doc).
    The move pipeline is one; turn notifications are another."""

    def __init__(self, client: redis.Redis, stream: str, group: str, lease: str, rq_queue: str, job: str,
                 claim_idle_ms: int = 5000, linger_s: float = 0.5, budget_s: float = 5.0, helpers: bool = True,
                 hold: Callable[[], bool] | None = None, max_hold_s: float = 0.0, max_run_s: float = 0.0,
                 gather_s: float = 0.0, job_kwargs: dict | None = None, durable: bool = False):
        self.redis = client
        self.trips = round_trips(client)  # the hot round trips, on a connection per thread
        #: A drain job returns to RQ after ``budget_s`` (a successor carries
        #: on), so a worker is never held longer; ``helpers`` lets a drainer
        #: facing a backlog ask for a second one on another worker.
        self.budget_s, self.helpers = budget_s, helpers
        #: A main drainer may go on past its budget, up to ``max_run_s`` in
        #: all (see ``_may_carry_on``), unless ``stopping()`` (its worker was
        #: asked to stop: it then hands over within ``budget_s``).
        self.max_run_s = max_run_s
        #: While entries keep coming, a drainer waits this long before each
        #: read, so that they come in batches: a batch's two round trips and
        #: its fsyncs are shared by more moves, for a little latency.
        self.gather_s = gather_s
        self.stopping: Callable[[], bool] = lambda: False
        #: Entries wait while ``hold()`` says so (more urgent work elsewhere),
        #: but never once the oldest has waited ``max_hold_s``.
        self.hold, self.max_hold_s = hold, max_hold_s
        self.stream, self.group, self.job = stream, group, job
        self.lease, self.helper_lease = lease, lease + ":helper"
        self.claim_idle_ms = claim_idle_ms
        self.linger_s = linger_s
        self.rq = Queue(rq_queue, connection=rq_connection(client))  # RQ's own Redis (pbem/store/connections.py)
        #: Given to every drain job this queue enqueues (a shard's number).
        self.job_kwargs = job_kwargs or {}
        #: Pushes wait for a replica on a cluster (pbem/store/cluster_trips.py).
        self.durable = durable
        self._release = client.register_script(_RELEASE)
        self._renew = client.register_script(_RENEW)
        self._lease_seen = float("-inf")  # when a push last found the lease held
        self._busy_until = 0.0  # entries are held until then (see _holding)
        #: Another queue whose drain round trips this one's ``push_many`` may
        #: ride along (see ``ride``): the move queue, for turn notices.
        self.ride_on: StreamQueue | None = None
        self._riders: list[tuple[Callable, Callable]] = []
        self._drainer: int | None = None  # the thread draining this queue now

    def ensure_group(self) -> None:
        try:
            self.redis.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except redis.ResponseError as err:
            if "BUSYGROUP" not in str(err):
                raise

    def push_fields(self, fields: dict | None, first=None):
        """Add an entry. ``first(pipe)`` may add one command to run before it,
        in the same round trip; its reply is returned. With ``fields`` None,
        ``first`` adds the entry itself (a script that may decline to)."""
        replies = self.trips.run(self._push(fields, first), durable=self.durable)
        self._after_lease_check(replies[-1])
        return replies[0] if first is not None else True

    def push_and_wait(self, fields: dict | None, first, wait_key: str | list[str], wait_s: float) -> tuple:
        """``push_fields``, and when a drainer was listening a moment ago,
        BLPOP ``wait_key`` (up to ``wait_s``; several keys: the first to get
        a value) in the same round trip: the entry's outcome, if it comes in
        time, costs no round trip of its own.
        Returns (the reply of ``first``, the popped value or None)."""
        # A drainer lingers ``linger_s`` after its last entry (ours, say).
        listening = time.monotonic() - self._lease_seen < min(LISTENING_S, self.linger_s / 2)
        pipe = self._push(fields, first)
        if listening:
            pipe.blpop(wait_key if isinstance(wait_key, list) else [wait_key], timeout=wait_s)
        replies = self.trips.run(pipe, durable=self.durable)
        # Had the drainer just gone (the lease was free after all), the BLPOP
        # waited in vain: a drain starts now and the caller waits again.
        self._after_lease_check(replies[-2] if listening else replies[-1])
        popped = replies[-1] if listening else None
        return replies[0], (popped[1] if popped else None)

    def _push(self, fields: dict | None, first=None):
        """A pipeline: ``first``'s command, the entry, and the lease check
        (a drain job is enqueued if the lease was free; see the module doc)."""
        pipe = self.redis.pipeline(transaction=False)
        if first is not None:
            first(pipe)
        if fields is not None:
            pipe.xadd(self.stream, fields)
        pipe.set(self.lease, "queued", nx=True, px=LEASE_MS)
        return pipe

    def _after_lease_check(self, took_lease) -> None:
        if took_lease:
            self._enqueue_drain()
        else:
            self._lease_seen = time.monotonic()  # a drainer holds it (or one is on its way)

    def push_many(self, entries: list[dict]) -> None:
        """Add several entries in one round trip: the next one of ``ride_on``
        if its drainer is this very thread (see ``ride``), else one of ours."""
        if not entries:
            return

        def add(pipe) -> int:
            for fields in entries:
                pipe.xadd(self.stream, fields)
            pipe.set(self.lease, "queued", nx=True, px=LEASE_MS)
            return len(entries) + 1

        def done(replies) -> None:
            self._after_lease_check(replies[-1])
        if self.ride_on is not None and self.ride_on.ride(add, done):
            return
        pipe = self.redis.pipeline(transaction=False)
        add(pipe)
        done(self.trips.run(pipe))

    def ride(self, add: Callable, done: Callable) -> bool:
        """Send ``add(pipe)``'s commands (it returns how many) in this queue's
        next round trip, and hand ``done`` their replies: only when the caller
        is the thread draining this queue, whose next stream read (or final
        acknowledgement) comes as soon as the batch is handled. A move's turn
        notice so costs no round trip of its own. False: send it yourself."""
        if self._drainer != threading.get_ident():
            return False
        self._riders.append((add, done))
        return True

    def kick(self, force: bool = False) -> None:
        """Enqueue a drain job unless a drainer holds the lease."""
        if self.redis.set(self.lease, "queued", nx=True, px=LEASE_MS) or force:
            self._enqueue_drain()

    def _enqueue_drain(self, helper: bool = False) -> None:
        self.rq.enqueue(self.job, helper, **self.job_kwargs, result_ttl=0, failure_ttl=3600,
                        description=f"drain {self.stream}" + (" (helper)" if helper else ""))

    def drain_fields(self, handle: Callable[[list[dict]], object], helper: bool = False,
                     budget_s: float | None = None, batch: int = 64, linger_s: float | None = None) -> int:
        """Handle entries as they come until the stream has been quiet for
        ``linger_s`` (a helper stops as soon as it is empty) or the time
        budget is spent. ``handle`` takes a list of entries (dicts of str).
        Returns how many were handled."""
        linger = 0.0 if helper else (self.linger_s if linger_s is None else linger_s)
        if self.hold is not None:
            batch = min(batch, HOLD_BATCH)  # small batches: hold() is asked again soon
        budget_s = self.budget_s if budget_s is None else budget_s
        self._drainer = threading.get_ident()
        try:
            return self._drain(handle, helper, budget_s, batch, linger)
        finally:
            self._drainer = None
            self._ack([])  # whatever still rides

    def _drain(self, handle, helper: bool, budget_s: float, batch: int, linger: float) -> int:
        lease = self.helper_lease if helper else self.lease
        token = f"{consumer_name()}:{uuid.uuid4().hex[:8]}"
        self.redis.set(lease, token, px=LEASE_MS)
        self.ensure_group()
        me = consumer_name()
        done = 0
        acks: list = []  # handled entries, acknowledged with the next read (one round trip fewer a batch)
        began = start = last_work = renewed = time.monotonic()
        entries = self._own_pending(me, batch) or self._claim(me, batch)
        handed_over = lost = False
        busy, last_read = False, time.monotonic()
        try:
            while True:
                held = False
                if not entries:
                    if busy:
                        time.sleep(self.gather_s)  # let the next few gather into one batch
                    wait_ms = int(min(linger, 0.1) * 1000)
                    entries, acks = self._read(me, batch, wait_ms or None, acks), []
                    # Busy: at the rate entries came since the last read, at
                    # least one more would come while gathering.
                    now = time.monotonic()
                    busy = len(entries) * self.gather_s >= max(now - last_read, 1e-6)
                    last_read = now
                if entries and self._holding(entries):
                    held = True  # they stay ours (pending), for this job or its successor
                    time.sleep(HOLD_POLL_S)
                now = time.monotonic()
                if held:
                    last_work = now
                elif entries:
                    acks += self._handle(handle, entries)
                    done += len(entries)
                    if len(entries) >= batch // 2 and self.helpers and not helper:
                        self._ask_for_helper()
                    entries = []
                    last_work = now
                elif now - last_work >= linger:
                    break
                if now - start > budget_s:
                    if self._may_carry_on(helper, now - began):
                        start = now  # this process keeps its games' states hot: no handover
                    else:
                        # A successor job carries on under our lease, which it
                        # takes over: no gap in which a push would find the
                        # lease free and start a second drainer.
                        self._enqueue_drain(helper)
                        handed_over = True
                        return done
                if now - renewed > LEASE_MS / 3000:
                    if not self._renew(keys=[lease], args=[token, LEASE_MS]):
                        # Ours ran out and another drainer took the lease: one
                        # is enough (two would split every game's moves
                        # between two caches), and it reads what we leave.
                        lost = True
                        return done
                    if not entries:
                        entries = self._claim(me, batch)
                    renewed = now
        finally:
            try:
                self._ack(acks)
            finally:
                if not (handed_over or lost):
                    self._release(keys=[lease], args=[token])
        # Entries that found the lease held before we let it go.
        while True:
            entries = self._read(me, batch, None, [])
            if not entries:
                return done
            self._ack(self._handle(handle, entries))
            done += len(entries)

    def _may_carry_on(self, helper: bool, ran_s: float) -> bool:
        """Whether a main drainer past its budget goes on in this job rather
        than hand over to a successor (which RQ may give to another worker,
        whose caches are cold): while it has run less than ``max_run_s``, no
        other job waits on its RQ queue and its worker is not stopping."""
        return (not helper and ran_s < self.max_run_s and not self.stopping()
                and self.rq.count == 0)

    def _holding(self, entries: list) -> bool:
        """Whether to let these entries wait: ``hold()`` says so and the
        oldest has waited less than ``max_hold_s``."""
        if self.hold is None:
            return False
        oldest_ms = int(entries[0][0].split(b"-")[0])
        if time.time() * 1000 - oldest_ms >= self.max_hold_s * 1000:
            return False
        now = time.monotonic()
        if self.hold():
            # Busy stays busy for a moment: between two batches of moves the
            # other work is briefly idle, not done.
            self._busy_until = now + HOLD_QUIET_S
        return now < self._busy_until

    def _own_pending(self, me: str, batch: int) -> list:
        """Entries delivered to this consumer (this process) and not yet
        acknowledged: held back, or left by a job cut short."""
        got = self.redis.xreadgroup(self.group, me, {self.stream: "0"}, count=batch)
        return [e for e in (got[0][1] if got else []) if e[1]]

    def _read(self, me: str, batch: int, block_ms: int | None, acks: list) -> list:
        """New entries for this consumer (waiting up to ``block_ms``), after
        acknowledging and deleting ``acks`` (and what rides along) in the same
        round trip."""
        pipe, settle = self._acking(acks)
        pipe.xreadgroup(self.group, me, {self.stream: ">"}, count=batch, block=block_ms)
        replies = self.trips.run(pipe)
        settle(replies)
        got = replies[-1]
        return got[0][1] if got else []

    def _ack(self, ids: list) -> None:
        if ids or self._riders:
            pipe, settle = self._acking(ids)
            settle(self.trips.run(pipe))

    def _acking(self, ids: list):
        """A pipeline that acknowledges and deletes ``ids`` (handled entries)
        and carries the riders (see ``ride``); and the function that hands
        the riders their replies once it has run."""
        pipe = self.redis.pipeline(transaction=False)
        at = 0
        if ids:
            pipe.xack(self.stream, self.group, *ids)
            pipe.xdel(self.stream, *ids)
            at = 2
        riders, self._riders = self._riders, []
        spans = []
        for add, done in riders:
            count = add(pipe)
            spans.append((done, at, at + count))
            at += count

        def settle(replies: list) -> None:
            for done, start, end in spans:
                try:
                    done(replies[start:end])
                except Exception:
                    log.exception("a rider on %s failed", self.stream)
        return pipe, settle

    def free_predecessors_entries(self) -> int:
        """Make what this worker's predecessor had taken claimable at once: a
        worker started again under its stable ``PBEM_WORKER_NAME`` (its
        predecessor is dead: ``make run`` starts it again only then) marks the
        entries pending under its consumer as idle for ``claim_idle_ms``, so the
        next drain claims them in whichever worker RQ gives it to (often the
        other one, already waiting), not ``claim_idle_ms`` after the crash.
        Returns how many; none for a consumer named by its pid (it is new)."""
        if not env("PBEM_WORKER_NAME"):
            return 0
        me = consumer_name()
        ids = [e["message_id"] for e in
               self.redis.xpending_range(self.stream, self.group, "-", "+", 10000, consumername=me)]
        if ids:
            self.redis.xclaim(self.stream, self.group, me, 0, ids, idle=self.claim_idle_ms, justid=True)
        return len(ids)

    def _claim(self, me: str, batch: int) -> list:
        claimed = self.redis.xautoclaim(self.stream, self.group, me, self.claim_idle_ms, "0-0", count=batch)[1]
        return [e for e in claimed if e[1]]

    def _ask_for_helper(self) -> None:
        if self.redis.set(self.helper_lease, "queued", nx=True, px=LEASE_MS):
            self._enqueue_drain(helper=True)

    def _handle(self, handle: Callable[[list[dict]], object], entries: list) -> list:
        """Handle entries; returns their ids, to acknowledge."""
        items = [{k.decode(): v.decode() for k, v in fields.items()} for _, fields in entries]
        try:
            handle(items)
        except STORE_DOWN:
            raise  # leave them pending; a later drain retakes them (on a cluster: a failover, a slot moving)
        except Exception:
            log.exception("handling a batch of %s failed; handling one by one", self.stream)
            for item in items:
                try:
                    handle([item])
                except STORE_DOWN:
                    raise
                except Exception:
                    log.exception("handling %s failed", item)
        return [entry_id for entry_id, _ in entries]

    def orphans(self) -> int:
        """Whether entries wait that no drainer will take unless kicked (a
        count, 0 or 1): an entry left unacknowledged with a consumer for
        longer than ``claim_idle_ms`` (a dead worker's), or an entry older
        than that which no consumer ever read while no drainer holds the
        lease. The second is what a failover leaves: a drainer's read
        (XREADGROUP) reached the old master and not its replica, the drainer
        died with its connection and its lease expired, and the stream's next
        push may never come (the games in it wait for these very moves)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xpending_range(self.stream, self.group, "-", "+", 1, idle=self.claim_idle_ms)
        pipe.exists(self.lease)
        pipe.xrange(self.stream, "-", "+", count=1)
        idle, leased, first = self.trips.run(pipe)
        if idle:
            return 1
        if leased or not first:
            return 0
        age_ms = time.time() * 1000 - int(first[0][0].split(b"-")[0])
        return int(age_ms >= self.claim_idle_ms)

    def rewind_past_lost_reads(self) -> bool:
        """Let the group read again entries it will otherwise never deliver.
        Entries are deleted when acknowledged, so every entry in the stream
        waits for its move; one at or below the group's last-delivered id
        that no consumer holds pending was read from a master that died
        before its pending list reached the replica (the cursor did), and
        ``XREADGROUP >`` skips it for ever. With nothing pending and no
        drainer (the caller checked the lease), the cursor goes back to just
        before the oldest entry: each move is still applied once (an append
        is idempotent: a move applied already is acknowledged, not redone).
        True if it rewound."""
        groups = {g["name"].decode() if isinstance(g["name"], bytes) else g["name"]: g
                  for g in self.redis.xinfo_groups(self.stream)}
        group = groups.get(self.group)
        first = self.redis.xrange(self.stream, "-", "+", count=1)
        if not group or not first or group.get("pending"):
            return False
        last = group.get("last-delivered-id") or b"0-0"
        last = last.decode() if isinstance(last, bytes) else last
        oldest = first[0][0].decode() if isinstance(first[0][0], bytes) else first[0][0]
        ms, seq = (int(x) for x in oldest.split("-"))
        if (ms, seq) > tuple(int(x) for x in last.split("-")):
            return False  # not read yet: a drain will deliver it
        before = f"{ms}-{seq - 1}" if seq else f"{ms - 1}-18446744073709551615"
        self.redis.xgroup_setid(self.stream, self.group, before)
        log.warning("sweeper: %s: entries from %s were read by a lost master; the group reads them again",
                    self.stream, oldest)
        return True

    def sweep_once(self) -> None:
        """Kick a drain if orphaned submissions wait, after letting the group
        read again what a lost master delivered (``rewind_past_lost_reads``)."""
        if self.orphans():
            if not self.redis.exists(self.lease):
                self.rewind_past_lost_reads()
            self.kick()

    def sweep_forever(self, stop) -> None:
        """Kick a drain whenever orphaned submissions appear (a worker's
        background thread; independent of RQ's scheduler, whose lock a
        killed worker may hold for a while)."""
        while not stop.wait(self.claim_idle_ms / 2000):
            try:
                self.sweep_once()
            except (redis.RedisError, *STORE_DOWN):
                log.warning("sweeper: redis unavailable", exc_info=True)


class MoveQueue(StreamQueue):
    """Move submissions: (game, move id) pairs applied in batches."""

    #: A busy move drainer stays in its process up to this long (RQ's job
    #: timeout is 180 s): every game's moves meet the same state cache.
    MAX_RUN_S = 60.0

    def __init__(self, client: redis.Redis, claim_idle_ms: int = 5000, linger_s: float = 0.5,
                 gather_s: float = 0.0, shard: int = 0):
        shards = shards_of(client)
        # One plain Redis: STREAM and DRAIN_LEASE, the names pbem has always used.
        super().__init__(client, shards.key(shard, "submissions"), GROUP, shards.key(shard, "drain:lease"),
                         MOVES_QUEUE, DRAIN_JOB, claim_idle_ms, linger_s, max_run_s=self.MAX_RUN_S,
                         gather_s=gather_s, job_kwargs={"shard": shard} if shards.cluster else None,
                         durable=True)
        self.shard = shard

    # A queue is its own one shard (pbem/pipeline/shard_queues.py has the sharded kind).
    @property
    def queues(self) -> list["MoveQueue"]:
        return [self]

    def for_shard(self, shard: int) -> "MoveQueue":
        return self

    def for_game(self, game_id: str) -> "MoveQueue":
        return self

    @staticmethod
    def _entry(game_id: str, move_id: str, record: dict | None) -> dict:
        # The record rides along: a drainer that holds the game's state
        # then decides without reading anything (Service.apply_moves).
        fields = {"g": game_id, "m": move_id}
        rid = logs.request_id.get()
        if rid:
            fields["q"] = rid  # the request's id, for the worker's log line (pbem.telemetry.logs)
        if record is not None:
            fields["r"] = dumps(record)
        return fields

    def push(self, game_id: str, move_id: str, first=None, record: dict | None = None):
        return self.push_fields(self._entry(game_id, move_id, record), first)

    def push_wait(self, game_id: str, move_id: str, first, wait_key: str, wait_s: float,
                  record: dict | None = None) -> tuple:
        return self.push_and_wait(self._entry(game_id, move_id, record), first, wait_key, wait_s)

    def push_checked(self, game_id: str, move_id: str, add, wait_keys: list[str] | None = None,
                     wait_s: float = 0.0) -> tuple:
        """Like ``push_wait``, for an entry that ``add(pipe, stream, fields)``
        adds only if a check in Redis passes (``Store.queue_if_current``,
        which adds the record as field ``r``). Without ``wait_keys``, no
        wait. Returns (add's reply, popped or None)."""
        fields = self._entry(game_id, move_id, None)

        def first(pipe):
            return add(pipe, self.stream, fields)
        if not wait_keys:
            return self.push_fields(None, first), None
        return self.push_and_wait(None, first, wait_keys, wait_s)

    def drain(self, apply: Callable[..., object], shard: int | None = None, **kw) -> int:
        """``apply`` takes a list of (game, move id) pairs, and ``records``:
        the queued records the entries carried, by pair."""
        def batch(items):
            logs.batch_request_ids.set({(i["g"], i["m"]): i["q"] for i in items if "q" in i})
            return apply([(i["g"], i["m"]) for i in items],
                         records={(i["g"], i["m"]): json.loads(i["r"]) for i in items if "r" in i})
        return self.drain_fields(batch, **kw)
