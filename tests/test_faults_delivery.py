"""The SMTP relay down: the turn mail fails, a retry is scheduled with RQ's
scheduler, the game goes on meanwhile, and once the relay is back the retry
delivers. (A webhook receiver that fails and recovers is in
tests/test_notify_webhooks.py.)"""
from __future__ import annotations

from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from pbem.server.embedded_redis import free_port
from pbem.notify import QUEUE
from pbem.notify.config import NotifySettings
from pbem.notify.notifier import Notifier

from .conftest import drain
from .test_notify_support import new_game, notify_env, run_jobs, smtp, submit, to_act  # noqa: F401


def scheduled_mail_jobs(client) -> list[Job]:
    registry = ScheduledJobRegistry(queue=Queue(QUEUE, connection=client))
    jobs = [Job.fetch(i, connection=client) for i in registry.get_job_ids()]
    return [j for j in jobs if j.func_name.endswith(".mail")]


def test_smtp_down_then_back(service, redis_client, notify_env, smtp, monkeypatch):
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")  # nobody listens there
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)  # the first turn mail: refused by the (absent) relay
    assert smtp.messages == []
    retries = scheduled_mail_jobs(redis_client)
    assert len(retries) == 1 and retries[0].args[-1] == 2  # attempt 2 is scheduled
    # the game goes on while mail is down
    seat = to_act(service, game_id)[0]
    loaded = service.load(game_id)
    record = submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0])
    drain(service)
    assert service.move_status(game_id, record["id"])["status"] == "applied"
    # the relay is back: the scheduled retry (run now rather than in 30 s) delivers
    monkeypatch.setenv("SMTP_URL", smtp.url)
    retry = retries[0]
    assert Notifier(service, NotifySettings()).mail(*retry.args) is True
    delivered = smtp.to(f"p{seat}@example.test", "your_turn")
    assert len(delivered) == 1
