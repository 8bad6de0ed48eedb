"""The Catapult's shots stay secret until all are in, over real HTTP and the
real event stream: a 2-seat game (a worker process applies the moves, the
stream process serves the events) reaches the catapult round; seat 1's shot
is read by seat 0 and by a spectator through the game view, the events, the
move's status, the record and the stream, and none of them shows where it
went; seat 1 itself sees it. Once seat 0's shot is in, the reveal is public."""
from __future__ import annotations

import json

from .stream_support import Collector, seated, stream_world  # noqa: F401  (the fixture)
from .test_hidden_moves import check_withheld_over_http

OPTIONS = {"draw_order": ["U", "CA1", "E", "E"], "start_player": 0, "expansions": ["catapult"],
           "catapult_mode": "abstract"}
SHOT = {"type": "shot", "x": 1, "y": 0, "on": "road E"}


def move(c, game_id, keys, seat, text):
    parsed = c.parse(game_id, seat, text)["move"]
    out = c.move(game_id, parsed, keys[seat], seat, wait=10)
    assert out["status"] == "applied", (text, out)
    return parsed, out


def test_a_shot_is_secret_until_all_are_in_over_http_and_the_stream(stream_world, start_worker):
    start_worker()
    c, game_id, keys = seated(stream_world.api, "carcassonne", 2, OPTIONS)
    move(c, game_id, keys, 0, "place 1,0 r0 thief road E")
    move(c, game_id, keys, 1, "place 0,1 r0")
    move(c, game_id, keys, 1, "catapult knockout")
    assert c.game(game_id)["to_act"] == [0, 1]
    shot, status = move(c, game_id, keys, 1, "shoot 1,0 road E")
    assert shot == SHOT
    version = c.game(game_id)["version"]
    check_withheld_over_http(c, stream_world.api, game_id, 1, shot, status, 2)
    for viewer in (0, None):
        game = c.game(game_id, viewer)
        assert game["to_act"] == [0]
        assert game["view"]["catapult"]["shot"] == [1] and "my_shot" not in game["view"]["catapult"]
        (aimed,) = [e["event"] for e in c.events(game_id, viewer, after=version - 1)["events"]]
        assert aimed == {"type": "ShotAimed", "player": 1}
    assert c.game(game_id, 1)["view"]["catapult"]["my_shot"] == {"x": 1, "y": 0, "on": "road E"}
    assert c.events(game_id, 1, after=version - 1)["events"][0]["event"]["secret"] == {"x": 1, "y": 0,
                                                                                        "on": "road E"}
    # the stream, as seat 0, a spectator and the shooter see it
    streams = {viewer: Collector(stream_world.open(game_id, c.token(game_id, viewer), after=version - 1))
               for viewer in (0, None, 1)}
    seen = {viewer: [ev.data["event"] for ev in s.until(version) if ev.event == "event"]
            for viewer, s in streams.items()}
    assert seen[0] == seen[None] == [{"type": "ShotAimed", "player": 1}]
    assert seen[1][0]["secret"] == {"x": 1, "y": 0, "on": "road E"} and seen[1][0]["to"] == [1]
    for viewer in (0, None):
        assert "road E" not in json.dumps(seen[viewer])
    # seat 0's shot closes the round: every shot is public, resolved from the active seat (1)
    move(c, game_id, keys, 0, "no shot")
    after = [e["event"] for e in c.events(game_id, None, after=version)["events"]]
    revealed = next(e for e in after if e["type"] == "ShotsRevealed")
    assert revealed["shots"] == [{"player": 1, **{k: SHOT[k] for k in ("x", "y", "on")}},
                                 {"player": 0, "pass": True}]
    assert next(e for e in after if e["type"] == "CatapultKnockOut")["followers"][0]["player"] == 0
    assert c.game(game_id, None)["view"]["followers"] == []
    for s in streams.values():
        s.stream.close()
