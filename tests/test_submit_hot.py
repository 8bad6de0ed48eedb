"""The one-round-trip submit (``Service._submit_hot``): a process that holds
a game's state at the version a move was signed at checks the move against
it and queues it only if Redis still has the game at that version. Whatever
it cannot be sure of goes the read path, so the answers are the same as
there: these tests make the two paths disagree on purpose (two API
processes, a game that moved on, a replayed nonce) and check that nothing
stored changes that should not."""
from __future__ import annotations

import random

import pytest
import redis

from pbem import games
from pbem.trust import signing
from pbem.api import create_app
from pbem.client import Client
from pbem.errors import Conflict, Unauthorized
from pbem.games.base import canonical
from pbem.store.connections import connect
from pbem.service import Service, move_id_for
from pbem.pipeline.shard_queues import move_queue
from pbem.store import Store, key

from .conftest import LiveServer, drain
from .test_service import flip, log_snapshot, new_game


class Reads:
    """Counts the service's reads of a game (the read path's first round trip)."""

    def __init__(self, service):
        self.count = 0
        inner = service.store.reads

        def counted(asks):
            self.count += 1
            return inner(asks)
        service.store.reads = counted


def envelope(service, game_id, keys, seat=None, version=None, pick=0, nonce=None):
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0] if seat is None else seat
    moves = loaded.game.legal_moves(loaded.state, seat)
    return signing.make_envelope(game_id, seat, loaded.version if version is None else version,
                                 moves[pick % len(moves)], keys[seat], nonce=nonce)


def second_api(redis_client, settings) -> Service:
    """Another API process: its own caches, the same Redis and queue."""
    queue = move_queue(redis_client, settings.claim_idle_ms)
    svc = Service(Store(redis_client), enqueue=queue.push, snapshot_every=settings.snapshot_every,
                  enqueue_checked=queue.push_checked)
    svc.queue = queue
    return svc


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_a_hot_submit_reads_nothing_and_queues_as_the_read_path_does(service, redis_client):
    game_id, keys, _ = new_game(service)
    reads = Reads(service)
    first = service.submit(game_id, envelope(service, game_id, keys))  # cold: read path
    assert reads.count == 1 and first["status"] == "queued"
    drain(service)  # the drain (same process here) leaves the state and meta hot
    assert service.cache.current(game_id)[0] == service.store.version(game_id)
    before = reads.count
    env = envelope(service, game_id, keys)
    second = service.submit(game_id, env)
    assert reads.count == before, "the hot path read the game"
    stored = service.store.move(game_id, second["id"])
    assert stored == second and stored["status"] == "queued" and stored["auth"] == "ed25519"
    assert stored["envelope"] == env
    drain(service)
    assert service.move_status(game_id, second["id"])["status"] == "applied"
    loaded = service.load(game_id)
    replayed = loaded.game.replay(2, loaded.meta["options"], [e for _, e, _ in service.store.events(game_id)])
    assert canonical(loaded.game.dump(replayed)) == canonical(loaded.game.dump(loaded.state))


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_a_game_moved_on_by_another_process_is_refused_as_stale(service, redis_client, settings):
    game_id, keys, _ = new_game(service)
    service.submit(game_id, envelope(service, game_id, keys))
    drain(service)
    hot_version = service.cache.current(game_id)[0]
    other = second_api(redis_client, settings)
    moved = other.submit(game_id, envelope(other, game_id, keys))  # the other process: read path
    drain(other)
    assert other.move_status(game_id, moved["id"])["status"] == "applied"
    assert service.cache.current(game_id)[0] == hot_version  # this one has not heard of it

    # Signed at the version this process holds: its checks pass, Redis says no.
    late = signing.make_envelope(game_id, moved["envelope"]["player"], hot_version,
                                 moved["envelope"]["move"], keys[moved["envelope"]["player"]])
    before = log_snapshot(redis_client, game_id)
    with pytest.raises(Conflict) as err:
        service.submit(game_id, late)
    assert err.value.code == "stale_version"
    assert log_snapshot(redis_client, game_id) == before
    recorded = {m.decode() for m in redis_client.hkeys(key(game_id, "moves"))}
    assert len(recorded) == 3, "the refused move was recorded"  # setup, first, moved
    assert all(f[b"m"].decode() in recorded for _, f in redis_client.xrange(service.queue.for_game(game_id).stream)), \
        "the refused move was queued"
    wakes = list(redis_client.scan_iter(key(game_id, "wake:*")))
    assert all(0 < redis_client.pttl(w) <= 10_000 for w in wakes), "a wake marker would stay for ever"

    # Signed at the new version: this process's state is old, so it reads first.
    now = service.submit(game_id, envelope(service, game_id, keys))
    assert now["status"] == "queued"
    drain(service)
    assert service.move_status(game_id, now["id"])["status"] == "applied"


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_a_replayed_nonce_on_the_hot_path_changes_nothing(service, redis_client):
    game_id, keys, _ = new_game(service)
    service.submit(game_id, envelope(service, game_id, keys))
    drain(service)
    reads = Reads(service)
    env = envelope(service, game_id, keys)
    first = service.submit(game_id, env)
    stored = redis_client.hget(key(game_id, "moves"), first["id"])
    with pytest.raises(Conflict) as err:
        service.submit(game_id, env)  # still hot: the script finds the id taken
    assert err.value.code == "nonce_reused" and reads.count == 0
    assert redis_client.hget(key(game_id, "moves"), first["id"]) == stored
    # Two copies of one envelope also never add a second stream entry.
    ids = [f[b"m"] for _, f in redis_client.xrange(service.queue.for_game(game_id).stream)]
    assert ids.count(first["id"].encode()) == 1


def test_bad_signature_and_illegal_moves_on_the_hot_path(service, redis_client):
    game_id, keys, _ = new_game(service)
    service.submit(game_id, envelope(service, game_id, keys))
    drain(service)
    before = log_snapshot(redis_client, game_id)
    moves_before = redis_client.hgetall(key(game_id, "moves"))
    env = envelope(service, game_id, keys)
    with pytest.raises(Unauthorized) as err:
        service.submit(game_id, {**env, "signature": flip(env["signature"])})
    assert err.value.code == "bad_signature"
    seat = env["player"]
    illegal = signing.make_envelope(game_id, seat, env["expected_version"], {"type": "no_such_move"}, keys[seat])
    with pytest.raises(Exception) as err:
        service.submit(game_id, illegal)
    assert getattr(err.value, "status", None) == 422
    wrong_seat = 1 - seat
    out_of_turn = signing.make_envelope(game_id, wrong_seat, env["expected_version"], env["move"], keys[wrong_seat])
    with pytest.raises(Exception) as err:
        service.submit(game_id, out_of_turn)
    assert getattr(err.value, "status", None) in (409, 422)
    assert log_snapshot(redis_client, game_id) == before
    assert redis_client.hgetall(key(game_id, "moves")) == moves_before


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_the_waiting_process_learns_the_new_state_from_the_outcome(redis_client, settings, start_worker):
    """Over HTTP with a real worker: a move sent with Prefer: wait brings back
    its events (internally), so the next move of that game needs no read,
    and the state learnt equals the log's."""
    start_worker(scheduler=False, queues=("pbem-moves",))
    app = create_app(settings, connect(settings.redis_url))
    svc = app.extensions["pbem"]
    with LiveServer(app) as live:
        c = Client(live.url)
        game_id = c.create_game("wakanda", 2)["id"]
        keys = {}
        for seat in range(2):
            keys[seat], public = signing.generate_key()
            c.join(game_id, seat, public, f"p{seat}")
        rng = random.Random(5)
        reads = Reads(svc)
        for step in range(6):
            game = c.game(game_id)
            seat = game["to_act"][0]
            legal = c.legal_moves(game_id, seat)
            before = reads.count
            out = c.move(game_id, rng.choice(legal["moves"])["move"], keys[seat], seat,
                         expected_version=legal["version"], wait=10)
            assert out["status"] == "applied", out
            if step < 2:
                continue  # no drainer was seen listening yet: the outcome came by a second wait
            if step >= 3:  # warmed up: this process queued the last move and learnt its outcome
                assert reads.count == before, f"move {step} read the game"
            version, state, meta = svc.cache.current(game_id)
            assert version == out["version"] == meta["version"]
            wakanda = games.get("wakanda")
            replayed = wakanda.replay(2, svc.store.meta(game_id)["options"],
                                      [e for _, e, _ in svc.store.events(game_id)])
            assert canonical(wakanda.dump(state)) == canonical(wakanda.dump(replayed))
            # The events travel only inside Redis: the answer has none.
            assert "events" not in out


# -- the worker's side: a batch decided from memory ---------------------------

def test_a_drainer_holding_the_game_decides_from_the_queued_record_without_a_read(service, redis_client):
    game_id, keys, _ = new_game(service)
    service.submit(game_id, envelope(service, game_id, keys))
    drain(service)
    entry_ids = redis_client.xrange(service.queue.for_game(game_id).stream)
    record = service.submit(game_id, envelope(service, game_id, keys))
    entry = redis_client.xrange(service.queue.for_game(game_id).stream)[-1][1]
    assert entry[b"r"] and entry[b"m"] == record["id"].encode(), "the entry does not carry the record"
    assert len(redis_client.xrange(service.queue.for_game(game_id).stream)) == len(entry_ids) + 1
    reads = Reads(service)
    drain(service)
    assert reads.count == 0, "the drainer read a game it holds"
    assert service.move_status(game_id, record["id"])["status"] == "applied"


def test_a_drainer_behind_the_log_reads_before_it_rejects(service, redis_client, settings):
    """This process's state is a move behind (another worker applied one): a
    move signed at the newer version looks stale from memory; it must be
    read and applied, not rejected on what this process remembers."""
    game_id, keys, _ = new_game(service)
    service.submit(game_id, envelope(service, game_id, keys))
    drain(service)
    behind = service.cache.current(game_id)[0]
    other = second_api(redis_client, settings)
    moved = other.submit(game_id, envelope(other, game_id, keys))
    drain(other)  # the other worker applies it
    assert other.move_status(game_id, moved["id"])["status"] == "applied"
    newer = other.submit(game_id, envelope(other, game_id, keys))  # queued with its record
    assert service.cache.current(game_id)[0] == behind < newer["envelope"]["expected_version"]
    reads = Reads(service)
    drain(service)
    assert reads.count >= 1
    assert service.move_status(game_id, newer["id"])["status"] == "applied"


def test_a_move_decided_from_memory_on_a_stale_state_is_decided_again(service, redis_client, settings):
    """A move that raced (queued for a version the log has left) and a
    drainer that still holds that version: the append finds the log moved on,
    the move is read and decided again, and rejected as stale; the log keeps
    only the other move."""
    game_id, keys, _ = new_game(service)
    service.submit(game_id, envelope(service, game_id, keys))
    drain(service)
    version = service.cache.current(game_id)[0]
    racing = envelope(service, game_id, keys, pick=1)
    other = second_api(redis_client, settings)
    moved = other.submit(game_id, envelope(other, game_id, keys))
    drain(other)
    log_before = log_snapshot(redis_client, game_id)
    move_id = move_id_for(game_id, racing["player"], racing["nonce"])
    queued = {"id": move_id, "status": "queued", "auth": "ed25519", "envelope": racing, "submitted": 0.0}
    service.queue.push(game_id, move_id, lambda pipe: service.store.record_submission(game_id, move_id, queued, pipe),
                       record=queued)
    assert service.cache.current(game_id)[0] == version  # this drainer is behind
    drain(service)
    outcome = service.move_status(game_id, move_id)
    assert outcome["status"] == "rejected" and outcome["error"]["code"] == "stale_version", outcome
    assert log_snapshot(redis_client, game_id) == log_before
    assert other.move_status(game_id, moved["id"])["status"] == "applied"
