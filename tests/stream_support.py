"""Real parts for the event-stream tests: the stream process as its own OS
process (``python -m pbem.stream``) on a loopback port, the API over real
HTTP pointing its links and 307 at it, both with one server secret."""
from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass

import pytest
import requests

from pbem.client import Client, open_stream
from pbem.store.connections import connect
from pbem.server.embedded_redis import free_port
from pbem.trust.signing import generate_key

from .conftest import ROOT, LiveServer, wait_until

SECRET = "stream-test-secret"


class StreamProcess:
    def __init__(self, redis_url: str, port: int, keepalive_s: float = 1.0, origins: str | None = None):
        self.port, self.url = port, f"http://127.0.0.1:{port}"
        self.env = dict(os.environ, REDIS_URL=redis_url, HOST="127.0.0.1", PBEM_STREAM_PORT=str(port),
                        PBEM_SECRET=SECRET, PBEM_STREAM_KEEPALIVE_S=str(keepalive_s), PYTHONPATH=str(ROOT))
        if origins:
            self.env["PBEM_STREAM_ORIGINS"] = origins
        self.proc: subprocess.Popen | None = None

    def start(self) -> "StreamProcess":
        self.proc = subprocess.Popen([sys.executable, "-m", "pbem.stream"], env=self.env, cwd=ROOT,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self.healthy, timeout=20, interval=0.01)  # (up in about 0.35 s: a short poll)
        return self

    def healthy(self):
        try:
            resp = requests.get(f"{self.url}/health", timeout=1)
        except requests.RequestException:
            return None
        return resp.json() if resp.status_code == 200 else None

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@dataclass
class World:
    api: str
    stream: StreamProcess
    secret: bytes
    http: requests.Session

    def stream_url(self, game_id: str) -> str:
        return f"{self.stream.url}/games/{game_id}/events/stream"

    def open(self, game_id: str, token: str | None = None, **kw):
        """A stream straight from the stream process."""
        return open_stream(self.http, self.stream_url(game_id), token, timeout=kw.pop("timeout", 20), **kw)


@pytest.fixture
def stream_world(redis_client, settings, monkeypatch):
    monkeypatch.setenv("PBEM_SECRET", SECRET)  # the API's NotifySettings read it at create_app
    from pbem.api import create_app

    port = free_port()
    conf = dataclasses.replace(settings, stream_port=port)
    live = LiveServer(create_app(conf, connect(settings.redis_url)))  # bound: its URL is known
    # Pages on the API's origin may open streams (CORS), as by default.
    stream = StreamProcess(settings.redis_url, port, keepalive_s=0.5, origins=live.url).start()
    try:
        with live, requests.Session() as http:
            yield World(live.url, stream, SECRET.encode(), http)
    finally:
        stream.stop()


def seated(url: str, name: str, players: int = 2, options: dict | None = None) -> tuple[Client, str, dict]:
    """A started game; the client holds every seat's token."""
    c = Client(url)
    game_id = c.create_game(name, players, options)["id"]
    keys = {}
    for seat in range(players):
        keys[seat], public = generate_key()
        c.join(game_id, seat, public, f"p{seat}")
    return c, game_id, keys


def play(c: Client, game_id: str, keys: dict, rng, moves: int) -> int:
    """Up to ``moves`` random legal moves through the API (a worker applies
    them); the version after the last."""
    for _ in range(moves):
        game = c.game(game_id)
        if game["status"] == "finished":
            return game["version"]
        seat = rng.choice(game["to_act"])
        legal = c.legal_moves(game_id, seat)
        out = c.move(game_id, rng.choice(legal["moves"])["move"], keys[seat], seat,
                     expected_version=legal["version"], wait=10)
        assert out["status"] == "applied", out
    return c.game(game_id)["version"]


class Collector:
    """Reads a stream in a thread: every event (and end) as it comes."""

    def __init__(self, events_stream):
        self.stream, self.items, self.error = events_stream, [], None
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        try:
            for ev in self.stream:
                self.items.append(ev)
                if ev.event == "end":
                    return
        except Exception as err:  # the test looks at it
            self.error = err

    def versions(self) -> list[int]:
        return [int(ev.id) for ev in self.items if ev.event == "event"]

    def until(self, version: int, timeout: float = 20) -> list:
        wait_until(lambda: self.versions() and self.versions()[-1] >= version, timeout=timeout)
        return list(self.items)

    def ended(self, timeout: float = 20) -> list:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the stream did not end"
        return list(self.items)
