"""When turn mails leave, with real worker processes (a move worker and the
idle-priority background worker, as make run has them) and the maildir:
with no backlog each turn mail is in the maildir within 5 s of the move,
move after move, whatever ``PBEM_MAIL_INTERVAL`` (60 s by default); a
burst of notices to one seat that has not acted arrives as fewer mails,
the later ones gathered into one that tells them all."""
from __future__ import annotations

import re
import time

import pytest

from .conftest import wait_until

# Latency budgets: run in make test's serial phase, away from the suite's own load.
pytestmark = pytest.mark.timing
from .mail_reader import Maildir, picture_of, text_of
from .test_notify_support import new_game, notify_env, smtp, submit  # noqa: F401

LIMIT_S = 5.0


@pytest.fixture
def maildir(notify_env, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    monkeypatch.delenv("PBEM_NOTICE_LINGER_MS")  # the drainer lingers as in production
    monkeypatch.delenv("PBEM_MAIL_INTERVAL", raising=False)  # the default: 60 s
    return Maildir(tmp_path / "maildir")


def workers(start_worker):
    return [start_worker(scheduler=False, queues=("pbem-moves",)),
            start_worker(queues=("pbem-notify", "pbem-mail"), idle=True)]


def test_each_turn_mail_leaves_within_5_s_of_the_move(service, redis_client, maildir, start_worker):
    procs = workers(start_worker)
    game_id, keys, _ = new_game(service, "wakanda", names=("Ann", "Bob"))
    first = maildir.wait_for(lambda m: m["X-Pbem-Kind"] == "your_turn", 20)
    assert len([m for m in first if m["X-Pbem-Kind"] == "your_turn"]) == 1
    delays = []
    for _ in range(8):
        loaded = service.load(game_id)
        if loaded.meta["status"] != "active":
            break
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        move = loaded.game.legal_moves(loaded.state, seat)[0]
        moved = time.time()
        submit(service, game_id, seat, keys, move, loaded.version)
        got = maildir.wait_for(lambda m: m["X-Pbem-Kind"] in ("your_turn", "game_over"), 20)
        turn = [m for m in got if m["X-Pbem-Kind"] in ("your_turn", "game_over")]
        assert len(turn) in (1, 2), [m["Subject"] for m in got]
        delays.append(turn[0].arrived - moved)
        if turn[0]["X-Pbem-Kind"] == "your_turn":
            # to whoever is to act now, with the picture, telling the move just made
            now = service.load(game_id)
            assert str(turn[0]["To"]).endswith(f"p{sorted(now.game.to_act(now.state))[0]}@example.test>")
            assert f"(v{now.version})" in turn[0]["Subject"]
            picture_of(turn[0])
    assert len(delays) >= 6 and max(delays) < LIMIT_S, delays
    print("turn mail delays after each move (s):", [round(d, 2) for d in delays])
    assert all(p.proc.poll() is None for p in procs)


def test_a_burst_to_one_seat_comes_as_fewer_gathered_mails(service, redis_client, maildir, start_worker,
                                                           monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_INTERVAL", "3")  # short, so the gathered mail comes soon
    workers(start_worker)
    game_id, keys, _ = new_game(service, "cartoona", {"target_score": 50}, names=("Ann", "Bob"))
    got = maildir.wait_for(lambda m: m["X-Pbem-Kind"] == "your_turn", 20)
    loaded = service.load(game_id)
    active = loaded.state["active"]
    address = f"p{active}@example.test"
    assert [m["X-Pbem-Kind"] for m in got if address in str(m["To"])] == ["your_turn"]
    # The active player sets its standing orders four times, by the API:
    # after each it is still to act, so each makes a notice for it.
    orders = []
    for _ in range(4):
        now = service.load(game_id)
        move = next(m for m in now.game.legal_moves(now.state, active) if m["type"] == "set_order")
        orders.append(now.game.describe(move, active))
        submit(service, game_id, active, keys, move, now.version)
        wait_until(lambda: service.load(game_id).version > now.version, 10)
    # one gathered mail, at the end of the interval, tells all four
    got = maildir.wait_for(lambda m: address in str(m["To"]) and m["X-Pbem-Kind"] == "your_turn", 15)
    time.sleep(1.5)
    got += maildir.new()
    mine = [m for m in got if address in str(m["To"])]
    assert len(mine) == 1, [m["Subject"] for m in mine]
    text = text_of(mine[0])
    assert len(re.findall(r"(?:set a|dropped the) standing order: ", text)) == 4, text
    final = service.load(game_id)
    assert f"(v{final.version})" in mine[0]["Subject"]
    assert not [m for m in got if f"p{1 - active}@" in str(m["To"]) and m["X-Pbem-Kind"] == "your_turn"]
    # ... and once the turn passes, the next turn mail goes at once again
    moved = time.time()
    submit(service, game_id, active, keys, next(m for m in final.game.legal_moves(final.state, active)
                                                if m["type"] == "end_turn"), final.version)
    other = f"p{1 - active}@example.test"
    got = maildir.wait_for(lambda m: other in str(m["To"]) and m["X-Pbem-Kind"] == "your_turn", 15)
    assert next(m for m in got if other in str(m["To"])).arrived - moved < LIMIT_S
