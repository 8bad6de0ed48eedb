"""Carcassonne, Cult (digest §3.11, shrines): tile data and the two sets,
shrines scored like monasteries, the placement restriction, the challenge
(the digest's example), notation, and the expansion with the others."""
from __future__ import annotations

import json

import pytest

from pbem.games.base import BadOptions, canonical
from pbem.games.carcassonne.base_rules import placeable, rules_for
from pbem.games.carcassonne.expansions.cult import cloister_kind
from pbem.games.carcassonne.expansions.cult_tiles import CU_TILES, cult_pile
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.playout import play_random

from . import carcassonne_support as support
from .carcassonne_support import G, play, refused, of_type


CU = ["cult"]
ALL = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege"]


def new_game(order, players=2, start=0, expansions=None, **options):
    """A scripted game with CU unless other ``expansions`` are named."""
    return support.new_game(order, players, start, CU if expansions is None else expansions, **options)


# -- tile data -----------------------------------------------------------------------


def test_six_shrine_tiles_and_the_five_tile_set():
    assert list(CU_TILES) == [f"CU{i}" for i in range(1, 7)]
    assert all(t.count == 1 and t.expansion == "cult" for t in CU_TILES.values())
    assert all(TILES[l] == t for l, t in CU_TILES.items())
    assert all(cloister_kind(l) == "shrine" for l in CU_TILES)
    assert cloister_kind("B") == cloister_kind("A") == "monastery" and cloister_kind("E") is None
    assert sum(rules_for(CU).pile.values()) == 71 + 6
    assert rules_for(CU).pile == {**base_pile(), **cult_pile(6)}
    assert set(cult_pile(5)) == {"CU1", "CU2", "CU3", "CU4", "CU5"}
    state = G.start(2, G.check_options(2, {"expansions": CU, "cult_set": 5}))
    assert "CU6" not in state.pile and sum(state.pile.values()) == 71 + 5
    state = G.start(2, G.check_options(2, {"expansions": CU}))
    assert "CU6" in state.pile and sum(state.pile.values()) == 71 + 6
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": CU, "cult_set": 5, "draw_order": ["CU6"]})
    with pytest.raises(BadOptions):
        G.check_options(2, {"expansions": CU, "cult_set": 4})


def test_shrine_tiles_spot_checked():
    assert [t.edges for t in CU_TILES.values()] == ["FFFF", "CFFF", "FFRF", "CFRF", "RFRF", "CRFR"]
    for letter in CU_TILES:
        o = oriented(letter, 0)
        assert o.cloister >= 0 and "cloister" in o.labels
    cu5 = oriented("CU5", 0)
    assert cu5.kinds.count("road") == 2 and cu5.label_index["road N"] != cu5.label_index["road S"]
    cu6 = oriented("CU6", 0)
    assert cu6.kinds.count("road") == 2 and cu6.label_index["road E"] != cu6.label_index["road W"]
    assert oriented("CU1", 0).kinds == ("cloister", "field")


# -- scoring like a monastery --------------------------------------------------------------


def test_incomplete_shrine_scores_like_a_monastery_and_heretic_notation():
    state = new_game(["CU1"])
    move = G.parse("place 0,1 r0 heretic", state, 0)
    assert move == {"type": "place_tile", "x": 0, "y": 1, "rotation": 0, "figure": "follower",
                    "on": "cloister"}
    assert G.parse("place 0,1 r0 follower shrine", state, 0) == move
    assert G.parse("place 0,1 r0 shrine", state, 0) == move
    assert G.parse(G.describe(move), state, 0) == move
    state, ev = play(state, "place 0,1 r0 heretic")
    (scored,) = of_type(ev, "FeatureScored")
    assert (scored["feature"], scored["points"], scored["winners"], scored["complete"]) == (
        "cloister", 2, [0], False)


# -- the placement restriction ---------------------------------------------------------------


def test_a_shrine_may_not_have_two_monasteries_around_it():
    state = new_game(["U", "U", "B", "B", "CU1", "CU2"])
    for text in ["place -1,0 r0", "place 1,0 r0", "place -1,1 r0", "place 1,1 r0"]:
        state, _ = play(state, text)
    places = {(m["x"], m["y"]) for m in G.legal_moves(state, 0)}
    assert (0, 1) not in places and (-1, 2) in places and (1, 2) in places
    refused(state, "place 0,1 r0", "cult_neighbourhood")
    state, _ = play(state, "place -1,2 r0")                # one monastery around: fine
    # the monastery at (-1,1) now has a shrine: a second shrine next to it is refused
    places = {(m["x"], m["y"]) for m in G.legal_moves(state, 1)}
    assert (0, 2) not in places and (1, 2) in places
    refused(state, "place 0,2 r0", "cult_neighbourhood")


def test_a_monastery_may_not_have_two_shrines_around_it():
    state = new_game(["U", "U", "CU1", "CU3", "B"])
    for text in ["place -1,0 r0", "place 1,0 r0", "place -1,1 r0", "place 1,1 r0"]:
        state, _ = play(state, text)
    assert (0, 1) not in {(m["x"], m["y"]) for m in G.legal_moves(state, 0)}
    refused(state, "place 0,1 r0", "cult_neighbourhood")
    assert placeable(state, "B")                            # elsewhere it goes
    state, _ = play(state, "place -1,-1 r0")


def test_shrines_next_to_shrines_and_without_the_expansion_no_restriction():
    state = new_game(["U", "U", "CU1", "CU3", "CU2"])
    for text in ["place -1,0 r0", "place 1,0 r0", "place -1,1 r0", "place 1,1 r0"]:
        state, _ = play(state, text)
    assert (0, 1) in {(m["x"], m["y"]) for m in G.legal_moves(state, 0)}
    base = new_game(["U", "U", "B", "B", "A"], expansions=[])
    for text in ["place -1,0 r0", "place 1,0 r0", "place -1,1 r0", "place 1,1 r0"]:
        base, _ = play(base, text)
    assert (0, 1) in {(m["x"], m["y"]) for m in G.legal_moves(base, 0)}


# -- the challenge ----------------------------------------------------------------------------

# Alice (seat 0) has a heretic on the shrine at (0,1); Bob (seat 1) a monk on the
# monastery at (1,2), which completes first (the digest's example, shifted one row
# down because the start tile holds (0,0)).
DIGEST = ["CU1", "E", "N", "B", "E", "E", "E", "E", "N"]
DIGEST_MOVES = ["place 0,1 r0 heretic", "place 1,1 r0", "place 2,1 r90",
                "place 1,2 r0 monk", "place 0,2 r270", "place 2,2 r90",
                "place 0,3 r180", "place 1,3 r180", "place 2,3 r180"]


def test_digest_example_monastery_completes_first_and_the_heretic_goes_home():
    state = new_game(DIGEST)
    for text in DIGEST_MOVES[:-1]:
        state, _ = play(state, text)
    state, ev = play(state, DIGEST_MOVES[-1])
    scored = [e for e in of_type(ev, "FeatureScored") if e["complete"]]
    assert [(e["feature"], e["x"], e["y"], e["points"], e["winners"]) for e in scored] == [
        ("cloister", 1, 2, 9, [1])]
    (lost,) = of_type(ev, "ChallengeLost")
    assert lost == {"type": "ChallengeLost", "feature": "shrine", "x": 0, "y": 1, "by": "monastery",
                    "by_x": 1, "by_y": 2, "points": 0,
                    "followers": [{"player": 0, "figure": "follower", "x": 0, "y": 1, "on": "cloister"}]}
    assert "go home with 0 points" in G.describe(lost)
    kinds = [e["type"] for e in ev]
    assert kinds.index("FeatureScored") < kinds.index("ChallengeLost") < kinds.index("FollowersReturned")
    assert state.over
    # Bob +9; Alice's heretic went home, so her shrine scores nothing at the end
    assert G.result(state).scores == (0, 9)
    assert state.supply == (7, 7)


def test_no_challenge_from_an_unoccupied_monastery():
    moves = list(DIGEST_MOVES)
    moves[3] = "place 1,2 r0"                              # Bob's monastery stays empty
    state = new_game(DIGEST)
    for text in moves:
        state, ev = play(state, text)
    assert not of_type(ev, "ChallengeLost")
    final = [e for e in of_type(ev, "FeatureScored") if not e["complete"]]
    # the shrine's neighbours are (0,0), (1,1), (0,2) and (1,2): 1 + 4
    assert [(e["x"], e["y"], e["winners"]) for e in final] == [(0, 1, [0])]
    assert final[0]["points"] == 1 + 4


BOTH = ["U", "U", "U", "CU1", "B", "E", "E", "E", "E", "N", "E"]
BOTH_MOVES = ["place -1,0 r0", "place 1,0 r0", "place 2,0 r0", "place 0,1 r0 heretic",
              "place 1,1 r0 monk", "place -1,1 r270", "place 2,1 r90", "place -1,2 r270",
              "place 0,2 r180", "place 2,2 r180", "place 1,2 r180"]


def test_both_complete_on_the_same_tile_both_score():
    state = new_game(BOTH)
    for text in BOTH_MOVES:
        state, ev = play(state, text)
    scored = [e for e in of_type(ev, "FeatureScored") if e["feature"] == "cloister"]
    assert sorted((e["x"], e["y"], e["points"], tuple(e["winners"])) for e in scored) == [
        (0, 1, 9, (1,)), (1, 1, 9, (0,))]
    assert not of_type(ev, "ChallengeLost")


def test_challenge_returns_a_big_follower_with_inns_cathedrals():
    moves = list(DIGEST_MOVES)
    moves[0] = "place 0,1 r0 big shrine"
    state = new_game(DIGEST, expansions=["cult", "inns_cathedrals"])
    for text in moves:
        state, ev = play(state, text)
    (lost,) = of_type(ev, "ChallengeLost")
    assert lost["followers"][0]["figure"] == "big"
    assert G.view(state)["big_followers"] == [1, 1]


# -- snapshots and random games -----------------------------------------------------------------


def test_snapshot_round_trip_and_random_games():
    state = new_game(DIGEST)
    for text in DIGEST_MOVES[:4]:
        state, _ = play(state, text)
    restored = G.load(json.loads(json.dumps(G.dump(state))))
    assert canonical(G.view(restored)) == canonical(G.view(state))
    assert G.legal_moves(restored, 0) == G.legal_moves(state, 0)
    for expansions, players, extra in ((CU, 3, {}), (CU, 2, {"cult_set": 5}), (ALL, 4, {})):
        for seed in range(2):
            playout = play_random(G, players, {"expansions": expansions, **extra}, seed=seed)
            assert playout.state.over
            board = playout.state.board
            # the restriction holds on every finished board
            for cell, t in board.items():
                kind = cloister_kind(t[0])
                if kind is None:
                    continue
                rival = "monastery" if kind == "shrine" else "shrine"
                around = [c for c in board if c != cell and abs(c[0] - cell[0]) <= 1
                          and abs(c[1] - cell[1]) <= 1 and cloister_kind(board[c][0]) == rival]
                assert len(around) <= 1
