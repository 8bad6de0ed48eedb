"""Several seats to act at once need not sign again after each other's
answers: Kachina's opening redraw through the service (the worker's path and
the edge's) and over real HTTP with a real worker; strict games stay strict."""
from __future__ import annotations

import threading

import pytest

from pbem import games
from pbem.trust import signing
from pbem.client import Client
from pbem.errors import Conflict

from .conftest import drain


def kachina_at_the_redraw(service, players=4, seed=b"redraw"):
    game_id = service.create_game("kachina", players, {}, seed=seed)["id"]
    keys = []
    for seat in range(players):
        private, public = signing.generate_key()
        keys.append(private)
        service.join(game_id, seat, public, f"P{seat}")
    loaded = service.load(game_id)
    assert loaded.game.window(loaded.state) == "redraw" and loaded.game.to_act(loaded.state) == set(range(players))
    return game_id, keys, loaded


def answers(loaded, keys):
    """Every seat's answer (redraw when allowed), all signed at one version."""
    game, state = loaded.game, loaded.state
    out = []
    for seat in range(len(keys)):
        move = game.legal_moves(state, seat)[-1]  # keep, or redraw when allowed
        out.append(signing.make_envelope(loaded.id, seat, loaded.version, move, keys[seat]))
    return out


def test_every_redraw_answer_signed_at_the_deal_applies_in_one_drain(service):
    """All four queued at the deal's version, then decided in one batch:
    the worker takes the second to fourth though the game has moved on."""
    game_id, keys, dealt = kachina_at_the_redraw(service)
    records = [service.submit(game_id, envelope) for envelope in answers(dealt, keys)]
    assert all(r["status"] == "queued" for r in records)
    drain(service)
    outcomes = [service.move_status(game_id, r["id"]) for r in records]
    assert [o["status"] for o in outcomes] == ["applied"] * 4, outcomes
    assert all(o["version_before"] > dealt.version for o in outcomes[1:]), "applied on newer versions"
    after = service.load(game_id)
    assert after.state.phase == "play" and after.game.window(after.state) is None


def test_every_redraw_answer_signed_at_the_deal_is_accepted_after_the_others_applied(service):
    """One at a time, each after the last applied: the edge's check, on a
    state newer than the one signed, accepts it too."""
    game_id, keys, dealt = kachina_at_the_redraw(service, players=3, seed=b"redraw-3")
    late = signing.make_envelope(game_id, 0, dealt.version, {"type": "pass"}, keys[0], nonce="late-signed-move")
    for envelope in answers(dealt, keys):
        record = service.submit(game_id, envelope)
        assert record["status"] == "queued"
        drain(service)
        assert service.move_status(game_id, record["id"])["status"] == "applied"
    assert service.load(game_id).version > dealt.version + 2
    # The window has closed: a move signed in it no longer stands.
    with pytest.raises(Conflict) as err:
        service.submit(game_id, late)
    assert err.value.code == "stale_version"


def test_a_strict_game_refuses_a_move_signed_before_the_last(service):
    game_id = service.create_game("wakanda", 2, {}, seed=b"strict")["id"]
    keys = []
    for seat in range(2):
        private, public = signing.generate_key()
        keys.append(private)
        service.join(game_id, seat, public, f"P{seat}")
    loaded = service.load(game_id)
    (seat,) = loaded.game.to_act(loaded.state)
    first = loaded.game.legal_moves(loaded.state, seat)
    service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, first[0], keys[seat]))
    drain(service)
    now = service.load(game_id)
    (other,) = now.game.to_act(now.state)
    move = now.game.legal_moves(now.state, other)[0]
    with pytest.raises(Conflict) as err:  # signed at the version before the last move
        service.submit(game_id, signing.make_envelope(game_id, other, loaded.version, move, keys[other]))
    assert err.value.code == "stale_version"


def test_four_seats_answer_the_redraw_at_once_over_http(api_server, start_worker):
    start_worker()
    client = Client(api_server.url)
    types = {t["name"]: t for t in client.game_types()}
    assert types["kachina"]["concurrency"] == "window" and types["wakanda"]["concurrency"] == "strict"
    assert all(t["concurrency_doc"] for t in types.values())
    game_id = client.create_game("kachina", 4)["id"]
    keys = {}
    for seat in range(4):
        keys[seat], public = signing.generate_key()
        client.join(game_id, seat, public, f"P{seat}")
    game = client.game(game_id, 0)
    assert game["to_act"] == [0, 1, 2, 3]
    version = game["version"]
    envelopes = []
    for seat in range(4):
        move = client.legal_moves(game_id, seat)["moves"][-1]["move"]
        envelopes.append(signing.make_envelope(game_id, seat, version, move, keys[seat]))
    outcomes: dict = {}

    def send(seat):  # a client (and connection) of its own, as each player has
        outcomes[seat] = Client(api_server.url).submit(envelopes[seat], wait=10)

    threads = [threading.Thread(target=send, args=(seat,)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == [0, 1, 2, 3]
    assert all(o["status"] == "applied" for o in outcomes.values()), outcomes
    game = client.game(game_id, 0)
    assert game["view"]["phase"] == "play" and len(game["to_act"]) == 1


def test_every_game_declares_its_concurrency():
    for game in games.all_games():
        assert game.concurrency in ("strict", "window") and game.concurrency_doc, game.key
