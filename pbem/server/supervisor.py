"""Keeps ``make run``'s processes running: starts them in order, restarts
any that dies (with a backoff and one log line saying who died, how, and
when it comes back), and stops them in reverse order on SIGINT/SIGTERM.

Why not a process manager off the shelf (docs/architecture.md): honcho (and
foreman, whose Procfile model it follows) stops every process when one
exits, which is the behaviour to get rid of; supervisord restarts, but
gives up on a process after ``startretries`` quick failures, cannot wait for
Redis to have loaded its append-only file before starting the rest, and
brings its own config format, log files and RPC server to a one-machine
``make run``. This is one loop over ``Popen`` objects.

Each child runs in its own session and process group (a terminal's Ctrl-C
reaches only the supervisor, which stops them in order). When a child dies,
whatever is left of its group is killed before it is started again: a
gunicorn master killed with SIGKILL leaves its workers holding the port,
and the new master could not bind it.
"""
from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Callable

log = logging.getLogger("pbem.supervisor")

#: A child that ran this long before dying is restarted at once; one that
#: dies sooner waits BACKOFF_FIRST_S, doubling for each such quick death in
#: a row, up to BACKOFF_MAX_S.
STEADY_S = 10.0
BACKOFF_FIRST_S = 0.5
BACKOFF_MAX_S = 30.0
STOP_TIMEOUT_S = 15.0


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


@dataclass
class Child:
    name: str
    #: Starts the process (and, for Redis, waits until it answers).
    spawn: Callable[[], subprocess.Popen]
    #: Stops it (default: SIGTERM to the process, then wait).
    halt: Callable[["Child"], None] | None = None
    proc: subprocess.Popen | None = None
    started: float = 0.0
    quick_deaths: int = 0
    restarts: int = 0
    due: float | None = None  # when to start it again, while it is down
    notes: list = field(default_factory=list)


class Supervisor:
    def __init__(self, children: list[Child], clock: Callable[[], float] = time.monotonic):
        self.children = children
        self.clock = clock
        self.stopping = False

    def request_stop(self, *_):
        self.stopping = True

    def start_all(self) -> None:
        for child in self.children:
            self._start(child)

    def _start(self, child: Child) -> bool:
        try:
            child.proc = child.spawn()
        except Exception as err:  # Redis that will not come up, say: try again later
            child.proc = None
            self._schedule(child, f"could not start: {err}")
            return False
        child.started = self.clock()
        child.due = None
        return True

    def _schedule(self, child: Child, why: str) -> None:
        ran = self.clock() - child.started if child.started else 0.0
        child.quick_deaths = child.quick_deaths + 1 if ran < STEADY_S else 0
        delay = 0.0 if child.quick_deaths == 0 else min(BACKOFF_FIRST_S * 2 ** (child.quick_deaths - 1),
                                                        BACKOFF_MAX_S)
        child.due = self.clock() + delay
        child.restarts += 1
        when = "now" if delay == 0 else f"in {delay:.1f} s ({child.quick_deaths} quick deaths in a row)"
        log.warning("pbem: %s %s; restarting it %s (restart %d)", child.name, why, when, child.restarts,
                    extra={"event": "child_restart", "child": child.name, "delay_s": delay,
                           "restart": child.restarts})

    def poll(self) -> None:
        """One round: note deaths, start what is due."""
        for child in self.children:
            if self.stopping:
                return
            if child.proc is not None and child.proc.poll() is not None:
                pid, code = child.proc.pid, child.proc.returncode
                ran = self.clock() - child.started
                kill_group(pid)  # what it leaves behind (a gunicorn master's workers)
                child.proc = None
                self._schedule(child, f"(pid {pid}) {describe_exit(code)} after {ran:.1f} s")
            if child.proc is None and child.due is not None and self.clock() >= child.due:
                if self._start(child):
                    log.warning("pbem: %s is running again (pid %d)", child.name, child.proc.pid,
                                extra={"event": "child_started", "child": child.name, "pid": child.proc.pid})

    def run(self, interval: float = 0.1, announce: Callable[[], bool] | None = None) -> None:
        """Until a stop is asked for: poll, then ``announce`` (``make run``'s
        banner) after each round until it says it is done."""
        while not self.stopping:
            self.poll()
            if announce is not None and not self.stopping and announce():
                announce = None
            time.sleep(interval)

    def stop_all(self) -> None:
        """Reverse order of starting: the API and workers first, Redis last."""
        running = [c for c in reversed(self.children) if c.proc is not None and c.proc.poll() is None]
        for child in running:
            if child.halt is None:
                child.proc.send_signal(signal.SIGTERM)
        for child in running:
            if child.halt is not None:
                child.halt(child)
                continue
            try:
                child.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                log.warning("pbem: %s did not stop in %.0f s; killing it", child.name, STOP_TIMEOUT_S)
                child.proc.kill()
                child.proc.wait()
            kill_group(child.proc.pid)


def kill_group(pid: int) -> None:
    """SIGKILL to what is left of a dead child's process group (its own session)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
