"""A whole game of Wakanda played by two people who only send and receive
mail: the game is created with `pbem create --invite` (CLI -> API over HTTP),
the invitations, turn mails, answers and the game-over mail leave through a
real SMTP relay on loopback (aiosmtpd), every reply enters through the
inbound SMTP listener on loopback (aiosmtpd), and real worker processes (a move
worker and an idle-priority background worker, as make run has them) run the
move, notification and mail jobs."""
from __future__ import annotations

import io
import os
import re
import time

import pytest

from pbem import cli
from pbem.trust import record

from .test_mail_in_support import (examples_in, mail_env, mail_in, reply, reply_address,  # noqa: F401
                                   notify_env, smtp, text_of)

def failed_jobs(client) -> list[str]:
    from rq import Queue
    from rq.registry import FailedJobRegistry

    out = []
    for name in ("pbem-moves", "pbem-notify", "pbem-mail"):
        queue = Queue(name, connection=client)
        for job_id in FailedJobRegistry(queue=queue).get_job_ids():
            job = queue.fetch_job(job_id)
            out.append(f"{name} {job.func_name if job else job_id}: {(job.latest_result().exc_string if job and job.latest_result() else '')[-800:]}")
    return out


PLAYERS = ("ann@example.test", "bob@example.test")


# A budget of 60 s with the background worker on idle CPU only (SCHED_IDLE, as make run
# has it): while the parallel phase keeps both cores busy it may get none, so this runs
# in make test's serial phase (timing), away from the suite's own load.
@pytest.mark.timing
def test_full_game_by_mail(service, redis_client, smtp, mail_in, api_server, start_worker, tmp_path, monkeypatch):
    # As make run has them: a move worker, and a background worker (notices,
    # inbound mail, the scheduler) that runs on idle CPU only.
    workers = [start_worker(scheduler=False, queues=("pbem-moves",)),
               start_worker(queues=("pbem-notify", "pbem-mail"), idle=True)]
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    out = io.StringIO()
    code = cli.main(["--server", api_server.url, "create", "wakanda", "--players", "2", "--title", "By mail",
                     "--invite", PLAYERS[0], "--invite", PLAYERS[1]], out=out)
    assert code == 0, out.getvalue()
    game_id = re.search(r"created (\w+)", out.getvalue()).group(1)
    assert f"invited {PLAYERS[0]} to seat 0" in out.getvalue() and f"invited {PLAYERS[1]} to seat 1" in out.getvalue()

    answered: set[str] = set()
    moves_sent = 0
    over: dict[str, object] = {}
    deadline = time.monotonic() + 60
    while len(over) < 2:
        for worker in workers:
            if worker.proc.poll() is not None:
                raise AssertionError(f"a worker died: {worker.log()[-3000:]}")
        assert time.monotonic() < deadline, (f"the game did not finish by mail in time ({moves_sent} moves sent); "
                                             f"failed jobs: {failed_jobs(redis_client)}")
        progressed = False
        for addr in PLAYERS:
            for msg in smtp.to(addr):
                mid = msg["Message-ID"]
                if mid in answered:
                    continue
                answered.add(mid)
                kind = msg["X-Pbem-Kind"]
                if kind == "invitation":
                    mail_in.send(reply(msg, "join", addr), reply_address(msg), addr)
                elif kind == "your_turn":
                    examples = examples_in(text_of(msg))
                    assert examples, text_of(msg)
                    mail_in.send(reply(msg, examples[0], addr), reply_address(msg), addr)
                    moves_sent += 1
                elif kind == "mail_reply":
                    body = text_of(msg)
                    assert "not applied" not in body and "could not" not in body, body
                elif kind == "game_over":
                    over[addr] = msg
                progressed = True
        if not progressed:
            time.sleep(0.02)

    # the game is over, every move came by mail, and the game-over mail says so
    meta = service.store.meta(game_id)
    assert meta["status"] == "finished" and meta["result"]
    for addr, msg in over.items():
        body = text_of(msg)
        assert "The game is over." in body and "Final scores" in body
    seats = service.store.seats(game_id)
    assert all(seats[s]["mail_only"] and seats[s]["email"] == PLAYERS[s] for s in (0, 1))
    lines = list(service.record_lines(game_id, None))
    report = record.verify_lines(lines)
    assert report.ok, report
    steps = [__import__("json").loads(x) for x in lines[1:-1]]
    assert steps[0]["auth"] == "setup"
    assert len(steps) - 1 == moves_sent and {s["auth"] for s in steps[1:]} == {"mail-token"}
    # each reply was answered: one answer per move mail and per join
    answers = [m for a in PLAYERS for m in smtp.to(a, "mail_reply")]
    assert sum("applied: " in text_of(m) for m in answers) == moves_sent
    # the background worker really ran on idle CPU only (Linux)
    if hasattr(os, "SCHED_IDLE"):
        assert os.sched_getscheduler(workers[1].proc.pid) == os.SCHED_IDLE
        assert os.sched_getscheduler(workers[0].proc.pid) != os.SCHED_IDLE
