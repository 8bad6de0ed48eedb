"""Takebacks over HTTP (a real server on loopback, a real worker process):
the text ``takeback`` parses to the takeback move, signed envelopes ask and
accept through POST /games/{id}/moves, GET /games/{id}/takeback shows what
waits, and a refusal is a 422 with a stable code and the reader's words,
nothing stored."""
from __future__ import annotations

from pbem.games.base import canonical
from pbem.trust import signing

from .test_takebacks import undoable_move


def test_takeback_over_http(service, api_server, start_worker, http):
    game = service.create_game("cartoona", 2, {})
    game_id, keys, tokens = game["id"], [], []
    for seat in range(2):
        private, public = signing.generate_key()
        tokens.append(service.join(game_id, seat, public, f"p{seat}")["token"])
        keys.append(private)
    seat, before, _at = undoable_move(service, game_id, keys)
    other = 1 - seat
    start_worker(scheduler=False)
    base = f"{api_server.url}/games/{game_id}"

    def move(player, body, version):
        env = signing.make_envelope(game_id, player, version, body, keys[player])
        return http.post(f"{base}/moves", json=env, headers={"Prefer": "wait=8"}, timeout=15)

    parsed = http.post(f"{base}/parse", json={"text": "takeback"},
                       headers={"Authorization": f"Bearer {tokens[seat]}"}, timeout=10).json()
    assert parsed["move"] == {"takeback": "request"} and parsed["text"] == "takeback"
    assert http.get(f"{base}/takeback", timeout=10).json() == {"pending": None}
    # the other seat has no move to take back: 422, its words in Chinese, nothing stored
    version = parsed["version"]
    refused = http.post(f"{base}/moves?lang=zh-Hant", json=signing.make_envelope(
        game_id, other, version, {"takeback": "request"}, keys[other]), timeout=10)
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["code"] == "takeback_no_move"
    assert refused.json()["error"]["message"] == "你沒有可以悔回的一步"
    assert service.load(game_id).version == version
    asked = move(seat, parsed["move"], version)
    assert asked.status_code in (200, 202) and asked.json()["status"] == "applied", asked.text
    pending = http.get(f"{base}/takeback", timeout=10).json()["pending"]
    assert pending["by"] == seat and pending["waiting_for"] == [other] and pending["to_version"] < version
    again = move(seat, {"takeback": "request"}, asked.json()["version"])
    assert again.status_code == 422 and again.json()["error"]["code"] == "takeback_pending", again.text
    accepted = move(other, {"takeback": "accept"}, asked.json()["version"])
    assert accepted.json()["status"] == "applied", accepted.text
    assert http.get(f"{base}/takeback", timeout=10).json() == {"pending": None}
    events = http.get(f"{base}/events", params={"after": version}, timeout=10).json()["events"]
    assert [e["event"]["type"] for e in events] == ["TakebackRequested", "TakebackAnswered", "TakebackApplied"]
    loaded = service.load(game_id)
    assert canonical(loaded.game.dump(loaded.state)) == canonical(loaded.game.dump(before))
