"""Carcassonne, The Tunnel (digest §3.12): tile data, the tokens by player count, the
decision ``tunnel`` (after the figure phases, before step 6), joining two roads
underground and scoring only the visible tiles, the refusals, both options, snapshots,
the notation in both languages, the text board and the picture."""
from __future__ import annotations

import random
import re

import pytest

from pbem.games.base import IllegalMove
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.expansions.tunnel.tiles import TU_TILES, tunnel_pile
from pbem.games.carcassonne.expansions.tunnel.tokens import colours_of, mouths
from pbem.games.carcassonne.orient import TILES
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.i18n import CHINESE, PSEUDO, reading
from tests.pseudo_support import leftover_english, notation_words

from . import carcassonne_support as support
from .carcassonne_support import G, completed, of_type, play, refused

TU = ["tunnel"]


def new_game(order, players=2, expansions=TU, **options):
    return support.new_game(order, players, 0, expansions, **options)


def road_of(state, x, y, label):
    from pbem.games.carcassonne.features import sid_at
    return state.feature_of(sid_at(state, (x, y), label))


def _two_mouths_open():
    """Seat 0's thief on the road D-TU2 (west mouth red), closed at a monastery in the
    west; TU2's east road closed at a monastery: both roads open only at their mouths."""
    state = new_game(["TU2", "A", "A", "E", "E"])
    state, ev = play(state, "place 1,0 r0 thief W")
    assert of_type(ev, "TunnelOffered") and state.pending == {0: "tunnel"}
    state, _ = play(state, "tunnel 1,0 road W red")
    state, _ = play(state, "place -1,0 r270")          # A: its road east meets D's west end
    state, _ = play(state, "no tunnel")
    return state


# -- tiles ------------------------------------------------------------------------------------


def test_four_tunnel_tiles_with_ten_mouths():
    assert list(TU_TILES) == ["TU1", "TU2", "TU3", "TU4"]
    assert all(TILES[k] == t and t.count == 1 and t.expansion == "tunnel" for k, t in TU_TILES.items())
    assert [t.edges for t in TU_TILES.values()] == ["CRRR", "CRFR", "FRRF", "RRRR"]
    per_tile = [sum(s.mark("tunnel") for s in t.segments) for t in TU_TILES.values()]
    assert per_tile == [3, 2, 2, 3]
    assert rules_for(TU).pile == {**base_pile(), **tunnel_pile()} and sum(rules_for(TU).pile.values()) == 75


def test_a_mouth_is_an_open_end_until_its_pair_is_placed():
    state = _two_mouths_open()
    west = road_of(state, 0, 0, "road W")
    assert sorted(west.tiles) == [(-1, 0), (0, 0), (1, 0)] and west.open == 1   # the red token is unpaired
    east = road_of(state, 1, 0, "road E")
    assert east.tiles == {(1, 0)} and east.open == 2                             # its edge and its free mouth


# -- the tokens ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players,each", [(2, 3), (3, 2), (4, 1), (5, 1), (6, 1)])
def test_tokens_by_player_count(players, each):
    owned = [colours_of(players, p) for p in range(players)]
    assert all(len(c) == each for c in owned)
    flat = [c for cs in owned for c in cs]
    assert len(flat) == len(set(flat)) == min(6, players * each)
    expansions = TU + (["inns_cathedrals"] if players == 6 else [])
    view = G.view(new_game(["E"], players=players, expansions=expansions))
    assert [sum(s.values()) for s in view["tunnel"]["supply"]] == [2 * each] * players


def test_the_decision_comes_after_the_figure_and_before_step_6_with_pass_the_default():
    state = new_game(["TU2", "A"])
    state, ev = play(state, "place 1,0 r0 thief W")
    assert [e["type"] for e in ev] == ["TilePlaced", "FollowerDeployed", "TunnelOffered"]
    legal = G.legal_moves(state, 0)
    assert legal[0] == {"type": "tunnel", "pass": True}
    assert {(m["on"], m["colour"]) for m in legal[1:]} == {(on, c) for on in ("road E", "road W")
                                                             for c in ("red", "green", "black")}
    assert G.default_move(state, 0) == {"type": "tunnel", "pass": True}
    state, ev = play(state, "pass")
    assert [e["type"] for e in ev][:2] == ["TunnelDeclined", "TileDrawn"] and state.active == 1


def test_one_token_a_turn_with_the_builders_extra_tile():
    """Seat 0's builder on its road: the tile extending the road brings the extra tile; a
    token placed with the first tile leaves none for the extra tile (one a turn). The
    decision does not make the builder trigger in the turn it is placed."""
    state = new_game(["TU2", "E", "U", "E", "U", "E", "E"], expansions=TU + ["traders_builders"])
    state, _ = play(state, "place 1,0 r0 thief W")
    state, _ = play(state, "no tunnel")
    state, _ = play(state, "place 0,-1 r180")
    state, _ = play(state, "no tunnel")
    state, _ = play(state, "place -1,0 r0 builder road E")
    state, ev = play(state, "no tunnel")
    assert not of_type(ev, "BuilderTriggered") and state.active == 1
    state, _ = play(state, "place 1,-1 r180")
    state, _ = play(state, "no tunnel")
    state, ev = play(state, "place -2,0 r0")           # extends the builder's road
    assert of_type(ev, "TunnelOffered")
    state, ev = play(state, "tunnel 1,0 road E red")
    assert of_type(ev, "BuilderTriggered") and state.active == 0
    state, ev = play(state, "place 0,1 r180")          # the extra tile: the same turn, no token
    assert not of_type(ev, "TunnelOffered") and state.active == 1


def test_no_decision_without_a_free_mouth():
    state = new_game(["E", "E"])
    state, ev = play(state, "place 0,-1 r180")
    assert not of_type(ev, "TunnelOffered") and state.active == 1


def test_the_second_token_joins_the_roads_and_only_visible_tiles_score():
    state = _two_mouths_open()
    state, _ = play(state, "place 2,0 r90")            # A: its road west closes TU2's east road
    assert road_of(state, 2, 0, "road W").open == 1   # open at its free mouth only
    state, ev = play(state, "tunnel 1,0 road E red")
    (placed,) = of_type(ev, "TunnelTokenPlaced")
    assert placed["joins"] == [1, 0, "road W"]
    (road,) = [e for e in completed(ev) if e["feature"] == "road"]
    # -1,0 0,0 1,0 2,0: TU2 is crossed twice (above and through the tunnel) and counts once
    assert (road["tiles"], road["points"], road["winners"]) == (4, 4, [0])
    assert of_type(ev, "FollowersReturned")[0]["followers"] == [
        {"player": 0, "figure": "follower", "x": 1, "y": 0, "on": "road W"}]
    assert "joins road W at 1,0 underground" in G.describe(placed)
    assert G.view(state)["tunnel"]["supply"][0] == {"red": 0, "green": 2, "black": 2}   # 2 a colour


def test_a_road_the_tunnel_completes_away_from_the_new_tile_scores_in_step_8():
    state = _two_mouths_open()
    state, _ = play(state, "place 2,0 r90")
    state, _ = play(state, "no tunnel")
    state, _ = play(state, "place 0,-1 r180")          # seat 1: a city elsewhere
    state, _ = play(state, "no tunnel")
    state, ev = play(state, "place 1,-1 r180")         # seat 0: a city, away from the road
    state, ev = play(state, "tunnel 1,0 road E red")
    (road,) = [e for e in completed(ev) if e["feature"] == "road"]
    assert (road["points"], road["winners"]) == (4, [0])
    assert state.supply[0] == 7


def test_refusals_change_nothing():
    state = new_game(["TU2", "A"])
    state, _ = play(state, "place 1,0 r0 thief W")
    before = G.dump(state)
    refused(state, "tunnel 1,0 road W blue", "no_tunnel_token_left")      # seat 1's colour
    refused(state, "tunnel 0,0 road W red", "bad_tunnel")                 # not a mouth
    refused(state, "tunnel 5,5 road W red", "bad_segment")
    for bad in ({"type": "tunnel", "x": 1, "y": 0}, {"type": "tunnel", "pass": 1},
                {"type": "tunnel", "x": 1, "y": 0, "on": "road W", "colour": "pink"}):
        with pytest.raises(IllegalMove):
            G.decide(state, 0, bad, random.Random(0))
    assert G.dump(state) == before
    state, _ = play(state, "tunnel 1,0 road W red")
    state, _ = play(state, "place -1,0 r270")
    refused(state, "tunnel 1,0 road W blue", "bad_tunnel")                # claimed already
    refused(state, "place 2,0 r0", "not_now")


# -- options ---------------------------------------------------------------------------------------


def test_claim_requires_follower():
    state = new_game(["TU2", "A", "E"], tunnel_claim_requires_follower=True)
    state, _ = play(state, "place 1,0 r0 thief W")
    assert {m.get("on") for m in G.legal_moves(state, 0)} == {None, "road W"}
    refused(state, "tunnel 1,0 road E red", "bad_tunnel")
    state, _ = play(state, "tunnel 1,0 road W red")
    state, ev = play(state, "place -1,0 r270")         # seat 1 has no figure on a road with a mouth
    assert not of_type(ev, "TunnelOffered") and state.active == 0


def test_other_expansions_underpasses_become_two_mouths():
    state = new_game(["PD25", "AM12"], expansions=TU + ["princess_dragon", "abbey_mayor"],
                     tunnel_other_expansions=True, dragon_tiles_before_volcano="no_effect")
    assert state.tile == "PD25T" and "PD25" not in state.pile and state.pile.get("AM12T") == 1
    state, _ = play(state, "place 0,-1 r90")           # PD25 turned: the road runs W-E above D
    assert mouths(state) == [[0, -1, "road E"], [0, -1, "road W"]]
    assert road_of(state, 0, -1, "road E").open == 2
    plain = new_game(["PD25"], expansions=TU + ["princess_dragon"], dragon_tiles_before_volcano="no_effect")
    assert plain.tile == "PD25"


# -- snapshots, notation, text, picture ---------------------------------------------------------------


def _features(state):
    return sorted((f.kind, f.open, tuple(sorted(f.tiles)), f.meeples) for f in state.features.values()
                  if f.kind == "road")


def test_a_snapshot_holds_the_joined_roads():
    state = new_game(["TU2", "A", "E", "E"])
    state, _ = play(state, "place 1,0 r0 thief W")
    state, _ = play(state, "tunnel 1,0 road W red")
    state, _ = play(state, "place 2,0 r90 thief W")    # seat 1's thief on TU2's east road
    state, _ = play(state, "no tunnel")
    state, _ = play(state, "place 0,-1 r180")
    state, ev = play(state, "tunnel 1,0 road E red")
    road = road_of(state, 1, 0, "road E")
    assert road is road_of(state, 0, 0, "road W") and road.open == 1          # open at D's west end
    assert [p for p, _sid, _f in road.meeples] == [0, 1]
    loaded = G.load(G.dump(state))
    assert _features(loaded) == _features(state)
    assert G.legal_moves(loaded, 1) == G.legal_moves(state, 1) and G.view(loaded) == G.view(state)
    state, ev = play(state, "place 1,-1 r180")         # the last tile: the final scoring
    (road,) = [e for e in of_type(ev, "FeatureScored") if e["feature"] == "road"]
    assert (road["complete"], road["tiles"], road["points"], road["winners"]) == (False, 3, 3, [0, 1])


def test_notation_in_both_languages():
    state = new_game(["TU2", "A"])
    state, _ = play(state, "place 1,0 r0")
    move = {"type": "tunnel", "x": 1, "y": 0, "on": "road W", "colour": "green"}
    assert G.parse("tunnel 1,0 road W green", state, 0) == move
    assert G.parse("tunnel 1,0 W green", state, 0) == move
    assert G.parse("隧道 1,0 道路 W 綠色", state, 0) == move
    assert G.parse("隧道1,0道路W綠", state, 0) == move
    assert G.parse("不放隧道", state, 0) == {"type": "tunnel", "pass": True}
    with reading(CHINESE):
        assert G.describe(move) == "隧道 1,0 道路 W 綠色"
        assert G.describe({"type": "tunnel", "pass": True}) == "不放隧道"
    with pytest.raises(Exception) as err:
        G.parse("tunnel 1,0 road W", state, 0)
    assert err.value.code == "bad_tunnel"


def test_the_text_board_shows_the_tokens_by_colour_in_both_languages():
    state = _two_mouths_open()
    text = G.render(state, 0)
    assert "Tunnel tokens in supply: seat 0 red 1, green 2, black 2" in text
    assert "Tunnel tokens on the board: red on road W at 1,0" in text
    with reading(CHINESE):
        zh = G.render(state, 0)
    assert "紅色：1,0 的道路 W" in zh
    with reading(PSEUDO):
        pseudo = G.render(state, 0)
        moves = [G.describe(m) for m in G.legal_moves(state, 0)]
    assert "⟦" in pseudo and not leftover_english(pseudo, moves, notation_words(moves))


def test_the_text_board_draws_each_token_at_its_mouth_by_colour_with_a_legend():
    """TU2 at 1,0: the red token at its west mouth (the thief stands on the mouth's inner
    cell, so the token takes the edge cell), ``~`` at the free east mouth; the key and the
    legend name the letters, in both languages. A green token on the east mouth then
    shows as E; a free mouth on a north-south road (TU4's south) as ``~``, and so does the
    tile to place."""
    state = _two_mouths_open()
    text = G.render(state, 0)
    assert "R0o~-" in text.splitlines()[6]
    assert "~ a tunnel mouth" in text and "R B E Y K A tunnel tokens by colour" in text
    legend = ("Tunnel tokens on the text board: R red, E green, K black (seat 0); B blue, Y yellow, A grey "
              "(seat 1); ~ a free mouth")
    assert legend in " ".join(line.replace("      ... ", "") for line in text.splitlines())
    with reading(CHINESE):
        zh = G.render(state, 0)
    assert "R0o~-" in zh and "~ 隧道口" in zh and "R 紅色、E 綠色、K 黑色（座位0）" in zh
    with reading(PSEUDO):
        pseudo = G.render(state, 0)
        moves = [G.describe(m) for m in G.legal_moves(state, 0)]
    assert not leftover_english(pseudo, moves, notation_words(moves))
    state, _ = play(state, "place 2,0 r90")             # A, its road W to TU2's east
    state, _ = play(state, "tunnel 1,0 road E green")
    assert "R0oE-" in G.render(state, 0).splitlines()[6]
    state = new_game(["TU4", "A"])
    state, _ = play(state, "place -1,0 r0")              # TU4 west of D: mouths E, S, W free
    rows = G.render(state, 1).splitlines()
    assert rows[2:5] == ["     ..|.. .###.", "   0>-~o~-<-----", "     ..~.. ....."]
    # the tile to place shows its mouths too, each way round
    state = new_game(["E", "TU2"])
    state, _ = play(state, "place 0,-1 r180")
    rows = G.render(state, 0).splitlines()
    i = rows.index("   r0    r90  r180  r270 ")
    assert rows[i + 1:i + 4] == ["  .###. ..~.. ..... ..~..", "  -~o~- ..o.# -~o~- #.o..",
                                 "  ..... ..~.. .###. ..~.."]


def test_the_picture_shows_the_tokens_by_colour_and_rings_the_free_mouths():
    from pbem import pictures
    from pbem.pictures.carcassonne.touch import touch
    from pbem.pictures.raster import png
    state = _two_mouths_open()
    state, _ = play(state, "place 2,0 r90")
    legal = G.legal_moves(state, 0)
    svg = pictures.svg("carcassonne", G.view(state, 0), viewer=0, legal=legal)
    assert png(svg).startswith(b"\x89PNG")
    assert 'data-figure="tunnel token"' in svg and "#d62728" in svg            # the red token
    assert re.search(r'data-pick="seg:1,0:road E"', svg)                        # the free mouth, ringed
    t = touch(G.view(state, 0), [{"move": m, "text": G.describe(m)} for m in legal], 0, None)
    # one mouth free on that tile: touching the tile, then the colour
    assert t["paths"] == [["pass"], ["cell:1,0", "colour:red"], ["cell:1,0", "colour:green"],
                          ["cell:1,0", "colour:black"]]
    assert "colour:green" in t["offboard"]
    with reading(CHINESE):
        zh = pictures.svg("carcassonne", G.view(state, 0), viewer=0, legal=legal)
    assert "隧道圓片" in zh and ">紅<" in zh
