"""A real Redis Cluster on loopback, from the server binary ``make run``
embeds (``PBEM_REDIS_SERVER``: Valkey 8.1 by default): for the tests, the
benchmark and trying a cluster on one machine.

    with EmbeddedCluster(data_dir, masters=3, replicas=1) as cluster:
        cluster.url     # redis+cluster://127.0.0.1:P1,127.0.0.1:P2,...

Every node runs with ``--cluster-enabled yes``, its own directory and port,
the append-only file on. The cluster is made with the commands
``redis-cli --cluster create`` sends (CLUSTER ADDSLOTS, SET-CONFIG-EPOCH,
MEET, REPLICATE), because that tool refuses fewer than three masters and
the benchmark measures one and two. Slots go to the masters in equal
contiguous ranges, as the tool gives them.
"""
from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import redis

from .embedded_redis import die_with_parent, server_binary
from ..store.shards import SLOTS


@dataclass
class Node:
    port: int
    directory: Path
    process: subprocess.Popen | None = None
    node_id: str = ""

    def client(self, **kw) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=kw.pop("socket_timeout", 5), **kw)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process and self.process.poll() is None else None


def free_cluster_port(taken: set[int]) -> int:
    """A loopback port free with its cluster bus port (port + 10000, so at
    most 55535), and not among ``taken``."""
    import random
    import socket

    rng = random.Random()
    while True:
        port = rng.randrange(20000, 45000)
        if port in taken or port + 10000 in taken:
            continue
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
        except OSError:
            continue
        taken.update((port, port + 10000))
        return port


class EmbeddedCluster:
    def __init__(self, data_dir: Path, masters: int = 3, replicas: int = 1, node_timeout_ms: int = 1000,
                 appendfsync: str = "everysec", extra: tuple[str, ...] = ()):
        self.data_dir = Path(data_dir)
        self.masters_count, self.replicas_count = masters, replicas
        self.node_timeout_ms, self.appendfsync, self.extra = node_timeout_ms, appendfsync, extra
        taken: set[int] = set()
        self.nodes = [Node(free_cluster_port(taken), self.data_dir / f"node{i}")
                      for i in range(masters * (1 + replicas))]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    # -- processes -----------------------------------------------------------

    def _spawn(self, node: Node) -> None:
        node.directory.mkdir(parents=True, exist_ok=True)
        args = [server_binary(), "--port", str(node.port), "--bind", "127.0.0.1", "--dir", str(node.directory),
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(self.node_timeout_ms),
                "--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "",
                "--daemonize", "no", "--protected-mode", "yes", "--loglevel", "warning",
                "--logfile", str(node.directory / "redis.log"), *self.extra]
        node.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True,
                                        preexec_fn=die_with_parent)

    def _ping(self, node: Node, timeout: float = 10.0) -> None:
        client = node.client(socket_timeout=1)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if client.ping():
                    node.node_id = client.execute_command("CLUSTER", "MYID").decode()
                    return
            except (redis.ConnectionError, redis.BusyLoadingError, redis.TimeoutError):
                if node.process.poll() is not None:
                    raise RuntimeError(f"redis-server exited; see {node.directory}/redis.log")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server on {node.port} did not start")
                time.sleep(0.02)

    def start(self, timeout: float = 30.0) -> "EmbeddedCluster":
        for node in self.nodes:
            self._spawn(node)
        for node in self.nodes:
            self._ping(node)
        masters = self.nodes[:self.masters_count]
        for i, node in enumerate(masters):
            low, high = i * SLOTS // len(masters), (i + 1) * SLOTS // len(masters)
            c = node.client()
            c.execute_command("CLUSTER ADDSLOTS", *range(low, high))
            c.execute_command("CLUSTER SET-CONFIG-EPOCH", i + 1)
        first = self.nodes[0].client()
        for node in self.nodes[1:]:
            first.execute_command("CLUSTER MEET", "127.0.0.1", node.port)
        self._wait(lambda: all(self._known(n) == len(self.nodes) for n in self.nodes), timeout, "nodes to meet")
        for i, node in enumerate(self.nodes[self.masters_count:]):
            master = masters[i % len(masters)]
            self._retry(lambda: node.client().execute_command("CLUSTER REPLICATE", master.node_id), timeout)
        self.wait_healthy(timeout)
        return self

    @staticmethod
    def _known(node: Node) -> int:
        return len(node.client().execute_command("CLUSTER", "NODES").decode().strip().splitlines())

    @staticmethod
    def _retry(action, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                return action()
            except redis.ResponseError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    @staticmethod
    def _wait(predicate, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if predicate():
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster timed out waiting for {what}")
            time.sleep(0.05)

    def wait_healthy(self, timeout: float = 30.0, replicas: int | None = None) -> None:
        """Every running node says the cluster is ok and sees the same running
        masters holding every slot; with ``replicas``, each master has that
        many replicas connected (the default when the cluster starts)."""
        want = self.replicas_count if replicas is None else replicas

        def healthy() -> bool:
            running = {n.node_id for n in self.running()}
            views = set()
            for node in self.running():
                if "cluster_state:ok" not in node.client().execute_command("CLUSTER", "INFO").decode():
                    return False
                view = self.topology(node)
                if not view or not set(view) <= running or any(len(r) < want for r in view.values()):
                    return False
                views.add(frozenset(view))
            return len(views) == 1
        self._wait(healthy, timeout, "a healthy state")

    def running(self) -> list[Node]:
        return [n for n in self.nodes if n.pid is not None]

    def topology(self, via: Node | None = None) -> dict[str, list[str]]:
        """Master id -> its connected replicas' ids, as a node sees it: only
        masters not failing that hold slots; {} unless they hold them all."""
        via = via or self.running()[0]
        masters: dict[str, list[str]] = {}
        replicas, covered = [], 0
        for line in via.client().execute_command("CLUSTER", "NODES").decode().strip().splitlines():
            parts = line.split()
            node_id, flags, master_id, state = parts[0], parts[2].split(","), parts[3], parts[7]
            if "fail" in flags or "fail?" in flags:
                continue
            ranges = [r for r in parts[8:] if not r.startswith("[")]
            if "master" in flags and ranges:
                masters[node_id] = []
                for r in ranges:
                    low, _, high = r.partition("-")
                    covered += int(high or low) - int(low) + 1
            elif "slave" in flags and state == "connected":
                replicas.append((node_id, master_id))
        for node_id, master_id in replicas:
            if master_id in masters:
                masters[master_id].append(node_id)
        return masters if covered == SLOTS else {}

    def by_id(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.node_id == node_id)

    def master_of_slot(self, slot: int) -> Node:
        for low, high, master, *_ in self.running()[0].client().execute_command("CLUSTER", "SLOTS"):
            if low <= slot <= high:
                return next(n for n in self.nodes if n.port == int(master[1]))
        raise KeyError(slot)

    def masters(self) -> list[Node]:
        return [self.by_id(m) for m in self.topology()]

    def replicas_of(self, master: Node) -> list[Node]:
        return [self.by_id(r) for r in self.topology().get(master.node_id, [])]

    def kill(self, node: Node) -> None:
        """SIGKILL: no shutdown, no last fsync."""
        if node.process and node.process.poll() is None:
            node.process.send_signal(signal.SIGKILL)
            node.process.wait(10)

    def restart(self, node: Node) -> None:
        """Start a killed node again from its directory (it rejoins, as a
        replica if its replica took over)."""
        self._spawn(node)
        self._ping(node)

    def migrate_slot(self, slot: int, target: Node, batch: int = 50, pause_s: float = 0.0) -> int:
        """Move one slot's keys to ``target`` as ``redis-cli --cluster
        reshard`` does: IMPORTING on the target, MIGRATING on the source,
        MIGRATE the keys in batches, then the slot named the target's on
        every master. Returns how many keys moved. ``pause_s`` between
        batches keeps the slot half-moved for a while (tests)."""
        source = self.master_of_slot(slot)
        if source.node_id == target.node_id:
            return 0
        t, s = target.client(), source.client()
        t.execute_command("CLUSTER SETSLOT", slot, "IMPORTING", source.node_id)
        s.execute_command("CLUSTER SETSLOT", slot, "MIGRATING", target.node_id)
        moved = 0
        while True:
            keys = s.execute_command("CLUSTER GETKEYSINSLOT", slot, batch)
            if not keys:
                break
            s.execute_command("MIGRATE", "127.0.0.1", target.port, "", 0, 5000, "KEYS", *keys)
            moved += len(keys)
            if pause_s:
                time.sleep(pause_s)
        for node in [target, source] + [m for m in self.masters() if m.node_id not in (target.node_id, source.node_id)]:
            node.client().execute_command("CLUSTER SETSLOT", slot, "NODE", target.node_id)
        return moved

    def pids(self) -> dict[int, int]:
        """Port -> pid of every running node."""
        return {n.port: n.pid for n in self.running()}

    def stop(self) -> None:
        for node in self.nodes:
            if node.process and node.process.poll() is None:
                node.process.terminate()
        for node in self.nodes:
            if node.process:
                try:
                    node.process.wait(10)
                except subprocess.TimeoutExpired:
                    node.process.kill()
                    node.process.wait()
            node.process = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main() -> None:
    """``python -m pbem.server.embedded_cluster [masters] [replicas]``: run a cluster
    in ./var/cluster until Ctrl-C, printing its REDIS_URL."""
    import sys

    masters = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    replicas = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    from ..settings.registry import env

    data = Path(env("PBEM_DATA_DIR")) / "cluster"
    with EmbeddedCluster(data, masters, replicas) as cluster:
        print(f"REDIS_URL={cluster.url}", flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
