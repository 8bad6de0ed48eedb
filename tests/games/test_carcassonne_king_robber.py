"""Carcassonne, King & Robber (digest §3.7): tile data, the King and the
Robber Baron taken for record sizes (step 8.4), their final scoring, views,
notation, and the expansion together with the others."""
from __future__ import annotations

import json
import random

import pytest

from pbem import games
from pbem.games.base import BadOptions, canonical
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.expansions.king_robber import holder, record
from pbem.games.carcassonne.expansions.king_robber_tiles import KR_TILES, kr_pile
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.playout import play_random

from . import carcassonne_support as support
from .carcassonne_support import G, play, of_type


KR = ["king_robber"]
ALL = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege"]


def new_game(order, players=2, start=0, expansions=None, **options):
    """A scripted game with KR unless other ``expansions`` are named."""
    return support.new_game(order, players, start, KR if expansions is None else expansions, **options)


# -- tile data ---------------------------------------------------------------------


def test_five_tiles_join_the_pile():
    assert list(KR_TILES) == ["KR1", "KR2", "KR3", "KR4", "KR5"]
    assert all(t.count == 1 and t.expansion == "king_robber" for t in KR_TILES.values())
    assert all(TILES[l] == t for l, t in KR_TILES.items())
    pile = rules_for(KR).pile
    assert sum(pile.values()) == 71 + 5 and pile == {**base_pile(), **kr_pile()}


def test_tiles_spot_checked():
    assert [t.edges for t in KR_TILES.values()] == ["CFFF", "CFFR", "CRRR", "CRRC", "CCCC"]
    assert KR_TILES["KR1"].has_cloister and not KR_TILES["KR2"].has_cloister
    kr3 = oriented("KR3", 0)
    assert kr3.kinds.count("road") == 2 and kr3.label_index["road E"] == kr3.label_index["road S"]
    assert kr3.label_index["road W"] != kr3.label_index["road E"]
    kr5 = oriented("KR5", 0)
    assert kr5.labels == ("city N", "city E", "field I", "field II")
    assert kr5.label_index["city S"] == 0 and kr5.label_index["city W"] == 1
    kr4 = oriented("KR4", 0)
    assert kr4.kinds.count("field") == 4 and kr4.kinds.count("road") == 2


def test_draw_order_takes_the_kr_labels():
    state = new_game(["KR5", "E"])
    assert state.tile == "KR5"
    with pytest.raises(BadOptions):
        G.check_options(2, {"draw_order": ["KR1"]})          # not without the expansion
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": KR, "draw_order": ["KR1", "KR1"]})
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": KR, "king_robber_scoring": "per_tile"})


# -- records ----------------------------------------------------------------------------

ORDER = ["E", "E", "U", "E", "E", "G", "U", "E", "A", "A"]
MOVES = ["place 0,-1 r180 follower city S",   # seat 0 completes a 2-tile city: King
         "place 1,-1 r0",                      # seat 1 opens a city
         "place -1,0 r0",
         "place 1,-2 r180",                    # seat 1 completes a 2-tile city: equal, no King
         "place -1,-1 r270",
         "place -2,-1 r0 follower city E",
         "place -2,0 r0",
         "place -3,-1 r90",                    # seat 1 completes a 3-tile city: the King
         "place 1,0 r90",
         "place -3,0 r270"]                    # seat 1 completes the 5-tile road: the Robber


def test_king_first_city_equal_size_and_a_larger_one():
    state = new_game(ORDER)
    assert holder(state, "king") is None and record(state, "king") == 0
    state, ev = play(state, MOVES[0])
    (taken,) = of_type(ev, "KingTaken")
    assert taken == {"type": "KingTaken", "player": 0, "previous": None, "size": 2,
                     "x": 0, "y": 0, "on": "city N"}
    # step 8.4 comes after the scoring (8.1) and before the followers return (9.1)
    kinds = [e["type"] for e in ev]
    assert kinds.index("FeatureScored") < kinds.index("KingTaken") < kinds.index("FollowersReturned")
    assert G.describe(taken) == ("Seat 0 takes the King: a completed city of 2 tiles (city N at 0,0) "
                                 "is the largest so far.")
    for text in MOVES[1:4]:
        state, ev = play(state, text)
    assert of_type(ev, "FeatureScored")[0]["tiles"] == 2
    assert not of_type(ev, "KingTaken")                   # equal size does not take it
    assert holder(state, "king") == 0
    for text in MOVES[4:8]:
        state, ev = play(state, text)
    (taken,) = of_type(ev, "KingTaken")
    assert (taken["player"], taken["previous"], taken["size"]) == (1, 0, 3)
    assert "from seat 0" in G.describe(taken)
    assert (holder(state, "king"), record(state, "king")) == (1, 3)


def test_robber_baron_and_final_scoring():
    state = new_game(ORDER)
    for text in MOVES[:-1]:
        state, ev = play(state, text)
    assert holder(state, "robber") is None
    state, ev = play(state, MOVES[-1])
    (taken,) = of_type(ev, "RobberTaken")
    assert (taken["player"], taken["previous"], taken["size"]) == (1, None, 5)
    assert state.over
    king = of_type(ev, "KingScored")
    robber = of_type(ev, "RobberScored")
    assert king == [{"type": "KingScored", "player": 1, "features": 3, "points": 3, "winners": [1],
                     "category": "king_robber"}]
    assert robber[0]["features"] == 1 and robber[0]["points"] == 1
    assert G.describe(robber[0]) == "The Robber Baron: 1 completed road: 1 point to seat 1."
    # seat 0: 4 (2-city); seat 1: 6 (3-city) + 3 King + 1 Robber Baron
    assert G.result(state).scores == (4, 10)
    assert G.result(state).detail["by_category"]["king_robber"] == [0, 4]


def test_nobody_holds_them_nobody_scores():
    state = new_game(["U"])
    state, ev = play(state, "place -1,0 r0")
    assert state.over
    assert not of_type(ev, "KingScored") and not of_type(ev, "RobberScored")


def test_keeping_the_king_with_a_larger_city_is_logged():
    state = new_game(["G", "U", "E"])
    state, _ = play(state, "place 0,-1 r90")               # seat 0 extends the start city
    state, _ = play(state, "place -1,0 r0")
    assert holder(state, "king") is None
    state, ev = play(state, "place 0,-2 r180")              # seat 0 completes 3 tiles
    assert of_type(ev, "KingTaken")[0]["size"] == 3


def test_a_tile_completing_one_city_and_opening_another():
    state = new_game(["H", "E", "E"])
    state, _ = play(state, "place 0,-1 r0")                 # H: caps N and S; S closes the start city
    assert holder(state, "king") == 0 and record(state, "king") == 2


# -- views, render, snapshots, random games -----------------------------------------------


def test_views_render_and_snapshot_show_the_holders():
    state = new_game(ORDER)
    view = G.view(state)
    assert view["king_robber"] == {"king": None, "king_size": 0, "robber": None, "robber_size": 0}
    state, _ = play(state, MOVES[0])
    view = G.view(state, 1)
    assert view["king_robber"]["king"] == 0 and view["king_robber"]["king_size"] == 2
    assert "King: seat 0 (largest completed city: 2 tiles); Robber Baron: nobody" in G.render(state)
    restored = G.load(json.loads(json.dumps(G.dump(state))))
    assert canonical(G.view(restored)) == canonical(G.view(state))
    assert "king_robber" not in G.view(new_game(["E"], expansions=[]))


def test_random_games_alone_and_with_every_expansion():
    for expansions, players in ((KR, 2), (ALL, 4)):
        for seed in range(2):
            playout = play_random(G, players, {"expansions": expansions}, seed=seed)
            state = playout.state
            assert state.over
            events = playout.events
            cities = sum(1 for f in state.features.values() if f.kind == "city" and f.open == 0)
            king = of_type(events, "KingScored")
            if holder(state, "king") is not None:
                assert king[0]["points"] == cities
            sizes = [e["size"] for e in of_type(events, "KingTaken")]
            assert sizes == sorted(set(sizes))              # records only grow
            assert canonical(G.dump(G.replay(players, playout.options, events))) == canonical(G.dump(state))


@pytest.mark.parametrize("scoring,total,final", [
    ("per_feature", 4 + 1, [1]),            # 1 per completed city at the end
    ("fixed_10_20", 4 + 10, [10]),          # the King's fixed 10 (the Robber Baron's would be 20)
    ("fixed_15_40", 4 + 15, [15]),
    ("continuous", 4 + 1, []),              # 1 when the city was completed, nothing at the end
])
def test_the_king_robber_scorings_of_carcassonne_v1(scoring, total, final):
    """carcassonne@1's readings, kept for its games (carcassonne@2 plays JCloisterZone's:
    test_carcassonne_variants.py)."""
    v1 = games.get("carcassonne", 1)
    opts = v1.check_options(2, {"draw_order": ["E"], "start_player": 0, "expansions": ["king_robber"],
                                "king_robber_scoring": scoring})
    state = v1.start(2, opts)
    state = v1.apply(state, v1.setup(state, random.Random(0)))
    move = v1.parse("place 0,-1 r180 follower city S", state, 0)
    ev = v1.decide(state, 0, move, random.Random(0))
    state = v1.apply(state, ev)
    during = [e for e in of_type(ev, "KingScored") if e.get("continuous")]
    assert [e["points"] for e in during] == ([1] if scoring == "continuous" else [])
    at_end = [e["points"] for e in of_type(ev, "KingScored") if not e.get("continuous")]
    assert at_end == final and state.scores == (total, 0)
