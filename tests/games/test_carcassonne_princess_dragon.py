"""The Princess & the Dragon: tiles, the volcano and the dragon's flight (before the
scoring), the fairy's points, the princess, the magic portal, the notation."""
from __future__ import annotations

import pytest

from pbem.games.carcassonne.expansions.princess_dragon.tiles import PD_TILES, pd_pile

from .carcassonne_support import G, new_game, of_type, play, refused

PD = ["princess_dragon"]


def test_the_thirty_tiles_and_their_symbols():
    assert sum(pd_pile().values()) == 30 and len(PD_TILES) == 29
    count = lambda tag: sum(t.count for t in PD_TILES.values() if tag in t.tags)   # noqa: E731
    assert (count("volcano"), count("dragon"), count("magic portal")) == (6, 12, 6)
    assert sum(t.count for t in PD_TILES.values() if any(s.mark("princess") for s in t.segments)) == 6
    # PD13: a monastery inside the city, two separate features
    assert [s.kind for s in PD_TILES["PD13"].segments].count("cloister") == 1
    opts = G.check_options(2, {"expansions": PD})
    assert len(G.start(2, opts).pile) > 0 and sum(G.start(2, opts).pile.values()) == 71 + 30


def test_a_dragon_tile_before_the_first_volcano_waits_then_returns():
    state = new_game(["PD4", "PD1", "E"], expansions=PD)
    # seat 0 drew PD4 (a dragon tile): put aside, PD1 (a volcano) drawn instead
    assert state.tile == "PD1" and G.view(state, 0)["dragon_tiles_set_aside"] == ["PD4"]
    legal = G.legal_moves(state, 0)
    assert legal and not any("figure" in m for m in legal)            # nobody on the volcano
    refused(state, "place 0,1 r0 farmer NL", "figure_blocked")
    state, ev = play(state, "place 0,1 r0")
    assert of_type(ev, "DragonPlaced") == [{"type": "DragonPlaced", "x": 0, "y": 1}]
    assert of_type(ev, "DragonTilesReturned")[0]["tiles"] == ["PD4"]
    assert G.view(state, 0)["dragon"] == {"x": 0, "y": 1} and state.pile.get("PD4") == 1


def test_the_flight_takes_a_step_a_seat_eats_and_stops_when_stuck():
    # D at 0,0; the volcano south of it; seat 1's thief on U at 1,0; seat 0's dragon tile at 2,0
    state = new_game(["PD1", "U", "PD16", "E"], expansions=PD)
    state, _ = play(state, "place 0,1 r0")                            # the dragon comes to 0,1
    state, _ = play(state, "place 1,0 r0 follower road E")            # seat 1's thief on U
    state, ev = play(state, "place 2,0 r0")                           # a dragon tile: the flight
    assert of_type(ev, "DragonFlightStarted")[0]["movers"] == [0, 1, 0, 1, 0, 1]
    assert G.legal_moves(state, 0) == [{"type": "dragon", "direction": "N"}]   # only D next to it
    state, ev = play(state, "dragon N", player=0)
    assert G.to_act(state) == {1} and [m["direction"] for m in G.legal_moves(state, 1)] == ["E"]
    state, ev = play(state, "dragon E", player=1)                     # onto U: eats the thief
    eaten = of_type(ev, "FiguresEaten")[0]["followers"]
    assert eaten == [{"player": 1, "figure": "follower", "x": 1, "y": 0, "on": "road E"}]
    assert state.supply[1] == 7
    state, ev = play(state, "dragon E", player=0)                     # to 2,0, then nowhere to go
    assert of_type(ev, "DragonFlightEnded") == [{"type": "DragonFlightEnded", "steps": 3}]
    assert G.view(state, 0)["dragon"] == {"x": 2, "y": 0} and G.to_act(state) == {1}
    refused_state = state
    assert G.view(refused_state, 1)["dragon_flight"] is None


def test_the_dragon_moves_before_the_scoring_so_its_meal_scores_nothing():
    # a road D + W(1,0) with seat 1's thief; seat 0's dragon tile PD7 at -1,0 completes it
    state = new_game(["PD1", "W", "PD7", "E"], expansions=PD)
    state, _ = play(state, "place 0,1 r0")
    state, _ = play(state, "place 1,0 r0 follower road W")
    state, ev = play(state, "place -1,0 r0")
    assert not of_type(ev, "FeatureScored")                           # not yet: the dragon flies first
    state, _ = play(state, "dragon N", player=0)
    assert sorted(m["direction"] for m in G.legal_moves(state, 1)) == ["E", "W"]
    state, ev = play(state, "dragon E", player=1)
    assert of_type(ev, "FiguresEaten")[0]["followers"][0]["player"] == 1
    road = [e for e in ev if e["type"] == "FeatureScored" and e["feature"] == "road"]
    assert road and road[0]["complete"] and road[0]["tiles"] == 3 and road[0]["winners"] == []
    assert state.scores == (0, 0)


def test_the_thief_spared_scores_the_road():
    state = new_game(["PD1", "W", "PD7", "E"], expansions=PD)
    state, _ = play(state, "place 0,1 r0")
    state, _ = play(state, "place 1,0 r0 follower road W")
    state, _ = play(state, "place -1,0 r0")
    state, _ = play(state, "dragon N", player=0)
    state, ev = play(state, "dragon W", player=1)                     # onto PD7: nobody there
    assert of_type(ev, "DragonFlightEnded")[0]["steps"] == 2
    assert state.scores == (0, 3)


def test_the_fairy_one_point_a_turn_and_three_with_the_feature():
    state = new_game(["W", "V", "B", "U", "W"], expansions=PD)
    state, _ = play(state, "place -1,0 r0 follower road E")           # seat 0's thief: road (-1,0)+D
    state, ev = play(state, "place 0,1 r0")                           # seat 1 has no follower: no action
    assert not of_type(ev, "ActionOffered")
    state, ev = play(state, "place -1,-1 r0")                         # no figure: the action decision
    assert of_type(ev, "ActionOffered") and G.legal_moves(state, 0) == [
        {"type": "action", "pass": True},
        {"type": "action", "do": "fairy", "x": -1, "y": 0, "on": "road E", "figure": "follower"}]
    state, ev = play(state, "fairy -1,0 road E")
    assert G.view(state, 1)["fairy"]["standing_by"] and state.scores == (0, 0)
    state, ev = play(state, "place 0,2 r90")                          # seat 1: no point for seat 0
    assert state.scores == (1, 0) and of_type(ev, "FairyScored")[0]["reason"] == "turn"
    state, ev = play(state, "place 1,0 r0")                           # completes the road: 3 + fairy 3
    assert [e["points"] for e in of_type(ev, "FairyScored")] == [3]
    assert state.over and state.scores == (7, 0)


def test_the_princess_sends_a_knight_home_and_its_builder_with_it():
    state = new_game(["U", "N", "V", "N", "PD20", "E"], expansions=["princess_dragon", "traders_builders"])
    state, _ = play(state, "place 1,0 r0")
    state, _ = play(state, "place 0,-1 r180 follower city S")         # seat 1's knight
    state, _ = play(state, "place 0,1 r0")
    state, _ = play(state, "place 1,-1 r0 builder city N")            # seat 1's builder in the city
    state, ev = play(state, "place 1,-2 r180")                        # seat 0's princess tile joins it
    legal = G.legal_moves(state, 0)
    assert {"type": "action", "do": "princess", "x": 0, "y": -1, "on": "city E", "player": 1,
            "figure": "follower"} in legal
    state, ev = play(state, "princess 0,-1 city E seat 1")
    assert of_type(ev, "KnightRemoved")[0]["followers"][0]["player"] == 1
    back = of_type(ev, "FollowersReturned")
    assert back and back[0]["followers"] == [{"player": 1, "figure": "builder", "x": 1, "y": -1, "on": "city N"}]
    assert state.supply[1] == 7 and G.view(state, 0)["builders"] == [1, 1]


def test_with_princess_action_must_there_is_no_pass():
    state = new_game(["N", "PD20", "E"], expansions=PD, princess_action="must")
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "place 1,-1 r0")
    assert [m.get("do") for m in G.legal_moves(state, 1)] == ["princess"]
    refused(state, "pass", "action_required")


def test_the_magic_portal_deploys_anywhere_free():
    state = new_game(["PD2", "E"], expansions=PD)
    state, ev = play(state, "place 1,0 r0")
    assert of_type(ev, "ActionOffered")
    legal = G.legal_moves(state, 0)
    assert {"type": "action", "do": "portal", "figure": "follower", "x": 0, "y": 0, "on": "city N"} in legal
    state, ev = play(state, "portal 0,0 follower city N")
    assert of_type(ev, "FollowerDeployed")[0] == {"type": "FollowerDeployed", "player": 0, "figure": "follower",
                                                  "x": 0, "y": 0, "on": "city N", "portal": True}
    assert state.supply[0] == 6


@pytest.mark.parametrize("text,move", [
    ("dragon n", {"type": "dragon", "direction": "N"}),
    ("fairy 1,0 road E big", {"type": "action", "do": "fairy", "x": 1, "y": 0, "on": "road E", "figure": "big"}),
    ("princess 0,-1 city N seat 2", {"type": "action", "do": "princess", "x": 0, "y": -1, "on": "city N",
                                     "player": 2, "figure": "follower"}),
    ("portal 2,3 big farmer NL", {"type": "action", "do": "portal", "figure": "big", "x": 2, "y": 3,
                                  "on": "field NL"}),
    ("portal 2,3 wagon cloister", {"type": "action", "do": "portal", "figure": "wagon", "x": 2, "y": 3,
                                   "on": "cloister"}),
])
def test_notation(text, move):
    state = new_game(["E"], expansions=PD)
    assert G.parse(text, state, 0) == move
    assert G.parse(G.describe(move), state, 0) == move
