"""The service and the store against a real Redis: a whole game, replay,
idempotency, and every kind of bad input leaving the log untouched."""
from __future__ import annotations

import random

import pytest

from pbem.trust import record as game_record
from pbem.trust import signing
from pbem.errors import Conflict, NotFound, Unauthorized, Unprocessable
from pbem.games.base import canonical
from pbem.store import key

from .conftest import drain


def new_game(service, name="wakanda", players=2, options=None):
    game = service.create_game(name, players, options or {})
    keys, tokens = [], []
    for seat in range(players):
        private, public = signing.generate_key()
        tokens.append(service.join(game["id"], seat, public, f"P{seat}")["token"])
        keys.append(private)
    return game["id"], keys, tokens


def submit(service, game_id, seat, keys, move, version=None, nonce=None):
    if version is None:
        version = service.load(game_id).version
    env = signing.make_envelope(game_id, seat, version, move, keys[seat], nonce=nonce)
    return service.submit(game_id, env)


def play_out(service, game_id, keys, tokens, rng):
    while True:
        loaded = service.load(game_id)
        if loaded.game.result(loaded.state):
            return loaded
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        moves = service.legal_moves(game_id, tokens[seat])["moves"]
        record = submit(service, game_id, seat, keys, rng.choice(moves)["move"])
        drain(service)
        assert service.move_status(game_id, record["id"])["status"] == "applied"


def flip(text: str) -> str:
    middle = len(text) // 2
    return text[:middle] + ("B" if text[middle] != "B" else "C") + text[middle + 1:]


def log_snapshot(redis_client, game_id):
    return (redis_client.xlen(key(game_id, "log")), redis_client.hget(key(game_id, "meta"), "version"),
            redis_client.xrange(key(game_id, "log")))


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_whole_game_then_replay_and_record(service, redis_client):
    game_id, keys, tokens = new_game(service)
    assert service.get_game(game_id, None)["status"] == "active"
    final = play_out(service, game_id, keys, tokens, random.Random(1))
    summary = service.get_game(game_id, None)
    assert summary["status"] == "finished" and summary["result"]["winners"]
    # The seed is revealed and matches the commitment published at creation.
    import hashlib
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == summary["seed_sha256"]
    # Replay from the log, with no cache and no snapshot, gives the same state.
    service.cache = type(service.cache)()
    redis_client.delete(key(game_id, "snap"))
    again = service.load(game_id)
    assert canonical(final.game.dump(again.state)) == canonical(final.game.dump(final.state))
    # Any past version can be rebuilt, and the record verifies offline.
    mid = final.version // 2
    assert service.state_at(game_id, None, mid)["version"] == mid
    report = game_record.verify_lines(list(service.record_lines(game_id, None)))
    assert report.ok, report.problems
    assert report.moves_checked > 5 and report.seed_checked


def test_snapshot_then_tail_equals_full_replay(service, redis_client):
    game_id, keys, tokens = new_game(service)
    final = play_out(service, game_id, keys, tokens, random.Random(2))
    snap = service.store.snapshot(game_id)
    assert snap is not None and 0 < snap[0] <= final.version
    service.cache = type(service.cache)()
    from_snap = service.load(game_id)
    full = final.game.replay(2, final.meta["options"], [e for _, e, _ in service.store.events(game_id)])
    assert canonical(final.game.dump(from_snap.state)) == canonical(final.game.dump(full))


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)
def test_apply_is_idempotent(service, redis_client):
    game_id, keys, tokens = new_game(service)
    seat = sorted(service.load(game_id).game.to_act(service.load(game_id).state))[0]
    move = service.legal_moves(game_id, tokens[seat])["moves"][0]["move"]
    record = submit(service, game_id, seat, keys, move)
    first = service.apply_move(game_id, record["id"])
    before = log_snapshot(redis_client, game_id)
    second = service.apply_move(game_id, record["id"])
    assert first == second and first["status"] == "applied"
    assert log_snapshot(redis_client, game_id) == before


@pytest.fixture
def started(service):
    game_id, keys, tokens = new_game(service)
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    move = service.legal_moves(game_id, tokens[seat])["moves"][0]["move"]
    return game_id, keys, tokens, seat, move


def test_bad_input_changes_nothing(service, redis_client, started):
    game_id, keys, tokens, seat, move = started
    other = 1 - seat
    version = service.load(game_id).version
    before = log_snapshot(redis_client, game_id)
    moves_before = redis_client.hgetall(key(game_id, "moves"))

    def refused(exc, code, fn):
        with pytest.raises(exc) as err:
            fn()
        assert err.value.code == code, err.value
        assert log_snapshot(redis_client, game_id) == before
        assert redis_client.hgetall(key(game_id, "moves")) == moves_before

    env = signing.make_envelope(game_id, seat, version, move, keys[seat])
    # a missing or broken signature
    refused(Unauthorized, "bad_signature", lambda: service.submit(game_id, {**env, "signature": ""}))
    refused(Unauthorized, "bad_signature", lambda: service.submit(game_id, {**env, "signature": flip(env["signature"])}))
    # signed by another seat's key
    refused(Unauthorized, "bad_signature",
            lambda: service.submit(game_id, signing.make_envelope(game_id, seat, version, move, keys[other])))
    # tampered after signing
    refused(Unauthorized, "bad_signature", lambda: service.submit(game_id, {**env, "expected_version": version + 1}))
    # signed for another game
    refused(Unprocessable, "game_mismatch",
            lambda: service.submit(game_id, signing.make_envelope("elsewhere", seat, version, move, keys[seat])))
    # stale and future versions
    refused(Conflict, "stale_version",
            lambda: service.submit(game_id, signing.make_envelope(game_id, seat, version - 1, move, keys[seat])))
    refused(Conflict, "stale_version",
            lambda: service.submit(game_id, signing.make_envelope(game_id, seat, version + 5, move, keys[seat])))
    # out of turn, and illegal
    refused(Unprocessable, "not_your_turn",
            lambda: service.submit(game_id, signing.make_envelope(game_id, other, version, move, keys[other])))
    refused(Unprocessable, "unknown_move",
            lambda: service.submit(game_id, signing.make_envelope(game_id, seat, version, {"type": "fly"}, keys[seat])))
    # unknown game or seat
    refused(NotFound, "unknown_game", lambda: service.submit("nope", {**env, "game": "nope"}))
    refused(NotFound, "unknown_seat",
            lambda: service.submit(game_id, signing.make_envelope(game_id, 7, version, move, keys[seat])))
    # reading a private view with a wrong or missing token
    refused(Unauthorized, "missing_token", lambda: service.seat_view(game_id, seat, None))
    refused(Forbidden_or_unauth(), "not_your_seat", lambda: service.seat_view(game_id, seat, tokens[other]))
    refused(Unauthorized, "bad_token", lambda: service.seat_view(game_id, seat, "forged"))
    # the good envelope goes through; the same envelope again is a replay
    service.submit(game_id, env)
    refused_after = log_snapshot(redis_client, game_id)
    with pytest.raises(Conflict) as err:
        service.submit(game_id, env)
    assert err.value.code == "nonce_reused"
    assert log_snapshot(redis_client, game_id) == refused_after


def Forbidden_or_unauth():
    from pbem.errors import Forbidden
    return Forbidden


def test_worker_rejects_a_move_made_stale_in_the_queue(service, redis_client, started):
    """Two moves signed at the same version: the first applies, the second is
    rejected as stale by the worker (the edge could not know)."""
    game_id, keys, tokens, seat, move = started
    loaded = service.load(game_id)
    legal = service.legal_moves(game_id, tokens[seat])["moves"]
    a = submit(service, game_id, seat, keys, legal[0]["move"], loaded.version)
    b = submit(service, game_id, seat, keys, legal[-1]["move"], loaded.version)
    drain(service)
    outcomes = sorted(service.move_status(game_id, m["id"])["status"] for m in (a, b))
    assert outcomes == ["applied", "rejected"]
    rejected = [service.move_status(game_id, m["id"]) for m in (a, b)
                if service.move_status(game_id, m["id"])["status"] == "rejected"][0]
    assert rejected["error"]["code"] in ("stale_version",)
    assert service.load(game_id).version == loaded.version + len(
        [e for e in service.store.events(game_id, loaded.version)])


def test_join_errors(service):
    game = service.create_game("wakanda", 2, {})
    _, public = signing.generate_key()
    service.join(game["id"], 0, public, "A")
    with pytest.raises(Conflict) as err:
        service.join(game["id"], 0, public, "B")
    assert err.value.code == "seat_taken"
    with pytest.raises(NotFound):
        service.join(game["id"], 5, public, "B")
    with pytest.raises(Unprocessable) as err:
        service.join(game["id"], 1, "not-a-key-at-all-not-a-key-at-all-not-a-key", "B")
    assert err.value.code == "bad_public_key"
    with pytest.raises(Unprocessable) as err:
        service.create_game("wakanda", 3, {})
    assert err.value.code == "bad_player_count"
    with pytest.raises(Unprocessable) as err:
        service.create_game("nosuchgame", 2, {})
    assert err.value.code == "unknown_game"


def test_hidden_information_stays_hidden_in_views_events_and_records(service):
    game_id, keys, tokens = new_game(service, options={"hidden_future_villages": True})
    # the face-down villages 4-6 have no name in any seat's or a spectator's view
    for token in (None, *tokens):
        villages = service.get_game(game_id, token)["view"]["villages"]
        assert [v["village"] for v in villages[3:]] == [None, None, None]
    assert all(v["village"] for v in service.load(game_id).game.view(service.load(game_id).state, "*")["villages"])
    events = service.events(game_id, None)["events"]
    dealt = [e["event"] for e in events if "secret" in e["event"]]
    assert not dealt, "a spectator saw an event's secret"
    record = "\n".join(service.record_lines(game_id, tokens[0]))
    assert '"secret"' not in record


def test_trusted_moves_take_the_same_path_and_are_recorded_with_their_auth(service):
    game_id, keys, tokens = new_game(service)
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    move = loaded.game.legal_moves(loaded.state, seat)[0]
    record = service.submit_trusted(game_id, seat, move, loaded.version, "mail-token", "mail:<abc@x>:0",
                                    message_id="<abc@x>")
    assert record["status"] == "queued" and record["auth"] == "mail-token"
    with pytest.raises(Conflict):  # the same mail command twice
        service.submit_trusted(game_id, seat, move, loaded.version, "mail-token", "mail:<abc@x>:0")
    drain(service)
    applied = service.move_status(game_id, record["id"])
    assert applied["status"] == "applied" and applied["message_id"] == "<abc@x>"
    lines = list(service.record_lines(game_id, None))
    assert '"auth":"mail-token"' in lines[2]
    report = game_record.verify_lines(lines)
    assert report.ok and report.signatures_checked == 0


def test_a_forfeited_game_ends_with_the_server_result_and_its_record_verifies(service):
    from pbem.notify.deadlines import forfeit

    game_id, keys, tokens = new_game(service)
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    assert forfeit(service, loaded, seat, reason="deadline")
    summary = service.get_game(game_id, None)
    assert summary["status"] == "finished"
    assert summary["result"]["placings"][seat] == 2 and summary["result"]["winners"] == [1 - seat]
    report = game_record.verify_lines(list(service.record_lines(game_id, None)))
    assert report.ok, report.problems
    assert report.result["detail"]["forfeited"] == seat
    # a record whose forfeit was edited out no longer verifies
    lines = [line for line in service.record_lines(game_id, None) if "SeatForfeited" not in line]
    assert not game_record.verify_lines(lines).ok


def test_a_finishing_append_sets_status_and_result_in_one_step(service):
    game_id, keys, tokens = new_game(service)
    loaded = service.load(game_id)
    done = service.store.append(game_id, loaded.version, "m-final", [{"type": "Noted"}],
                                {"id": "m-final", "status": "applied"}, status="finished",
                                meta={"result": {"winners": [0]}, "finished": 12.5})
    assert done.kind == "ok"
    meta = service.store.meta(game_id)
    assert meta["status"] == "finished" and meta["result"] == {"winners": [0]} and meta["finished"] == 12.5
    # a stale append sets nothing
    again = service.store.append(game_id, loaded.version, "m-late", [], {"id": "m-late"}, status="active",
                                 meta={"result": None})
    assert again.kind == "stale" and service.store.meta(game_id)["result"] == {"winners": [0]}
