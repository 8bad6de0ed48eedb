"""The Princess & the Dragon alone and the Count of Carcassonne alone: one scripted game
each, played to its end, every decision typed in notation by the seat that owes it, the
scores after each (worked out from the rules, line by line); each step's snapshot and the
whole log's replay give the same game."""
from __future__ import annotations

import json
import random

from pbem.games.base import canonical

from .carcassonne_support import G


def play_script(order, expansions, script, checks=None):
    """Play ``script`` ((seat, move text, scores after it)); ``checks``: step index ->
    fn(state, events) asserting more. Returns the final state and the whole log."""
    opts = G.check_options(2, {"draw_order": list(order), "start_player": 0, "expansions": list(expansions)})
    state = G.start(2, opts)
    log = G.setup(state, random.Random(0))
    state = G.apply(state, log)
    for i, (seat, text, scores) in enumerate(script):
        assert G.to_act(state) == {seat}, (i, text, state.pending)
        if checks and i in checks:
            checks[i](state, None)
        events = G.decide(state, seat, G.parse(text, state, seat), random.Random(i))
        log += events
        state = G.apply(state, events)
        assert state.scores == scores, (i, text, state.scores)
        restored = G.load(json.loads(json.dumps(G.dump(state), sort_keys=True)))
        assert canonical(G.view(restored, 0)) == canonical(G.view(state, 0)), (i, text)
    assert state.over
    again = G.replay(2, opts, json.loads(json.dumps(log)))
    assert canonical(G.dump(again)) == canonical(G.dump(state))
    return state, log


# -- The Princess & the Dragon ------------------------------------------------------------------
# D at 0,0 (city N, road W-E). The road of the game: PD2's curve (-1,0) + D + W's junction
# (1,0), then V (-1,1) and A's cloister (-2,1) close it: 5 tiles.

PD_ORDER = ["N", "PD1", "PD2", "PD20", "W", "V", "A", "PD14"]

PD_SCRIPT = [
    (0, "place 0,-1 r180 follower city S", (0, 0)),   # a knight in D's city (open to the east)
    (1, "place 0,1 r0", (0, 0)),                      # PD1, a volcano: the dragon comes to 0,1; no figure
    (0, "place -1,0 r0", (0, 0)),                     # PD2, a magic portal, no figure on it: step 5 instead
    (0, "portal 0,0 follower road E", (0, 0)),        # through the portal: a thief on D's road
    (1, "place 1,-1 r0", (0, 0)),                     # PD20, a princess tile joining seat 0's city:
    (1, "princess 0,-1 city E seat 0", (0, 0)),       # seat 0's knight goes home
    (0, "place 1,0 r0", (0, 0)),                      # W's junction ends the road east; no figure:
    (0, "fairy 0,0 road E", (0, 0)),                  # the fairy by seat 0's thief
    (1, "place -1,1 r90", (1, 0)),                    # V; seat 0's turn starts by its follower: +1
    (0, "place -2,1 r270 follower cloister", (9, 0)),  # A closes the road: 5 tiles, 5 to seat 0, fairy +3
    (1, "place -2,0 r180", (9, 0)),                   # PD14, a dragon tile: the flight (seats 1, 0, 1...)
    (1, "dragon W", (9, 0)),                          # not north: D holds the fairy
    (0, "dragon N", (9, 0)),                          # onto PD2 (not A and seat 0's monk)
    (1, "dragon W", (9, 0)),                          # onto PD14: the only step
    (0, "dragon S", (9, 0)),                          # the only step: onto A, eating seat 0's monk; stuck:
]                                                     # the flight ends, and the game (nobody left to score)


def _steps(seat, only):
    """A check: the dragon's steps open to ``seat`` are ``only``."""
    def check(state, _events):
        assert [m["direction"] for m in G.legal_moves(state, seat)] == only, (seat, only)
    return check


#: before steps 11-14: the flight's choices (the fairy's tile and tiles entered are no step)
PD_CHECKS = {11: _steps(1, ["W"]), 12: _steps(0, ["N", "W"]), 13: _steps(1, ["W"]), 14: _steps(0, ["S"])}


def test_a_game_with_the_princess_and_the_dragon():
    state, log = play_script(PD_ORDER, ["princess_dragon"], PD_SCRIPT, PD_CHECKS)
    assert G.result(state).scores == (9, 0) and state.supply == (7, 7)
    kinds = [e["type"] for e in log]
    assert {"DragonPlaced", "KnightRemoved", "FairyMoved", "DragonFlightStarted", "FiguresEaten",
            "DragonFlightEnded"} <= set(kinds)
    deployed = [e for e in log if e["type"] == "FollowerDeployed"]
    assert [e.get("portal", False) for e in deployed] == [False, True, False]
    assert [(e["reason"], e["points"]) for e in log if e["type"] == "FairyScored"] == [("turn", 1), ("feature", 3)]
    eaten = [e for e in log if e["type"] == "FiguresEaten"]
    assert [(e["x"], e["y"], [f["on"] for f in e["followers"]]) for e in eaten] == [(-2, 1, ["cloister"])]
    assert [e["steps"] for e in log if e["type"] == "DragonFlightEnded"] == [4]


# -- The Count of Carcassonne -----------------------------------------------------------------
# The City of Carcassonne is the start (CO1-CO12, x -2..1, y -1..1).

COUNT_ORDER = ["N", "E", "E", "U", "A", "B"]

COUNT_SCRIPT = [
    (0, "place 2,1 r0 follower city N", (0, 0)),      # a knight in CO12's east cap
    (1, "place 2,0 r180", (6, 0)),                    # seat 1 closes it: 3 tiles, 6 to seat 0;
    (1, "enter castle count market", (6, 0)),         # it scored only for another: into the castle
    (0, "place -2,2 r0 follower city N", (6, 0)),     # seat 0 closes CO9's cap (2 tiles): first the
    (1, "leave castle -2,2 city N", (10, 4)),         # seats may leave the castle into it: a tie, 4 each
    (1, "place 0,2 r90 follower road N", (10, 4)),    # a thief on the road from CO11
    (0, "place 0,3 r180", (10, 7)),                   # A ends it: 3 tiles, 3 to seat 1; seat 0
    (0, "enter cathedral count castle", (10, 7)),     # scored nothing: into the cathedral
    (1, "place 1,2 r0 follower cloister", (10, 7)),   # the last tile, a monk; the end: leaving first
    (0, "leave cathedral 1,2 cloister", (16, 13)),    # into seat 1's cloister: 5 neighbours, 6 to each
]


def test_a_game_with_the_count_of_carcassonne():
    def last_moves(state, _ev):
        assert [G.describe(m) for m in G.legal_moves(state, 0)] == [
            "pass", "leave cathedral 0,3 cloister", "leave cathedral 1,2 cloister"]
    state, log = play_script(COUNT_ORDER, ["count"], COUNT_SCRIPT, {9: last_moves})
    assert G.result(state).scores == (16, 13)
    started = [e for e in log if e["type"] == "CityLeavingStarted"]
    assert [(e["seats"], e["final"]) for e in started] == [([1, 0], False), ([0, 1], True)]
    entered = [(e["player"], e["quarter"], e["count_to"]) for e in log if e["type"] == "CityEntered"]
    assert entered == [(1, "castle", "market"), (0, "cathedral", "castle")]
    final = [e for e in log if e["type"] == "FeatureScored" and not e["complete"]]
    assert [(e["feature"], e["points"], e["winners"]) for e in final] == [("cloister", 6, [0, 1])]
