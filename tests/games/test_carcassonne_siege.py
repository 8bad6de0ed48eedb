"""Carcassonne, Siege (digest §3.11, the Cathars): tile data, besieged cities
in play and at the end, farmers (and the pig), the escape decision (step 8.5)
with both adjacency options, its notation, and the interactions with Inns &
Cathedrals, Traders & Builders and Cult."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import IllegalMove, ParseError, canonical
from pbem.games.carcassonne.base_rules import rules_for
from pbem.games.carcassonne.orient import TILES, oriented
from pbem.games.carcassonne.expansions.siege_tiles import SI_TILES, siege_pile
from pbem.games.carcassonne.state import Feature
from pbem.games.carcassonne.tiles import base_pile
from pbem.games.playout import play_random

from . import carcassonne_support as support
from .carcassonne_support import G, play, of_type


SI = ["siege"]
ALL = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege"]


def new_game(order, players=2, start=0, expansions=None, **options):
    """A scripted game with SI unless other ``expansions`` are named."""
    return support.new_game(order, players, start, SI if expansions is None else expansions, **options)


# -- tile data -----------------------------------------------------------------------


def test_four_siege_tiles():
    assert list(SI_TILES) == ["SI1", "SI2", "SI3", "SI4"]
    assert all(t.count == 1 and t.expansion == "siege" for t in SI_TILES.values())
    assert all(TILES[l] == t for l, t in SI_TILES.items())
    assert [t.edges for t in SI_TILES.values()] == ["CFFF", "CRFR", "CFFC", "CRRC"]
    for t in SI_TILES.values():
        (city,) = [s for s in t.segments if s.kind == "city"]
        assert city.mark("siege") == 1
    assert sum(rules_for(SI).pile.values()) == 71 + 4
    assert rules_for(SI).pile == {**base_pile(), **siege_pile()}
    si4 = oriented("SI4", 0)
    assert si4.label_index["city W"] == si4.label_index["city N"]
    assert si4.label_index["road E"] == si4.label_index["road S"]


# -- besieged cities --------------------------------------------------------------------


def test_completed_besieged_city_scores_one_per_tile_and_pennant():
    state = new_game(["M", "SI1"])
    state, _ = play(state, "place 0,-1 r180 knight S")      # M: city S+E with a pennant
    state, ev = play(state, "place 1,-1 r270")              # SI1 closes it: besieged
    (scored,) = [e for e in of_type(ev, "FeatureScored") if e["complete"]]
    assert (scored["tiles"], scored["pennants"], scored["points"], scored["winners"]) == (3, 1, 4, [0])


def test_incomplete_besieged_city_scores_0_and_unbesieged_unchanged():
    state = new_game(["SI3", "E"])
    state, _ = play(state, "place 0,-1 r180 knight S")
    state, ev = play(state, "place 0,1 r180 knight S")      # an ordinary city, incomplete
    final = {(e["x"], e["y"]): e for e in of_type(ev, "FeatureScored")}
    assert final[(0, 0)]["points"] == 0 and final[(0, 0)]["winners"] == [0]
    assert final[(0, 1)]["points"] == 1


def test_besieged_city_with_a_cathedral_scores_two_each():
    points = rules_for(["inns_cathedrals", "siege"]).points["city"]
    state = G.start(2, G.check_options(2, {"expansions": ["inns_cathedrals", "siege"]}))
    cells = frozenset({(0, 0), (0, 1), (0, 2)})

    def city(**marks):
        return Feature("city", (), cells, 0, marks, (), frozenset())

    assert points(state, city(siege=1, cathedral=1, pennant=1), True) == 2 * 4
    assert points(state, city(siege=1, cathedral=1), False) == 0
    assert points(state, city(siege=2, pennant=2), True) == 5       # marks do not stack
    assert points(state, city(cathedral=1), True) == 9              # I&C unchanged
    assert points(state, city(pennant=1), True) == 8
    siege_only = rules_for(SI).points["city"]
    assert siege_only(state, city(siege=1), True) == 3


def test_farmers_score_6_per_completed_besieged_city_and_8_with_the_pig():
    # the game ends with SI1: the field scores 6 for the besieged city
    state = new_game(["U", "SI1"])
    state, _ = play(state, "place -1,0 r0 farmer NL")
    state, ev = play(state, "place 0,-1 r180")
    (field,) = of_type(ev, "FieldScored")
    assert (field["cities"], field["points"], field["winners"]) == (1, 6, [0])
    # with T&B's pig: 8
    tb = ["siege", "traders_builders"]
    state = new_game(["U", "SI1", "U"], expansions=tb)
    state, _ = play(state, "place -1,0 r0 farmer NL")
    state, _ = play(state, "place 0,-1 r180")
    state, ev = play(state, "place 1,0 r0 pig NL")
    (field,) = of_type(ev, "FieldScored")
    (pig,) = of_type(ev, "PigScored")
    assert field["points"] + pig["points"] == 8 and pig["winners"] == [0]
    assert G.result(state).scores == (8, 0)


def test_field_with_an_ordinary_and_a_besieged_city():
    state = new_game(["U", "SI1", "E", "E"])
    state, _ = play(state, "place -1,0 r0 farmer NL")
    state, _ = play(state, "place 0,-1 r180")               # besieged city, complete
    state, _ = play(state, "place -1,-1 r270")              # an ordinary city W, same field
    state, ev = play(state, "place -2,-1 r90")              # ... completed
    (field,) = of_type(ev, "FieldScored")
    assert (field["cities"], field["points"]) == (2, 6 + 3)


# -- the escape (step 8.5) ----------------------------------------------------------------

ESCAPE_ORDER = ["SI3", "B", "U", "U", "U", "E", "U", "U", "V"]


def escape_game(**options):
    state = new_game(ESCAPE_ORDER, **options)
    state, _ = play(state, "place 0,-1 r180 knight S")      # seat 0's knight, besieged city S+E
    state, _ = play(state, "place -1,-1 r0")                # seat 1: a monastery next to it
    return state


def test_escape_is_offered_only_to_the_active_player_with_a_knight_there():
    state = new_game(ESCAPE_ORDER)
    state, ev = play(state, "place 0,-1 r180 knight S")
    assert not of_type(ev, "EscapeOffered")                 # no monastery near yet
    state, ev = play(state, "place -1,-1 r0")
    assert not of_type(ev, "EscapeOffered")                 # seat 1 has no knight there
    state, ev = play(state, "place 1,0 r0")
    (offer,) = of_type(ev, "EscapeOffered")
    assert offer["player"] == 0 and ev[-1] == offer
    assert G.to_act(state) == {0} and state.pending == {0: "escape"} and state.tile is None
    assert G.legal_moves(state, 0) == [{"type": "escape", "pass": True},
                                       {"type": "escape", "x": 0, "y": -1, "on": "city E"}]
    assert G.legal_moves(state, 1) == []
    assert G.default_move(state, 0) == {"type": "escape", "pass": True}
    text = G.render(state, 0)
    assert "Seat 0 may escape from a besieged city: escape 0,-1 city E, or no escape." in text
    assert G.view(state)["besieged_cities"] == [{"x": 0, "y": 0, "on": "city N", "tiles": 2,
                                                 "complete": False}]


def test_declining_and_escaping():
    state = escape_game()
    state, _ = play(state, "place 1,0 r0")
    state, ev = play(state, "no escape")
    assert [e["type"] for e in ev][:2] == ["EscapeDeclined", "TileDrawn"]
    assert G.to_act(state) == {1} and state.supply == (6, 7)
    state, ev = play(state, "place -1,0 r0")
    state, ev = play(state, "place 2,0 r0")
    assert of_type(ev, "EscapeOffered")                     # again on a later turn
    state, ev = play(state, "escape 0,-1 city S")           # any edge of the city names it
    (esc,) = of_type(ev, "KnightEscaped")
    assert esc["followers"] == [{"player": 0, "figure": "follower", "x": 0, "y": -1, "on": "city E"}]
    assert G.describe(esc) == "Escape: seat 0's knight leaves the besieged city (city E at 0,-1)."
    assert state.supply == (7, 7) and G.to_act(state) == {1}
    state, ev = play(state, "place 0,1 r180")
    state, ev = play(state, "place 3,0 r0")
    assert not of_type(ev, "EscapeOffered")                 # no knight left there


def test_escape_moves_are_validated():
    state = escape_game()
    state, _ = play(state, "place 1,0 r0")
    rng = random.Random(0)
    for move, code in [({"type": "place_tile", "x": 2, "y": 0, "rotation": 0}, "not_now"),
                       ({"type": "escape", "pass": False}, "malformed_move"),
                       ({"type": "escape", "pass": True, "x": 0}, "malformed_move"),
                       ({"type": "escape", "x": 0, "y": -1}, "malformed_move"),
                       ({"type": "escape", "x": "0", "y": -1, "on": "city E"}, "bad_position"),
                       ({"type": "escape", "x": 5, "y": 5, "on": "city E"}, "bad_segment"),
                       ({"type": "escape", "x": 1, "y": 0, "on": "road E"}, "no_knight_there"),
                       ({"type": "escape", "x": 0, "y": 0, "on": "city N"}, "no_knight_there")]:
        with pytest.raises(IllegalMove) as err:
            G.decide(state, 0, move, rng)
        assert err.value.code == code, move
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 1, {"type": "escape", "pass": True}, rng)
    assert err.value.code == "not_your_turn"
    placing = escape_game()
    with pytest.raises(IllegalMove) as err:
        G.decide(placing, 0, {"type": "escape", "pass": True}, rng)
    assert err.value.code == "not_now"


def test_escape_notation_round_trips():
    state = escape_game()
    state, _ = play(state, "place 1,0 r0")
    for text, move in [("no escape", {"type": "escape", "pass": True}),
                       ("escape pass", {"type": "escape", "pass": True}),
                       ("Escape 0,-1 city E", {"type": "escape", "x": 0, "y": -1, "on": "city E"}),
                       ("escape 0,-1 S", {"type": "escape", "x": 0, "y": -1, "on": "city E"}),
                       ("escape (0,-1) knight city S", {"type": "escape", "x": 0, "y": -1, "on": "city E"})]:
        assert G.parse(text, state, 0) == move, text
    for move in G.legal_moves(state, 0):
        assert G.parse(G.describe(move), state, 0) == move
    assert G.describe({"type": "escape", "pass": True}) == "no escape"
    with pytest.raises(ParseError) as err:
        G.parse("escape 0,-1 road Q", state, 0)
    assert err.value.details["expected"] and err.value.details["examples"]
    with pytest.raises(ParseError):
        G.parse("escape now", state, 0)


def test_siege_tile_adjacency_option():
    # the monastery at (0,1) is next to the city tile (0,0) but not to the siege tile (0,-1)
    order = ["SI3", "B", "U"]
    moves = ["place 0,-1 r180 knight S", "place 0,1 r0", "place 1,0 r0"]
    state = new_game(order)
    for text in moves:
        state, ev = play(state, text)
    assert of_type(ev, "EscapeOffered")
    state = new_game(order, siege_escape_adjacency="siege_tile")
    for text in moves:
        state, ev = play(state, text)
    assert not of_type(ev, "EscapeOffered") and state.over
    # next to the siege tile it is offered with either option
    state = escape_game(siege_escape_adjacency="siege_tile")
    state, ev = play(state, "place 1,0 r0")
    assert of_type(ev, "EscapeOffered")


def test_a_shrine_allows_the_escape_with_cult():
    state = new_game(["SI3", "CU1", "U"], expansions=["siege", "cult"])
    for text in ["place 0,-1 r180 knight S", "place -1,-1 r0", "place 1,0 r0"]:
        state, ev = play(state, text)
    assert of_type(ev, "EscapeOffered")


def test_escape_keeps_the_builders_extra_tile():
    state = escape_game(expansions=["siege", "traders_builders"])
    state, _ = play(state, "place 1,0 r0 thief E")
    state, _ = play(state, "no escape")
    state, _ = play(state, "place -1,0 r0")
    state, _ = play(state, "place 2,0 r0 builder road W")
    state, _ = play(state, "no escape")
    state, _ = play(state, "place 0,1 r180")
    state, ev = play(state, "place 3,0 r0")                 # extends the builder's road
    assert of_type(ev, "EscapeOffered") and not of_type(ev, "BuilderTriggered")
    snap = G.load(json.loads(json.dumps(G.dump(state))))   # the decision survives a snapshot
    assert canonical(G.dump(snap)) == canonical(G.dump(state))
    state, ev = play(snap, "escape 0,-1 city E")
    kinds = [e["type"] for e in ev]
    assert kinds[:3] == ["KnightEscaped", "BuilderTriggered", "TileDrawn"]
    assert G.to_act(state) == {0} and state.tile == "U"     # the extra tile


def test_completed_city_returns_knights_after_an_escape_decision():
    # seat 0's knight in the besieged city, and a thief on a road the same tile completes
    state = new_game(["SI3", "B", "A", "E", "A"])
    state, _ = play(state, "place 0,-1 r180 knight S")
    state, _ = play(state, "place -1,-1 r0")
    state, _ = play(state, "place 1,0 r90 thief W")         # A: road to the monastery
    state, _ = play(state, "no escape")
    state, _ = play(state, "place 0,1 r180")
    state, ev = play(state, "place -1,0 r270")              # seat 0 closes the road: 3 tiles
    assert of_type(ev, "EscapeOffered") and not of_type(ev, "FollowersReturned")
    state, ev = play(state, "no escape")
    (back,) = of_type(ev, "FollowersReturned")              # step 9.1 after the decision
    assert back["followers"] == [{"player": 0, "figure": "follower", "x": 1, "y": 0, "on": "road W"}]


def test_random_games_replay_and_snapshots():
    for expansions, players, extra in ((SI, 2, {}), (SI, 3, {"siege_escape_adjacency": "siege_tile"}),
                                       (ALL, 4, {})):
        for seed in range(3):
            playout = play_random(G, players, {"expansions": expansions, **extra}, seed=seed)
            assert playout.state.over
            replayed = G.replay(players, playout.options, json.loads(json.dumps(playout.events)))
            assert canonical(G.dump(replayed)) == canonical(G.dump(playout.state))
            offers = len(of_type(playout.events, "EscapeOffered"))
            answers = len(of_type(playout.events, "EscapeDeclined")) + len(
                of_type(playout.events, "KnightEscaped"))
            assert offers == answers
