"""Carcassonne, Traders & Builders (digest §3.2): tile data, goods, the
builder and its extra tile, the pig, notation, views, and both expansions
together with Inns & Cathedrals."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import BadOptions, IllegalMove, ParseError, canonical
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.features import sid_at
from pbem.games.carcassonne.geometry import EDGE_INDEX, HALF_INDEX
from pbem.games.carcassonne.expansions.inns_cathedrals_tiles import ic_pile
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.expansions.traders_builders_tiles import GOODS, TB_TILES, tb_pile
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.carcassonne.expansions.traders_builders import figure_left, goods_of
from pbem.games.playout import play_random

from . import carcassonne_support as support
from .carcassonne_support import G, play, refused, of_type


TB = ["traders_builders"]
BOTH = ["inns_cathedrals", "traders_builders"]


def new_game(order, players=2, start=0, expansions=None, **options):
    """A scripted game with TB unless other ``expansions`` are named."""
    return support.new_game(order, players, start, TB if expansions is None else expansions, **options)


def drawn_by(events):
    return [(e["player"], e["tile"]) for e in of_type(events, "TileDrawn")]


def segs(letter, kind):
    return [s for s in TB_TILES[letter].segments if s.kind == kind]


def ports(names):
    return tuple(sorted(EDGE_INDEX[n] if n in EDGE_INDEX else HALF_INDEX[n] for n in names.split()))


# -- tile data -------------------------------------------------------------------------


def test_twenty_four_tiles_join_the_pile():
    assert list(TB_TILES) == [f"TB{i}" for i in range(1, 25)]
    assert all(t.count == 1 and t.expansion == "traders_builders" for t in TB_TILES.values())
    assert all(TILES[l] == t for l, t in TB_TILES.items())
    pile = rules_for(TB).pile
    assert sum(pile.values()) == 71 + 24 and pile == {**base_pile(), **tb_pile()}
    both = rules_for(BOTH).pile
    assert sum(both.values()) == 71 + 18 + 24 and both == {**base_pile(), **ic_pile(), **tb_pile()}
    assert rules_for([]).pile == base_pile()


def test_twenty_goods_symbols_by_kind():
    where = {g: [] for g in GOODS}
    for label, t in TB_TILES.items():
        for s in t.segments:
            for g in GOODS:
                if s.mark(g):
                    assert s.kind == "city" and s.mark(g) == 1
                    where[g].append(int(label[2:]))
    assert where == {"wine": [2, 4, 8, 12, 13, 14, 15, 18, 19],
                     "grain": [1, 5, 10, 17, 21, 22],
                     "cloth": [3, 6, 7, 9, 11]}
    assert sum(len(v) for v in where.values()) == 20
    # no pennants on T&B tiles; one monastery (TB20)
    assert not any(s.mark("pennant") for t in TB_TILES.values() for s in t.segments)
    assert [l for l, t in TB_TILES.items() if t.has_cloister] == ["TB20"]


def test_segment_statistics_as_in_wica():
    tiles = TB_TILES.values()
    assert sum(len(segs(l, "field")) for l in TB_TILES) == 56
    assert sum(len(segs(l, "road")) for l in TB_TILES) == 23
    assert sum(len(segs(l, "city")) for l in TB_TILES) == 29
    assert sum(1 for t in tiles if any(s.kind == "road" for s in t.segments)) == 16
    assert sum(1 for t in tiles if any(s.kind == "city" for s in t.segments)) == 22


def test_edges_as_in_the_table():
    edges = {1: "CFFC", 2: "CFFC", 3: "FCCC", 4: "FCCC", 5: "CCFC", 6: "CCCC", 7: "CRRC",
             8: "CRRC", 9: "CRCC", 10: "CRCC", 11: "CRFC", 12: "CRFC", 13: "CCRC", 14: "CCCC",
             15: "FCFC", 16: "CRFF", 17: "FCRC", 18: "FCRC", 19: "RCRC", 20: "FRRR", 21: "CFRC",
             22: "CFRC", 23: "CFRR", 24: "RRRR"}
    assert {int(l[2:]): t.edges for l, t in TB_TILES.items()} == edges


def test_tb3_city_and_cap_around_an_inner_field():
    cities = segs("TB3", "city")
    assert [(c.ports, c.mark("cloth")) for c in cities] == [((1, 3), 1), ((2,), 0)]
    fields = segs("TB3", "field")
    assert [(f.ports, f.adj, f.inner) for f in fields] == [(ports("NL NR"), (0,), ""), ((), (0, 1), "I")]
    assert "field I" in oriented("TB3", 1).labels


def test_tb6_three_cities_and_tb14_two():
    assert [(c.ports, c.mark("cloth")) for c in segs("TB6", "city")] == [((0, 3), 1), ((1,), 0), ((2,), 0)]
    (field,) = segs("TB6", "field")
    assert field.inner == "I" and field.adj == (0, 1, 2)
    assert [(c.ports, c.mark("wine")) for c in segs("TB14", "city")] == [((0, 3), 1), ((1, 2), 0)]
    (field,) = segs("TB14", "field")
    assert field.inner == "I" and field.adj == (0, 1)


def test_tb7_and_tb8_differ_by_one_field():
    assert [r.ports for r in segs("TB7", "road")] == [(1,), (2,)] == [r.ports for r in segs("TB8", "road")]
    assert [f.ports for f in segs("TB7", "field")] == [ports("EL"), ports("ER"), ports("SL"), ports("SR")]
    assert [f.ports for f in segs("TB8", "field")] == [ports("EL"), ports("ER SL"), ports("SR")]
    assert segs("TB7", "city")[0].mark("cloth") == 1 and segs("TB8", "city")[0].mark("wine") == 1


def test_tb20_monastery_ends_three_roads_and_tb24_roads_cross():
    assert [r.ports for r in segs("TB20", "road")] == [(1,), (2,), (3,)]
    assert len(segs("TB20", "cloister")) == 1
    assert [f.ports for f in segs("TB20", "field")] == [ports("NL NR EL WR"), ports("ER SL"), ports("SR WL")]
    assert [r.ports for r in segs("TB24", "road")] == [(0, 2), (3, 1)]     # N–S; W–E: two roads
    assert len(segs("TB24", "field")) == 4


def test_more_rows_spot_checked():
    assert [(c.ports, c.mark("grain")) for c in segs("TB5", "city")] == [((0, 1, 3), 1)]
    assert [(f.ports, f.adj) for f in segs("TB9", "field")] == [(ports("EL"), (0,)), (ports("ER"), (0, 1))]
    assert [f.ports for f in segs("TB12", "field")] == [ports("EL"), ports("ER"), ports("SL SR")]
    assert [r.ports for r in segs("TB19", "road")] == [(0,), (2,)] and len(segs("TB19", "field")) == 4
    assert [(f.ports, f.adj) for f in segs("TB23", "field")] == [
        (ports("EL ER SL"), (0,)), (ports("SR WL"), ()), (ports("WR"), (0,))]
    assert [c.mark("wine") for c in segs("TB16", "city")] == [0]


def test_draw_order_takes_the_tb_labels():
    G.check_options(2, {"expansions": TB, "draw_order": ["TB1", "TB24", "A"]})
    G.check_options(2, {"expansions": BOTH, "draw_order": ["TB1", "IC1", "A"]})
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": TB, "draw_order": ["TB1", "TB1"]})   # one copy each
    with pytest.raises(BadOptions):
        G.check_options(2, {"draw_order": ["TB1"]})                            # not without T&B
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": TB, "draw_order": ["TB25"]})
    with pytest.raises(BadOptions):
        G.check_options(6, {"expansions": TB})                                 # 6 only with I&C
    G.check_options(6, {"expansions": BOTH})


# -- goods ---------------------------------------------------------------------------------


def test_goods_go_to_the_active_player_who_completes_anothers_city():
    # TB1 turned 180: city S+E with grain on the start city; an E closes it at 1,-1
    state = new_game(["TB1", "E"])
    state, events = play(state, "place 0,-1 r180 knight S")
    assert not of_type(events, "GoodsTaken")
    state, events = play(state, "place 1,-1 r270")
    (taken,) = of_type(events, "GoodsTaken")
    assert taken["player"] == 1 and taken["goods"] == {"grain": 1}
    (city,) = [e for e in of_type(events, "FeatureScored") if e["complete"]]
    assert city["winners"] == [0] and city["points"] == 6
    # goods are taken in step 7, before the city scores in step 8
    assert events.index(taken) < events.index(city)
    assert goods_of(state, 1) == {"wine": 0, "grain": 1, "cloth": 0}
    assert G.describe(taken) == "Seat 1 takes goods from the city (city W at 1,-1): 1 grain."
    # final: seat 1 has the only grain -> 10 (the goods category); wine and cloth nobody
    scored = of_type(events, "GoodsScored")
    assert [(e["good"], e["winners"]) for e in scored] == [("wine", []), ("grain", [1]), ("cloth", [])]
    assert G.result(state).scores == (6, 10)
    assert G.result(state).detail["by_category"]["goods"] == [0, 10]


def test_goods_from_an_unoccupied_city_and_by_the_cities_owner():
    state = new_game(["TB1", "E"])
    state, _ = play(state, "place 0,-1 r180")
    state, events = play(state, "place 1,-1 r270")
    (taken,) = of_type(events, "GoodsTaken")
    assert taken["player"] == 1
    (city,) = [e for e in of_type(events, "FeatureScored") if e["complete"]]
    assert city["winners"] == []
    # the occupant completing its own city takes them too
    state = new_game(["TB1", "E", "E"])
    state, _ = play(state, "place 0,-1 r180 knight S")
    state, _ = play(state, "place 0,1 r180")
    state, events = play(state, "place 1,-1 r270")
    assert of_type(events, "GoodsTaken")[0]["player"] == 0 and goods_of(state, 0)["grain"] == 1


def test_two_goods_in_one_city_and_no_goods_without_symbols():
    # TB2 (wine) and TB15 (wine) in one city: 2 wine at once
    state = new_game(["TB15", "TB2", "E", "E"])
    state, _ = play(state, "place 0,-1 r90")            # TB15 turned: city N+S, on the start city
    state, _ = play(state, "place 0,-2 r180")           # TB2 turned: city S+E (wine)
    feature = state.feature_of(sid_at(state, (0, -1), "city N"))
    assert feature.marks.get("wine") == 2
    open_edges = feature.open
    assert open_edges == 1
    state, _ = play(state, "place 0,1 r180")
    state, events = play(state, "place 1,-2 r270")
    (taken,) = of_type(events, "GoodsTaken")
    assert taken["goods"] == {"wine": 2} and taken["player"] == 1
    # a base city completed with T&B in play: no GoodsTaken
    state = new_game(["E"])
    state, events = play(state, "place 0,-1 r180")
    assert of_type(events, "FeatureScored") and not of_type(events, "GoodsTaken")


def final_goods(counts_by_good):
    """Play a one-tile game whose state holds the given goods before the end."""
    state = new_game(["U"], players=3)
    data = G.dump(state)
    data["ext"]["traders_builders"]["goods"] = counts_by_good
    state = G.load(json.loads(json.dumps(data)))
    state, events = play(state, "place 1,0 r0")
    return state, of_type(events, "GoodsScored")


def test_final_goods_majorities_and_ties():
    state, scored = final_goods({"wine": [2, 2, 1], "grain": [0, 3, 0], "cloth": [0, 0, 0]})
    assert [(e["good"], e["counts"], e["winners"], e["points"]) for e in scored] == [
        ("wine", [2, 2, 1], [0, 1], 10), ("grain", [0, 3, 0], [1], 10), ("cloth", [0, 0, 0], [], 10)]
    assert state.scores == (10, 20, 0)
    assert G.describe(scored[0]) == "Most wine (seat 0 2, seat 1 2, seat 2 1): 10 points to seat 0 and seat 1."
    assert G.describe(scored[2]) == "Nobody has cloth: nobody scores."
    state, scored = final_goods({"wine": [1, 1, 1], "grain": [0, 0, 4], "cloth": [5, 0, 0]})
    assert state.scores == (20, 10, 20)


# -- the builder -----------------------------------------------------------------------------


BUILDER_ORDER = "UEUEUUEAEBAB"


def builder_game():
    """Seat 0's thief on the road east of the start, then the builder on it."""
    state = new_game(BUILDER_ORDER)
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 0,1 r180")
    return state


def test_builder_needs_an_own_follower_in_the_feature():
    state = builder_game()
    legal = G.legal_moves(state, 0)
    builder = [(m["x"], m["y"], m["rotation"], m["on"]) for m in legal if m.get("figure") == "builder"]
    # only road segments joining the road with seat 0's thief (E end at 2,0; W end at -1,0)
    assert sorted(builder) == [(-1, 0, 0, "road E"), (-1, 0, 180, "road E"),
                               (2, 0, 0, "road E"), (2, 0, 180, "road E")]
    refused(state, "place 2,0 r0 builder farmer NL", "bad_segment")
    refused(state, "place 2,0 r0 builder road N", "bad_segment")
    state1, _ = play(state, "place 2,0 r0 builder road E")
    assert figure_left(state1, 0, "builder") == 0 and state1.supply == (6, 7)
    # seat 1 has no follower in that road: no builder for it
    assert not any(m.get("figure") == "builder" for m in G.legal_moves(state1, 1))
    refused(state1, "place 0,-1 r180 builder city S", "no_own_follower")
    # nor for seat 0 on a feature without its follower (the start city)
    state2 = new_game("UEU")
    state2, _ = play(state2, "place 1,0 r0 farmer NL")
    state2, _ = play(state2, "place 0,1 r180")
    refused(state2, "place 2,0 r0 builder road E", "no_own_follower")


def test_builder_is_the_turns_one_figure():
    """Step 5 only happens when step 4 did nothing: one move carries one figure,
    so the builder's placement deploys no follower."""
    state = builder_game()
    legal = [m for m in G.legal_moves(state, 0) if (m["x"], m["y"], m["rotation"]) == (2, 0, 0)]
    assert [m.get("figure") for m in legal] == [None, "follower", "follower", "builder"]
    state, events = play(state, "place 2,0 r0 builder road E")
    (deployed,) = of_type(events, "FollowerDeployed")
    assert deployed["figure"] == "builder" and state.supply == (6, 7)
    assert G.describe(deployed) == "Seat 0 deployed a builder on road E at 2,0."
    # the builder never counts for the majority
    road = state.feature_of(sid_at(state, (1, 0), "road E"))
    assert sorted(f for _, _, f in road.meeples) == ["builder", "follower"]


def test_builder_extra_tile_no_chain_and_return_on_scoring():
    state = builder_game()
    state, events = play(state, "place 2,0 r0 builder road E")
    assert not of_type(events, "BuilderTriggered")            # not in the turn it is placed
    assert drawn_by(events) == [(1, "E")]
    state, _ = play(state, "place 0,-1 r180")
    # seat 0 extends the builder's road: one extra tile for seat 0
    state, events = play(state, "place 3,0 r0")
    (trig,) = of_type(events, "BuilderTriggered")
    assert trig["player"] == 0 and drawn_by(events) == [(0, "U")]
    assert G.describe(trig) == "Seat 0's builder: seat 0 plays an extra tile."
    assert G.view(state, 1)["extra_tile"] is True
    assert "Seat 0 plays an extra tile (builder)." in G.render(state, 1)
    # the extra tile extends the road again: no second extra tile
    state, events = play(state, "place 4,0 r0")
    assert not of_type(events, "BuilderTriggered") and drawn_by(events) == [(1, "E")]
    assert G.view(state, 1)["extra_tile"] is False
    state, _ = play(state, "place 0,2 r0")
    # a later normal turn triggers again (an A closes the west end)
    state, events = play(state, "place -1,0 r270")
    assert of_type(events, "BuilderTriggered") and drawn_by(events) == [(0, "E")]
    state, _ = play(state, "place 1,1 r180")                   # the extra tile, elsewhere
    state, _ = play(state, "place 2,1 r0")                     # seat 1's B
    # completing the road: scored, builder and thief go home, and the tile
    # extended the builder's road, so the extra tile is still played
    state, events = play(state, "place 5,0 r90")
    (road,) = [e for e in of_type(events, "FeatureScored") if e["feature"] == "road"]
    assert road["complete"] and road["tiles"] == 7 and road["winners"] == [0]
    (back,) = of_type(events, "FollowersReturned")
    assert sorted((b["player"], b["figure"]) for b in back["followers"]) == [(0, "builder"), (0, "follower")]
    assert of_type(events, "BuilderTriggered") and drawn_by(events) == [(0, "B")]
    assert figure_left(state, 0, "builder") == 1 and state.supply == (7, 7)
    assert events.index(back) < events.index(of_type(events, "BuilderTriggered")[0])


def test_builder_goes_home_when_its_owner_has_no_follower_left():
    """No rule of I&C or T&B takes a follower off an incomplete feature (the
    princess, dragon, tower will); the return is checked by removing the
    thief with a FollowersReturned event as those rules would."""
    state = builder_game()
    state, _ = play(state, "place 2,0 r0 builder road E")
    thief = {"player": 0, "figure": "follower", "x": 1, "y": 0, "on": "road E"}
    state = G.evolve(state, {"type": "FollowersReturned", "followers": [thief]})
    state, events = play(state, "place 0,-1 r180")
    (back,) = of_type(events, "FollowersReturned")
    assert back["followers"] == [{"player": 0, "figure": "builder", "x": 2, "y": 0, "on": "road E"}]
    assert figure_left(state, 0, "builder") == 1
    assert not state.feature_of(sid_at(state, (1, 0), "road E")).meeples


def test_builder_in_a_city_and_goods():
    """The builder in a city: the tile completing it takes the goods, scores the
    city, sends the builder home and still grants the extra tile."""
    state = new_game(["TB1", "U", "TB15", "E", "E", "U"])
    state, _ = play(state, "place 0,-1 r180 knight S")         # TB1: city S+E (grain)
    state, _ = play(state, "place 1,0 r0")
    assert "builder city E" in G.render(state, 0)
    state, events = play(state, "place 1,-1 r0 builder city E")  # TB15: city E+W (wine)
    assert of_type(events, "FollowerDeployed")[0]["on"] == "city E"
    state, _ = play(state, "place 0,1 r180")
    state, events = play(state, "place 2,-1 r270")             # seat 0 closes the city
    (taken,) = of_type(events, "GoodsTaken")
    assert taken["player"] == 0 and taken["goods"] == {"wine": 1, "grain": 1}
    (city,) = [e for e in of_type(events, "FeatureScored") if e["complete"]]
    assert city["tiles"] == 4 and city["winners"] == [0] and city["points"] == 8
    assert of_type(events, "BuilderTriggered") and drawn_by(events) == [(0, "U")]
    assert figure_left(state, 0, "builder") == 1
    state, events = play(state, "place 2,0 r0")
    assert G.result(state).scores == (8 + 20, 0)               # the city, then wine and grain


# -- the pig --------------------------------------------------------------------------------


def pig_game(order="UEUB", expansions=TB, seat1="place 0,-1 r180 farmer NL"):
    state = new_game(order, expansions=expansions)
    state, _ = play(state, "place 1,0 r0 farmer NL")           # seat 0: the start's north field
    state, _ = play(state, seat1)                              # seat 1 closes the start city
    return state


def test_pig_placement_needs_an_own_farmer():
    state = pig_game()
    legal = G.legal_moves(state, 0)
    pig = sorted((m["x"], m["y"], m["rotation"], m["on"]) for m in legal if m.get("figure") == "pig")
    assert (-1, 0, 0, "field NL") in pig and (2, 0, 0, "field NL") in pig
    assert all(on.startswith("field ") for *_, on in pig)
    refused(state, "place -1,0 r0 pig SL", "no_own_farmer")     # the south field: no farmer of seat 0
    refused(state, "place -1,0 r0 pig road E", "bad_segment")
    state, events = play(state, "place -1,0 r0 pig NL")
    (deployed,) = of_type(events, "FollowerDeployed")
    assert (deployed["figure"], deployed["on"]) == ("pig", "field NL")
    assert figure_left(state, 0, "pig") == 0 and state.supply == (6, 6)


def test_pig_adds_one_per_city_for_a_winner_only():
    state = pig_game()
    state, _ = play(state, "place -1,0 r0 pig NL")
    # seat 1's B joins its field (north of 0,-1) to seat 0's: 1 farmer each, a tie
    state, events = play(state, "place 1,-1 r0")
    (field,) = [e for e in of_type(events, "FieldScored") if e["winners"] == [0, 1]]
    assert field["cities"] == 1 and field["points"] == 3
    (pig,) = of_type(events, "PigScored")
    assert pig["winners"] == [0] and pig["points"] == 1 and pig["cities"] == 1
    assert events.index(field) < events.index(pig)
    assert G.describe(pig).endswith("1 point more to seat 0.")
    assert G.result(state).scores == (4, 3)
    assert G.result(state).detail["by_category"]["field"] == [4, 3]


def test_pig_of_a_field_loser_scores_nothing():
    # with I&C: seat 1's big farmer (strength 2) wins against seat 0's farmer and pig
    state = pig_game(expansions=BOTH, seat1="place 0,-1 r180 big farmer NL")
    state, _ = play(state, "place -1,0 r0 pig NL")
    state, events = play(state, "place 1,-1 r0")
    (field,) = of_type(events, "FieldScored")
    assert field["winners"] == [1] and field["points"] == 3
    assert not of_type(events, "PigScored")
    assert G.result(state).scores == (0, 3)


def test_pig_stays_to_the_end():
    state = pig_game("UEUBE")
    state, _ = play(state, "place -1,0 r0 pig NL")
    state, _ = play(state, "place 1,-1 r0")
    assert figure_left(state, 0, "pig") == 0
    pigs = [f for f in G.view(state, 0)["followers"] if f["figure"] == "pig"]
    assert pigs == [{"player": 0, "x": -1, "y": 0, "on": "field NL", "figure": "pig"}]


# -- both expansions -------------------------------------------------------------------------


def test_builder_on_a_feature_held_by_the_big_follower():
    state = new_game("UEU", expansions=BOTH)
    state, _ = play(state, "place 1,0 r0 big road E")
    state, _ = play(state, "place 0,1 r180")
    assert {"type": "place_tile", "x": 2, "y": 0, "rotation": 0, "figure": "builder",
            "on": "road E"} in G.legal_moves(state, 0)
    state, events = play(state, "place 2,0 r0 builder road E")
    assert of_type(events, "FollowerDeployed")[0]["figure"] == "builder"
    view = G.view(state, 1)
    assert view["big_followers"] == [0, 1] and view["builders"] == [0, 1] and view["pigs"] == [1, 1]


def test_random_games_with_both_expansions():
    playout = play_random(G, 4, {"expansions": BOTH}, seed=5)
    result = G.result(playout.state)
    assert len(result.scores) == 4
    drawn = [e["tile"] for e in playout.events if e["type"] == "TileDrawn"]
    assert sorted(set(drawn)) == sorted(rules_for(BOTH).pile)
    assert len(of_type(playout.events, "GoodsScored")) == 3
    assert sum(result.detail["by_category"].get("goods", [0])) == 10 * sum(
        len(e["winners"]) for e in of_type(playout.events, "GoodsScored"))


# -- notation, views, render, snapshots ---------------------------------------------------------


def test_builder_and_pig_notation():
    state = builder_game()
    want = {"type": "place_tile", "x": 2, "y": 0, "rotation": 0, "figure": "builder", "on": "road E"}
    for text in ["place 2,0 r0 builder road E", "place 2,0 r0 BUILDER e", "2,0 0 builder road W",
                 "place 2,0 r0 builder thief E", "place 2,0 r0 builder follower E"]:
        assert G.parse(text, state, 0) == want, text
    assert G.describe(want) == "place 2,0 r0 builder road E"
    pig = {"type": "place_tile", "x": 2, "y": 0, "rotation": 0, "figure": "pig", "on": "field NL"}
    for text in ["place 2,0 r0 pig NL", "place 2,0 r0 pig field NR", "place 2,0 r0 pig farmer EL"]:
        assert G.parse(text, state, 0) == pig, text
    assert G.describe(pig) == "place 2,0 r0 pig NL"
    with pytest.raises(ParseError) as err:
        G.parse("place 2,0 r0 pig", state, 0)
    assert err.value.code == "missing_segment"
    for move in G.legal_moves(state, 0):
        assert G.parse(G.describe(move, 0), state, 0) == move
    # without the expansion "builder" and "pig" are no figures
    base = G.start(2, G.check_options(2, {"draw_order": ["U"], "start_player": 0}))
    base = G.apply(base, G.setup(base, random.Random(0)))
    with pytest.raises(ParseError):
        G.parse("place 1,0 r0 builder road E", base, 0)
    with pytest.raises(IllegalMove) as err:
        G.decide(base, 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "figure": "pig",
                           "on": "field NL"}, random.Random(0))
    assert err.value.code == "unknown_figure"


def test_notation_round_trips_over_random_games():
    for seed, expansions in [(0, TB), (1, BOTH)]:
        playout = play_random(G, 3, {"expansions": expansions}, seed=seed)
        state = G.start(3, playout.options)
        checked = 0
        for i, event in enumerate(playout.events):
            state = G.evolve(state, event)
            if i % 5 or state.over or not state.pending:
                continue
            (player,) = G.to_act(state)
            for move in G.legal_moves(state, player):
                if move.get("figure") in ("builder", "pig"):
                    checked += 1
                assert G.parse(G.describe(move, player), state, player) == move
        assert checked


def test_only_one_builder_and_one_pig():
    state = builder_game()
    state, _ = play(state, "place 2,0 r0 builder road E")
    state, _ = play(state, "place 0,-1 r180")
    assert not any(m.get("figure") == "builder" for m in G.legal_moves(state, 0))
    refused(state, "place 3,0 r0 builder road E", "no_builder_left")


def test_views_render_and_snapshot_show_goods_builders_and_pigs():
    state = new_game(["TB1", "E", "U", "U"])
    state, _ = play(state, "place 0,-1 r180 knight S")
    state, _ = play(state, "place 1,-1 r270")                  # seat 1 takes the grain
    state, _ = play(state, "place 1,0 r0 farmer NL")
    view = G.view(state, 0)
    assert view["goods"] == {"wine": [0, 0], "grain": [0, 1], "cloth": [0, 0]}
    assert view["builders"] == [1, 1] and view["pigs"] == [1, 1] and view["extra_tile"] is False
    text = G.render(state, 1)
    assert "Goods (public): seat 0: 0 wine, 0 grain, 0 cloth; seat 1: 0 wine, 1 grain, 0 cloth" in " ".join(text.replace("\n      ... ", " ").split())
    assert "Builders in supply: seat 0 1, seat 1 1" in text and "Pigs in supply" in text
    assert "G grain" in text and ".###G" in text  # TB1's grain on the board
    state3 = G.apply(state, G.decide(state, 1, G.parse("place 2,0 r0", state, 1), random.Random(0)))
    assert state3.over
    dump = json.loads(json.dumps(G.dump(state)))
    assert dump["ext"]["traders_builders"]["goods"]["grain"] == [0, 1]
    again = G.load(dump)
    assert canonical(G.dump(again)) == canonical(G.dump(state))
    assert canonical(G.view(again, 0)) == canonical(G.view(state, 0))
    # the pig shows on the board list as "pig NL"
    state = pig_game()
    state, _ = play(state, "place -1,0 r0 pig NL")
    assert "seat 0's pig on field NL at -1,0" in " ".join(G.render(state, 0).split())


def test_base_and_ic_games_have_no_tb_parts():
    for expansions in ([], ["inns_cathedrals"]):
        state = G.start(2, G.check_options(2, {"expansions": expansions}))
        assert "traders_builders" not in state.ext
        view = G.view(state, 0)
        assert not {"goods", "builders", "pigs", "extra_tile"} & set(view)
        assert "Goods" not in G.render(state, 0) and "Builders" not in G.render(state, 0)
        playout = play_random(G, 2, {"expansions": expansions}, seed=1)
        assert not [e for e in playout.events if e["type"] in ("GoodsTaken", "GoodsScored",
                                                               "PigScored", "BuilderTriggered")]
        assert not any(e.get("figure") in ("builder", "pig") for e in playout.events)
