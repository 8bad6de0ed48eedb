"""The game's clock under kill -9 and lost jobs: a deadline, and a
vacation's end (pbem.notify). A real worker process with RQ's scheduler
stops dead at a fault point inside the job (as a SIGKILL there would);
RQ does not run it again, and the next worker's
maintenance sweep (pbem.notify.sweeps) does the job's work, once.

Deadlines: ``deadline_chosen`` (the default move chosen, not yet queued)
and ``deadline_submitted`` (queued, the deadline's record not yet cleared).
One default move is played, never two, and the game goes on to the next
seat's clock.

Vacations: ``vacation_released`` (the games let go, the record not yet
deleted), ``resume_scheduled`` (inside the resume, the deadlines scheduled,
the pause not yet lifted). The clock runs again with the time it had left,
the vacation is over once, and the other player is told it once."""
from __future__ import annotations

import pytest
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from pbem.failpoint import EXIT_STATUS
from pbem.notify import install
from pbem.notify.kinds import DEADLINE_AUTH
from pbem.notify.vacations import DUE
from pbem.trust import signing

from .conftest import api_server, wait_until  # noqa: F401
from .test_notify_support import notify_env, smtp  # noqa: F401
from .test_vacation import DAY_S, _deadlines, _game, vacation_env  # noqa: F401

#: Long enough that no deadline falls during the test (the clock's time left is checked, not its fall).
DEADLINE = {"turn_seconds": 120, "reminder_seconds": 0, "default_action": "forfeit"}


def deadline_jobs(redis_client, game_id: str) -> list:
    """The deadline jobs scheduled for the game (RQ's scheduled registry)."""
    registry = ScheduledJobRegistry(queue=Queue("pbem-notify", connection=redis_client))
    jobs = (Job.fetch(i, connection=redis_client) for i in registry.get_job_ids())
    return [j for j in jobs if j.func_name.endswith(".deadline_due") and j.args[0] == game_id]


def ann_and_bob(service, http, base: str, clock: dict) -> tuple[str, list[str]]:
    """A Wakanda game of Ann (seat 0, to act) and Bob, both by mail, with this clock."""
    install(service)
    ann, bob = (signing.generate_key()[1] for _ in range(2))
    return _game(service, http, base, [(ann, "Ann", "ann@example.test"), (bob, "Bob", "bob@example.test")], clock)


@pytest.mark.parametrize("point", ["vacation_released", "resume_scheduled"])
def test_a_vacation_end_cut_short_is_finished_by_the_sweep(point, vacation_env, monkeypatch, api_server, service,
                                                           http, smtp, start_worker):
    base = api_server.url
    game_id, tokens = ann_and_bob(service, http, base, DEADLINE)
    url = f"{base}/games/{game_id}/seats/0/vacation"
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    monkeypatch.setenv("PBEM_FAILPOINT", point)
    monkeypatch.setenv("PBEM_SWEEP_EVERY_S", "3600")  # the doomed worker's sweep stays out of it
    doomed = start_worker()
    wait_until(lambda: _deadlines(http, base, game_id)["deadlines"], timeout=15)
    r = http.post(url, json={"days": 1}, headers=auth)
    assert r.status_code == 200, r.text
    vacation = r.json()["vacation"]
    paused = _deadlines(http, base, game_id)["paused"]
    assert paused["by"] == "vacation" and len(paused["vacations"]) == 1
    left = paused["remaining"]["0"]["seconds"]
    assert service.store.redis.zcard(DUE) == 1
    told = wait_until(lambda: smtp.to("bob@example.test", "vacation"), timeout=10)
    assert len(told) == 1  # "Ann is on vacation until ..."

    # its end job runs at the end, and its worker dies in it
    assert doomed.proc.wait(DAY_S + 30) == EXIT_STATUS, doomed.log()[-3000:]
    assert http.get(url, headers=auth).json()["vacation"] == vacation  # still running: not ended
    now = _deadlines(http, base, game_id)
    if point == "vacation_released":
        assert now["paused"] is None and now["deadlines"]  # the game was let go, its clock runs
    else:
        assert now["paused"]["by"] == "vacation" and now["deadlines"]  # scheduled, the pause not lifted
    assert service.store.redis.zcard(DUE) == 1
    assert len(smtp.to("bob@example.test", "vacation")) == 1  # nobody told yet that she is back

    # the next worker's sweep ends it, once
    monkeypatch.delenv("PBEM_FAILPOINT")
    monkeypatch.setenv("PBEM_SWEEP_EVERY_S", "0.3")
    start_worker()
    wait_until(lambda: http.get(url, headers=auth).json()["vacation"] is None, timeout=20)
    assert service.store.redis.zcard(DUE) == 0
    back = wait_until(lambda: len(smtp.to("bob@example.test", "vacation")) == 2
                      and smtp.to("bob@example.test", "vacation"), timeout=10)
    assert "Ann is back from vacation: this game's deadlines run again." in " ".join(
        back[1].get_body(("plain",)).get_content().split())
    now = _deadlines(http, base, game_id)
    assert now["paused"] is None and [d["seat"] for d in now["deadlines"]] == [0]
    # the time it had left, from the end (the sweep's resume, when it was the one cut short, a little later)
    assert vacation["end"] + left - 1.5 <= now["deadlines"][0]["at"] <= vacation["end"] + left + 30
    assert service.get_game(game_id, None)["status"] == "active"
    # one clock: the job the cut-short resume scheduled was replaced, not left beside the live one
    assert len(deadline_jobs(service.store.redis, game_id)) == 1
    assert http.get(url, headers=auth).json()["used_days"] == 1


@pytest.mark.parametrize("point", ["deadline_chosen", "deadline_submitted"])
def test_a_deadline_whose_job_died_is_played_once_by_the_sweep(point, notify_env, monkeypatch, api_server, service,
                                                               http, smtp, start_worker):
    base = api_server.url
    game_id, _tokens = ann_and_bob(service, http, base,
                                   {"turn_seconds": 3, "reminder_seconds": 0, "default_action": "random"})
    monkeypatch.setenv("PBEM_FAILPOINT", point)
    monkeypatch.setenv("PBEM_SWEEP_EVERY_S", "3600")  # the doomed worker's sweep stays out of it
    doomed = start_worker()
    running = wait_until(lambda: _deadlines(http, base, game_id)["deadlines"], timeout=15)
    assert [d["seat"] for d in running] == [0]
    version = service.get_game(game_id, None)["version"]
    assert doomed.proc.wait(30) == EXIT_STATUS, doomed.log()[-3000:]
    assert [d["seat"] for d in _deadlines(http, base, game_id)["deadlines"]] == [0]  # still standing
    if point == "deadline_chosen":
        assert service.get_game(game_id, None)["version"] == version  # nothing was played

    monkeypatch.delenv("PBEM_FAILPOINT")
    monkeypatch.setenv("PBEM_SWEEP_EVERY_S", "0.3")
    start_worker()
    # played: seat 0's clock gone, seat 1's running
    moved = wait_until(lambda: (d := _deadlines(http, base, game_id))["deadlines"]
                       and d["deadlines"][0]["seat"] == 1 and d, timeout=30)
    assert [d["seat"] for d in moved["deadlines"]] == [1]
    rows = service.store.events(game_id, after=version)
    by_deadline = {m for _v, _e, m in rows if (service.store.move(game_id, m) or {}).get("auth") == DEADLINE_AUTH}
    assert len(by_deadline) == 1, rows  # one default move, never two
    assert {m for _v, _e, m in rows} == by_deadline  # and nothing else
    assert service.get_game(game_id, None)["status"] == "active"
