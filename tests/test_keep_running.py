"""`make run` keeps running: each of its children killed with SIGKILL in turn
(both move workers, the background worker, a gunicorn worker, the gunicorn
master, the stream process, the mail listener, the bot process, Redis) is started again, a
move sent after the kill is applied within 5 s, and every move that was
answered `applied` is still applied at the end. Ctrl-C then stops it all."""
from __future__ import annotations

import os
import signal
import smtplib
import time

import pytest
import requests

from .conftest import wait_until
from .run_support import Game, Players, Server, settle

# Latency budgets: run in make test's serial phase, away from the suite's own load.
pytestmark = pytest.mark.timing

KILLS = ["worker-0", "worker-1", "worker-background", "api-worker", "api", "stream", "mail-in", "bots", "redis"]


def test_every_child_is_restarted_and_no_applied_move_is_lost(tmp_path):
    server = Server(tmp_path / "var", PBEM_WORKERS="2", WEB_CONCURRENCY="2", PBEM_LOG_FORMAT="json")
    players: list[Players] = []
    try:
        server.wait_ready()
        load = [Game.create(server.base, seed) for seed in range(6)]
        probes = [Game.create(server.base, 100 + i) for i in range(2)]
        players = [Players(server.base, load[i::3], pause_s=0.02) for i in range(3)]
        for p in players:
            p.start()
        wait_until(lambda: sum(len(p.answers) for p in players) > 20, timeout=30)
        session = requests.Session()
        recovered = {}
        for role in KILLS:
            before = server.children()
            assert len(before.get(role, [])) >= 1, before
            pid = before[role][0]
            killed = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            # A move sent now (and again, on a refused connection or a 503) is applied...
            play_probe(session, server, probes, killed + 20)
            answered = time.monotonic() - killed
            # ... the child is back under a new pid (the stream process and
            # the mail listener answering), and a move sent then is applied:
            # all within 5 s of the kill.
            wait_until(lambda: pid not in server.children().get(role, []) and
                       len(server.children().get(role, [])) == len(before[role]), timeout=20, interval=0.05)
            if role == "stream":
                wait_until(lambda: _ok(f"http://127.0.0.1:{server.stream_port}/health"), timeout=10)
            if role == "mail-in":
                wait_until(lambda: _smtp_answers(server.mail_port), timeout=10)
            play_probe(session, server, probes, killed + 20)
            recovered[role] = (round(answered, 2), round(time.monotonic() - killed, 2))
            for p in players:
                assert p.error is None, p.error
        print("seconds from the kill to a move applied, and to the child back and a move applied:", recovered)
        assert all(back < 5 for _, back in recovered.values()), recovered
        for p in players:
            p.stop.set()
            p.join(70)
            assert p.error is None, p.error
        # Every move answered "applied" is applied, at the version it was
        # answered with, and each game's version counts exactly those moves.
        answered = 0
        for game in load + probes:
            for move_id, version in game.applied:
                status = requests.get(f"{server.base}/games/{game.id}/moves/{move_id}", timeout=10).json()
                assert (status["status"], status["version"]) == ("applied", version)
                answered += 1
            if game.applied:
                assert requests.get(f"{server.base}/games/{game.id}", timeout=10).json()["version"] == \
                    game.applied[-1][1]
        assert answered > 40
        out = server.output()
        for role in KILLS:
            if role != "api-worker":  # gunicorn's master restarts its own workers
                assert f"pbem: {role} (pid " in out and "was killed by SIGKILL" in out, out[-3000:]
    finally:
        for p in players:
            p.stop.set()
        code, out = server.stop()
    assert code == 0 and "pbem: stopped" in out, out[-3000:]


def play_probe(session, server, probes: list[Game], deadline: float) -> None:
    probe = next(g for g in probes if not g.done())
    record = settle(session, server.base, probe, probe.envelopes[probe.next], deadline)
    assert record["status"] == "applied", record
    probe.applied.append((record["id"], record["version"]))
    probe.next += 1


def _ok(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def _smtp_answers(port: int) -> bool:
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=3) as smtp:
            return smtp.noop()[0] == 250
    except (OSError, smtplib.SMTPException):
        return False
