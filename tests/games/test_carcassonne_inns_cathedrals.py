"""Carcassonne, Inns & Cathedrals (digest §3.1): tile data, inn and
cathedral scoring, the big follower, the 6th player, notation, views."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import BadOptions, IllegalMove, ParseError, canonical
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.features import sid_at
from pbem.games.carcassonne.geometry import EDGE_INDEX, HALF_INDEX
from pbem.games.carcassonne.expansions.inns_cathedrals_tiles import IC_TILES, ic_pile
from pbem.games.carcassonne.expansions.inns_cathedrals import big_left
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.scoring import majority
from pbem.games.carcassonne.state import Feature
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.playout import play_random

from . import carcassonne_support as support
from .carcassonne_support import G, play, of_type, completed


IC = ["inns_cathedrals"]


def new_game(order, players=2, start=0, expansions=None, **options):
    """A scripted game with IC unless other ``expansions`` are named."""
    return support.new_game(order, players, start, IC if expansions is None else expansions, **options)


def segs(letter, kind):
    return [s for s in IC_TILES[letter].segments if s.kind == kind]


def ports(names):
    return tuple(sorted(EDGE_INDEX[n] if n in EDGE_INDEX else HALF_INDEX[n] for n in names.split()))


# -- tile data -------------------------------------------------------------------------


def test_eighteen_tiles_in_seventeen_types():
    assert list(IC_TILES) == [f"IC{i}" for i in range(1, 18)]
    assert sum(t.count for t in IC_TILES.values()) == 18
    assert {l: t.count for l, t in IC_TILES.items() if t.count != 1} == {"IC1": 2}
    assert all(t.expansion == "inns_cathedrals" for t in IC_TILES.values())
    assert all(TILES[l] == t for l, t in IC_TILES.items())
    # the pile with I&C: the 71 base tiles plus the 18
    pile = rules_for(IC).pile
    assert sum(pile.values()) == 89 and pile == {**base_pile(), **ic_pile()}
    assert rules_for([]).pile == base_pile()


def test_inns_cathedrals_pennants_and_monastery():
    def count(mark):
        return {l: sum(s.mark(mark) for s in t.segments) * t.count for l, t in IC_TILES.items()
                if any(s.mark(mark) for s in t.segments)}
    assert count("inn") == {f"IC{i}": 1 for i in range(11, 17)}          # 6 inn tiles
    assert count("cathedral") == {"IC1": 2}                             # 2 cathedral tiles
    assert count("pennant") == {"IC6": 1, "IC10": 1, "IC13": 1}         # 3 pennants
    # inns are on road segments, the cathedral on a city
    for t in IC_TILES.values():
        for s in t.segments:
            assert not s.mark("inn") or s.kind == "road"
            assert not s.mark("cathedral") or s.kind == "city"
    assert [l for l, t in IC_TILES.items() if t.has_cloister] == ["IC2"]


def test_edges_as_in_the_table():
    edges = {1: "CCCC", 2: "FRFR", 3: "CCCC", 4: "CCFC", 5: "CRCR", 6: "CFCC", 7: "CFFF",
             8: "CFRF", 9: "CRFC", 10: "RCRC", 11: "CFRC", 12: "CFRR", 13: "CRRC", 14: "FRRR",
             15: "FRFR", 16: "FFRR", 17: "RRRR"}
    assert {int(l[2:]): t.edges for l, t in IC_TILES.items()} == edges


def test_ic1_cathedral_city():
    (city,) = segs("IC1", "city")
    assert city.ports == (0, 1, 2, 3) and city.mark("cathedral") == 1 and city.mark("pennant") == 0
    assert not segs("IC1", "field") and not segs("IC1", "road")


def test_ic2_monastery_splits_the_road():
    roads = segs("IC2", "road")
    assert [r.ports for r in roads] == [(1,), (3,)]        # E>end; W>end: two roads
    assert len(segs("IC2", "cloister")) == 1
    assert [f.ports for f in segs("IC2", "field")] == [ports("NL NR EL WR"), ports("ER SL SR WL")]
    o = oriented("IC2", 0)
    assert o.labels[:3] == ("road E", "road W", "cloister")


def test_ic3_four_caps_around_an_inner_field():
    cities = segs("IC3", "city")
    assert [c.ports for c in cities] == [(0,), (1,), (2,), (3,)]
    (field,) = segs("IC3", "field")
    assert field.inner == "I" and field.ports == () and field.adj == (0, 1, 2, 3)
    assert "field I" in oriented("IC3", 2).labels


def test_ic5_two_caps_two_dead_end_roads_four_fields():
    assert [c.ports for c in segs("IC5", "city")] == [(0,), (2,)]
    assert [r.ports for r in segs("IC5", "road")] == [(1,), (3,)]
    fields = segs("IC5", "field")
    # EL [adj N] / ER [adj S] / WL [adj S] / WR [adj N]; city 0 is N, city 1 is S
    assert [(f.ports, f.adj) for f in fields] == [((2,), (0,)), ((3,), (1,)), ((6,), (1,)), ((7,), (0,))]


def test_ic14_junction_with_the_inn_on_road_e_only():
    roads = segs("IC14", "road")
    assert [(r.ports, r.mark("inn")) for r in roads] == [((1,), 1), ((2,), 0), ((3,), 0)]
    assert "junction" in IC_TILES["IC14"].tags
    assert [f.ports for f in segs("IC14", "field")] == [ports("NL NR EL WR"), ports("ER SL"), ports("SR WL")]


def test_more_rows_spot_checked():
    ic6 = segs("IC6", "city")
    assert [(c.ports, c.mark("pennant")) for c in ic6] == [((0, 3), 1), ((2,), 0)]
    assert [f.adj for f in segs("IC6", "field")] == [(0, 1)]
    ic10 = IC_TILES["IC10"]
    assert [(c.ports, c.mark("pennant")) for c in segs("IC10", "city")] == [((1, 3), 1)]
    assert [r.ports for r in segs("IC10", "road")] == [(0,), (2,)] and len(segs("IC10", "field")) == 4
    assert ic10.edges == "RCRC"
    (road,) = segs("IC13", "road")
    assert road.ports == (1, 2) and road.mark("inn") == 1
    assert [r.ports for r in segs("IC17", "road")] == [(3, 0), (1, 2)]     # W–N; E–S
    assert len(segs("IC17", "field")) == 3
    assert [(r.ports, r.mark("inn")) for r in segs("IC11", "road")] == [((2,), 1)]
    assert segs("IC7", "city")[0].mark("no-castle") == 1


# -- inns ---------------------------------------------------------------------------------


def test_completed_inn_road_scores_2_per_tile():
    state = new_game(["IC15", "A", "A"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 2,0 r90")
    state, events = play(state, "place -1,0 r270")
    (road,) = [e for e in completed(events) if e["feature"] == "road"]
    assert (road["tiles"], road["points"], road["winners"]) == (4, 8, [0])
    assert G.result(state).scores == (8, 0)


def test_incomplete_inn_road_scores_0_at_the_end():
    state = new_game(["IC15", "A"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, events = play(state, "place -1,0 r270")
    (road,) = of_type(events, "FeatureScored")
    assert not road["complete"] and road["tiles"] == 3 and road["points"] == 0
    assert G.result(state).scores == (0, 0)
    # the same road without the inn (a U) scores 1 per tile
    state = new_game(["U", "A"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, events = play(state, "place -1,0 r270")
    assert G.result(state).scores == (3, 0)


def test_two_inns_on_one_road_do_not_stack():
    # IC15 (inn) east of the start, IC16 (inn) turns the road south, an A
    # closes it there and another A in the west: 5 tiles, 2 inns -> 10
    state = new_game(["IC15", "IC16", "A", "A"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 2,0 r0")
    state, _ = play(state, "place 2,1 r180")
    feature = state.feature_of(sid_at(state, (1, 0), "road E"))
    assert feature.marks["inn"] == 2
    state, events = play(state, "place -1,0 r270")
    (road,) = [e for e in completed(events) if e["feature"] == "road"]
    assert (road["tiles"], road["points"]) == (5, 10)


def test_road_without_inn_unchanged_with_the_expansion():
    state = new_game(["U", "A", "A"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 2,0 r90")
    state, events = play(state, "place -1,0 r270")
    (road,) = [e for e in completed(events) if e["feature"] == "road"]
    assert road["points"] == 4


# -- cathedrals --------------------------------------------------------------------------


def cathedral_points(tiles, pennants, complete, cathedrals=1):
    rules = rules_for(IC)

    class S:
        def __init__(self):
            self.options = {"tiny_city_scoring": 4}
            self.rules = rules

    marks = {"pennant": pennants, "cathedral": cathedrals} if cathedrals else {"pennant": pennants}
    f = Feature("city", (), frozenset((i, 0) for i in range(tiles)), 0 if complete else 1, marks,
                (), frozenset())
    return rules.points["city"](S(), f, complete)


def test_cathedral_points():
    # digest example: a completed 5-tile cathedral city with 2 pennants scores 21
    assert cathedral_points(5, 2, True) == 21
    assert cathedral_points(5, 2, False) == 0
    assert cathedral_points(5, 2, True, cathedrals=2) == 21        # two cathedrals do not stack
    assert cathedral_points(5, 2, True, cathedrals=0) == 14        # no cathedral: base 2 + 2
    assert cathedral_points(5, 2, False, cathedrals=0) == 7


def cathedral_city(big=True):
    """IC1 north of the start with seat 0's figure; E caps west and north;
    F (pennant) east, capped by an E: 6 tiles + 1 pennant. Seat 1 puts a
    farmer in the west cap's field."""
    state = new_game(["IC1", "E", "E", "F", "E"])
    state, _ = play(state, "place 0,-1 r0 " + ("big city N" if big else "knight N"))
    state, _ = play(state, "place -1,-1 r90 farmer NL")
    state, _ = play(state, "place 0,-2 r180")
    state, _ = play(state, "place 1,-1 r0")
    return state


def test_completed_cathedral_city_scores_3_per_tile_and_pennant():
    state = cathedral_city()
    assert state.scores == (0, 0)
    state, events = play(state, "place 2,-1 r270")
    (city,) = [e for e in completed(events) if e["feature"] == "city"]
    assert (city["tiles"], city["pennants"], city["points"], city["winners"]) == (6, 1, 21, [0])
    # the big follower goes home; the farmer stays and scores 3 for the (cathedral) city
    (field,) = of_type(events, "FieldScored")
    assert field["winners"] == [1] and field["cities"] == 1 and field["points"] == 3
    assert G.result(state).scores == (21, 3)
    assert G.view(state, 0)["big_followers"] == [1, 1]


def test_incomplete_cathedral_city_scores_0_at_the_end():
    state = new_game(["IC1", "E"])
    state, _ = play(state, "place 0,-1 r0 big city N")
    state, events = play(state, "place -1,-1 r90")
    (city,) = of_type(events, "FeatureScored")
    assert not city["complete"] and city["tiles"] == 3 and city["points"] == 0
    assert G.result(state).scores == (0, 0)


def test_occupied_cathedral_city_blocks_every_figure():
    state = new_game(["IC1", "E", "E", "F", "E"])
    state, _ = play(state, "place 0,-1 r0 big city N")
    legal = G.legal_moves(state, 1)
    assert not any(m.get("on") == "city E" for m in legal if (m["x"], m["y"]) == (-1, -1))
    for text in ["place -1,-1 r90 knight E", "place -1,-1 r90 big city E"]:
        with pytest.raises(IllegalMove) as err:
            G.decide(state, 1, G.parse(text, state, 1), random.Random(0))
        assert err.value.code == "feature_occupied"


# -- the big follower ------------------------------------------------------------------------


def test_big_follower_beats_a_single_follower():
    """Digest example 6 with seat 0's big follower: its strength 2 beats
    seat 1's thief once the pieces join; only seat 0 scores the 7 tiles.
    Then the big follower is home and seat 0 uses it again."""
    state = new_game("UVVVAAE")
    assert G.view(state, None)["big_followers"] == [1, 1]
    state, events = play(state, "place 1,0 r0 big road E")
    assert of_type(events, "FollowerDeployed")[0]["figure"] == "big"
    assert state.supply == (7, 7) and big_left(state, 0) == 0
    state, _ = play(state, "place 1,1 r270 thief E")
    state, _ = play(state, "place 2,0 r0")
    state, _ = play(state, "place 2,1 r90")
    feature = state.feature_of(sid_at(state, (1, 0), "road E"))
    assert sorted(feature.meeples) == [(0, sid_at(state, (1, 0), "road E"), "big"),
                                       (1, sid_at(state, (1, 1), "road E"), "follower")]
    assert majority(state, feature) == [0]
    state, _ = play(state, "place -1,0 r270")
    state, events = play(state, "place 1,2 r180")
    (road,) = [e for e in completed(events) if e["feature"] == "road"]
    assert (road["tiles"], road["points"], road["winners"]) == (7, 7, [0])
    back = of_type(events, "FollowersReturned")[0]["followers"]
    assert {(b["player"], b["figure"]) for b in back} == {(0, "big"), (1, "follower")}
    assert state.scores == (7, 0) and state.supply == (7, 7)
    assert G.view(state, 0)["big_followers"] == [1, 1]
    # used again later: a small city, normal points (4), home again
    state, events = play(state, "place 0,-1 r180 big city S")
    (city,) = completed(events)
    assert city["points"] == 4 and city["winners"] == [0]
    assert big_left(state, 0) == 1 and G.result(state).scores == (11, 0)


def test_big_follower_ties_with_two_followers():
    """Three road pieces: seat 0's big follower on the y=1 road, seat 1's
    thieves on the start road and the y=2 road; curves join all three."""
    state = new_game("UUEUVVVV")
    state, _ = play(state, "place 0,1 r0 big road E")
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 0,-1 r180")
    state, _ = play(state, "place 0,2 r0 thief E")
    state, _ = play(state, "place 1,1 r0")
    state, _ = play(state, "place 1,2 r90")
    feature = state.feature_of(sid_at(state, (0, 1), "road E"))
    assert majority(state, feature) == [0]                 # 2 against 1
    state, _ = play(state, "place -1,0 r270")
    state, events = play(state, "place -1,1 r180")
    feature = state.feature_of(sid_at(state, (0, 1), "road E"))
    assert len(feature.meeples) == 3 and majority(state, feature) == [0, 1]   # 2 against 1 + 1
    (road,) = [e for e in of_type(events, "FeatureScored") if e["feature"] == "road"]
    assert not road["complete"] and road["tiles"] == 8 and road["winners"] == [0, 1]
    assert G.result(state).scores == (8, 8)


def test_majority_strengths_with_the_expansion():
    class S:
        rules = rules_for(IC)

    def f(*meeples):
        return Feature("city", (), frozenset(), 0, {}, meeples, frozenset())

    assert majority(S(), f((0, 1, "big"), (1, 2, "follower"))) == [0]
    assert majority(S(), f((0, 1, "big"), (1, 2, "follower"), (1, 3, "follower"))) == [0, 1]
    assert majority(S(), f((0, 1, "big"), (1, 2, "big"), (2, 3, "follower"))) == [0, 1]
    assert majority(S(), f((0, 1, "big"), (1, 2, "follower"), (1, 3, "follower"),
                           (1, 4, "follower"))) == [1]


def test_only_one_big_follower_per_player():
    state = new_game("UUEUVVVV")
    state, _ = play(state, "place 0,1 r0 big road E")
    state, _ = play(state, "place 1,0 r0 big road E")   # seat 1 has its own
    assert G.view(state, None)["big_followers"] == [0, 0]
    assert not any(m.get("figure") == "big" for m in G.legal_moves(state, 0))
    assert any(m.get("figure") == "follower" for m in G.legal_moves(state, 0))
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 0, G.parse("place 0,-1 r180 big city S", state, 0), random.Random(0))
    assert err.value.code == "no_big_follower_left"


def test_big_follower_on_every_kind_of_segment():
    state = new_game(["IC2", "IC3"])
    legal = G.legal_moves(state, 0)
    on = {m["on"] for m in legal if (m["x"], m["y"], m["rotation"], m.get("figure")) == (1, 0, 0, "big")}
    assert on == {"road E", "road W", "cloister", "field NL", "field ER"}
    on_follower = {m["on"] for m in legal if (m["x"], m["y"], m["rotation"], m.get("figure")) == (1, 0, 0, "follower")}
    assert on_follower == on                     # wherever a follower may go
    state, events = play(state, "place 1,0 r0 big monk")
    assert of_type(events, "FollowerDeployed")[0]["on"] == "cloister"
    # IC3's inner field takes a farmer (IC3's south cap closes the start city)
    state3 = new_game(["IC3"])
    legal = G.legal_moves(state3, 0)
    assert {"type": "place_tile", "x": 0, "y": -1, "rotation": 0, "figure": "big", "on": "field I"} in legal
    state3, events = play(state3, "place 0,-1 r0 big farmer I")
    (city,) = completed(events)
    assert city["tiles"] == 2 and city["winners"] == []
    assert G.result(state3).scores == (3, 0)        # the big farmer: 1 completed city, normal 3


def test_big_follower_validation_codes():
    state = new_game(["IC2"])
    for text, code in [("place 1,0 r0 big city N", "bad_segment"),
                       ("place 1,0 r0 big road N", "bad_segment")]:
        with pytest.raises(IllegalMove) as err:
            G.decide(state, 0, G.parse(text, state, 0), random.Random(0))
        assert err.value.code == code
    with pytest.raises(IllegalMove):
        G.decide(state, 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "figure": "big",
                            "on": 5}, random.Random(0))


# -- players ---------------------------------------------------------------------------------


def test_six_players_only_with_the_expansion():
    opts = G.check_options(6, {"expansions": IC, "start_player": 5})
    assert opts["start_player"] == 5
    state = G.start(6, opts)
    assert state.supply == (7,) * 6 and G.view(state, None)["big_followers"] == [1] * 6
    with pytest.raises(BadOptions) as err:
        G.check_options(6, {})
    assert err.value.code == "bad_player_count"
    with pytest.raises(BadOptions) as err:
        G.check_options(7, {"expansions": IC})
    assert err.value.code == "bad_player_count"
    for n in range(2, 6):
        G.check_options(n, {})
        G.check_options(n, {"expansions": IC})
    with pytest.raises(BadOptions):
        G.check_options(5, {"start_player": 5})


def test_six_player_random_game_uses_the_whole_pile():
    playout = play_random(G, 6, {"expansions": IC}, seed=3)
    result = G.result(playout.state)
    assert len(result.scores) == 6
    drawn = [e["tile"] for e in playout.events if e["type"] == "TileDrawn"]
    assert sorted(drawn) == sorted(l for l, n in rules_for(IC).pile.items() for _ in range(n))
    assert any(e["type"] == "FollowerDeployed" and e["figure"] == "big" for e in playout.events)


def test_draw_order_takes_the_ic_labels():
    G.check_options(2, {"expansions": IC, "draw_order": ["IC1", "IC1", "IC17", "A"]})
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": IC, "draw_order": ["IC1"] * 3})
    with pytest.raises(BadOptions):
        G.check_options(2, {"draw_order": ["IC1"]})            # not without the expansion
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": IC, "draw_order": ["IC18"]})


# -- notation, views, render, snapshots ----------------------------------------------------------


def test_big_follower_notation():
    state = new_game(["IC2"])
    want = {"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "figure": "big", "on": "road E"}
    for text in ["place 1,0 r0 big road E", "place 1,0 r0 BIG thief e", "1,0 0 big follower road E",
                 "place 1,0 r0 big follower E", "place 1,0 r0 large road E"]:
        assert G.parse(text, state, 0) == want, text
    assert G.describe(want) == "place 1,0 r0 big road E"
    farmer = G.parse("place 1,0 r0 big farmer EL", state, 0)
    assert farmer["figure"] == "big" and farmer["on"] == "field NL"
    assert G.describe(farmer) == "place 1,0 r0 big farmer NL"
    assert G.parse(G.describe(farmer), state, 0) == farmer
    monk = G.parse("place 1,0 r0 big monastery", state, 0)
    assert monk["on"] == "cloister" and G.describe(monk) == "place 1,0 r0 big cloister"
    with pytest.raises(ParseError) as err:
        G.parse("place 1,0 r0 big", state, 0)
    assert err.value.details["expected"] and err.value.details["examples"]
    # every legal move reads back from its description
    for move in G.legal_moves(state, 0):
        assert G.parse(G.describe(move, 0), state, 0) == move
    # without the expansion "big" is not a figure
    base = G.start(2, G.check_options(2, {"draw_order": ["U"], "start_player": 0}))
    base = G.apply(base, G.setup(base, random.Random(0)))
    with pytest.raises(ParseError):
        G.parse("place 1,0 r0 big road E", base, 0)
    with pytest.raises(IllegalMove) as err:
        G.decide(base, 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "figure": "big",
                           "on": "road E"}, random.Random(0))
    assert err.value.code == "unknown_figure"


def test_notation_round_trips_over_random_games():
    for seed in range(2):
        playout = play_random(G, 3, {"expansions": IC}, seed=seed)
        state = G.start(3, playout.options)
        checked = 0
        for i, event in enumerate(playout.events):
            state = G.evolve(state, event)
            if i % 9 or state.over or not state.pending:
                continue
            (player,) = G.to_act(state)
            for move in G.legal_moves(state, player):
                if move.get("figure") == "big":
                    checked += 1
                assert G.parse(G.describe(move, player), state, player) == move
        assert checked


def test_views_render_and_snapshot_show_the_big_follower():
    state = new_game(["IC13", "E", "U"])
    state, events = play(state, "place 1,0 r90 big road W")
    # IC13 turned: city N+E, inn road S-W ("road S" is its canonical name)
    assert G.describe(events[1]) == "Seat 0 deployed a big follower on road S at 1,0."
    view = G.view(state, 1)
    assert view["followers"] == [{"player": 0, "x": 1, "y": 0, "on": "road S", "figure": "big"}]
    assert view["big_followers"] == [0, 1]
    assert view["pile"] == {"U": 1} and view["tile"] == "E"
    text = G.render(state, 1)
    assert "seat 0's big follower on road S at 1,0" in text
    assert "Big followers in supply: seat 0 0, seat 1 1" in text
    assert "b0" in text and "b big follower" in text  # on the board: seat 0's big follower
    assert "| big city S" in text  # the legal placements list the big follower
    dump = json.loads(json.dumps(G.dump(state)))
    assert dump["ext"] == {"inns_cathedrals": {"big": [0, 1]}}
    again = G.load(dump)
    assert canonical(G.dump(again)) == canonical(G.dump(state))
    assert canonical(G.view(again, 0)) == canonical(G.view(state, 0))
    move = G.parse("place 0,-1 r180 big city S", again, 1)
    assert G.decide(again, 1, move, random.Random(3)) == G.decide(state, 1, move, random.Random(3))


def test_base_game_views_have_no_expansion_parts():
    state = G.start(2, G.check_options(2, {}))
    assert "big_followers" not in G.view(state, 0) and state.ext == {}
    assert "Big followers" not in G.render(state, 0)
