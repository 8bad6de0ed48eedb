"""Carcassonne base game: tile data, geometry, placement, features, scoring
rules, tricky cases from the digest, notation and options."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import BadOptions, IllegalMove, ParseError, canonical
from pbem.games.carcassonne.features import occupancy_mask, sid_at
from pbem.games.carcassonne.geometry import HALVES, opposite_half
from pbem.games.carcassonne.moves import group_moves
from pbem.games.carcassonne.orient import oriented
from pbem.games.carcassonne.scoring import majority
from pbem.games.carcassonne.segments import parse_row
from pbem.games.carcassonne.state import Feature
from pbem.games.carcassonne.tiles import BASE_TILES, base_pile
from .carcassonne_support import G, new_game, play, of_type, completed


# -- tile data ----------------------------------------------------------------


def test_tile_counts_and_pennants():
    assert sum(t.count for t in BASE_TILES.values()) == 72
    assert sum(base_pile().values()) == 71
    assert base_pile()["D"] == 3
    pennants = {l: sum(s.mark("pennant") for s in t.segments) * t.count for l, t in BASE_TILES.items()}
    assert sum(pennants.values()) == 10
    assert {l for l, n in pennants.items() if n} == set("CFMOQS")
    assert [l for l, t in BASE_TILES.items() if t.has_cloister] == ["A", "B"]


def test_same_edges_different_internals():
    # I, M and N all show C F F C; only the segments tell them apart
    assert {BASE_TILES[l].edges for l in "IMN"} == {"CFFC"}
    cities = {l: [s.ports for s in BASE_TILES[l].segments if s.kind == "city"] for l in "IMN"}
    assert cities["I"] == [(0,), (3,)] and cities["M"] == [(0, 3)] == cities["N"]


def test_junction_roads_are_separate_and_cloister_road_does_not_split_field():
    for letter in "LWX":
        roads = [s for s in BASE_TILES[letter].segments if s.kind == "road"]
        assert all(len(r.ports) == 1 for r in roads) and len(roads) >= 3
    fields = [s for s in BASE_TILES["A"].segments if s.kind == "field"]
    assert len(fields) == 1 and fields[0].ports == tuple(range(8))


def test_expansion_rows_fit_the_segment_format():
    ic3 = parse_row("IC3 | 1 | C C C C | N ; E ; S ; W | – | I [adj N,E,S,W] |")
    assert [s.kind for s in ic3.segments] == ["city"] * 4 + ["field"]
    assert ic3.segments[-1].inner == "I" and ic3.segments[-1].adj == (0, 1, 2, 3)
    tb20 = parse_row("TB20 | 1 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | monastery")
    assert [s.kind for s in tb20.segments].count("cloister") == 1
    ic14 = parse_row("IC14 | 1 | F R R R | – | E>end (inn); S>end; W>end | NL NR EL WR / ER SL / SR WL | junction")
    assert ic14.segments[0].mark("inn") == 1 and ic14.segments[1].mark("inn") == 0
    am2 = parse_row("AM2 | 1 | C C C C | N+S (P) ; E+W | – | I [adj N,W] / II [adj N,W] |")
    assert [s.inner for s in am2.segments if s.kind == "field"] == ["I", "II"]
    tu1 = parse_row("TU1 | 1 | C R R R | N | E>tunnel; S>tunnel; W>tunnel | EL WR [adj N] / ER SL / SR WL |")
    assert all(s.mark("tunnel") for s in tu1.segments if s.kind == "road")
    co1 = parse_row("CO1 | 1 | F · · R | – | W>end | NL NR EL WR / SR WL |")
    assert co1.edges == "F··R"
    p2 = parse_row("X1 | 1 | C F F C | N+W (P×2, cathedral) | – | EL ER SL SR [adj N] |")
    assert p2.segments[0].mark("pennant") == 2 and p2.segments[0].mark("cathedral") == 1
    from pbem.games.carcassonne.orient import Oriented
    assert "field I" in Oriented(ic3, 1).labels


# -- geometry -------------------------------------------------------------------


def test_half_edges_meet_as_in_the_digest():
    meets = {"NL": "SR", "NR": "SL", "EL": "WR", "ER": "WL", "SL": "NR", "SR": "NL", "WL": "ER", "WR": "EL"}
    for h, name in enumerate(HALVES):
        assert HALVES[opposite_half(h)] == meets[name]


def test_rotation_is_clockwise():
    d90 = oriented("D", 1)
    assert d90.edges == "RCRF"              # the north city now faces east
    assert d90.labels[0] == "city E"
    assert d90.labels[1] == "road N"        # W-E road now runs N-S
    # D's field EL WR [adj N] turns to SL NR
    field = d90.labels[d90.half_seg[HALVES.index("SL")]]
    assert d90.half_seg[HALVES.index("NR")] == d90.half_seg[HALVES.index("SL")]
    assert field == "field NR"


# -- placement ------------------------------------------------------------------


def test_start_state():
    state = new_game("EUB")
    assert state.board == {(0, 0): ("D", 0, 0)}
    assert state.tile == "E" and G.to_act(state) == frozenset({0})
    assert state.supply == (7, 7)
    assert set(state.frontier) == {(0, -1), (1, 0), (0, 1), (-1, 0)}


def test_illegal_placements_have_clear_codes():
    state = new_game("EUB")
    cases = [
        ({"x": 0, "y": 0, "rotation": 0}, "cell_taken"),
        ({"x": 5, "y": 5, "rotation": 0}, "not_adjacent"),
        ({"x": 0, "y": -1, "rotation": 0}, "edges_do_not_match"),  # E's field would face D's city
        ({"x": 0, "y": -1, "rotation": 45}, "bad_rotation"),
        ({"x": "0", "y": -1, "rotation": 180}, "bad_position"),
        ({"x": 0, "y": -1, "rotation": 180, "figure": "follower", "on": "city N"}, "bad_segment"),
        ({"x": 0, "y": -1, "rotation": 180, "figure": "dragon", "on": "city S"}, "unknown_figure"),
        ({"x": 0, "y": -1, "rotation": 180, "figure": "follower"}, "bad_figure"),
        ({"x": 0, "y": -1, "rotation": 180, "colour": "red"}, "malformed_move"),
    ]
    for fields, code in cases:
        with pytest.raises(IllegalMove) as err:
            G.decide(state, 0, {"type": "place_tile", **fields}, random.Random(0))
        assert err.value.code == code, fields
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 1, {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}, random.Random(0))
    assert err.value.code == "not_your_turn"


def _brute_placements(state):
    """Every (cell, rotation) by checking edges against the tile table directly."""
    tile = BASE_TILES[state.tile]
    out = set()
    cells = {(x + dx, y + dy) for (x, y) in state.board for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))}
    for cell in cells - set(state.board):
        for r in range(4):
            edges = [tile.edges[(d - r) % 4] for d in range(4)]
            ok = True
            for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
                nb = state.board.get((cell[0] + dx, cell[1] + dy))
                if nb:
                    nt = BASE_TILES[nb[0]]
                    if nt.edges[((d + 2) % 4 - nb[1]) % 4] != edges[d]:
                        ok = False
            if ok:
                out.add((cell[0], cell[1], r * 90))
    return out


def _brute_free_labels(state, x, y, rotation):
    """Segments whose feature is free after placing, by actually placing."""
    after = G.evolve(state, {"type": "TilePlaced", "player": 0, "tile": state.tile,
                             "x": x, "y": y, "rotation": rotation})
    o = oriented(state.tile, rotation // 90)
    return {lab for lab in o.labels if not after.feature_of(sid_at(after, (x, y), lab)).meeples}


@pytest.mark.parametrize("seed", [1, 2])
def test_legal_moves_are_exactly_the_brute_force_ones(seed):
    rng = random.Random(seed)
    state = G.start(3, G.check_options(3, {}))
    state = G.apply(state, G.setup(state, random.Random(seed)))
    step = 0
    while G.result(state) is None:
        (player,) = G.to_act(state)
        legal = G.legal_moves(state, player)
        if step % 7 == 0:
            groups = group_moves(legal)
            assert {k for k, _ in groups} == _brute_placements(state)
            if state.supply[player]:
                for (x, y, rot), moves in groups[::3]:
                    got = {m["on"] for m in moves if m.get("figure")}
                    assert got == _brute_free_labels(state, x, y, rot)
        move = rng.choice(legal)
        state = G.apply(state, G.decide(state, player, move, random.Random(step)))
        step += 1


def _brute_features(state):
    """Connected components recomputed from scratch from the board."""
    parent = {}

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for cell, (letter, rot, n) in state.board.items():
        for k in range(len(BASE_TILES[letter].segments)):
            parent[(cell, k)] = (cell, k)
    opened = {}
    for cell, (letter, rot, n) in state.board.items():
        o = oriented(letter, rot)
        for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            nc = (cell[0] + dx, cell[1] + dy)
            nb = state.board.get(nc)
            k = o.edge_seg[d]
            if nb is None:
                if k >= 0:
                    opened[(cell, k)] = opened.get((cell, k), 0) + 1
                continue
            no = oriented(nb[0], nb[1])
            if k >= 0:
                parent[find((cell, k))] = find((nc, no.edge_seg[(d + 2) % 4]))
            for h in (2 * d, 2 * d + 1):
                if o.half_seg[h] >= 0:
                    parent[find((cell, o.half_seg[h]))] = find((nc, no.half_seg[opposite_half(h)]))
    comps = {}
    for node in parent:
        comps.setdefault(find(node), []).append(node)
    return list(comps.values()), opened


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_incremental_features_match_a_full_recount(seed):
    from pbem.games.playout import play_random
    out = play_random(G, 2, {}, seed=seed)
    state = out.state
    comps, opened = _brute_features(state)
    assert len(comps) == len(state.features)
    for nodes in comps:
        sids = {(state.board[c][2] << 4) + k for c, k in nodes}
        fids = {state.seg_feature[s] for s in sids}
        assert len(fids) == 1
        f = state.features[fids.pop()]
        assert set(f.segs) == sids
        if f.kind in ("road", "city"):
            assert f.tiles == {c for c, _ in nodes}
            assert f.open == sum(opened.get(n, 0) for n in nodes)
        if f.kind == "city":
            assert f.marks.get("pennant", 0) == sum(
                BASE_TILES[state.board[c][0]].segments[k].mark("pennant") for c, k in nodes)
    # every follower is accounted for: on the board or in supply
    on_board = sum(len(f.meeples) for f in state.features.values())
    assert on_board + sum(state.supply) == 7 * 2


# -- scoring per feature type ------------------------------------------------------


def test_small_city_scores_4_and_follower_returns_the_same_turn():
    state = new_game("EU")
    state, events = play(state, "place 0,-1 r180 follower city S")
    assert [e["type"] for e in events][:4] == ["TilePlaced", "FollowerDeployed", "FeatureScored",
                                               "FollowersReturned"]
    (scored,) = of_type(events, "FeatureScored")
    assert scored["points"] == 4 and scored["winners"] == [0] and scored["tiles"] == 2
    assert state.scores == (4, 0) and state.supply == (7, 7)


def test_tiny_city_scoring_option():
    state = new_game("EU", tiny_city_scoring=2)
    state, _ = play(state, "place 0,-1 r180 follower city S")
    assert state.scores == (2, 0)


def test_city_with_pennant_complete_and_incomplete():
    # M (N+W city, pennant) turned to S+E on the start tile's cap, closed by an E cap
    state = new_game("ME")
    state, _ = play(state, "place 0,-1 r180 knight S")
    assert state.scores == (0, 0)
    state, events = play(state, "place 1,-1 r270")
    (scored,) = of_type(events, "FeatureScored")
    assert (scored["tiles"], scored["pennants"], scored["points"]) == (3, 1, 8)
    assert state.scores == (8, 0)
    # left incomplete: 1 per tile + 1 per pennant at the end
    state = new_game("MU")
    state, _ = play(state, "place 0,-1 r180 knight S")
    state, events = play(state, "place 1,0 r0")
    (final,) = of_type(events, "FeatureScored")
    assert not final["complete"] and final["points"] == 3
    assert G.result(state).scores == (3, 0)


def test_completed_road_and_blocked_deployment():
    """Digest example 5: thief on W's west road; X closes the road (3 tiles)."""
    state = new_game("WX")
    state, _ = play(state, "place 1,0 r0 thief W")
    assert state.feature_of(sid_at(state, (1, 0), "road W")).meeples
    legal = G.legal_moves(state, 1)
    on_x = {m["on"] for m in legal if (m["x"], m["y"], m.get("figure")) == (-1, 0, "follower")}
    assert "road E" not in on_x and {"road N", "road S", "road W"} <= on_x
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 1, G.parse("place -1,0 r0 thief E", state, 1), random.Random(0))
    assert err.value.code == "feature_occupied"
    state, events = play(state, "place -1,0 r0 thief N")
    (scored,) = completed(events)
    assert scored["feature"] == "road" and scored["tiles"] == 3 and scored["points"] == 3
    assert state.scores[0] == 3 and state.supply == (7, 6)


def test_road_ending_at_a_cloister_is_complete():
    state = new_game("UAA")
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 2,0 r90")
    assert state.scores == (0, 0)
    state, events = play(state, "place -1,0 r270")
    scored = [e for e in of_type(events, "FeatureScored") if e["feature"] == "road"]
    assert scored[0]["tiles"] == 4 and scored[0]["winners"] == [0]
    assert state.scores == (4, 0)


def test_cloister_complete_scores_9():
    state = new_game("BUUBBBEE")
    state, _ = play(state, "place 0,1 r0 monk")
    for text in ["place 1,0 r0", "place -1,0 r0", "place -1,1 r0", "place 1,1 r0", "place -1,2 r0",
                 "place 0,2 r180"]:
        state, events = play(state, text)
        assert state.scores == (0, 0)
        assert not of_type(events, "FeatureScored") or events[-1]["type"] == "GameEnded"
    state, events = play(state, "place 1,2 r180")
    (scored,) = [e for e in of_type(events, "FeatureScored") if e["complete"]]
    assert scored["feature"] == "cloister" and scored["points"] == 9 and scored["winners"] == [0]
    assert G.result(state).scores == (9, 0)


def test_tile_counted_once_per_feature_road_loop_through_a_junction():
    """X's east and south roads close into one loop: X is counted once (4, not 5)."""
    state = new_game("XVVV")
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 2,0 r0")
    state, _ = play(state, "place 2,1 r90")
    state, events = play(state, "place 1,1 r180")
    (scored,) = [e for e in of_type(events, "FeatureScored") if e["complete"]]
    assert scored["tiles"] == 4 and scored["points"] == 4
    assert G.result(state).scores[0] == 4


def test_field_with_two_caps_of_one_merged_city_scores_it_once():
    """I's two caps join into one 4-tile city: the farmer counts it once,
    and the city counts I once (8 points)."""
    state = new_game("INNN")
    state, _ = play(state, "place 0,1 r180 farmer NL")
    state, _ = play(state, "place 1,1 r270 knight W")
    state, _ = play(state, "place 1,2 r0")
    state, events = play(state, "place 0,2 r90")
    (city,) = [e for e in of_type(events, "FeatureScored") if e["complete"]]
    assert city["tiles"] == 4 and city["points"] == 8 and city["winners"] == [1]
    (field,) = of_type(events, "FieldScored")
    assert field["cities"] == 1 and field["points"] == 3 and field["winners"] == [0]
    assert G.result(state).scores == (3, 8)


def test_same_city_scores_for_each_field_it_borders():
    """G turned north-south extends the start city between two separate
    fields; E caps it. Three fields border the one completed city: each
    farmer's field scores it."""
    state = new_game("GE")
    state, _ = play(state, "place 0,-1 r90 farmer EL")
    legal = G.legal_moves(state, 1)
    on = {m["on"] for m in legal if (m["x"], m["y"], m["rotation"]) == (0, -2, 180) and m.get("figure")}
    assert on == {"city S", "field NL"}          # the city is free, E's field is its own
    state, events = play(state, "place 0,-2 r180 farmer NL")
    (city,) = completed(events)
    assert city["tiles"] == 3 and city["points"] == 6 and city["winners"] == []
    fields = sorted((e["winners"], e["cities"], e["points"]) for e in of_type(events, "FieldScored"))
    assert fields == [([0], 1, 3), ([1], 1, 3)]
    assert G.result(state).scores == (3, 3) and G.result(state).placings == (1, 1)


def test_field_not_bordering_a_completed_city_scores_nothing():
    state = new_game("EU")
    state, _ = play(state, "place 0,-1 r180")
    state, events = play(state, "place 1,0 r0 farmer SL")   # the south field: no city
    (field,) = of_type(events, "FieldScored")
    assert field["cities"] == 0 and field["points"] == 0 and G.result(state).scores == (0, 0)


def test_shared_majority_after_a_merge():
    """Digest example 6: two thieves on separate road pieces; a tile joins
    them; both score the full road."""
    state = new_game("UVVVAA")
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 1,1 r270 thief E")
    legal = G.legal_moves(state, 0)
    assert not any(m.get("on") == "road W" for m in legal if (m["x"], m["y"]) == (2, 0))
    state, _ = play(state, "place 2,0 r0")
    state, _ = play(state, "place 2,1 r90")
    feature = state.feature_of(sid_at(state, (1, 0), "road E"))
    assert sorted(p for p, _, _ in feature.meeples) == [0, 1]
    state, _ = play(state, "place -1,0 r270")
    state, events = play(state, "place 1,2 r180")
    (road,) = [e for e in of_type(events, "FeatureScored") if e["feature"] == "road" and e["complete"]]
    assert road["winners"] == [0, 1] and road["points"] == 7
    assert state.supply == (7, 7)


def test_majority_with_strengths():
    class R:
        strength = {"follower": 1, "big": 2}

    class S:
        rules = R()

    f = Feature("road", (), frozenset(), 0, {}, ((0, 1, "follower"), (1, 2, "follower"),
                                                 (1, 3, "follower"), (2, 4, "big")), frozenset())
    assert majority(S(), f) == [1, 2]
    f = Feature("road", (), frozenset(), 0, {}, ((0, 1, "follower"), (1, 2, "follower"), (0, 5, "follower")),
                frozenset())
    assert majority(S(), f) == [0]
    assert majority(S(), Feature("road", (), frozenset(), 0, {}, (), frozenset())) == []


def test_returned_followers_cannot_be_deployed_in_the_same_turn():
    state = new_game("EU")
    state.supply = (0, 7)      # scenario: Alice has every follower out, one of them is...
    # ...the knight of a city this tile completes: put it there by hand
    sid = sid_at(state, (0, 0), "city N")
    fid = state.seg_feature[sid]
    state.features = dict(state.features)
    state.features[fid] = state.features[fid].with_meeples(((0, sid, "follower"),))
    legal = G.legal_moves(state, 0)
    assert legal and not any(m.get("figure") for m in legal)
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 0, G.parse("place 0,-1 r180 farmer NL", state, 0), random.Random(0))
    assert err.value.code == "no_followers_left"
    state, events = play(state, "place 0,-1 r180")
    assert state.scores == (4, 0) and state.supply == (1, 7)
    assert not of_type(events, "FollowerDeployed")


# -- digest worked examples 1-4 as a scripted scenario -------------------------------


def test_worked_examples_1_to_4():
    state = new_game("EUB")
    expected = [("place 0,-1 r180 follower city S", (4, 0)),
                ("place 1,0 r0 farmer NL", (4, 0)),
                ("place 1,-1 r0 follower cloister", (8, 3))]
    for text, scores in expected:
        state, _ = play(state, text)
        assert state.scores == scores, text
    result = G.result(state)
    assert result.scores == (8, 3) and result.placings == (1, 2)
    assert result.detail["by_category"] == {"city": [4, 0], "cloister": [4, 0], "field": [0, 3]}


def test_monastery_field_already_occupied_after_join():
    """Example 3: Alice could not put a farmer in B's field (Bob's field)."""
    state = new_game("EUB")
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "place 1,0 r0 farmer NL")
    legal = G.legal_moves(state, 0)
    on = {m["on"] for m in legal if (m["x"], m["y"], m["rotation"]) == (1, -1, 0) and m.get("figure")}
    assert on == {"cloister"}


# -- draw pile -------------------------------------------------------------------------


def test_unplaceable_tile_is_removed_and_another_drawn():
    state = new_game("ECU")
    state, events = play(state, "place 0,-1 r180")
    assert [(e["type"], e.get("tile")) for e in events if e["type"].startswith("Tile")][1:] == [
        ("TileDrawn", "C"), ("TileDiscarded", "C"), ("TileDrawn", "U")]
    assert state.tile == "U" and state.discarded == ("C",) and G.to_act(state) == {1}
    state, events = play(state, "place 1,0 r0")
    assert events[-1]["type"] == "GameEnded"
    assert G.result(state).detail["tiles_removed"] == ["C"]


def test_unplaceable_tile_reshuffle_option():
    state = new_game("ECU", unplaceable_tile="reshuffle")
    state, events = play(state, "place 0,-1 r180")
    assert [(e["type"], e.get("tile")) for e in events if e["type"].startswith("Tile")][1:] == [
        ("TileDrawn", "C"), ("TileReturned", "C"), ("TileDrawn", "U")]
    assert state.pile == {"C": 1} and state.order == ("C",)
    state, events = play(state, "place 1,0 r0")
    # C still fits nowhere and is the only tile left: the game ends with it in the pile
    assert events[-1]["type"] == "GameEnded" and state.pile == {"C": 1}


def test_random_draws_use_the_whole_pile_and_record_each_draw():
    from pbem.games.playout import play_random
    out = play_random(G, 2, {}, seed=11)
    drawn = [e["tile"] for e in out.events if e["type"] == "TileDrawn"]
    placed = [e["tile"] for e in out.events if e["type"] == "TilePlaced"]
    assert sorted(drawn) == sorted(placed + list(out.state.discarded))
    assert len(placed) + len(out.state.discarded) == 71
    counts = base_pile()
    for letter in set(drawn):
        assert drawn.count(letter) == counts[letter]


def test_draw_order_option_is_checked():
    with pytest.raises(BadOptions):
        G.check_options(2, {"draw_order": ["Z"]})
    with pytest.raises(BadOptions):
        G.check_options(2, {"draw_order": ["C", "C"]})     # only one C
    with pytest.raises(BadOptions):
        G.check_options(2, {"draw_order": ["D"] * 4})      # one D is the start tile
    with pytest.raises(BadOptions):
        G.check_options(2, {"start_player": 2})
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": ["river"]})
    G.check_options(5, {"draw_order": ["D"] * 3, "start_player": 4})


def test_random_start_player_is_an_event():
    seen = set()
    for seed in range(12):
        state = G.start(3, G.check_options(3, {}))
        events = G.setup(state, random.Random(seed))
        assert events[0]["type"] == "StartPlayerChosen"
        seen.add(events[0]["player"])
        assert events[1] == {"type": "TileDrawn", "player": events[0]["player"], "tile": events[1]["tile"]}
    assert seen == {0, 1, 2}


# -- notation, help, views -----------------------------------------------------------------


def test_notation_variants():
    state = new_game("EUB")
    want = {"type": "place_tile", "x": 0, "y": -1, "rotation": 180, "figure": "follower", "on": "city S"}
    for text in ["place 0,-1 r180 follower city S", "  PLACE 0 , -1  R180  FOLLOWER CITY s ",
                 "place 0,-1 r180 knight S", "place (0,-1) rot 180 follower S", "0,-1 180 meeple city S"]:
        assert G.parse(text, state, 0) == want, text
    farmer = G.parse("place 0,-1 r180 farmer WL", state, 0)
    assert farmer["on"] == "field NL"      # any half of the field names it; canonical is the first
    assert G.describe(farmer, 0) == "place 0,-1 r180 farmer NL"
    assert G.parse("place 0,-1 r180", state, 0) == {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}
    assert G.parse("place 0,-1", state, 0)["rotation"] == 180   # the only rotation that fits there
    for bad in ["hello", "place 0,-1 r45", "place 0,-1 r180 dragon", "place 0,-1 r180 follower city Q",
                "place 1,0"]:
        with pytest.raises(ParseError) as err:
            G.parse(bad, state, 0)
        assert err.value.details["expected"] and err.value.details["examples"]
    state2 = new_game("BE")
    assert G.parse("place 0,1 r0 monk", state2, 0)["on"] == "cloister"
    assert G.describe(G.parse("place 0,1 r0 monastery", state2, 0)) == "place 0,1 r0 follower cloister"


def test_placements_are_grouped_for_help_and_default_move_is_canonical():
    state = new_game("UE")
    groups = G.placements(state, 0)
    keys = [k for k, _ in groups]
    assert len(keys) == len(set(keys))
    assert keys == sorted(keys, key=lambda k: (k[1], k[0], k[2]))
    for (x, y, rot), moves in groups:
        assert moves[0] == {"type": "place_tile", "x": x, "y": y, "rotation": rot}
    first = keys[0]
    assert G.default_move(state, 0) == {"type": "place_tile", "x": first[0], "y": first[1], "rotation": first[2]}
    assert G.default_move(state, 1) is None
    text = G.render(state, 0)
    assert "Legal placements" in text and f"\n  place {first[0]},{first[1]} r{first[2]}\n" in text
    assert "Legal placements" not in G.render(state, 1)


def test_event_sentences():
    state = new_game("EU")
    state, events = play(state, "place 0,-1 r180 follower city S")
    text = [G.describe(e) for e in events]
    assert "Seat 0 placed tile E at 0,-1 r180." in text
    assert "Completed city at 0,-1 (city S, 2 tiles): 4 points to seat 0." in text


def test_view_and_snapshot():
    state = new_game("EUB")
    state, _ = play(state, "place 0,-1 r180")
    state, _ = play(state, "place 1,0 r0 farmer NL")
    view = G.view(state, None)
    assert view["followers"] == [{"player": 1, "x": 1, "y": 0, "on": "field NL", "figure": "follower"}]
    assert view["tile"] == "B" and view["to_act"] == [0] and view["tiles_left"] == 0
    dump = json.loads(json.dumps(G.dump(state)))
    again = G.load(dump)
    assert canonical(G.dump(again)) == canonical(G.dump(state))
    assert occupancy_mask(again, (1, -1)) == occupancy_mask(state, (1, -1))
    # the restored state plays on identically
    move = G.parse("place 1,-1 r0 monk", again, 0)
    assert G.decide(again, 0, move, random.Random(3)) == G.decide(state, 0, move, random.Random(3))


def test_evolve_does_not_mutate():
    state = new_game("EUB")
    before = canonical(G.dump(state))
    features = dict(state.features)
    events = G.decide(state, 0, G.parse("place 0,-1 r180 knight S", state, 0), random.Random(0))
    G.apply(state, events)
    assert canonical(G.dump(state)) == before and features == state.features


def test_module_docstring_example_runs():
    import doctest

    import pbem.games.carcassonne as module
    result = doctest.testmod(module)
    assert result.attempted >= 8 and result.failed == 0


def test_an_expansion_plugs_in_without_editing_the_base(monkeypatch):
    """A minimal inn expansion written the way later issues will: new tile
    rows in the digest notation, a scoring override and a step hook."""
    from pbem.games.carcassonne.orient import add_tiles
    from pbem.games.carcassonne.rules import EXPANSIONS, Expansion
    from pbem.games.carcassonne.segments import parse_table

    class Inns(Expansion):
        name = "test_inns"

        def install(self, rules):
            tiles = parse_table("IC15 | 1 | F R F R | – | W–E (inn) | NL NR EL WR / ER SL SR WL |",
                                expansion=self.name)
            add_tiles(tiles)
            rules.pile.update({k: t.count for k, t in tiles.items()})
            road = rules.points["road"]

            def inn_road(state, f, complete):
                if f.marks.get("inn"):
                    return 2 * len(f.tiles) if complete else 0
                return road(state, f, complete)

            rules.points["road"] = inn_road

            def note_turn(turn):
                turn.emit({"type": "InnTurnNoted", "player": turn.player})

            rules.on("end_turn", note_turn)
            rules.evolvers["InnTurnNoted"] = lambda state, event: _noted(state, event)

    def _noted(state, event):
        new = state.copy()
        new.ext = {**state.ext, "test_inns": state.ext.get("test_inns", 0) + 1}
        return new

    monkeypatch.setitem(EXPANSIONS, "test_inns", Inns())
    # completed inn road: 4 tiles x 2
    state = new_game(["IC15", "A", "A"], expansions=["test_inns"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "place 2,0 r90")
    state, events = play(state, "place -1,0 r270")
    (road,) = [e for e in completed(events) if e["feature"] == "road"]
    assert road["points"] == 8 and state.scores == (8, 0)
    assert state.ext == {"test_inns": 3}
    # incomplete inn road at the end: 0
    state = new_game(["IC15", "A"], expansions=["test_inns"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, events = play(state, "place -1,0 r270")
    assert G.result(state).scores == (0, 0)
    assert [e["points"] for e in of_type(events, "FeatureScored")] == [0]


@pytest.mark.parametrize("options", [{}, {"expansions": ["abbey_mayor", "siege", "traders_builders"]}])
def test_one_seat_owes_a_decision_at_a_time_so_moves_are_strict(options):
    """Even the expansions' decisions (abbey round, wagon, escape) are owed
    by one seat at a time: no window, a move stands only where it was signed.
    (The game is a window game only for the Catapult's shots, catapult_mode =
    abstract: tests/games/test_carcassonne_catapult.py.)"""
    from pbem.games.playout import play_random
    assert G.concurrency == "window" and G.concurrency_doc
    for seed in range(3):
        playout = play_random(G, 3, options, seed=seed)
        state = G.start(3, playout.options)
        before = None
        for event in playout.events:
            state = G.evolve(state, event)
            assert len(G.to_act(state)) <= 1 and G.window(state) is None
            if before is not None:
                assert not any(G.concurrent_ok(before, state, seat) for seat in range(3))
            before = state
