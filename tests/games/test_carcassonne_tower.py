"""The Tower: floors per seat, the capture in line of sight, prisoners, the exchange,
the ransom at any time of the own turn, closing a tower."""
from __future__ import annotations

import pytest

from pbem.games.carcassonne.expansions.tower.tiles import TO_TILES, to_pile

from .carcassonne_support import G, new_game, of_type, play, refused

TOWER = ["tower"]


def test_tiles_and_floors_per_player_count():
    assert sum(to_pile().values()) == 18 and all("tower" in t.tags for t in TO_TILES.values())
    for players, floors in ((2, 10), (3, 9), (4, 7), (5, 6), (6, 5)):
        exp = TOWER + (["inns_cathedrals"] if players == 6 else [])
        state = G.start(players, G.check_options(players, {"expansions": exp}))
        assert G.view(state, 0)["tower"]["pieces"] == [floors] * players


def _board():
    """Seat 0's thief on U at 1,0; seat 1's knight on E at 1,-1; seat 0's tower on TO2 at 1,1."""
    state = new_game(["U", "E", "TO2", "TO11", "V", "B", "B"], expansions=TOWER)
    state, _ = play(state, "place 1,0 r0 follower road E")
    state, _ = play(state, "place 1,-1 r0 follower city N")
    state, ev = play(state, "place 1,1 r0")
    assert of_type(ev, "ActionOffered")
    assert {"type": "action", "do": "tower", "x": 1, "y": 1} in G.legal_moves(state, 0)
    state, ev = play(state, "tower 1,1")
    assert of_type(ev, "TowerBuilt")[0]["height"] == 1
    # height 1 reaches 1,0 (its own thief), not the knight two tiles away
    assert G.legal_moves(state, 0) == [{"type": "capture", "pass": True},
                                       {"type": "capture", "x": 1, "y": 0, "on": "road E", "player": 0,
                                        "figure": "follower"}]
    state, _ = play(state, "capture none")
    return state


def _captured():
    """Seat 1 adds a second floor and captures seat 0's thief."""
    state = _board()
    state, _ = play(state, "place 2,0 r0")                             # seat 1: TO11, then the floor
    state, ev = play(state, "tower 1,1", player=1)
    targets = G.legal_moves(state, 1)[1:]
    assert [(m["x"], m["y"], m["player"]) for m in targets] == [(1, -1, 1), (1, 0, 0)]
    state, ev = play(state, "capture 1,0 road E seat 0", player=1)
    assert G.view(state, 0)["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "follower"}]
    assert state.supply[0] == 7 - 1
    return state


def test_capture_in_the_tower_row_and_column_up_to_its_height():
    state = _captured()
    assert G.to_act(state) == {0} and state.scores == (0, 0)


def test_prisoners_held_by_two_seats_are_exchanged_at_once():
    state = _captured()
    state, _ = play(state, "place 0,1 r0")                             # seat 0: V, a third floor
    state, ev = play(state, "tower 1,1")
    state, ev = play(state, "capture 1,-1 city N seat 1")
    assert of_type(ev, "PrisonersExchanged") == [{"type": "PrisonersExchanged", "players": [0, 1],
                                                  "figures": ["follower", "follower"]}]
    view = G.view(state, 0)["tower"]
    assert view["prisoners"] == [] and view["pieces"] == [8, 9] and state.supply == (7, 7)


def test_ransom_any_time_of_the_own_turn_once():
    state = _captured()
    assert G.to_act(state) == {0}
    assert {"type": "ransom", "from": 1, "figure": "follower"} in G.legal_moves(state, 0)
    state, ev = play(state, "ransom seat 1")                           # before placing its tile
    assert state.scores == (-3, 3) and state.supply[0] == 7 and state.pending == {0: "place_tile"}
    assert not [m for m in G.legal_moves(state, 0) if m["type"] == "ransom"]
    # not on another seat's turn
    state2 = _captured()
    with pytest.raises(Exception):
        G.decide(state2, 1, {"type": "ransom", "from": 0, "figure": "follower"}, None)


def test_a_follower_on_top_closes_the_tower_and_can_be_captured():
    state = _board()
    state, _ = play(state, "place 2,0 r0")
    assert {"type": "action", "do": "tower", "x": 1, "y": 1, "top": "follower"} in G.legal_moves(state, 1)
    state, ev = play(state, "tower 1,1 top", player=1)
    towers = {(t["x"], t["y"]): t for t in G.view(state, 0)["tower"]["towers"]}
    assert towers[(1, 1)]["top"] == {"player": 1, "figure": "follower"} and towers[(1, 1)]["height"] == 1
    state, ev = play(state, "place 0,1 r0")
    towers = {(m["x"], m["y"]) for m in G.legal_moves(state, 0) if m.get("do") == "tower"}
    assert (1, 1) not in towers and (2, 0) in towers               # closed; TO11's foundation is open
    refused(state, "tower 1,1", "tower_closed")
    state, _ = play(state, "tower 2,0")                            # height 1 from 2,0: 1,0 but not 1,1
    assert [(m["x"], m["y"], m["on"]) for m in G.legal_moves(state, 0)[1:]] == [(1, 0, "road E")]


# -- allow_negative_scores = false: a ransom needs 3 points ---------------------------------------


def _scored_then_captured(points, **options):
    """Seat 0 scores a road of ``points`` tiles (2 or 3), then seat 1's tower at 1,0
    captures seat 0's thief at 2,0; seat 0 is to act with ``points`` points."""
    if points == 2:      # TO7 at 1,0, the thief on its S stub; A at 1,1 closes it
        order, first, closer = ["TO7", "A", "U", "B", "B", "B"], "place 1,0 r0 follower road S", "place 1,1 r180"
    else:                # the thief on TO7's W stub, D's road; W at -1,0 closes it
        order, first, closer = ["TO7", "W", "U", "B", "B", "B"], "place 1,0 r0 follower road W", "place -1,0 r0"
    state = new_game(order, expansions=TOWER, **options)
    state, _ = play(state, first)
    state, _ = play(state, closer)
    state, ev = play(state, "pass")                                   # seat 1: no tower floor
    assert of_type(ev, "FeatureScored")[0]["points"] == points and state.scores == (points, 0)
    state, _ = play(state, "place 2,0 r0 follower road E")           # seat 0's thief next to the tower
    state, _ = play(state, "place 0,1 r0")
    state, _ = play(state, "tower 1,0")
    state, _ = play(state, "capture 2,0 road E seat 0")
    assert G.view(state, 0)["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "follower"}]
    assert G.to_act(state) == {0} and state.supply == (6, 7)
    return state


def test_no_ransom_under_3_points_without_negative_scores():
    state = _scored_then_captured(2, allow_negative_scores=False)
    assert not [m for m in G.legal_moves(state, 0) if m["type"] == "ransom"]
    refused(state, "ransom seat 1", "not_enough_points")
    refused(state, "ransom seat 1 big", "no_prisoner")                  # no such prisoner: as before
    # the turn goes on; seat 0 still has 2 points
    state, _ = play(state, "place 0,2 r0")
    assert state.scores == (2, 0)


def test_a_ransom_at_3_points_without_negative_scores_goes_down_to_0():
    state = _scored_then_captured(3, allow_negative_scores=False)
    assert [m for m in G.legal_moves(state, 0) if m["type"] == "ransom"] == [
        {"type": "ransom", "from": 1, "figure": "follower"}]
    state, ev = play(state, "ransom seat 1")
    assert of_type(ev, "RansomPaid")[0]["points"] == 3
    assert state.scores == (0, 3) and state.supply == (7, 7) and G.view(state, 0)["tower"]["prisoners"] == []


def test_a_ransom_at_2_points_with_negative_scores_goes_below_0():
    state = _scored_then_captured(2)
    state, _ = play(state, "ransom seat 1")
    assert state.scores == (-1, 3)
