"""Carcassonne, Abbey & Mayor (digest §3.5): tile data, the abbey (holes,
closing roads and cities, monastery scoring, the end round and its option),
the mayor's strength, the wagon's decision owed by a non-active owner (both
``wagon_move`` options), the barn (placement scoring, ``barn_placement``,
final scoring), notation round-trips, views and render."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import IllegalMove
from pbem.games.carcassonne.expansions.abbey_mayor.tiles import ABBEY, ABBEY_TILES, AM_TILES, am_pile
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.playout import play_random

from . import carcassonne_support as support
from .carcassonne_support import G, play, of_type


AM = ["abbey_mayor"]
ALL = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege", "abbey_mayor"]


def new_game(order, players=2, start=0, expansions=None, **options):
    """A scripted game with AM unless other ``expansions`` are named."""
    return support.new_game(order, players, start, AM if expansions is None else expansions, **options)


def roundtrip(state):
    again = G.load(json.loads(json.dumps(G.dump(state))))
    assert G.dump(again) == G.dump(state)
    assert G.view(again) == G.view(state)
    return again


# -- tile data ---------------------------------------------------------------------


def test_twelve_tiles_and_the_abbey():
    assert list(AM_TILES) == [f"AM{i}" for i in range(1, 13)]
    assert all(t.count == 1 and t.expansion == "abbey_mayor" for t in AM_TILES.values())
    assert all(TILES[l] == t for l, t in AM_TILES.items())
    assert rules_for(AM).pile == {**base_pile(), **am_pile()}
    assert sum(rules_for(AM).pile.values()) == 71 + 12
    assert ABBEY not in rules_for(AM).pile
    (abbey,) = ABBEY_TILES.values()
    assert abbey.edges == "****" and [s.kind for s in abbey.segments] == ["cloister"]
    am1 = AM_TILES["AM1"].segments[0]
    assert am1.mark("pennant") == 2
    am11 = oriented("AM11", 0)
    assert am11.label_index["road N"] == am11.label_index["road E"] == am11.label_index["road W"]
    am2 = oriented("AM2", 0)
    assert am2.label_index["city N"] != am2.label_index["city E"]
    assert sum(s.mark("pennant") for t in AM_TILES.values() for s in t.segments) == 6


# -- the abbey -----------------------------------------------------------------------
# U U B B B B A builds a hole at (0,-1) above the start tile: its city N and the
# road of A (at 0,-2, r0, ending south) face the hole.

HOLE = ["U", "U", "B", "B", "B", "B", "A"]


def hole_game(extra=("E", "E"), **options):
    state = new_game(HOLE + list(extra), **options)
    for text in ("place -1,0 r0", "place 1,0 r0", "place -1,-1 r0", "place 1,-1 r0",
                 "place 1,-2 r0", "place -1,-2 r0", "place 0,-2 r0 thief road S"):
        state, _ = play(state, text)
    return state


def test_abbey_offered_instead_of_drawing_and_closes_features():
    state = hole_game()
    assert state.pending == {1: "abbey"} and state.tile is None
    legal = G.legal_moves(state, 1)
    assert legal[0] == {"type": "abbey", "pass": True}
    assert G.default_move(state, 1) == {"type": "abbey", "pass": True}
    assert {"type": "abbey", "x": 0, "y": -1, "figure": "follower", "on": "cloister"} in legal
    assert {"type": "abbey", "x": 0, "y": -1, "figure": "wagon", "on": "cloister"} in legal
    state, ev = play(state, "abbey 0,-1 monk")
    placed = of_type(ev, "TilePlaced")[0]
    assert (placed["tile"], placed["x"], placed["y"]) == (ABBEY, 0, -1)
    assert [e["player"] for e in of_type(ev, "TileDrawn")] == [0]   # no draw for seat 1
    scored = {e["feature"]: e for e in of_type(ev, "FeatureScored")}
    assert scored["road"]["points"] == 1 and scored["road"]["winners"] == [0]
    assert scored["city"]["complete"] and scored["city"]["winners"] == []
    assert scored["cloister"]["points"] == 9 and scored["cloister"]["winners"] == [1]
    assert G.view(state)["abbeys"] == [1, 0]
    assert state.pending == {0: "place_tile"}
    roundtrip(state)


def test_abbey_declined_draws_and_bad_cells_refused():
    state = hole_game()
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 1, {"type": "abbey", "x": 2, "y": 0}, random.Random(0))
    assert err.value.code == "not_a_hole"
    state, ev = play(state, "draw")
    assert of_type(ev, "AbbeyDeclined") and of_type(ev, "TileDrawn")[0]["tile"] == "E"
    assert state.pending == {1: "place_tile"}


def test_abbey_end_round_after_last_tile():
    state = hole_game(extra=())
    assert state.pending == {1: "abbey"}                # pile empty: the end round, seat 1 first
    assert G.view(state)["abbey_round"] == [0]
    state, _ = play(state, "draw")                      # seat 1 passes
    assert state.pending == {0: "abbey"}
    state, ev = play(state, "abbey 0,-1")
    assert of_type(ev, "TilePlaced")[0]["tile"] == ABBEY
    assert state.over and of_type(ev, "GameEnded")


def test_no_end_round_with_option_false():
    state = hole_game(extra=(), abbey_after_last_tile=False)
    assert state.over


# -- the mayor ------------------------------------------------------------------------


def test_mayor_strength_is_pennants():
    state = new_game(["M", "E"])                        # M: city N+W with a pennant
    moves = G.legal_moves(state, 0)
    assert {"type": "place_tile", "x": 0, "y": -1, "rotation": 180, "figure": "mayor", "on": "city E"} in moves
    assert not [m for m in moves if m.get("figure") == "mayor" and not m["on"].startswith("city")]
    state, _ = play(state, "place 0,-1 r180 mayor city S")
    assert G.view(state)["mayors"] == [0, 1]
    state, ev = play(state, "place 0,1 r180")
    (final,) = [e for e in of_type(ev, "FeatureScored") if e["feature"] == "city"]
    assert final["points"] == 3 and final["winners"] == [0]    # 2 tiles + 1 pennant, mayor strength 1


def test_mayor_without_pennants_has_no_strength():
    state = new_game(["N", "E"])
    state, _ = play(state, "place 0,-1 r180 mayor city S")
    state, ev = play(state, "place 0,1 r180")
    (final,) = [e for e in of_type(ev, "FeatureScored") if e["feature"] == "city"]
    assert final["winners"] == []


# -- the wagon ----------------------------------------------------------------------


def wagon_game(**options):
    state = new_game(["A", "A", "E", "E"], **options)
    state, _ = play(state, "place 1,0 r90 wagon road W")
    return play(state, "place -1,0 r270")              # seat 1 completes the road


def test_wagon_decision_owed_by_its_owner_along_road():
    state, ev = wagon_game()
    (scored,) = [e for e in of_type(ev, "FeatureScored") if e["feature"] == "road"]
    assert scored["points"] == 3 and scored["winners"] == [0]
    assert state.pending == {0: "wagon"} and state.active == 1
    assert G.legal_moves(state, 0) == [{"type": "wagon", "home": True},
                                       {"type": "wagon", "x": -1, "y": 0, "on": "cloister"},
                                       {"type": "wagon", "x": 1, "y": 0, "on": "cloister"}]
    roundtrip(state)
    with pytest.raises(IllegalMove):
        G.decide(state, 0, {"type": "wagon", "x": 0, "y": 0, "on": "city N"}, random.Random(0))
    state, ev = play(state, "wagon 1,0 cloister", player=0)
    assert of_type(ev, "WagonMoved")
    assert state.pending == {0: "place_tile"}           # the turn goes on: seat 0 draws
    assert any(f == "wagon" and (x, y) == (1, 0) for _p, x, y, _l, f in
               [(f["player"], f["x"], f["y"], f["on"], f["figure"]) for f in G.view(state)["followers"]])


def test_wagon_home_and_adjacent_tiles():
    state, _ = wagon_game(wagon_move="adjacent_tiles")
    targets = G.legal_moves(state, 0)[1:]
    assert {"type": "wagon", "x": 0, "y": 0, "on": "city N"} in targets
    assert G.default_move(state, 0) == {"type": "wagon", "home": True}
    state, ev = play(state, "wagon home", player=0)
    assert of_type(ev, "WagonReturned") and G.view(state)["wagons"] == [1, 1]


# -- the barn -------------------------------------------------------------------------


def barn_game(**options):
    state = new_game(["U", "E", "E", "B"], **options)
    state, _ = play(state, "place 1,0 r0 farmer ER")
    state, _ = play(state, "place 0,1 r180")
    state, _ = play(state, "place 0,2 r0")              # completes a 2-tile city
    return state


def test_barn_scores_farmers_at_once_and_at_the_end():
    state = barn_game()
    moves = G.legal_moves(state, 1)
    assert {"type": "place_tile", "x": 1, "y": 1, "rotation": 0, "figure": "barn", "on": "corner NW"} in moves
    state, ev = play(state, "place 1,1 r0 barn NW")
    (now,) = of_type(ev, "BarnFarmersScored")
    assert (now["points"], now["winners"], now["cities"]) == (3, [0], 1)
    assert of_type(ev, "FollowersReturned")[0]["followers"][0]["player"] == 0
    (end,) = of_type(ev, "BarnScored")
    assert (end["points"], end["winners"]) == (4, [1])
    assert state.scores == (3, 4)


def test_farmers_joined_to_a_barn_field_score_one_per_city():
    state = new_game(["U", "E", "E", "B", "U", "A"])
    state, _ = play(state, "place 1,0 r0 farmer ER")
    state, _ = play(state, "place 0,1 r180")
    state, _ = play(state, "place 0,2 r0")
    state, _ = play(state, "place 1,1 r0 barn NW")
    moves = [m for m in G.legal_moves(state, 0) if (m["x"], m["y"], m["rotation"]) == (2, 0, 0)]
    farmers = {m["on"] for m in moves if m.get("figure") == "follower" and m["on"].startswith("field")}
    assert farmers == {"field NL"}                      # not into the barn field south of the road
    state, _ = play(state, "place 2,0 r0 farmer NL")
    state, ev = play(state, "place 3,0 r90")            # A joins the north field to the barn field
    (joined,) = of_type(ev, "BarnFarmersScored")
    assert joined["connected"] and (joined["points"], joined["winners"]) == (1, [0])
    assert not [f for f in G.view(state)["followers"] if f["figure"] == "follower" and f["player"] == 0
                and f["on"].startswith("field")]


def test_barn_placement_no_farmers_and_bad_corner():
    state = barn_game(barn_placement="no_farmers")
    assert not [m for m in G.legal_moves(state, 1) if m.get("figure") == "barn"]
    with pytest.raises(IllegalMove):
        G.decide(state, 1, G.parse("place 1,1 r0 barn NW", state, 1), random.Random(0))
    state = barn_game()
    with pytest.raises(IllegalMove):
        G.decide(state, 1, G.parse("place 1,1 r0 barn SE", state, 1), random.Random(0))


# -- notation, views, render, random games ---------------------------------------------


@pytest.mark.parametrize("text,move", [
    ("abbey 0,-1", {"type": "abbey", "x": 0, "y": -1}),
    ("abbey 0,-1 monk", {"type": "abbey", "x": 0, "y": -1, "figure": "follower", "on": "cloister"}),
    ("abbey 0,-1 wagon", {"type": "abbey", "x": 0, "y": -1, "figure": "wagon", "on": "cloister"}),
    ("draw", {"type": "abbey", "pass": True}),
    ("wagon home", {"type": "wagon", "home": True}),
    ("wagon 1,0 cloister", {"type": "wagon", "x": 1, "y": 0, "on": "cloister"}),
    ("wagon 2,0 road E", {"type": "wagon", "x": 2, "y": 0, "on": "road E"}),
    ("place 1,1 r0 barn NW", {"type": "place_tile", "x": 1, "y": 1, "rotation": 0, "figure": "barn",
                              "on": "corner NW"}),
    ("place 1,0 r90 mayor city N", {"type": "place_tile", "x": 1, "y": 0, "rotation": 90, "figure": "mayor",
                                    "on": "city N"}),
    ("place 1,0 r90 wagon road W", {"type": "place_tile", "x": 1, "y": 0, "rotation": 90, "figure": "wagon",
                                    "on": "road W"}),
])
def test_notation_round_trip(text, move):
    state = new_game(["E"])
    assert G.parse(text, state, 0) == move
    assert G.parse(G.describe(move), state, 0) == move


def test_view_and_render():
    state = hole_game()
    view = G.view(state)
    assert view["abbeys"] == [1, 1] and view["mayors"] == [1, 1] and view["barns"] == [1, 1]
    text = G.render(state, 1)
    assert "may place the abbey at: 0,-1" in text
    state, _ = wagon_game()
    assert G.view(state)["wagon_decision"] == {"player": 0, "x": 1, "y": 0, "on": "road W"}
    assert "moves the wagon" in G.render(state, 0)
    state = barn_game()
    state, _ = play(state, "place 1,1 r0 barn NW")
    assert "barn" in G.render(state)


@pytest.mark.parametrize("players,options", [
    (2, {"expansions": AM}),
    (3, {"expansions": AM, "wagon_move": "adjacent_tiles", "barn_placement": "no_farmers"}),
    (4, {"expansions": ALL}),
])
def test_random_games_finish(players, options):
    for seed in range(2):
        out = play_random(G, players, options, seed=seed)
        assert out.state.over


def test_a_wagon_moves_onto_the_abbey_that_closed_its_road():
    """A road closed by an abbey ends at the abbey's cloister: the wagon may go there."""
    state = new_game(["W", "B", "B", "B", "B", "E", "A", "U"], expansions=["abbey_mayor"])
    for text in ("place -1,0 r0 wagon road E", "place 0,1 r0", "place 1,1 r0", "place 2,1 r0",
                 "place 2,0 r0", "place 0,-1 r180", "place 1,-1 r0"):
        state, _ = play(state, text)
    assert state.pending == {1: "abbey"}                              # the hole at 1,0
    state, ev = play(state, "abbey 1,0")
    assert of_type(ev, "WagonOffered") and G.to_act(state) == {0}
    assert {"type": "wagon", "x": 1, "y": 0, "on": "cloister"} in G.legal_moves(state, 0)
    state, ev = play(state, "wagon 1,0 cloister", player=0)
    assert of_type(ev, "WagonMoved")[0]["x"] == 1 and state.scores == (2, 0)


def test_nearby_tiles_counts_the_diagonal_neighbours():
    from pbem.games.carcassonne.expansions.abbey_mayor.wagon import wagon_targets
    from pbem.games.carcassonne.features import sid_at
    state = new_game(["V", "B", "E"], expansions=["abbey_mayor"], wagon_move="nearby_tiles")
    state, _ = play(state, "place 1,0 r0 wagon road W")
    state, _ = play(state, "place 0,1 r0")                            # a monastery diagonal to 1,0
    sid = sid_at(state, (1, 0), "road S")
    targets = wagon_targets(state, sid, state.seg_feature[sid])
    assert {"type": "wagon", "x": 0, "y": 1, "on": "cloister"} in targets
    import copy
    state2 = copy.copy(state)
    state2.options = {**state.options, "wagon_move": "adjacent_tiles"}
    assert {"type": "wagon", "x": 0, "y": 1, "on": "cloister"} not in wagon_targets(state2, sid, state.seg_feature[sid])
