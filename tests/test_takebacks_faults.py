"""A takeback is applied exactly once under kill -9: a real worker process
stops dead (the fault point ``takeback_appended``: as a SIGKILL would)
right after it appended the events of the last acceptance, before its
cache, hooks or the stream's acknowledgement; the stream entry is claimed
and applied again by the next worker, which finds the move settled. The
log holds one takeback, with no gap or doubled event, and the game goes on
from the state before the move taken back."""
from __future__ import annotations

from pbem.failpoint import EXIT_STATUS
from pbem.games import takeback
from pbem.games.base import canonical
from pbem.trust import signing

from .conftest import drain, wait_until
from .test_takebacks import fresh, new_game, play, undoable_move


def test_a_takeback_killed_after_its_append_is_applied_once(service, start_worker, monkeypatch):
    game_id, keys = new_game(service)
    seat, before, _at = undoable_move(service, game_id, keys)
    other = 1 - seat
    play(service, game_id, keys, seat, {"takeback": "request"})
    version = service.load(game_id).version
    accept = signing.make_envelope(game_id, other, version, {"takeback": "accept"}, keys[other])
    move_id = service.submit(game_id, accept)["id"]  # queued: no worker yet
    monkeypatch.setenv("PBEM_FAILPOINT", "takeback_appended")
    doomed = start_worker(scheduler=False)
    assert doomed.proc.wait(30) == EXIT_STATUS, doomed.log()[-3000:]
    stored = service.store.move(game_id, move_id)
    assert stored["status"] == "applied"  # the append (one script) stored the record with the events
    queue = service.queue.queues[0]
    assert service.store.redis.xpending(queue.stream, queue.group)["pending"] == 1  # never acknowledged
    monkeypatch.delenv("PBEM_FAILPOINT")
    start_worker(scheduler=False)
    # the dead worker's stream entry is claimed (PBEM_CLAIM_IDLE_MS) and handled again: nothing pending
    wait_until(lambda: not service.store.redis.xpending(queue.stream, queue.group)["pending"], timeout=20,
               interval=0.05)
    rows = service.store.events(game_id)
    assert [v for v, _e, _m in rows] == list(range(1, len(rows) + 1)), "a gap or a doubled event"
    kinds = [e["type"] for _v, e, _m in rows]
    assert kinds.count(takeback.TAKEBACK_APPLIED) == 1 and kinds[-1] == takeback.TAKEBACK_APPLIED
    assert service.store.move(game_id, move_id) == stored  # settled once, as it was
    loaded = fresh(service).load(game_id)
    assert loaded.version == stored["version"] == version + 2
    assert canonical(loaded.game.dump(loaded.state)) == canonical(loaded.game.dump(before))
    # the same envelope again is the same move: nonce_reused, never a second takeback
    try:
        service.submit(game_id, accept)
        raise AssertionError("a resent acceptance was queued")
    except Exception as err:
        assert getattr(err, "code", None) == "nonce_reused", err
    drain(service)
    assert len(service.store.events(game_id)) == len(rows)
