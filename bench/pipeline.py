"""The move pipeline end to end: signed moves over HTTP, through the queue and
the workers, into the log. One command:

    python bench/pipeline.py [--seconds 20] [--url http://127.0.0.1:8000] [--quick]

Without --url it starts its own server exactly as ``make run`` does (embedded
Redis with appendfsync always, gunicorn with WEB_CONCURRENCY=2, PBEM_WORKERS=2)
on free loopback ports with a temporary data directory, and stops it after.

It reports, from the same run and the same gunicorn settings:
  1. noop:       req/s of ``POST /noop`` (the baseline),
  2. throughput: applied moves/s with many concurrent games, each move a
                 signed envelope sent with ``Prefer: wait`` so it returns once
                 applied (so a latency is submit-to-applied),
  3. paced:      submit-to-applied latency p50/p99 at a fixed 100 moves/s.
The first two take turns (``--rounds``, 2 by default), so that the drift of
a shared machine's speed weighs on both, with the same 32 concurrent
clients: a move waits for a worker, so it takes more clients than the no-op
to keep the server busy (16 left 14 % of the CPU idle in the move phase; 32
does not slow the no-op).

Games are Wakanda with the whole setup fixed by options, so every move is
known and signed before the clock starts. The last line is one JSON object.

    python bench/pipeline.py --cluster [--masters 1,2,3] [--replicas 1]

runs, at once, a server on one embedded Redis (as ``make run``) and one on
each of three embedded Redis Clusters (1, 2 and 3 masters, each master with
a replica, every node ``appendfsync always`` like make run's Redis, RQ on a
plain Redis of each server's own), and measures their throughput phases in
turns (the order reversed every round). It prints applied moves/s and the
ratio to the single Redis, the Redis CPU per move of each node (from
/proc/PID/stat, and as the node's INFO cpu says), the server's CPU per
move by part, the price of ``WAIT 1``, and where the bottleneck is: the
busiest master's share of a core (which says at what rate it would
saturate, so that the scaling can be read beyond this machine's cores)
against the machine's cores (/proc/stat, other users' load included).
Loopback only; every loop is bounded in count and time.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import games  # noqa: E402
from pbem.games.playout import play_random  # noqa: E402
from pbem.trust.signing import generate_key, make_envelope  # noqa: E402
from _quick import parse_args  # noqa: E402

PIECES = ["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3 + ["fur"] * 4 + ["tipi"] * 5 + ["sun"] * 6
VILLAGES = ["eagle", "chief", "tomahawk", "fur", "tipi", "sun", "variety", "height"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Http:
    """One keep-alive connection per thread."""

    def __init__(self, url: str):
        u = urlparse(url)
        self.host, self.port = u.hostname, u.port
        self.local = threading.local()

    def conn(self) -> http.client.HTTPConnection:
        c = getattr(self.local, "c", None)
        if c is None:
            c = self.local.c = http.client.HTTPConnection(self.host, self.port, timeout=30)
        return c

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        for attempt in range(2):
            try:
                c = self.conn()
                c.request(method, path, body=data, headers=hdrs)
                resp = c.getresponse()
                return resp.status, resp.read()
            except (http.client.HTTPException, OSError):
                self.local.c = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


REDIS_PORTS: dict[str, int] = {}
SERVER_PIDS: dict[str, int] = {}
DATA_DIRS: dict[int, str] = {}  # a started server's temporary data directory, by its pid
ROLES = (("redis-server", "redis"), ("valkey-server", "redis"), ("gunicorn", "api"), ("pbem-notify", "background"),
         ("workers.worker", "moves"), ("mail_in", "mail-in"), ("pbem.server.run", "supervisor"))
TICK = os.sysconf("SC_CLK_TCK")


def cpu_by_role(root: int | None) -> dict[str, float]:
    """CPU seconds so far of each part of a server we started (the process
    tree under ``root``, reaped children included), and of this client."""
    out = {"client": time.process_time()}
    if root is None:
        return out
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = sum(int(x) for x in fields[11:15]) / TICK  # utime stime cutime cstime
    for pid, seconds in times.items():
        p, hops = pid, 0
        while p not in (root, 0, 1) and hops < 16:
            p, hops = parents.get(p, 0), hops + 1
        if p != root and pid != root:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        role = next((name for needle, name in ROLES if needle in cmd), "other")
        out[role] = out.get(role, 0.0) + seconds
    return out


def cpu_per(before: dict[str, float], after: dict[str, float], count: int) -> dict[str, float]:
    """Milliseconds of CPU per unit of work, by part, between two readings."""
    return {role: round((after[role] - before.get(role, 0.0)) * 1000 / max(count, 1), 3)
            for role in after if after[role] - before.get(role, 0.0) > 0}


def cpu_line(per: dict[str, float]) -> str:
    return "  ".join(f"{role} {ms:.2f}" for role, ms in sorted(per.items(), key=lambda kv: -kv[1])) + \
        f"  (total {sum(per.values()):.2f} ms)"


def start_server(workers: int, api_workers: int, notify: bool, root: Path = ROOT,
                 extra_env: dict | None = None, attempts: int = 3) -> tuple[subprocess.Popen, str, str]:
    """``make run`` on free ports (its own mail and stream ports too, so that
    several run at once): this checkout's, or (A/B runs) another checkout's
    with its own .venv; ``extra_env``: settings of its own (a REDIS_URL
    naming a cluster, say)."""
    data = tempfile.mkdtemp(prefix="pbem-bench-")
    port = free_port()
    REDIS_PORTS[f"http://127.0.0.1:{port}"] = redis_port = free_port()
    env = dict(os.environ, PORT=str(port), PBEM_REDIS_PORT=str(redis_port), PBEM_DATA_DIR=data,
               PBEM_WORKERS=str(workers), WEB_CONCURRENCY=str(api_workers), PBEM_NOTIFY="1" if notify else "0",
               PBEM_MAIL_PORT=str(free_port()), PBEM_STREAM_PORT=str(free_port()),
               # The bench's clients create and join games from one address far faster than the
               # request limits let anyone; moves have no limit either way (pbem/api/limits.py).
               PBEM_RATE_LIMITS="0")
    env.pop("SMTP_URL", None)  # mail goes to the maildir under the data dir
    env.pop("REDIS_URL", None)
    env.pop("PBEM_QUEUE_REDIS_URL", None)
    env.update(extra_env or {})
    python = sys.executable if root == ROOT else str(root / ".venv" / "bin" / "python")
    proc = subprocess.Popen([python, "-m", "pbem.server.run"], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    SERVER_PIDS[url] = proc.pid
    DATA_DIRS[proc.pid] = data
    client = Http(url)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if client.request("GET", "/health")[0] == 200:
                # A free port can be taken by another process before the server binds it
                # (benchmarks run beside the suite's own servers): the answer must be pbem's.
                if client.request("GET", "/game-types")[0] == 200 and proc.poll() is None:
                    return proc, url, data
                break
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(proc)
    if attempts > 1 and time.monotonic() < deadline:
        return start_server(workers, api_workers, notify, root, extra_env, attempts - 1)
    raise SystemExit("the server did not start")


def stop_server(proc: subprocess.Popen) -> None:
    """Ctrl-C to the server (its whole process group), then its temporary
    data directory goes: a bench run leaves nothing behind in /tmp."""
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    data = DATA_DIRS.pop(proc.pid, None)
    if data:
        shutil.rmtree(data, ignore_errors=True)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run_noop(client: Http, threads: int, seconds: float) -> dict:
    counts = [0] * threads
    stop = time.monotonic() + seconds

    def loop(i):
        while time.monotonic() < stop:
            status, _ = client.request("POST", "/noop", {})
            assert status == 200
            counts[i] += 1

    ts = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    t0 = time.monotonic()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    elapsed = time.monotonic() - t0
    return {"requests": sum(counts), "req_per_s": sum(counts) / elapsed, "elapsed": elapsed}


class Game:
    """A Wakanda game on the server with every move pre-signed."""

    def __init__(self, client: Http, seed: int, email: bool = False):
        rng = random.Random(seed)
        bag = PIECES[:]
        rng.shuffle(bag)
        villages = VILLAGES[:]
        rng.shuffle(villages)
        options = {"fixed_villages": villages, "fixed_bag": bag, "start_player": seed % 2}
        status, body = client.request("POST", "/games", {"game": "wakanda", "players": 2, "options": options})
        assert status == 201, body
        self.id = json.loads(body)["id"]
        keys = [generate_key() for _ in range(2)]
        for seat, (_, public) in enumerate(keys):
            join = {"public_key": public, "name": f"bot{seat}"}
            if email:
                join["email"] = f"bot{seat}@example.org"
            status, body = client.request("POST", f"/games/{self.id}/seats/{seat}", join)
            assert status == 201, body
        playout = play_random(games.get("wakanda"), 2, options, seed=seed)
        self.envelopes = [make_envelope(self.id, player, version, move, keys[player][0])
                          for version, player, move in playout.moves]
        self.next = 0

    def done(self) -> bool:
        return self.next >= len(self.envelopes)


def submit_next(client: Http, game: Game) -> tuple[bool, float]:
    env = game.envelopes[game.next]
    t0 = time.perf_counter()
    status, body = client.request("POST", f"/games/{game.id}/moves", env, {"Prefer": "wait=10"})
    latency = time.perf_counter() - t0
    game.next += 1
    record = json.loads(body)
    ok = status == 200 and record.get("status") == "applied"
    if not ok:
        print(f"  not applied: {status} {body[:200]!r}", file=sys.stderr)
        game.next = len(game.envelopes)  # this game's script no longer matches
    return ok, latency


def make_games(client: Http, count: int, seed0: int, email: bool) -> list[Game]:
    return [Game(client, seed0 + i, email) for i in range(count)]


ACTIVE_GAMES = 800  # games in play at once in the throughput phase (a finished one is replaced)


class Share:
    """One client's part of the pool: ``window`` games in play at once, a
    new one started as one ends; kept from one round to the next."""

    def __init__(self, games: list[Game], window: int):
        self.window, self.waiting, self.live, self.turn = window, iter(games), [], 0

    def next_game(self) -> Game | None:
        self.live = [g for g in self.live if not g.done()]
        while len(self.live) < self.window:
            game = next(self.waiting, None)
            if game is None:
                break
            if not game.done():
                self.live.append(game)
        if not self.live:
            return None
        self.turn += 1
        return self.live[self.turn % len(self.live)]


def shares_of(pool: list[Game], threads: int) -> list[Share]:
    return [Share(pool[i::threads], max(1, ACTIVE_GAMES // threads)) for i in range(threads)]


def run_throughput(client: Http, shares: list[Share], seconds: float) -> dict:
    """Each client plays its share of the pool round-robin, ``ACTIVE_GAMES /
    threads`` games at a time, starting a new one as one ends: a server with a
    steady number of games in play, however long the phase."""
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def loop(share: Share):
        while time.monotonic() < stop:
            game = share.next_game()
            if game is None:
                return
            ok, latency = submit_next(client, game)
            with lock:
                if ok:
                    latencies.append(latency)
                else:
                    failures[0] += 1

    ts = [threading.Thread(target=loop, args=(share,)) for share in shares]
    t0 = time.monotonic()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    elapsed = time.monotonic() - t0
    if elapsed < seconds * 0.95:
        print(f"  warning: every game of the pool ended after {elapsed:.1f} s of {seconds:g} (use --games)",
              file=sys.stderr)
    return {"applied": len(latencies), "failed": failures[0], "moves_per_s": len(latencies) / elapsed,
            "elapsed": elapsed, "latencies": latencies,
            "p50_ms": pct(latencies, 0.5) * 1000, "p99_ms": pct(latencies, 0.99) * 1000}


def run_paced(client: Http, pool: list[Game], rate: float, seconds: float) -> dict:
    """Open loop: one move every 1/rate s, each on a game with none in flight."""
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    busy: set[str] = set()
    sem = threading.Semaphore(64)

    def one(game: Game):
        try:
            ok, latency = submit_next(client, game)
            with lock:
                (latencies.append(latency) if ok else failures.__setitem__(0, failures[0] + 1))
        finally:
            with lock:
                busy.discard(game.id)
            sem.release()

    t0 = time.monotonic()
    n = int(rate * seconds)
    sent = 0
    cursor = 0
    threads = []
    for k in range(n):
        target = t0 + k / rate
        delay = target - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        with lock:
            ready = [g for g in pool if not g.done() and g.id not in busy]
        if not ready:
            continue
        game = ready[cursor % len(ready)]
        cursor += 1
        with lock:
            busy.add(game.id)
        sem.acquire()
        t = threading.Thread(target=one, args=(game,))
        t.start()
        threads.append(t)
        sent += 1
    for t in threads:
        t.join(30)
    elapsed = time.monotonic() - t0
    return {"target_per_s": rate, "sent": sent, "applied": len(latencies), "failed": failures[0],
            "achieved_per_s": len(latencies) / elapsed,
            "p50_ms": pct(latencies, 0.5) * 1000, "p99_ms": pct(latencies, 0.99) * 1000}


def notices_settle(url: str, limit_s: float = 120.0) -> float | None:
    """Seconds until the notices stream of a server we started is empty (the
    notification lag the throughput phase left), so the paced phase starts
    on a quiet server. None when we did not start the server."""
    port = REDIS_PORTS.get(url)
    if port is None:
        return None
    import redis

    client = redis.Redis(port=port)
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit_s:
        try:
            pending = client.xpending("pbem:notices", "notifiers")["pending"]
        except redis.ResponseError:
            pending = 0
        if client.xlen("pbem:notices") == 0 and not pending:
            return time.monotonic() - t0
        time.sleep(0.1)
    return time.monotonic() - t0


class NoticeLag:
    """Samples, every 100 ms while running, how long the oldest turn notice
    not yet handled has waited (a server we started only): the delay the
    notification path adds."""

    def __init__(self, url: str, active: bool = True):
        self.port = REDIS_PORTS.get(url)
        self.samples: list[float] = []
        self.active = threading.Event()  # samples only while set
        if active:
            self.active.set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self):
        if self.port is not None:
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(5)

    def run(self) -> None:
        import redis

        client = redis.Redis(port=self.port)
        while not self.stop.wait(0.1):
            if not self.active.is_set():
                continue
            try:
                oldest = client.xrange("pbem:notices", "-", "+", count=1)
            except redis.RedisError:
                continue
            now_ms = client.time()
            now_ms = now_ms[0] * 1000 + now_ms[1] // 1000
            self.samples.append((now_ms - int(oldest[0][0].split(b"-")[0])) / 1000 if oldest else 0.0)

    def summary(self) -> dict | None:
        if self.port is None or not self.samples:
            return None
        return {"p50_s": round(pct(self.samples, 0.5), 2), "p99_s": round(pct(self.samples, 0.99), 2),
                "max_s": round(max(self.samples), 2)}


def lag_text(lag: dict | None) -> str:
    return "" if not lag else f"; oldest unsent notice p50 {lag['p50_s']} s, max {lag['max_s']} s"


def measure(url: str, args, notify: bool) -> dict:
    client = Http(url)
    label = "notify on " if notify else "notify off"
    root = SERVER_PIDS.get(url)
    run_noop(client, args.threads, args.warmup)  # warm-up: every gunicorn worker booted and hot
    # About 23 moves a game: enough games that the phases never run out.
    pool = make_games(client, args.games or max(800, int(args.seconds * 55)), 1000, notify)
    # The no-op and the moves take turns, ``rounds`` times: this machine's
    # speed drifts by a quarter over a minute, and a drift then weighs on both.
    shares = shares_of(pool, args.threads)
    noop_cpu: dict[str, float] = {}
    move_cpu: dict[str, float] = {}
    noops, thrs = [], []
    part = args.seconds / args.rounds
    with NoticeLag(url, active=False) as thr_lag:
        for r in range(args.rounds):
            if r:
                notices_settle(url)  # the no-op on a quiet server: no notice backlog from the last round
            cpu0 = cpu_by_role(root)
            noops.append(run_noop(client, args.threads, part))
            cpu1 = cpu_by_role(root)
            thr_lag.active.set()
            thrs.append(run_throughput(client, shares, part))
            cpu2 = cpu_by_role(root)
            thr_lag.active.clear()
            for into, a, b in ((noop_cpu, cpu0, cpu1), (move_cpu, cpu1, cpu2)):
                for role, seconds in b.items():
                    into[role] = into.get(role, 0.0) + seconds - a.get(role, 0.0)
            print(f"[{label}]   round {r + 1}: noop {noops[-1]['req_per_s']:.1f} req/s, "
                  f"{thrs[-1]['moves_per_s']:.1f} applied moves/s: "
                  f"{thrs[-1]['moves_per_s'] / noops[-1]['req_per_s']:.3f}", flush=True)
    noop = {"requests": sum(n["requests"] for n in noops),
            "req_per_s": sum(n["requests"] for n in noops) / sum(n["elapsed"] for n in noops)}
    latencies = [x for t in thrs for x in t["latencies"]]
    thr = {"applied": len(latencies), "failed": sum(t["failed"] for t in thrs),
           "moves_per_s": len(latencies) / sum(t["elapsed"] for t in thrs),
           "p50_ms": pct(latencies, 0.5) * 1000, "p99_ms": pct(latencies, 0.99) * 1000}
    noop_cpu = cpu_per({}, noop_cpu, noop["requests"])
    move_cpu = cpu_per({}, move_cpu, thr["applied"])
    print(f"[{label}] noop        {noop['req_per_s']:9.1f} req/s", flush=True)
    print(f"[{label}]   CPU ms per request: {cpu_line(noop_cpu)}", flush=True)
    print(f"[{label}] throughput  {thr['moves_per_s']:9.1f} applied moves/s  p50 {thr['p50_ms']:.1f} ms  "
          f"p99 {thr['p99_ms']:.1f} ms  ({thr['applied']} applied, {thr['failed']} failed)"
          f"{lag_text(thr_lag.summary()) if notify else ''}", flush=True)
    print(f"[{label}]   CPU ms per move (notices handled later not counted): {cpu_line(move_cpu)}", flush=True)
    lag = notices_settle(url)
    if lag is not None:
        print(f"[{label}] notices     backlog handled {lag:.1f} s after the throughput phase", flush=True)
    # a game has one move in flight at most: enough games for the rate
    pool = make_games(client, max(min(50, int(args.rate)), int(args.rate * args.seconds / 15)), 5000, notify)
    with NoticeLag(url) as paced_lag:
        paced = run_paced(client, pool, args.rate, args.seconds)
    print(f"[{label}] paced       {paced['achieved_per_s']:9.1f} moves/s (target {args.rate:g})  "
          f"p50 {paced['p50_ms']:.1f} ms  p99 {paced['p99_ms']:.1f} ms  ({paced['failed']} failed)"
          f"{lag_text(paced_lag.summary()) if notify else ''}", flush=True)
    return {"noop_req_per_s": round(noop["req_per_s"], 1), "applied_moves_per_s": round(thr["moves_per_s"], 1),
            "ratio_to_noop": round(thr["moves_per_s"] / noop["req_per_s"], 3),
            "throughput_p50_ms": round(thr["p50_ms"], 2), "throughput_p99_ms": round(thr["p99_ms"], 2),
            "paced_rate": args.rate, "paced_achieved": round(paced["achieved_per_s"], 1),
            "paced_p50_ms": round(paced["p50_ms"], 2), "paced_p99_ms": round(paced["p99_ms"], 2),
            "notice_backlog_s": None if lag is None else round(lag, 2),
            "notice_lag_throughput": thr_lag.summary() if notify else None,
            "notice_lag_paced": paced_lag.summary() if notify else None,
            "failed": thr["failed"] + paced["failed"],
            "cpu_ms_per_noop": noop_cpu, "cpu_ms_per_move": move_cpu}


# -- --cluster: one Redis against Redis Clusters of 1, 2 and 3 masters ---------

def node_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) of one process so far, from /proc."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far (/proc/stat),
    every process's, other users' too."""
    with open("/proc/stat") as f:
        values = [int(x) for x in f.readline().split()[1:]]
    total = sum(values[:8]) / TICK
    return total - (values[3] + values[4]) / TICK, total


def info_cpu(port: int) -> float:
    """CPU seconds of a Redis as it says itself (INFO cpu: the main thread
    and its I/O, as used_cpu_user + used_cpu_sys)."""
    import redis

    try:
        info = redis.Redis(port=port, socket_timeout=5).info("cpu")
    except redis.RedisError:
        return 0.0
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


class Backend:
    """One store for one server: the single embedded Redis of ``make run``,
    or an embedded cluster (``masters``, each with ``replicas``) and a plain
    Redis for its RQ queues. ``redis_nodes()``: name -> (port, pid) of each
    Redis whose CPU is read."""

    def __init__(self, masters: int, replicas: int, appendfsync: str, shards: int = 12):
        self.masters, self.replicas, self.appendfsync, self.shards = masters, replicas, appendfsync, shards
        self.cluster = self.queues = self.data = None
        self.name = "single Redis" if not masters else f"{masters} master{'s' if masters > 1 else ''}"
        self.url = None

    def start(self, args) -> "Backend":
        extra = {"PBEM_APPENDFSYNC": self.appendfsync}
        if self.masters:
            from pbem.server.embedded_cluster import EmbeddedCluster
            from pbem.server.embedded_redis import EmbeddedRedis

            data = self.data = Path(tempfile.mkdtemp(prefix="pbem-bench-cluster-"))
            self.cluster = EmbeddedCluster(data / "nodes", masters=self.masters, replicas=self.replicas,
                                           appendfsync=self.appendfsync).start()
            self.queues = EmbeddedRedis(data / "queues", appendfsync="everysec").start()
            extra.update(REDIS_URL=self.cluster.url, PBEM_QUEUE_REDIS_URL=self.queues.url,
                         PBEM_SHARDS=str(self.shards))
        self.proc, self.url, _ = start_server(args.workers, args.api_workers, False, extra_env=extra)
        if self.masters:
            REDIS_PORTS.pop(self.url, None)  # not the store: the cluster is
        return self

    def redis_nodes(self) -> dict[str, tuple[int, int | None]]:
        if not self.masters:
            port = REDIS_PORTS[self.url]
            pid = next((pid for pid, role in pids_by_role(SERVER_PIDS[self.url]) if role == "redis"), None)
            return {"redis": (port, pid)}
        nodes = {}
        for i, master in enumerate(sorted(self.cluster.masters(), key=lambda n: n.port)):
            nodes[f"master {i + 1}"] = (master.port, master.pid)
            for j, replica in enumerate(self.cluster.replicas_of(master)):
                nodes[f"replica {i + 1}.{j + 1}"] = (replica.port, replica.pid)
        nodes["queue redis"] = (self.queues.port, self.queues.process.pid)
        return nodes

    def stop(self) -> None:
        if getattr(self, "proc", None):
            stop_server(self.proc)
        if self.cluster:
            self.cluster.stop()
        if self.queues:
            self.queues.stop()
        if self.data:  # the cluster's and the queues' files: nothing to keep once stopped
            shutil.rmtree(self.data, ignore_errors=True)


def pids_by_role(root: int) -> list[tuple[int, str]]:
    """(pid, role) of the processes under ``root`` (as ``cpu_by_role``)."""
    parents, out = {}, []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as f:
                    parents[int(entry.name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    for pid in parents:
        p, hops = pid, 0
        while p not in (root, 0, 1) and hops < 16:
            p, hops = parents.get(p, 0), hops + 1
        if p != root:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        out.append((pid, next((name for needle, name in ROLES if needle in cmd), "other")))
    return out


def redis_cpu(backend: Backend) -> dict[str, tuple[float, float]]:
    """name -> (CPU s from /proc, CPU s from INFO) of each Redis of a backend."""
    return {name: (node_cpu(pid), info_cpu(port)) for name, (port, pid) in backend.redis_nodes().items()}


def wait_cost(backend: Backend, count: int = 2000) -> dict:
    """The price of ``WAIT 1`` (pbem/store/cluster_trips.py): a two-command round
    trip to a master, without and with the fence and WAIT, alternately."""
    from pbem.store.cluster_trips import ClusterRoundTrips
    from pbem.store.connections import store_client

    trips = ClusterRoundTrips(store_client(backend.cluster.url), wait_replicas=1)
    times = {False: [], True: []}
    for i in range(count * 2):
        durable = bool(i % 2)
        pipe = trips.pipeline()
        pipe.xadd("{bench:wait}:s", {"a": "1"}, maxlen=100)
        pipe.hget("{bench:wait}:h", "m")
        t0 = time.perf_counter()
        trips.run(pipe, durable=durable)
        times[durable].append(time.perf_counter() - t0)
    trips.close()
    plain, waited = pct(times[False], 0.5) * 1e6, pct(times[True], 0.5) * 1e6
    return {"plain_us_p50": round(plain), "wait1_us_p50": round(waited), "extra_us": round(waited - plain),
            "plain_us_p99": round(pct(times[False], 0.99) * 1e6), "wait1_us_p99": round(pct(times[True], 0.99) * 1e6)}


def bottleneck(rate: float, roles: dict[str, float], nodes: dict[str, float], cores: int,
               machine_busy: float) -> tuple[str, dict]:
    """Where a configuration's throughput stops: the busiest Redis (one
    core's worth of commands each), or the machine's cores (the API and
    workers, Python, plus every Redis)."""
    masters = {n: ms for n, ms in nodes.items() if n.startswith(("master", "redis"))}
    busiest = max(masters, key=masters.get)
    busiest_util = masters[busiest] * rate / 1000  # of one core
    total_ms = sum(roles.values()) + sum(nodes.values())
    ours = total_ms * rate / 1000 / cores  # the bench's own processes
    machine_util = max(ours, machine_busy)  # others' too: the cores are shared
    python_ms = sum(ms for role, ms in roles.items() if role != "client")
    # A master saturates when its busy core is full; with the moves spread
    # as measured, the store's ceiling is the rate at which the busiest does.
    redis_ceiling = rate / busiest_util if busiest_util else float("inf")
    facts = {"machine_busy": round(machine_busy, 3), "bench_busy": round(ours, 3), "busiest_redis": busiest,
             "busiest_redis_busy": round(busiest_util, 3), "redis_ceiling_moves_per_s": round(redis_ceiling),
             "server_cores_per_1000_moves_per_s": round(python_ms, 2)}
    if busiest_util >= 0.85:
        where = f"Redis: {busiest} is {busiest_util:.0%} busy (one core's worth); its moves need another master"
    elif machine_util >= 0.85:
        where = (f"the machine's {cores} cores ({machine_util:.0%} busy, {ours:.0%} by this bench; API + "
                 f"workers {python_ms:.2f} ms CPU a move, every Redis {sum(nodes.values()):.2f}); {busiest} only "
                 f"{busiest_util:.0%} busy: the store would carry ~{redis_ceiling:.0f} moves/s given the cores")
    else:
        where = (f"neither Redis ({busiest} {busiest_util:.0%} busy) nor the cores ({machine_util:.0%}, "
                 f"{ours:.0%} by this bench): latency (round trips, WAIT, the clients)")
    return where, facts


def main_cluster(args) -> None:
    """One Redis and clusters of 1, 2, 3 masters (``--masters``), each behind
    a server of its own, all running at once and measured in turns, in the
    same run (the drift of a shared machine weighs on each)."""
    cores = os.cpu_count() or 1
    counts = [int(m) for m in args.masters.split(",")]
    backends = [Backend(0, 0, args.appendfsync)] + [Backend(m, args.replicas, args.appendfsync, args.shards)
                                                    for m in counts]
    out: dict = {"bench": "pipeline-cluster", "seconds": args.seconds, "threads": args.threads,
                 "replicas": args.replicas, "shards": args.shards, "appendfsync": args.appendfsync, "cores": cores,
                 "configs": {}}
    try:
        for b in backends:
            b.start(args)
            print(f"[{b.name}] {b.url}" + (f" on {b.cluster.url}" if b.cluster else "") , flush=True)
        if backends[1:]:
            out["wait_1"] = cost = wait_cost(backends[1])
            print(f"WAIT 1 (fence + WAIT after a two-command round trip to a master, replica on this host): "
                  f"p50 {cost['plain_us_p50']} -> {cost['wait1_us_p50']} us (+{cost['extra_us']} us), "
                  f"p99 {cost['plain_us_p99']} -> {cost['wait1_us_p99']} us", flush=True)
        clients, shares = {}, {}
        for b in backends:
            clients[b.name] = client = Http(b.url)
            run_noop(client, args.threads, 2.0)  # warm-up: every gunicorn worker booted
            pool = make_games(client, args.games or max(800, int(args.seconds * 55)), 1000, False)
            shares[b.name] = shares_of(pool, args.threads)
        part = args.seconds / args.rounds
        acc = {b.name: {"applied": 0, "failed": 0, "elapsed": 0.0, "lat": [], "roles": {}, "nodes": {},
                        "info": {}, "busy": 0.0, "total": 0.0} for b in backends}
        for r in range(args.rounds):
            order = backends if r % 2 == 0 else backends[::-1]
            for b in order:
                a = acc[b.name]
                root = SERVER_PIDS[b.url]
                roles0, nodes0, machine0 = cpu_by_role(root), redis_cpu(b), machine_cpu()
                res = run_throughput(clients[b.name], shares[b.name], part)
                roles1, nodes1, machine1 = cpu_by_role(root), redis_cpu(b), machine_cpu()
                a["busy"] += machine1[0] - machine0[0]
                a["total"] += machine1[1] - machine0[1]
                a["applied"] += res["applied"]
                a["failed"] += res["failed"]
                a["elapsed"] += res["elapsed"]
                a["lat"] += res["latencies"]
                for role, sec in roles1.items():
                    if role != "redis":  # the single Redis is counted with the nodes
                        a["roles"][role] = a["roles"].get(role, 0.0) + sec - roles0.get(role, 0.0)
                for node, (proc_s, info_s) in nodes1.items():
                    a["nodes"][node] = a["nodes"].get(node, 0.0) + proc_s - nodes0[node][0]
                    a["info"][node] = a["info"].get(node, 0.0) + info_s - nodes0[node][1]
                print(f"[{b.name}] round {r + 1}: {res['moves_per_s']:.1f} applied moves/s "
                      f"({res['failed']} failed)", flush=True)
        base = acc[backends[0].name]["applied"] / acc[backends[0].name]["elapsed"]
        for b in backends:
            a = acc[b.name]
            rate = a["applied"] / a["elapsed"]
            roles = {k: round(v * 1000 / max(a["applied"], 1), 3) for k, v in a["roles"].items() if v > 0}
            nodes = {k: round(v * 1000 / max(a["applied"], 1), 3) for k, v in a["nodes"].items()}
            info = {k: round(v * 1000 / max(a["applied"], 1), 3) for k, v in a["info"].items()}
            where, facts = bottleneck(rate, roles, nodes, cores, a["busy"] / max(a["total"], 1e-9))
            out["configs"][b.name] = {"applied_moves_per_s": round(rate, 1), "ratio_to_single": round(rate / base, 3),
                                      "failed": a["failed"], "p50_ms": round(pct(a["lat"], 0.5) * 1000, 2),
                                      "p99_ms": round(pct(a["lat"], 0.99) * 1000, 2),
                                      "cpu_ms_per_move": roles, "redis_cpu_ms_per_move": nodes,
                                      "redis_info_cpu_ms_per_move": info, "bottleneck": where, **facts}
            print(f"[{b.name}] {rate:8.1f} applied moves/s  x{rate / base:.3f} of one Redis  p50 "
                  f"{pct(a['lat'], 0.5) * 1000:.1f} ms  p99 {pct(a['lat'], 0.99) * 1000:.1f} ms  "
                  f"({a['applied']} applied, {a['failed']} failed)", flush=True)
            print(f"[{b.name}]   Redis CPU ms per move (/proc; INFO cpu): "
                  + "  ".join(f"{n} {nodes[n]:.3f} ({info[n]:.3f})" for n in nodes), flush=True)
            print(f"[{b.name}]   server CPU ms per move: {cpu_line(roles)}", flush=True)
            print(f"[{b.name}]   bottleneck: {where}", flush=True)
    finally:
        for b in backends:
            b.stop()
    print("where the bottleneck is:", flush=True)
    for name, c in out["configs"].items():
        print(f"  {name:12s} {c['applied_moves_per_s']:7.1f} moves/s (x{c['ratio_to_single']:.2f}); busiest Redis "
              f"{c['busiest_redis']} {c['busiest_redis_busy']:.0%} of a core -> the store saturates near "
              f"{c['redis_ceiling_moves_per_s']} moves/s; the server needs "
              f"{c['server_cores_per_1000_moves_per_s']:.1f} cores per 1000 moves/s", flush=True)
    print(json.dumps(out))


def measure_ab(urls: dict[str, str], args) -> dict:
    """Two servers, A and B, measured in turns within one run (ABBA over the
    rounds: the machine's drift weighs on both): each round is a no-op
    phase and a throughput phase on one, then the same on the other."""
    clients = {name: Http(url) for name, url in urls.items()}
    shares = {}
    for name, client in clients.items():
        run_noop(client, args.threads, args.warmup)  # warm-up
        pool = make_games(client, args.games or max(800, int(args.seconds * 55)), 1000, False)
        shares[name] = shares_of(pool, args.threads)
    part = args.seconds / args.rounds
    results = {name: {"noop": [], "thr": [], "noop_cpu": {}, "move_cpu": {}} for name in urls}
    for r in range(args.rounds):
        order = ["A", "B"] if r % 2 == 0 else ["B", "A"]
        for name in order:
            res, client, root = results[name], clients[name], SERVER_PIDS.get(urls[name])
            cpu0 = cpu_by_role(root)
            res["noop"].append(run_noop(client, args.threads, part))
            cpu1 = cpu_by_role(root)
            res["thr"].append(run_throughput(client, shares[name], part))
            cpu2 = cpu_by_role(root)
            for into, a, b in ((res["noop_cpu"], cpu0, cpu1), (res["move_cpu"], cpu1, cpu2)):
                for role, seconds in b.items():
                    into[role] = into.get(role, 0.0) + seconds - a.get(role, 0.0)
            print(f"[{name}] round {r + 1}: noop {res['noop'][-1]['req_per_s']:.1f} req/s, "
                  f"{res['thr'][-1]['moves_per_s']:.1f} applied moves/s: "
                  f"{res['thr'][-1]['moves_per_s'] / res['noop'][-1]['req_per_s']:.3f}", flush=True)
    out = {}
    for name, res in results.items():
        noops = sum(n["requests"] for n in res["noop"])
        applied = sum(t["applied"] for t in res["thr"])
        noop_rate = noops / sum(n["elapsed"] for n in res["noop"])
        move_rate = applied / sum(t["elapsed"] for t in res["thr"])
        lat = [x for t in res["thr"] for x in t["latencies"]]
        out[name] = {"noop_req_per_s": round(noop_rate, 1), "applied_moves_per_s": round(move_rate, 1),
                     "ratio_to_noop": round(move_rate / noop_rate, 4),
                     "rounds": [round(t["moves_per_s"] / n["req_per_s"], 4) for n, t in zip(res["noop"], res["thr"])],
                     "p50_ms": round(pct(lat, 0.5) * 1000, 2), "p99_ms": round(pct(lat, 0.99) * 1000, 2),
                     "failed": sum(t["failed"] for t in res["thr"]),
                     "cpu_ms_per_move": cpu_per({}, res["move_cpu"], applied),
                     "cpu_ms_per_noop": cpu_per({}, res["noop_cpu"], noops)}
        print(f"[{name}] {urls[name]}: noop {noop_rate:.1f} req/s, {move_rate:.1f} moves/s, ratio "
              f"{move_rate / noop_rate:.3f}; CPU ms per move: {cpu_line(out[name]['cpu_ms_per_move'])}", flush=True)
    out["a_over_b"] = round(out["A"]["ratio_to_noop"] / out["B"]["ratio_to_noop"], 4)
    out["a_over_b_moves"] = round(out["A"]["applied_moves_per_s"] / out["B"]["applied_moves_per_s"], 4)
    out["a_over_b_by_round"] = [round(a / b, 4) for a, b in zip(out["A"]["rounds"], out["B"]["rounds"])]
    print(f"A/B: ratio to the no-op {out['a_over_b']:.3f} (by round {out['a_over_b_by_round']}), "
          f"applied moves/s {out['a_over_b_moves']:.3f}", flush=True)
    return out


def _env_pairs(items: list[str]) -> dict:
    return dict(item.split("=", 1) for item in items)


def main_ab(args) -> None:
    """--b-root / --a-env / --b-env: A is this checkout, B another (or the
    same with other settings); their phases take turns."""
    specs = {"A": (ROOT, _env_pairs(args.a_env)),
             "B": (Path(args.b_root).resolve() if args.b_root else ROOT, _env_pairs(args.b_env))}
    procs, urls = [], {}
    try:
        for name, (root, extra) in specs.items():
            proc, url, _ = start_server(args.workers, args.api_workers, False, root, extra)
            procs.append(proc)
            urls[name] = url
            print(f"[{name}] {url}: {root} {extra or ''}", flush=True)
        result = measure_ab(urls, args)
    finally:
        for proc in procs:
            stop_server(proc)
    print(json.dumps({"bench": "pipeline-ab", "seconds": args.seconds, "threads": args.threads,
                      "a": {"root": str(specs["A"][0]), "env": specs["A"][1]},
                      "b": {"root": str(specs["B"][0]), "env": specs["B"][1]}, **result}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one like make run)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--threads", type=int, default=32, help="concurrent clients")
    parser.add_argument("--rounds", type=int, default=2,
                        help="the no-op and throughput phases take turns this many times (each --seconds in all)")
    parser.add_argument("--games", type=int, default=None,
                        help="games in the throughput pool (default: enough moves to last the phase)")
    parser.add_argument("--rate", type=float, default=100.0, help="paced phase: moves/s")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of no-op before measuring")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--api-workers", type=int, default=2)
    parser.add_argument("--notify", choices=["both", "on", "off"], default="both",
                        help="seats with email notifications (maildir), without, or both in turn")
    parser.add_argument("--cluster", action="store_true",
                        help="one Redis against Redis Clusters of --masters masters, each server its own, in turns")
    parser.add_argument("--masters", default="1,2,3", help="--cluster: the clusters' sizes")
    parser.add_argument("--replicas", type=int, default=1, help="--cluster: replicas per master (WAIT 1 needs one)")
    parser.add_argument("--appendfsync", default="always", help="--cluster: every Redis's (make run's: always)")
    parser.add_argument("--shards", type=int, default=12, help="--cluster: PBEM_SHARDS of the clusters")
    parser.add_argument("--b-root", help="A/B run: B is the server of this other checkout (with its .venv)")
    parser.add_argument("--a-env", action="append", default=[], metavar="K=V", help="A/B run: a setting for A")
    parser.add_argument("--b-env", action="append", default=[], metavar="K=V", help="A/B run: a setting for B")
    args = parse_args(parser, {"seconds": 1.0, "rounds": 1, "threads": 4, "games": 32, "rate": 20.0,
                               "notify": "off", "warmup": 0.5, "workers": 1, "api_workers": 1})
    if args.cluster:
        return main_cluster(args)
    if args.b_root or args.a_env or args.b_env:
        return main_ab(args)
    runs = {}
    for notify in {"both": [False, True], "on": [True], "off": [False]}[args.notify]:
        proc = None
        url = args.url
        if not url:
            proc, url, _data = start_server(args.workers, args.api_workers, notify)
        try:
            print(f"server {url}; {args.seconds:g} s per phase, {args.threads} client threads, "
                  f"notifications {'on' if notify else 'off'}", flush=True)
            runs["notify_on" if notify else "notify_off"] = measure(url, args, notify)
        finally:
            if proc:
                stop_server(proc)
    summary = {"bench": "pipeline", "seconds": args.seconds, "threads": args.threads, **runs}
    base = runs.get("notify_off") or runs.get("notify_on")
    print(f"ratio: applied moves/s / noop req/s = {base['ratio_to_noop']:.3f} (target >= 0.25); "
          f"p99 at {args.rate:g}/s = {base['paced_p99_ms']:.1f} ms (target < 50)")
    if "notify_on" in runs and "notify_off" in runs:
        drop = 1 - runs["notify_on"]["applied_moves_per_s"] / runs["notify_off"]["applied_moves_per_s"]
        summary["notify_throughput_drop"] = round(drop, 3)
        print(f"notifications on: applied moves/s {drop:+.1%} lower than off (target: at most 10% lower)")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
