"""Scripted Carcassonne games: a fixed draw order and start player, moves
typed in notation, the expected scores and supplies after each turn and the
final result."""
from __future__ import annotations

import random

import pytest

from pbem import games

G = games.get("carcassonne")


def run_script(order, script, players=2, **options):
    opts = G.check_options(players, {"draw_order": list(order), "start_player": 0, **options})
    state = G.start(players, opts)
    log = G.setup(state, random.Random(0))
    state = G.apply(state, log)
    for i, (text, scores, supply) in enumerate(script):
        (player,) = G.to_act(state)
        assert player == i % players
        events = G.decide(state, player, G.parse(text, state, player), random.Random(i))
        log += events
        state = G.apply(state, events)
        assert state.scores == scores, (i, text, state.scores)
        assert state.supply == supply, (i, text, state.supply)
    # replay of the whole log gives the same state
    again = G.replay(players, opts, log)
    assert G.dump(again) == G.dump(state)
    return state, log


def test_cloisters_roads_and_one_big_field():
    """Turn by turn (seat 0 / seat 1):
    1. E caps the start city with a knight: +4, the knight comes home.
    2. U east of the start, farmer in its north field (borders that city).
    3. B north-east, a monk.
    4. A east of U, a thief on the road that ends at A's cloister.
    5. A west of the start, a monk: the 4-tile road completes, seat 1 +4.
    6. V south of the start, a thief on its S-W road.
    7. B south-east. The pile is empty: final scoring.
    Final: monks 1+4 and 1+3, thief 1 tile, and the one big field (A's field
    is not split by its road, so it joins north and south) borders 1 city: 3.
    """
    script = [
        ("place 0,-1 r180 follower city S", (4, 0), (7, 7)),
        ("place 1,0 r0 farmer NL", (4, 0), (7, 6)),
        ("place 1,-1 r0 monk", (4, 0), (6, 6)),
        ("place 2,0 r90 thief W", (4, 0), (6, 5)),
        ("place -1,0 r270 follower cloister", (4, 4), (5, 6)),
        ("place 0,1 r0 thief S", (4, 4), (5, 5)),
        ("place 1,1 r0", (13, 8), (5, 5)),
    ]
    state, log = run_script("EUBAAVB", script)
    result = G.result(state)
    assert result.scores == (13, 8) and result.placings == (1, 2)
    assert result.detail["by_category"] == {"city": [4, 0], "cloister": [9, 0], "field": [0, 3],
                                            "road": [0, 5]}
    finals = [(e["type"], e.get("feature"), e["points"], e["winners"]) for e in log
              if e["type"] in ("FeatureScored", "FieldScored") and not e.get("complete", False)]
    assert sorted(finals, key=str) == sorted([
        ("FeatureScored", "cloister", 4, [0]), ("FeatureScored", "cloister", 5, [0]),
        ("FeatureScored", "road", 1, [1]), ("FieldScored", "field", 3, [1])], key=str)


def test_three_players_shared_road_and_city_with_pennant():
    """Three seats. Seat 0 and seat 1 put thieves on two road pieces that a
    later tile joins; seat 2 builds a pennant city that completes.
    1. s0 U east of start, thief (road D-U).
    2. s1 V under U turned E-S, thief (a separate road).
    3. s2 M north of the start turned S+E (pennant), knight.
    4. s0 V east of U (W-S), joins nothing yet... it extends seat 0's road.
    5. s1 V turned W-N below it: the two roads are one, both thieves on it.
    6. s2 E caps the pennant city from the east: 3 tiles + pennant = 8.
    7. s0 A west of the start closes the road's west end.
    8. s1 A under the V closes the south end: 7-tile road, both +7.
    """
    script = [
        ("place 1,0 r0 thief E", (0, 0, 0), (6, 7, 7)),
        ("place 1,1 r270 thief E", (0, 0, 0), (6, 6, 7)),
        ("place 0,-1 r180 knight S", (0, 0, 0), (6, 6, 6)),
        ("place 2,0 r0", (0, 0, 0), (6, 6, 6)),
        ("place 2,1 r90", (0, 0, 0), (6, 6, 6)),
        ("place 1,-1 r270", (0, 0, 8), (6, 6, 7)),
        ("place -1,0 r270", (0, 0, 8), (6, 6, 7)),
        ("place 1,2 r180", (7, 7, 8), (7, 7, 7)),
    ]
    state, _ = run_script("UVMVVEAA", script, players=3)
    assert G.result(state).placings == (2, 2, 1)


@pytest.mark.parametrize("tiny, points", [(4, 4), (2, 2)])
def test_two_tile_city_option_in_a_script(tiny, points):
    script = [("place 0,-1 r180 knight S", (points, 0), (7, 7)),
              ("place 1,0 r0", (points, 0), (7, 7))]
    run_script("EU", script, tiny_city_scoring=tiny)
