"""A seat that has answered Kachina's opening redraw and sends again is told
so (``already_answered``), not ``stale_version``, at the edge and in the
queue; and its rejected move's status is what the API description says for
each viewer: the mover sees the error, another seat sees the move withheld.
Real HTTP, a real worker."""
from __future__ import annotations

import pytest

from pbem.trust import signing
from pbem.api.schemas import MoveRecord
from pbem.client import ApiError, Client
from pbem.service.queries import Queries


def redraw_game(url: str, players: int = 3):
    client = Client(url)
    game_id = client.create_game("kachina", players)["id"]
    keys = {}
    for seat in range(players):
        keys[seat], public = signing.generate_key()
        client.join(game_id, seat, public, f"P{seat}")
    game = client.game(game_id, 0)
    assert game["view"]["phase"] == "redraw" and game["to_act"] == list(range(players))
    return client, game_id, keys, game["version"]


def keep(game_id, seat, version, key, nonce):
    return signing.make_envelope(game_id, seat, version, {"type": "keep"}, key, nonce=nonce)


def test_sending_again_at_the_windows_version_says_already_answered(api_server, start_worker):
    start_worker()
    client, game_id, keys, dealt = redraw_game(api_server.url)
    first = client.submit(keep(game_id, 0, dealt, keys[0], "first-answer"), wait=10)
    assert first["status"] == "applied"
    now = client.game(game_id, 0)["version"]
    assert now > dealt and client.game(game_id, 0)["view"]["phase"] == "redraw"
    for version in (dealt, now):  # the window's version, and the current one
        with pytest.raises(ApiError) as err:
            client.submit(keep(game_id, 0, version, keys[0], f"again-at-{version}"), wait=10)
        assert (err.value.status, err.value.code) == (422, "already_answered"), err.value
    assert client.game(game_id, 0)["version"] == now  # nothing applied
    # A seat still to act, signed at the window's version: it still stands.
    assert client.submit(keep(game_id, 1, dealt, keys[1], "second-seat"), wait=10)["status"] == "applied"


def test_both_queued_the_second_is_rejected_as_already_answered(api_server, start_worker):
    """Both answers pass the edge (the first is not applied yet); the worker
    applies the first and rejects the second for what happened."""
    client, game_id, keys, dealt = redraw_game(api_server.url)
    records = [client.submit(keep(game_id, 0, dealt, keys[0], nonce)) for nonce in ("answer-one", "answer-two")]
    assert [r["status"] for r in records] == ["queued", "queued"]
    start_worker()
    first, second = (client.move_status(game_id, r["id"], seat=0, wait=10) for r in records)
    assert first["status"] == "applied"
    assert second["status"] == "rejected" and second["error"]["code"] == "already_answered", second

    # What each viewer gets of the rejected, withheld move: as MoveRecord describes.
    mover = second
    assert set(mover) == {"id", "status", "auth", "envelope", "submitted", "settled", "version_before",
                          "error"}
    assert mover["envelope"]["move"] == {"type": "keep"} and "envelope_withheld" not in mover
    other = client.move_status(game_id, records[1]["id"], seat=1)
    spectator = client.move_status(game_id, records[1]["id"])
    for seen in (other, spectator):
        assert seen == {"id": mover["id"], "status": "rejected", "submitted": mover["submitted"],
                        "settled": mover["settled"], "version_before": mover["version_before"],
                        "envelope_withheld": True}
    kept = set(Queries.WITHHELD_KEEPS) | {"envelope_withheld"}
    described = MoveRecord._declared_fields
    assert "withheld" in described["error"].metadata["description"]
    assert set(other) <= kept and "error" not in other
