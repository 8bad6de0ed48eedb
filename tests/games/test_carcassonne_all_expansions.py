"""All ten expansions together: one scripted game, every decision typed in notation
by the seat that owes it, the scores after each; replay and snapshot give the same."""
from __future__ import annotations

import json
import random

from pbem.games.base import canonical
from pbem.games.carcassonne.game import ALL_EXPANSIONS

#: the ten published expansions (the Wheel of Fortune, a house reading, lays its board
#: below the City, where this script plays: tests/games/test_carcassonne_wheel.py has it)
NO_WHEEL = [name for name in ALL_EXPANSIONS if name != "wheel_of_fortune"]

from .carcassonne_support import G

ORDER = ["N", "E", "PD5", "TO1", "U", "PD4", "V", "E", "U"]

#: (seat, move, scores after it)
SCRIPT = [
    (0, "place 2,1 r0 follower city N", (0, 0)),      # a knight in the City's east cap (CO12)
    (1, "place 2,0 r180", (6, 0)),                    # seat 1 completes it: 6 to seat 0, the King to seat 1
    (1, "enter castle count market", (6, 0)),         # scored only for another: into the castle
    (0, "place -2,2 r0", (6, 0)),                     # PD5: a volcano closing CO9's cap
    (1, "leave castle -2,2 city N", (6, 4)),          # before the scoring: the castle's follower joins it
    (0, "stay out", (6, 4)),                          # seat 0 scored nothing then: may enter, does not
    (1, "place 3,0 r0 follower city N", (6, 4)),      # TO1, a knight
    (0, "place 1,-2 r90 follower road N", (6, 4)),    # a thief on the road from CO4
    (1, "place -1,2 r90", (6, 4)),                    # PD4, a dragon tile; first step 5:
    (1, "tower 3,0", (6, 4)),                         # a floor on TO1
    (1, "capture none", (6, 4)),
    (1, "dragon N", (6, 4)), (0, "dragon N", (6, 4)), (1, "dragon N", (6, 4)),   # over the City's rim,
    (0, "dragon E", (6, 4)), (1, "dragon E", (6, 4)), (0, "dragon E", (6, 4)),   # never its districts
    (0, "place 1,-3 r0", (6, 4)),
    (0, "fairy 1,-2 road N", (6, 4)),                 # the fairy by seat 0's thief
    (1, "place 4,0 r0", (6, 4)),
    (1, "pass", (7, 4)),                              # seat 0's turn: +1 from the fairy
    (0, "place 0,-3 r0", (7, 4)),                     # the last tile
    (0, "pass", (14, 8)),                             # the end: road 4 + fairy 3; city 1 + King 3 cities
]


def test_a_game_with_all_ten_expansions():
    opts = G.check_options(2, {"draw_order": ORDER, "start_player": 0, "expansions": NO_WHEEL})
    state = G.start(2, opts)
    log = G.setup(state, random.Random(0))
    state = G.apply(state, log)
    for i, (seat, text, scores) in enumerate(SCRIPT):
        assert G.to_act(state) == {seat}, (i, text, state.pending)
        if text == "dragon N" and i == 13:           # at CO5: the district east of it is no step
            assert [m["direction"] for m in G.legal_moves(state, seat)] == ["N"]
        events = G.decide(state, seat, G.parse(text, state, seat), random.Random(i))
        log += events
        state = G.apply(state, events)
        assert state.scores == scores, (i, text, state.scores)
        restored = G.load(json.loads(json.dumps(G.dump(state), sort_keys=True)))
        assert canonical(G.view(restored, 0)) == canonical(G.view(state, 0))
    assert state.over and G.result(state).scores == (14, 8)
    kinds = {e["type"] for e in log}
    assert {"CityEntered", "FollowerLeftCity", "DragonPlaced", "DragonMoved", "TowerBuilt", "FairyMoved",
            "FairyScored", "KingTaken", "KingScored", "CityLeavingEnded"} <= kinds
    again = G.replay(2, opts, json.loads(json.dumps(log)))
    assert canonical(G.dump(again)) == canonical(G.dump(state))
