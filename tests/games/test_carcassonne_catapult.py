"""Carcassonne, the Catapult (digest §3.10, step 9.2): the 12 fair tiles on
house geometry (a fair ends roads, a wagon never passes it), catapult_mode
tiles_only and abstract (the active seat's choice, every seat's secret shot
in one window, resolved from the active seat), the secrecy of the shots
(view, events, moves, the re-deal), the notation in both languages and the
deadline's defaults."""
from __future__ import annotations

import random

import pytest

from pbem.games.base import OMNISCIENT, SPECTATOR, IllegalMove, canonical
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.expansions.abbey_mayor.wagon import _meets
from pbem.games.carcassonne.expansions.catapult.tiles import CA_TILES
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.i18n import reading

from . import carcassonne_support as support
from .carcassonne_support import G, of_type, play

CA = ["catapult"]


def new_game(order, players=2, start=0, mode="abstract", expansions=CA, **options):
    return support.new_game(order, players, start, expansions, catapult_mode=mode, **options)


def act(state, player, text):
    move = G.parse(text, state, player)
    events = G.decide(state, player, move, random.Random(0))
    return G.apply(state, events), events


def thief_then_fair(order=("U", "CA1", "E", "E"), **kw):
    """Seat 0's thief on the road east of the start tile, then seat 1's fair
    tile south of the start: the round opens for seat 1."""
    state = new_game(list(order), **kw)
    state, _ = play(state, "place 1,0 r0 thief road E")
    state, ev = play(state, "place 0,1 r0")
    return state, ev


# -- tiles ---------------------------------------------------------------------------------


def test_twelve_fair_tiles_on_house_geometry():
    assert list(CA_TILES) == [f"CA{n}" for n in range(1, 13)]
    assert all(t.count == 1 and t.expansion == "catapult" and "fair" in t.tags for t in CA_TILES.values())
    assert all(TILES[k] == t for k, t in CA_TILES.items())
    assert rules_for(CA).pile == {**base_pile(), **{k: 1 for k in CA_TILES}}
    # every road on a fair tile ends at the fair: one edge per road segment
    roads = [s for t in CA_TILES.values() for s in t.segments if s.kind == "road"]
    assert roads and all(len(s.ports) == 1 for s in roads)


def test_the_fair_ends_roads():
    """A road from the start tile runs into the fair of CA3 at one end and of CA2 at
    the other: complete, 3 tiles, 3 points."""
    state = new_game(["CA3", "CA2", "E"], mode="tiles_only")
    state, _ = play(state, "place 1,0 r90")
    state, ev = play(state, "place -1,0 r270 thief road E")
    (scored,) = support.completed(ev)
    assert (scored["feature"], scored["tiles"], scored["points"], scored["winners"]) == ("road", 3, 3, [1])


def test_a_wagon_never_passes_a_fair():
    """Wagon along_road: a road end on a fair tile meets nothing (on the base
    crossroads X a road end meets the other three)."""
    for letter, t in CA_TILES.items():
        o = oriented(letter, 0)
        for k, s in enumerate(t.segments):
            if s.kind == "road":
                assert _meets(None, None, o, k) == [], letter
    x = oriented("X", 0)
    assert len(_meets(None, None, x, 0)) == 3


# -- the round -------------------------------------------------------------------------------


def test_tiles_only_holds_no_round():
    state, ev = thief_then_fair(mode="tiles_only")
    assert not [e for e in ev if e["type"].startswith(("Catapult", "Shot"))]
    assert G.to_act(state) == {0} and state.tile == "E"


def test_knock_out_sends_the_follower_home():
    state, ev = thief_then_fair()
    (rnd,) = of_type(ev, "CatapultRound")
    assert (rnd["x"], rnd["y"], rnd["held"], rnd["player"]) == (0, 1, True, 1)
    assert G.to_act(state) == {1} and G.window(state) is None
    state, ev = act(state, 1, "catapult knockout")
    assert G.to_act(state) == {0, 1}
    window = G.window(state)
    assert window is not None
    targets = G.view(state, 0)["catapult"]["targets"]
    assert targets == [{"player": 0, "figure": "follower", "x": 1, "y": 0, "on": "road E"}]
    # knock-out may name one's own follower
    assert {"type": "shot", "x": 1, "y": 0, "on": "road E"} in G.legal_moves(state, 0)
    before = state
    state, ev = act(state, 1, "shoot 1,0 road E")
    assert G.window(state) == window and G.concurrent_ok(before, state, 0)
    assert G.to_act(state) == {0}
    state, ev = act(state, 0, "no shot")
    assert G.window(state) is None and not G.concurrent_ok(before, state, 0)
    (shown,) = of_type(ev, "ShotsRevealed")
    # resolved from the active seat (1) on
    assert shown["shots"] == [{"player": 1, "x": 1, "y": 0, "on": "road E"}, {"player": 0, "pass": True}]
    (ko,) = of_type(ev, "CatapultKnockOut")
    assert ko["player"] == 1 and ko["followers"] == [{"player": 0, "figure": "follower", "x": 1, "y": 0,
                                                      "on": "road E"}]
    assert state.supply == (7, 7) and not G.view(state)["followers"]
    assert G.view(state)["catapult"] is None
    assert G.to_act(state) == {0} and state.tile == "E"       # the next turn


def test_seduction_swaps_in_the_shooters_follower():
    state, _ = thief_then_fair()
    state, _ = act(state, 1, "catapult seduction")
    # seduction names another seat's follower only
    assert G.legal_moves(state, 0) == [{"type": "shot", "pass": True}]
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 0, {"type": "shot", "x": 1, "y": 0, "on": "road E"}, random.Random(0))
    assert err.value.code == "not_a_target"
    state, _ = act(state, 0, "pass")
    state, ev = act(state, 1, "shoot 1,0 road E")
    (sed,) = of_type(ev, "CatapultSeduced")
    assert sed["player"] == 1
    assert G.view(state)["followers"] == [{"player": 1, "x": 1, "y": 0, "on": "road E", "figure": "follower"}]
    assert state.supply == (7, 6)


def test_a_second_shot_at_a_follower_gone_does_nothing():
    state, _ = thief_then_fair()
    state, _ = act(state, 1, "catapult knockout")
    state, _ = act(state, 0, "shoot 1,0 road E")
    state, ev = act(state, 1, "shoot 1,0 road E")
    assert [e["type"] for e in ev[:5]] == ["ShotAimed", "ShotsRevealed", "CatapultKnockOut", "ShotWasted",
                                           "CatapultRoundEnded"]
    assert of_type(ev, "CatapultKnockOut")[0]["player"] == 1        # the active seat's shot first
    assert of_type(ev, "ShotWasted")[0]["player"] == 0


def test_reach_is_two_tiles_and_no_follower_no_round():
    # the thief 3 tiles east of the fair at 0,1 is out of reach: no round
    state = new_game(["U", "U", "U", "CA1", "E"])
    state, _ = play(state, "place 1,0 r0")
    state, _ = play(state, "place 2,0 r0")
    state, _ = play(state, "place 3,0 r0 thief road E")
    state, ev = play(state, "place 0,1 r0")
    assert "....^" in G.render(state)                          # the fair on the text board
    (rnd,) = of_type(ev, "CatapultRound")
    assert rnd["held"] is False and G.to_act(state) == {0} and state.tile == "E"


# -- secrecy -----------------------------------------------------------------------------------


def test_a_shot_is_secret_until_all_are_in():
    state, _ = thief_then_fair(players=3, order=("U", "CA1", "E", "E"))
    state, _ = act(state, 1, "catapult knockout")
    assert G.to_act(state) == {0, 1, 2}
    state, ev = act(state, 2, "shoot 1,0 road E")
    (aimed,) = ev
    assert aimed["to"] == [2] and aimed["secret"] == {"x": 1, "y": 0, "on": "road E"}
    for viewer in (0, 1, SPECTATOR):
        seen = G.redact(aimed, viewer)
        assert "secret" not in seen and "to" not in seen
        assert "1,0" not in G.describe(seen, viewer)
        assert "my_shot" not in (G.view(state, viewer)["catapult"] or {})
        move = {"type": "shot", "x": 1, "y": 0, "on": "road E"}
        assert G.redact_move(move, 2, viewer, ev) is None and G.redact_move(move, 2, viewer, None) is None
    assert G.redact_move({"type": "shot", "pass": True}, 2, 0) is None
    assert G.redact_move({"type": "catapult", "kind": "knockout"}, 1, 0) is not None
    assert G.view(state, 2)["catapult"]["my_shot"] == {"x": 1, "y": 0, "on": "road E"}
    assert "1,0" in G.describe(G.redact(aimed, 2), 2)
    assert G.view(state, 0)["catapult"]["shot"] == [2] and G.view(state, 0)["catapult"]["to_shoot"] == [0, 1]
    # the re-deal: seat 2's shot drawn again; seat 0 sees the same view, board and moves
    rng = random.Random(3)
    redealt = [G.resample(state, 0, rng) for _ in range(8)]
    assert any(canonical(G.dump(r)) != canonical(G.dump(state)) for r in redealt)
    for other in redealt:
        assert canonical(G.view(other, 0)) == canonical(G.view(state, 0))
        assert G.render(other, 0) == G.render(state, 0)
        assert G.legal_moves(other, 0) == G.legal_moves(state, 0)
    assert G.resample(state, 2, rng).ext["catapult"]["round"]["shots"]["2"] == {"x": 1, "y": 0, "on": "road E"}


# -- notation and defaults --------------------------------------------------------------------


def test_notation_in_english_and_chinese():
    state, _ = thief_then_fair()
    assert G.parse("攻城車 擊倒", state, 1) == {"type": "catapult", "kind": "knockout"}
    assert G.parse("catapult seduction", state, 1) == {"type": "catapult", "kind": "seduction"}
    state, _ = act(state, 1, "攻城車擊倒")
    assert G.parse("發射 1,0 道路 E", state, 0) == {"type": "shot", "x": 1, "y": 0, "on": "road E"}
    assert G.parse("不發射", state, 0) == {"type": "shot", "pass": True}
    with reading("zh-Hant"):
        assert G.describe({"type": "shot", "x": 1, "y": 0, "on": "road E"}) == "發射 1,0 道路 E"
        assert G.describe({"type": "catapult", "kind": "seduction"}) == "攻城車 誘拐"
        board = G.render(state, 0)
        assert "攻城車" in board and "不發射" in board
    assert G.describe({"type": "shot", "pass": True}) == "no shot"
    assert "shoot X,Y road E" in G.notation_help_for({"expansions": CA})


def test_deadline_defaults():
    state, _ = thief_then_fair()
    assert G.default_move(state, 1) == {"type": "catapult", "kind": "knockout"}
    state, _ = act(state, 1, "catapult knockout")
    assert G.default_move(state, 0) == {"type": "shot", "pass": True}
    assert G.default_move(state, 1) == {"type": "shot", "pass": True}


def test_the_builders_extra_tile_waits_for_the_round():
    """A fair tile that extends seat 0's builder's road: the round comes first
    (step 9.2), then seat 0's extra tile (9.3)."""
    state = new_game(["U", "E", "U", "E", "CA2", "E", "E"], expansions=["catapult", "traders_builders"])
    for text in ("place 1,0 r0 thief road E", "place 0,-1 r180", "place 2,0 r0 builder road E",
                 "place 1,-1 r0"):
        state, _ = play(state, text)
    state, ev = play(state, "place 3,0 r90")
    assert of_type(ev, "CatapultRound")[0]["held"] and not of_type(ev, "BuilderTriggered")
    state, _ = act(state, 0, "catapult seduction")
    state, _ = act(state, 0, "no shot")
    state, ev = act(state, 1, "shoot 1,0 road E")
    assert of_type(ev, "CatapultSeduced") and of_type(ev, "BuilderTriggered")
    # seat 1's knight-thief now holds the road; seat 0's builder, with no follower of
    # its own there, goes home; seat 0 still plays its extra tile
    assert G.to_act(state) == {0} and state.active == 0 and state.tile == "E"
    figures = {(f["player"], f["figure"]) for f in G.view(state)["followers"]}
    assert (1, "follower") in figures and (0, "builder") not in figures


def test_a_follower_on_a_tower_is_exempt():
    """Digest §3.10: followers on towers are exempt. Seat 1 builds a floor on TO1 (seat 0's
    farmer beside it), seat 0 closes the tower with a follower on top; seat 1's fair tile
    two tiles south holds a round whose only target is the farmer, not the follower on
    the tower's top standing on the same tile."""
    state = new_game(["TO1", "TO2", "E", "CA1", "E"], expansions=["catapult", "tower"])
    for text in ("place 0,-1 r180 farmer NL", "place 1,-1 r0", "tower 0,-1", "capture none", "place 2,-1 r0",
                 "tower 0,-1 top"):
        state, ev = play(state, text)
    assert G.view(state, 1)["tower"]["towers"][0]["top"] == {"player": 0, "figure": "follower"}
    state, _ = play(state, "place 0,1 r0")             # CA1, the fair: 2 tiles from the tower
    state, ev = play(state, "pass")
    assert of_type(ev, "CatapultRound")[0]["held"]
    state, _ = play(state, "catapult knockout")
    assert G.view(state, 1)["catapult"]["targets"] == [{"player": 0, "figure": "follower", "x": 0, "y": -1,
                                                        "on": "field NL"}]
    assert G.legal_moves(state, 1) == [{"type": "shot", "pass": True},
                                       {"type": "shot", "x": 0, "y": -1, "on": "field NL"}]


def test_a_knight_on_a_castle_is_exempt():
    """Digest §3.10: followers on castles are exempt. Seat 0's knight closes the start
    tile's city and makes it a castle; seat 1's fair tile south of the start, with its own
    farmer, holds a round whose only target is that farmer."""
    state = new_game(["E", "CA1", "E"], expansions=["catapult", "bridges_castles_bazaars"])
    state, ev = play(state, "place 0,-1 r180 follower city S")
    assert of_type(ev, "CastleOffered")
    state, ev = play(state, "castle 0,-1 city S")
    assert of_type(ev, "CastleBuilt") and G.view(state, 1)["followers"][0]["player"] == 0
    state, ev = play(state, "place 0,1 r0 farmer NL")  # the knight is 1 and 2 tiles away
    assert of_type(ev, "CatapultRound")[0]["held"]
    state, _ = play(state, "catapult knockout")
    assert G.view(state, 0)["catapult"]["targets"] == [{"player": 1, "figure": "follower", "x": 0, "y": 1,
                                                        "on": "field NL"}]
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 0, {"type": "shot", "x": 0, "y": -1, "on": "city S"}, random.Random(0))
    assert err.value.code == "not_a_target"
