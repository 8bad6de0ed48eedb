"""A gathered turn mail (a burst of notices to one seat that has not acted,
pbem.notify.notifier.turn_mail) is sent even if its job is lost or its
worker is killed in it, with real worker processes and the maildir: the
worker stops dead at the fault point ``deferred_taken`` (the mail taken
by its job, not yet sent: as a SIGKILL there would), or no scheduler ever
runs the job; the maintenance sweep (pbem.notify.sweeps, run here as the
next worker's would, once the mail is late) sends it, once, telling the
whole burst."""
from __future__ import annotations

import re
import time

import pytest

from pbem.failpoint import EXIT_STATUS
from pbem.notify.notifier import DEFERRED_LATE_S, SENDING_LATE_S
from pbem.notify.store import NotifyStore
from pbem.notify.sweeps import sweep
from pbem.store.keys import key

from .conftest import wait_until
from .mail_reader import text_of
from .test_mail_timing import maildir  # noqa: F401
from .test_notify_support import new_game, notify_env, smtp, submit  # noqa: F401


@pytest.mark.parametrize("fault", ["killed", "lost"])
def test_a_gathered_turn_mail_whose_job_died_or_was_lost_is_sent_by_the_sweep(fault, service, redis_client, maildir,
                                                                               start_worker, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_INTERVAL", "6")  # the moves below come well within it
    monkeypatch.setenv("PBEM_SWEEP_EVERY_S", "3600")  # the sweep is run below, when the mail is late
    start_worker(scheduler=False, queues=("pbem-moves",))
    if fault == "killed":
        monkeypatch.setenv("PBEM_FAILPOINT", "deferred_taken")
    # "lost": no scheduler ever moves the gathered mail's job to its queue
    notices = start_worker(scheduler=fault == "killed", queues=("pbem-notify", "pbem-mail"))
    game_id, keys, _ = new_game(service, "cartoona", {"target_score": 50}, names=("Ann", "Bob"))
    maildir.wait_for(lambda m: m["X-Pbem-Kind"] == "your_turn", 20)
    active = service.load(game_id).state["active"]
    address = f"p{active}@example.test"
    for _ in range(2):  # still to act after each: the second notice is gathered
        now = service.load(game_id)
        move = next(m for m in now.game.legal_moves(now.state, active) if m["type"] == "set_order")
        submit(service, game_id, active, keys, move, now.version)
        wait_until(lambda: service.load(game_id).version > now.version, 10)
    store = NotifyStore(redis_client)
    if fault == "killed":
        assert notices.proc.wait(30) == EXIT_STATUS, notices.log()[-3000:]
        assert store.sending_deferred(game_id, active) is not None  # taken, never sent
        late = SENDING_LATE_S
    else:
        wait_until(lambda: store.deferred_waiting(game_id, active), timeout=10)  # and nothing will run its job
        late = 6 + DEFERRED_LATE_S
    assert not [m for m in maildir.new() if address in str(m["To"]) and m["X-Pbem-Kind"] == "your_turn"]

    monkeypatch.delenv("PBEM_FAILPOINT", raising=False)
    # by the time the sweep comes (``late`` s on), the mail interval has long passed
    redis_client.delete(key(game_id, f"notify:rl:{active}"))
    assert sweep(service, now=time.time() + late)["turn_mails"] == [f"{game_id}:{active}"]
    got = maildir.wait_for(lambda m: address in str(m["To"]) and m["X-Pbem-Kind"] == "your_turn", 10)
    mine = [m for m in got if address in str(m["To"]) and m["X-Pbem-Kind"] == "your_turn"]
    assert len(mine) == 1
    assert len(re.findall(r"(?:set a|dropped the) standing order: ", text_of(mine[0]))) == 2, text_of(mine[0])
    # once: nothing left for a second sweep, and the index is clean
    assert sweep(service, now=time.time() + late)["turn_mails"] == []
    assert store.sending_deferred(game_id, active) is None and not store.deferred_waiting(game_id, active)
    assert store.deferred_due(time.time() + 10 * SENDING_LATE_S) == []
