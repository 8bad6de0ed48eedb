"""``make run`` (``python -m pbem.server.run``) as a test's server: started on free
loopback ports with its own data directory, its children found by their
command lines, Wakanda games with every move signed in advance played over
HTTP."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from pbem import games
from pbem.server.embedded_redis import free_port
from pbem.games.playout import play_random
from pbem.trust.signing import generate_key, make_envelope

ROOT = Path(__file__).resolve().parent.parent
PIECES = ["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3 + ["fur"] * 4 + ["tipi"] * 5 + ["sun"] * 6
VILLAGES = ["eagle", "chief", "tomahawk", "fur", "tipi", "sun", "variety", "height"]


class Server:
    """``python -m pbem.server.run`` in its own session; its output kept in a file."""

    def __init__(self, data: Path, **env):
        self.port, self.redis_port, self.mail_port, self.stream_port = (free_port() for _ in range(4))
        self.data = data
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data.parent / "server.log"
        environ = dict(os.environ, PORT=str(self.port), PBEM_REDIS_PORT=str(self.redis_port),
                       PBEM_MAIL_PORT=str(self.mail_port), PBEM_STREAM_PORT=str(self.stream_port),
                       PBEM_DATA_DIR=str(data), **{"PBEM_NOTIFY": "0", **env})
        environ.pop("REDIS_URL", None)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "pbem.server.run"], cwd=ROOT, env=environ,
                                     start_new_session=True, stdout=self.log, stderr=subprocess.STDOUT)

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text()

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            try:
                if requests.get(self.base + "/ready", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise AssertionError("not ready in time:\n" + self.output())

    def children(self) -> dict[str, list[int]]:
        """The supervisor's children by role, and the gunicorn master's workers."""
        tree: dict[int, list[int]] = {}
        cmd: dict[int, str] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmd[int(entry)] = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            tree.setdefault(ppid, []).append(int(entry))
        roles: dict[str, list[int]] = {}
        for pid in sorted(tree.get(self.proc.pid, [])):
            line = cmd.get(pid, "")
            role = ("redis" if "redis-server" in line or "valkey-server" in line else
                    "api" if "gunicorn" in line else
                    "worker-background" if "--with-scheduler" in line else
                    "worker" if "workers.worker" in line else
                    "mail-in" if "mail_in" in line else
                    "stream" if "pbem.stream" in line else
                    "bots" if "pbem.bots" in line else "other")
            if role == "worker":  # worker-0, worker-1: the name the supervisor gave it
                try:
                    with open(f"/proc/{pid}/environ", "rb") as f:
                        names = [v for v in f.read().split(b"\0") if v.startswith(b"PBEM_WORKER_NAME=")]
                    role = names[0].split(b"=", 1)[1].decode() if names else role
                except OSError:
                    pass
            roles.setdefault(role, []).append(pid)
            if role == "api":
                roles.setdefault("api-worker", []).extend(sorted(tree.get(pid, [])))
        return roles

    def stop(self) -> tuple[int, str]:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        return self.proc.returncode, self.log_path.read_text()


def bot_server(tmp_path_factory, name: str):
    """A module's server for games with bots: turn mails on (games by mail),
    one API process and one move worker (enough there); stopped after."""
    srv = Server(tmp_path_factory.mktemp(name) / "data", PBEM_NOTIFY="1", WEB_CONCURRENCY="1", PBEM_WORKERS="1")
    try:
        srv.wait_ready()
        yield srv
    finally:
        srv.stop()


@dataclass
class Game:
    """A Wakanda game on the server whose every move is signed beforehand
    (the whole setup fixed by options, so the server's game is this one)."""

    id: str
    envelopes: list[dict]
    next: int = 0
    applied: list[tuple[str, int]] = field(default_factory=list)  # (move id, version) answered applied
    keys: list = field(default_factory=list)
    playout: object = None

    @classmethod
    def create(cls, base: str, seed: int, email: bool = False) -> "Game":
        rng = random.Random(seed)
        bag, villages = PIECES[:], VILLAGES[:]
        rng.shuffle(bag)
        rng.shuffle(villages)
        options = {"fixed_villages": villages, "fixed_bag": bag, "start_player": seed % 2}
        game = requests.post(base + "/games", json={"game": "wakanda", "players": 2, "options": options},
                             timeout=10).json()
        keys = [generate_key() for _ in range(2)]
        for seat, (_, public) in enumerate(keys):
            join = {"public_key": public, "name": f"bot{seat}"}
            if email:
                join["email"] = f"bot{seat}@example.org"  # turn mails (to the maildir)
            r = requests.post(f"{base}/games/{game['id']}/seats/{seat}", json=join, timeout=10)
            assert r.status_code == 201, r.text
        playout = play_random(games.get("wakanda"), 2, options, seed=seed)
        return cls(game["id"], [make_envelope(game["id"], player, version, move, keys[player][0])
                                for version, player, move in playout.moves], keys=keys, playout=playout)

    def rival(self, i: int) -> dict:
        """Another legal move by the seat of move ``i``, signed at its version."""
        version, player, move = self.playout.moves[i]
        game = self.playout.game
        state = game.start(2, self.playout.options)
        for event in self.playout.events[:version]:
            state = game.evolve(state, event)
        other = next(m for m in game.legal_moves(state, player) if m != move)
        return make_envelope(self.id, player, version, other, self.keys[player][0])

    def done(self) -> bool:
        return self.next >= len(self.envelopes)


def settle(session: requests.Session, base: str, game: Game, envelope: dict, deadline: float) -> dict:
    """Send one move until it is settled: the same envelope again after a
    refused connection or a 503 (as the README says to), then its status."""
    url = f"{base}/games/{game.id}/moves"
    while time.monotonic() < deadline:
        try:
            r = session.post(url, json=envelope, headers={"Prefer": "wait=2"}, timeout=10)
        except requests.RequestException:
            time.sleep(0.1)
            continue
        if r.status_code == 503:
            time.sleep(0.1)
            continue
        body = r.json()
        if r.status_code in (200, 202):
            move_id = body["id"]
        elif r.status_code == 409 and body["error"]["code"] == "nonce_reused":
            move_id = body["error"]["details"]["move_id"]
        else:
            raise AssertionError(f"{r.status_code} {r.text}")
        while r.status_code in (200, 202, 409) and body.get("status") in (None, "queued") \
                and time.monotonic() < deadline:
            try:
                r = session.get(f"{url}/{move_id}", params={"wait": 2}, timeout=10)
                body = r.json() if r.status_code == 200 else {}
            except requests.RequestException:
                time.sleep(0.1)
                body = {}
            if r.status_code != 200:
                time.sleep(0.1)
        if body.get("status") in ("applied", "rejected"):
            return body
    raise AssertionError(f"move {envelope['nonce']} of {game.id} not settled in time")


class Players(threading.Thread):
    """Plays ``games`` move by move, each move sent until settled; notes
    every applied answer with the time it came."""

    def __init__(self, base: str, games_: list[Game], pause_s: float = 0.0):
        super().__init__(daemon=True)
        self.base, self.games, self.pause_s = base, games_, pause_s
        self.stop = threading.Event()
        self.answers: list[float] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        session = requests.Session()
        try:
            while not self.stop.is_set():
                live = [g for g in self.games if not g.done()]
                if not live:
                    return
                for game in live:
                    record = settle(session, self.base, game, game.envelopes[game.next], time.monotonic() + 60)
                    assert record["status"] == "applied", json.dumps(record)
                    game.applied.append((record["id"], record["version"]))
                    game.next += 1
                    self.answers.append(time.monotonic())
                    if self.stop.wait(self.pause_s):
                        return
        except BaseException as err:  # the test reports it
            self.error = err
