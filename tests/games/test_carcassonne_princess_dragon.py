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


# -- dragon_move_timing ----------------------------------------------------------------------

#: the digest's example (§3.3): a corridor, the dragon at its west end (the volcano PD17 at
#: -1,0), seat 1's thief on the road from W's junction at 1,0 east; seat 0's farmer on U at
#: 2,0; seat 0's dragon tile PD7 at 4,0 completes the road 1,0-4,0 (4 tiles)
CORRIDOR = ["PD17", "W", "U", "U", "PD7", "E"]


def _corridor(timing):
    state = new_game(CORRIDOR, expansions=PD, dragon_move_timing=timing)
    state, _ = play(state, "place -1,0 r0")                           # the dragon comes to -1,0
    state, _ = play(state, "place 1,0 r0 follower road E")            # seat 1's thief
    state, _ = play(state, "place 2,0 r0 farmer NL")                  # seat 0's farmer (a field)
    state, _ = play(state, "place 3,0 r0")
    state, _ = play(state, "pass")                                    # seat 1 does not move the fairy
    state, _ = play(state, "place 4,0 r0")
    return play(state, "pass")                                        # nor seat 0: the flight


def _fly_east(state):
    """The forced flight: 5 steps east, seats 0, 1, 0, 1, 0; [(seat, events)]."""
    out = []
    for _ in range(5):
        (seat,) = G.to_act(state)
        assert G.legal_moves(state, seat) == [{"type": "dragon", "direction": "E"}]
        state, ev = play(state, "dragon E")
        out.append((seat, ev))
    return state, out


def test_before_scoring_the_digest_example_scores_nothing():
    state, ev = _corridor("before_scoring")
    assert of_type(ev, "DragonFlightStarted") and not of_type(ev, "FeatureScored")
    assert G.view(state, 0)["step"] == "resolve_figures"
    state, steps = _fly_east(state)
    assert [s for s, _ in steps] == [0, 1, 0, 1, 0]
    eaten = [(s, [(f["player"], f["x"], f["on"]) for e in of_type(ev, "FiguresEaten") for f in e["followers"]])
             for s, ev in steps]
    assert eaten == [(0, []), (1, [(1, 1, "road E")]), (0, [(0, 2, "field NL")]), (1, []), (0, [])]
    last = steps[-1][1]
    road = [e for e in last if e["type"] == "FeatureScored"]
    assert of_type(last, "DragonFlightEnded")[0]["steps"] == 5
    assert road[0]["tiles"] == 4 and road[0]["winners"] == [] and state.scores == (0, 0)
    assert G.to_act(state) == {1} and state.supply == (7, 7)


def test_after_scoring_the_road_scores_first_and_the_dragon_eats_what_is_left():
    state, ev = _corridor("after_scoring")
    kinds = [e["type"] for e in ev]
    # the road scores, the thief goes home, then the flight starts
    assert kinds.index("FeatureScored") < kinds.index("FollowersReturned") < kinds.index("DragonFlightStarted")
    road = of_type(ev, "FeatureScored")[0]
    assert road["tiles"] == 4 and road["winners"] == [1] and road["points"] == 4 and state.scores == (0, 4)
    assert of_type(ev, "FollowersReturned")[0]["followers"] == [
        {"player": 1, "figure": "follower", "x": 1, "y": 0, "on": "road E"}]
    started = of_type(ev, "DragonFlightStarted")[0]
    assert started["movers"] == [0, 1, 0, 1, 0, 1] and started["after_scoring"] is True
    assert G.view(state, 0)["step"] == "end_turn" and G.to_act(state) == {0}
    state, steps = _fly_east(state)
    eaten = [(s, [(f["player"], f["x"], f["on"]) for e in of_type(ev, "FiguresEaten") for f in e["followers"]])
             for s, ev in steps]
    # seat 1's road is empty now (scored); seat 0's farmer, on no completed feature, is eaten
    assert eaten == [(0, []), (1, []), (0, [(0, 2, "field NL")]), (1, []), (0, [])]
    last = steps[-1][1]
    assert of_type(last, "DragonFlightEnded")[0]["steps"] == 5 and not of_type(last, "FeatureScored")
    assert [e["type"] for s, ev in steps for e in ev].count("FeatureScored") == 0       # scored once only
    assert state.scores == (0, 4) and state.supply == (7, 7) and G.to_act(state) == {1}
    assert G.view(state, 1)["dragon"] == {"x": 4, "y": 0} and G.view(state, 1)["dragon_flight"] is None


def test_after_scoring_a_scored_wagon_moves_first_then_the_dragon_eats_it():
    # A&M: seat 1's wagon instead of the thief; the road scores it 4, it moves onto W's west
    # road, then the flight starts and seat 1's own step eats it there
    state = new_game(CORRIDOR, expansions=["princess_dragon", "abbey_mayor"], dragon_move_timing="after_scoring")
    for text in ("place -1,0 r0", "place 1,0 r0 wagon road E", "place 2,0 r0 farmer NL", "place 3,0 r0",
                 "pass", "place 4,0 r0"):
        state, _ = play(state, text)
    state, ev = play(state, "pass")
    assert [e["type"] for e in ev][-2:] == ["FeatureScored", "WagonOffered"] and state.scores == (0, 4)
    assert not of_type(ev, "DragonFlightStarted") and G.to_act(state) == {1}
    state, ev = play(state, "wagon 1,0 road W")
    assert [e["type"] for e in ev] == ["WagonMoved", "DragonFlightStarted", "DragonStepOwed"]
    state, steps = _fly_east(state)
    eaten = [[(f["player"], f["figure"], f["x"]) for e in of_type(ev, "FiguresEaten") for f in e["followers"]]
             for _s, ev in steps]
    assert eaten == [[], [(1, "wagon", 1)], [(0, "follower", 2)], [], []]
    assert state.scores == (0, 4) and G.view(state, 0)["wagons"] == [1, 1] and G.to_act(state) == {1}


#: T&B too: seat 0's thief on U at 1,0, its builder on U at 2,0; its dragon tile PD16 at 3,0
#: extends the builder's road; the dragon (on the volcano at 0,1) eats the thief, and the
#: builder, left alone, goes home
BUILDER = ["PD1", "V", "U", "B", "U", "B", "PD16", "E", "E"]


@pytest.mark.parametrize("timing,extra", [("before_scoring", False), ("after_scoring", True)])
def test_a_builders_extra_tile_and_the_flight(timing, extra):
    state = new_game(BUILDER, expansions=["princess_dragon", "traders_builders"], dragon_move_timing=timing)
    for text in ("place 0,1 r0", "place -1,1 r0", "place 1,0 r0 follower road E", "place 1,1 r0",
                 "place 2,0 r0 builder road E", "place 2,1 r0", "place 3,0 r0", "pass"):
        state, ev = play(state, text)
    assert of_type(ev, "DragonFlightStarted") and G.to_act(state) == {0}
    state, _ = play(state, "dragon N")                                # onto D
    state, ev = play(state, "dragon E")                               # onto U at 1,0: the thief
    assert [f["figure"] for f in of_type(ev, "FiguresEaten")[0]["followers"]] == ["follower"]
    assert of_type(ev, "FollowersReturned")[0]["followers"][0]["figure"] == "builder"
    state, _ = play(state, "dragon E")
    state, ev = play(state, "dragon E")                               # onto PD16: stuck there
    assert of_type(ev, "DragonFlightEnded")[0]["steps"] == 4
    assert state.supply == (7, 7) and G.view(state, 0)["builders"] == [1, 1]
    # before the scoring, the builder was home before the tile's step 7 looked: no extra tile;
    # after it [HOUSE], the tile had extended the builder's road already: seat 0 plays again
    assert bool(of_type(ev, "BuilderTriggered")) is extra
    assert G.to_act(state) == ({0} if extra else {1})


# -- fairy_placement -------------------------------------------------------------------------

#: seat 0's thief on W at -1,0 (road to D and PD2's curve); seat 1's farmer on that tile
#: through PD2's magic portal; seat 0 moves the fairy there; A at 1,-1 completes the road
FAIRY_TILE = ["W", "PD2", "B", "E", "A"]


def _fairy_game(placement):
    state = new_game(FAIRY_TILE, expansions=PD, fairy_placement=placement)
    state, _ = play(state, "place -1,0 r0 follower road E")
    state, _ = play(state, "place 1,0 r0")
    state, _ = play(state, "portal -1,0 farmer NL")
    state, _ = play(state, "place 0,1 r0")
    return state


def test_next_to_follower_the_fairy_counts_for_its_follower_alone():
    state = _fairy_game("next_to_follower")
    assert G.legal_moves(state, 0)[1:] == [{"type": "action", "do": "fairy", "x": -1, "y": 0, "on": "road E",
                                            "figure": "follower"}]
    refused(state, "fairy -1,0", "fairy_format")                      # the tile alone: the other edition
    state, ev = play(state, "fairy -1,0 road E")
    assert of_type(ev, "FairyMoved") == [{"type": "FairyMoved", "player": 0, "x": -1, "y": 0, "on": "road E",
                                          "figure": "follower"}]
    assert state.scores == (0, 0)                                     # seat 1's farmer gets nothing
    state, _ = play(state, "place -1,-1 r0")
    state, ev = play(state, "pass")                                   # seat 1 could move it to its farmer
    assert [e["points"] for e in of_type(ev, "FairyScored")] == [1] and state.scores == (1, 0)
    state, ev = play(state, "place 1,-1 r0")                          # the road: 4 + 3 for the thief
    assert [(e["player"], e["points"], e["reason"]) for e in of_type(ev, "FairyScored")] == [(0, 3, "feature")]
    assert state.over and state.scores == (8, 0)


def test_on_tile_the_fairy_counts_for_every_follower_on_its_tile():
    state = _fairy_game("on_tile")
    assert G.legal_moves(state, 0) == [{"type": "action", "pass": True},
                                       {"type": "action", "do": "fairy", "x": -1, "y": 0}]
    refused(state, "fairy -1,0 road E", "fairy_format")               # a segment: the other edition
    refused(state, "fairy 0,0", "bad_fairy")                          # no follower of seat 0 on D
    state, ev = play(state, "fairy -1,0")
    assert of_type(ev, "FairyMoved") == [{"type": "FairyMoved", "player": 0, "x": -1, "y": 0}]
    assert G.view(state, 1)["fairy"] == {"player": 0, "x": -1, "y": 0, "on": None, "figure": None,
                                         "standing_by": True}
    assert "Fairy: on the tile at -1,0 (moved by seat 0); followers there: seat 0 and seat 1" in G.render(state, 1)
    # seat 1's turn starts with its farmer on the fairy's tile: +1
    assert [(e["player"], e["reason"]) for e in of_type(ev, "FairyScored")] == [(1, "turn")]
    state, ev = play(state, "place -1,-1 r0")                         # seat 1: nowhere else to take it
    assert G.to_act(state) == {0} and [(e["player"], e["reason"]) for e in of_type(ev, "FairyScored")] == [
        (0, "turn")]
    assert state.scores == (1, 1)
    state, ev = play(state, "place 1,-1 r0")                          # the road: 4 + 3; the end
    fairy = [(e["player"], e["points"], e["reason"]) for e in of_type(ev, "FairyScored")]
    # +3 for the thief; no +1 for seat 1: the pile is empty, so no turn of seat 1 starts (the
    # game ends with the turn of the last tile); +3 at the end for seat 1's farmer (its field
    # scores, 0 points)
    assert fairy == [(0, 3, "feature"), (1, 3, "final")]
    assert state.over and state.scores == (8, 4)


def test_on_tile_the_fairy_leaves_only_for_another_tile_and_the_dragon_avoids_it():
    state = new_game(["PD1", "W", "U", "U", "PD16", "E"], expansions=PD, fairy_placement="on_tile")
    state, _ = play(state, "place 0,1 r0")                            # the dragon at 0,1
    state, _ = play(state, "place 1,0 r0 follower road E")            # seat 1's thief on W at 1,0
    state, _ = play(state, "place 2,0 r0")
    state, ev = play(state, "place -1,0 r0")                          # seat 1: no figure
    assert G.legal_moves(state, 1)[1:] == [{"type": "action", "do": "fairy", "x": 1, "y": 0}]
    state, ev = play(state, "fairy 1,0")
    assert G.to_act(state) == {0} and state.tile == "PD16"
    state, ev = play(state, "place 3,0 r0")                           # seat 0's dragon tile: the flight
    assert of_type(ev, "DragonFlightStarted")
    assert G.legal_moves(state, 0) == [{"type": "dragon", "direction": "N"}]
    state, ev = play(state, "dragon N")                               # D; 1,0 is the fairy's: not E
    assert [m["direction"] for m in G.legal_moves(state, 1)] == ["W"]
    state, ev = play(state, "dragon W")                               # U at -1,0: then stuck
    assert of_type(ev, "DragonFlightEnded")[0]["steps"] == 2 and state.supply == (7, 6)


@pytest.mark.parametrize("text,move", [
    ("fairy 1,0", {"type": "action", "do": "fairy", "x": 1, "y": 0}),
    ("fairy -2,3", {"type": "action", "do": "fairy", "x": -2, "y": 3}),
])
def test_the_fairy_onto_a_tile_notation(text, move):
    state = new_game(["E"], expansions=PD, fairy_placement="on_tile")
    assert G.parse(text, state, 0) == move and G.parse(G.describe(move), state, 0) == move


def test_the_two_options_in_the_setup_words():
    words = G.describe_setup(G.check_options(2, {"expansions": PD, "dragon_move_timing": "after_scoring",
                                                 "fairy_placement": "on_tile"}), 2)
    assert "the dragon flies after the scoring" in words and "the fairy goes onto a tile" in words
    plain = G.describe_setup(G.check_options(2, {"expansions": PD}), 2)
    assert "dragon" not in plain and "fairy" not in plain


def test_no_fairy_point_at_the_start_of_a_turn_that_the_empty_pile_ends():
    """The game ends with the turn of the last tile: the "turn" the empty pile ends at its draw
    starts no turn, so the fairy standing by that seat's follower scores it nothing then;
    a turn that starts with a bazaar tile still to play is a turn (its +1 is paid)."""
    from pbem.games.carcassonne.expansions.princess_dragon.fairy import _no_turn_starts
    # (the whole game: test_on_tile_the_fairy_counts_for_every_follower_on_its_tile's end)
    state = _fairy_game("on_tile")
    empty = state.copy()
    empty.pile = {k: 0 for k in state.pile}
    empty.order = None
    assert _no_turn_starts(empty, 1) and not _no_turn_starts(state, 1)
    empty.ext = {**empty.ext, "bridges_castles_bazaars": {"held": {"1": "U"}}}
    assert not _no_turn_starts(empty, 1) and _no_turn_starts(empty, 0)


def _glyph_at(board: str, x: int, y: int) -> list:
    """The three rows of the text board's glyph of tile x,y (columns of 6 characters
    after a 4-character margin, numbered in the header line)."""
    lines = board.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("    ") and line.split()
                  and all(w.lstrip("-").isdigit() for w in line.split()))
    x0 = int(lines[header].split()[0])
    middle = next(i for i, line in enumerate(lines) if i > header and line[:4] == f"{y:>4}")
    col = 4 + 6 * (x - x0) + 1
    return [lines[i][col:col + 5] for i in (middle - 1, middle, middle + 1)]


def test_the_text_board_draws_the_dragon_and_the_fairy_on_their_tiles():
    from pbem.games.playout import play_random
    seen = set()
    for seed in range(6):
        playout = play_random(G, 2, {"expansions": ["princess_dragon"]}, seed=seed)
        state = G.start(2, playout.options)
        for n, event in enumerate(playout.events):
            state = G.evolve(state, event)
            if n % 9 or state.over:
                continue
            view = G.view(state, 0)
            board = G.render(state, 0, whole=True)
            for figure, ch in (("dragon", "&"), ("fairy", "f")):
                at = view[figure]
                if at is None:
                    continue
                assert ch in "".join(_glyph_at(board, at["x"], at["y"])), (figure, at, board)
                seen.add(figure)
            drawn = sum(row.count("&") for row in board.split("Key:")[0].splitlines()[1:])
            assert drawn == (view["dragon"] is not None)            # the one dragon, once
            assert "& the dragon f the fairy" in " ".join(board.split())
    assert seen == {"dragon", "fairy"}
