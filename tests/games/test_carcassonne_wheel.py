"""The Wheel of Fortune, a house reading (rules digest §3.9, house data in
``expansions/wheel/data.py``): the Wheel board instead of the start tile (below the
City with the Count), the wheel tiles, the pig, each event, the crowns, the Plague as
one window of every seat with its deadline default, and the dragon kept off the Wheel."""
from __future__ import annotations

import random

from pbem.games.carcassonne.expansions.ext_state import with_part
from pbem.games.carcassonne.expansions.princess_dragon import dragon
from pbem.games.carcassonne.expansions.wheel.data import CROWNS, HOUSE, ICON_NUMBERS, SECTORS
from pbem.games.carcassonne.expansions.wheel.wheel import event_points
from pbem.games.carcassonne.orient import TILES
from pbem.games.base import IllegalMove
from pbem.games.i18n import reading

from .carcassonne_support import G, new_game, of_type, play, refused

WOF = ["wheel_of_fortune"]


def test_the_wheel_board_replaces_the_start_tile_and_19_tiles_show_a_number():
    state = new_game(["E"], expansions=WOF)
    view = G.view(state, 0)
    assert [t["tile"] for t in view["board"]] == [f"WB{n}" for n in range(1, 17)]
    assert {(t["x"], t["y"]) for t in view["board"]} == {(x, y) for x in range(-2, 2) for y in range(-2, 2)}
    assert view["wheel"]["pig"] == "fortune" and [s["sector"] for s in view["wheel"]["sectors"]] == list(SECTORS)
    assert sum(len(s["crowns"]) for s in view["wheel"]["sectors"]) == 9
    full = G.start(2, G.check_options(2, {"expansions": WOF}))
    assert sum(full.pile.values()) == 71 and sum(1 for t in full.pile if t in ICON_NUMBERS) == 19
    assert sorted(ICON_NUMBERS.values()).count(1) == 7 and set(ICON_NUMBERS.values()) == {1, 2, 3}
    # the perimeter: 4 cities, 4 roads, 8 fields on the 16 outer sides
    sides = [TILES[f"WB{1 + x}"].edges[0] for x in range(4)] + [TILES[f"WB{4 + 4 * y}"].edges[1] for y in range(4)] \
        + [TILES[f"WB{13 + x}"].edges[2] for x in range(4)] + [TILES[f"WB{1 + 4 * y}"].edges[3] for y in range(4)]
    assert sorted(sides) == sorted("CCCCRRRRFFFFFFFF")


def test_with_the_count_the_wheel_lies_below_the_city_edges_matching():
    state = G.start(2, G.check_options(2, {"expansions": ["count", "wheel_of_fortune"]}))
    for x in range(-2, 2):
        above, below = state.board[(x, 1)][0], state.board[(x, 2)][0]
        assert above.startswith("CO") and below.startswith("WB")
        assert TILES[above].edges[2] == TILES[below].edges[0]


def test_a_wheel_tile_turns_the_pig_and_tax_pays_the_knights():
    # seat 0's knight in an open city of 1 tile: Tax pays it 0 pennants + 1 own knight
    state = new_game(["E", "WFA", "U"], expansions=WOF)
    state, ev = play(state, "place -1,-3 r0 follower city N")      # seat 1 then draws WFA
    turned = of_type(ev, "WheelTurned")
    assert turned == [{"type": "WheelTurned", "player": 1, "tile": "WFA", "number": 1, "previous": "fortune",
                       "sector": "tax"}]
    assert of_type(ev, "WheelEventScored")[0]["points"] == [1, 0] and state.scores == (1, 0)
    assert G.view(state, 0)["wheel"]["tile_number"] == 1 and G.to_act(state) == {1}
    assert "wheel number 1" in G.render(state, 1)
    state, ev = play(state, "place -3,-2 r0 follower cloister")     # the pig does not turn again for this tile
    assert not of_type(ev, "WheelTurned") and G.view(state, 0)["wheel"]["pig"] == "tax"


def test_a_follower_on_a_crown_scores_3_and_goes_home_when_the_pig_lands_there():
    state = new_game(["U", "WFA", "E"], expansions=WOF)
    state, ev = play(state, "place 0,-3 r90")
    state, ev = play(state, "wheel tax")                # seat 1 then draws WFA: the pig on Tax
    assert of_type(ev, "CrownTaken") == [{"type": "CrownTaken", "player": 0, "sector": "tax"}]
    assert of_type(ev, "CrownsScored") == [{"type": "CrownsScored", "sector": "tax", "players": [0], "points": 3}]
    assert state.scores == (3, 0) and state.supply == (7, 7) and state.tally["wheel"] == (3, 0)
    assert G.view(state, 1)["wheel"]["sectors"][1]["crowns"] == [None, None]


def test_a_crown_taken_stays_until_its_sector_comes():
    state = new_game(["U", "E", "E"], expansions=WOF)
    state, ev = play(state, "place 0,-3 r90")
    state, ev = play(state, "wheel plague")
    assert state.supply == (6, 7) and G.view(state, 1)["wheel"]["sectors"][5]["crowns"] == [0]
    assert "seat 0" in G.render(state, 1) or "Plague" in G.render(state, 1)
    state, _ = play(state, "place -1,-3 r0")
    assert {m.get("sector") for m in G.legal_moves(state, 1)} == {None, "tax", "famine", "storm", "inquisition"}


def test_no_crown_on_fortune_and_none_without_a_follower():
    state = new_game(["U", "E"], expansions=WOF)
    state, _ = play(state, "place 0,-3 r90")
    assert {m.get("sector") for m in G.legal_moves(state, 0)} == {None, *[s for s in SECTORS if CROWNS[s]]}
    refused(state, "wheel fortune", "bad_crown")
    empty = state.copy()
    empty.supply = (0, 7)
    assert G.legal_moves(empty, 0) == [{"type": "action", "pass": True}]


def _plague():
    """Seat 0's knight and seat 1's thief; two wheel tiles take the pig to the Plague."""
    state = new_game(["E", "U", "WFB", "WFD", "V"], expansions=WOF)
    state, _ = play(state, "place -1,-3 r0 follower city N")
    state, _ = play(state, "place 1,-3 r0 follower road E")
    state, ev = play(state, "place -3,-2 r0")            # seat 0's WFB: Fortune -> Famine
    assert of_type(ev, "WheelTurned")[0]["sector"] == "famine" if of_type(ev, "WheelTurned") else True
    state, ev = play(state, "pass")                     # seat 1 draws WFD: Famine -> Plague
    assert of_type(ev, "WheelTurned")[0]["sector"] == "plague"
    assert of_type(ev, "PlagueStruck") == [{"type": "PlagueStruck", "players": [1, 0]}]
    return state


def test_the_plague_is_one_window_every_seat_answers():
    state = _plague()
    assert G.to_act(state) == {0, 1} and G.window(state) is not None
    assert G.legal_moves(state, 0) == [{"type": "plague", "x": -1, "y": -3, "on": "city N", "figure": "follower"}]
    before = G.legal_moves(state, 0)
    later, ev = play(state, "plague 1,-3 road E", player=1)
    assert of_type(ev, "FollowerPlagued")[0]["player"] == 1 and later.supply == (6, 7)
    assert G.to_act(later) == {0} and G.window(later) == G.window(state) and G.legal_moves(later, 0) == before
    assert G.concurrent_ok(state, later, 0)
    done, ev = play(later, "plague -1,-3 city N", player=0)
    assert G.to_act(done) == {1} and done.pending == {1: "place_tile"} and done.supply == (7, 7)
    assert G.window(done) is None and not G.concurrent_ok(state, done, 0)
    assert "Plague" in G.describe(of_type(ev, "FollowerPlagued")[0])


def test_the_plague_deadline_default_sends_home_the_follower_on_the_latest_tile():
    state = new_game(["E", "U", "U", "WFB", "WFD", "V"], expansions=WOF)
    state, _ = play(state, "place -1,-3 r0 follower city N")
    state, _ = play(state, "place 1,-3 r0")
    state, _ = play(state, "pass")
    state, _ = play(state, "place 2,-3 r0 follower road E")
    state, _ = play(state, "place -3,-2 r0")             # seat 1's WFB: Famine
    state, ev = play(state, "pass")                      # seat 0 draws WFD: the Plague, seat 0 alone
    assert of_type(ev, "PlagueStruck") == [{"type": "PlagueStruck", "players": [0]}]
    assert G.default_move(state, 0) == {"type": "plague", "x": 2, "y": -3, "on": "road E", "figure": "follower"}


def test_plague_refuses_a_follower_not_yours():
    state = _plague()
    refused_move = G.parse("plague 1,-3 road E", state, 0)
    try:
        G.decide(state, 0, refused_move, random.Random(0))
    except IllegalMove as err:
        assert err.code == "bad_plague"
    else:
        raise AssertionError("seat 0 sent home seat 1's thief")


def test_storm_inquisition_fortune_formulas():
    state = new_game(["B", "E", "U"], expansions=WOF)
    state, _ = play(state, "place -1,-3 r0 follower cloister")          # seat 0's monk
    assert event_points(state, "inquisition", 0) == [2, 0]
    assert event_points(state, "storm", 0) == [6, 7]
    assert event_points(state, "fortune", 1) == [0, 3]
    assert event_points(state, "famine", 0) == [0, 0] and event_points(state, "tax", 0) == [0, 0]


def test_famine_pays_the_majority_farmers_per_completed_city():
    state = new_game(["E", "U"], expansions=WOF)
    state, ev = play(state, "place -2,-3 r180 farmer NL")              # completes WB1's city; a farmer by it
    assert of_type(ev, "FeatureScored")
    assert event_points(state, "famine", 0) == [1, 0]


def test_the_dragon_never_enters_the_wheel():
    state = new_game(["U", "E"], expansions=["wheel_of_fortune", "princess_dragon"])
    state, _ = play(state, "place -1,-3 r0")
    state = with_part(state, "princess_dragon", dragon=[-1, -3], flight={"visited": [[-1, -3]], "steps": 0})
    assert [d for d, _c in dragon.steps_from(state)] == []             # only the Wheel (S) is next to it


def test_notation_in_chinese_and_the_house_reading_named():
    state = new_game(["U", "E"], expansions=WOF)
    state, _ = play(state, "place 0,-3 r90")
    with reading("zh-Hant"):
        assert G.describe({"type": "action", "do": "wheel", "sector": "tax"}) == "命運之輪 稅收"
        assert "命運之輪" in G.describe_setup(G.check_options(2, {"expansions": WOF}))
    assert G.parse("命運之輪 稅收", state, 0) == {"type": "action", "do": "wheel", "sector": "tax"}
    assert G.parse("瘟疫 0,-3 道路 N", state, 0) == {"type": "plague", "x": 0, "y": -3, "on": "road N",
                                                    "figure": "follower"}
    assert "house reading" in G.describe_setup(G.check_options(2, {"expansions": WOF}))
    assert "house reading" in G.render(state, 0)


def test_carcassonne_1_stays_strict_and_knows_no_wheel():
    from pbem import games
    from pbem.games.base import BadOptions
    v1 = next(g for g in games.all_games() if g.key == "carcassonne@1")
    assert v1.concurrency == "strict" and G.concurrency == "window"
    try:
        v1.check_options(2, {"expansions": WOF})
    except BadOptions as err:
        assert err.code == "unknown_expansion"
    else:
        raise AssertionError("carcassonne@1 took the Wheel of Fortune")


def test_moves_with_fields_they_do_not_have_are_refused():
    state = new_game(["U", "E"], expansions=WOF)
    state, _ = play(state, "place 0,-3 r90")
    for move in ({"type": "action", "do": "wheel", "sector": "tax", "0": None},
                 {"type": "action", "do": "wheel"}):
        try:
            G.decide(state, 0, move, random.Random(0))
        except IllegalMove as err:
            assert err.code in ("malformed_move", "bad_crown")
        else:
            raise AssertionError(move)
    plague = _plague()
    try:
        G.decide(plague, 0, {"type": "plague", "x": -1, "y": -3, "on": "city N", "figure": "follower", "extra": 1},
                 random.Random(0))
    except IllegalMove as err:
        assert err.code == "malformed_move"
    else:
        raise AssertionError("an extra field was taken")


# -- wheel_tiles: the set with wheel numbers (icons_only) or the box's own 72 (full_set) --------


def test_wheel_tiles_full_set_is_the_boxs_72_land_tiles_on_house_data():
    from pbem.games.carcassonne.game import full_pile
    icons = full_pile(G.check_options(2, {"expansions": WOF}))
    full = full_pile(G.check_options(2, {"expansions": WOF, "wheel_tiles": "full_set"}))
    assert G.check_options(2, {"expansions": WOF})["wheel_tiles"] == "icons_only"
    assert sum(icons.values()) == 71 and sum(full.values()) == 72
    made = HOUSE["full_set"]
    assert {t: full.get(t, 0) - icons.get(t, 0) for t in set(full) | set(icons) if full.get(t) != icons.get(t)} == {
        **{t: -1 for t in made["left_out"]}, **{t: 1 for t in made["added"]}}
    base = sum(n for t, n in full.items() if len(t) == 1 or t.startswith("WF"))
    assert base == 63 and [sum(1 for t in made["added"] if t.startswith(s)) for s in ("IC", "TB", "KR")] == [6, 1, 2]
    assert sum(1 for t in full if t in ICON_NUMBERS) == 19
    # plain tiles: no mark that needs its own expansion's rules
    assert not {m for t in made["added"] for s in TILES[t].segments for m, _n in s.marks} - {"pennant"}
    # an expansion in play with a tile of the box: one copy more
    both = full_pile(G.check_options(2, {"expansions": [*WOF, "inns_cathedrals"], "wheel_tiles": "full_set"}))
    assert both["IC2"] == 2 and both["IC1"] == 2


def test_wheel_tiles_full_set_scripted_game_draws_the_boxs_tiles():
    """A draw order with the box's King & Scout and Inns & Cathedrals tiles is accepted with
    full_set only, and plays: KR1's monastery scores, IC5 joins its cities; a ninth V
    (icons_only's pile holds 8, the box 7) is refused with full_set."""
    from pbem.games.base import BadOptions
    order = ["KR1", "WFA", "IC5"]
    try:
        new_game(order, expansions=WOF)
    except BadOptions as err:
        assert err.code == "bad_option_value" and "KR1" in str(err)
    else:
        raise AssertionError("icons_only took KR1")
    state = new_game(order, expansions=WOF, wheel_tiles="full_set")
    assert "72 land tiles" in G.describe_setup(state.options)
    legal = [G.describe(m) for m in G.legal_moves(state, 0)]
    assert any(m.endswith("monk") or "cloister" in m or "monastery" in m for m in legal), legal[:20]
    state, ev = play(state, legal[0])
    assert of_type(ev, "TilePlaced")[0]["tile"] == "KR1"
    for letters, ok in ((["V"] * 7, True), (["V"] * 8, False)):
        try:
            new_game(letters, expansions=WOF, wheel_tiles="full_set")
        except BadOptions as err:
            assert not ok and err.code == "bad_option_value"
        else:
            assert ok
    new_game(["V"] * 8, expansions=WOF)                   # icons_only: 9 V less the wheel copy


def test_wheel_tiles_full_set_random_game_plays_to_the_end_in_both_languages():
    from pbem.games.carcassonne.render import render
    rng = random.Random(3)
    state = G.start(2, G.check_options(2, {"expansions": WOF, "wheel_tiles": "full_set", "start_player": 0}))
    state = G.apply(state, G.setup(state, rng))
    drawn = set()
    while not state.over:
        (player, *_rest) = sorted(G.to_act(state))
        drawn.add(state.tile)
        legal = G.legal_moves(state, player)
        state = G.apply(state, G.decide(state, player, rng.choice(legal), rng))
    assert {"KR1", "IC3"} & drawn and sum(state.pile.values()) == 0
    with reading("zh-Hant"):
        assert "命運之輪" in G.describe_setup(state.options) and render(state, 0)
