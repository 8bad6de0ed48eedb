"""The Tower alone and Bridges, Castles & Bazaars alone: one scripted 2-seat game each,
every decision typed in notation by the seat that owes it, the scores after each worked
out from the rules (``shared/rules/carcassonne.md`` §1, §2, §3.4, §3.8; the project's
notes ``docs/rules/carcassonne.md``), not read off the engine; after every move a
dump/load round trip gives the same view, and a replay of the log the same dump.

Board: the start tile D at 0,0 (city cap N, road W-E). North is y-1.
"""
from __future__ import annotations

import json
import random

from pbem.games.base import canonical

from .carcassonne_support import G


def _play(order, expansions, script, checks=None):
    """Plays ``script`` [(seat, move text, scores after it)] on a 2-seat game drawing
    exactly ``order``; ``checks[i](state)`` runs before move i. Returns (state, log)."""
    opts = G.check_options(2, {"draw_order": order, "start_player": 0, "expansions": expansions})
    state = G.start(2, opts)
    log = G.setup(state, random.Random(0))
    state = G.apply(state, log)
    for i, (seat, text, scores) in enumerate(script):
        assert not state.over, (i, text)
        assert G.to_act(state) == {seat}, (i, text, state.pending)
        if checks and i in checks:
            checks[i](state)
        events = G.decide(state, seat, G.parse(text, state, seat), random.Random(i))
        log += events
        state = G.apply(state, events)
        assert tuple(state.scores) == scores, (i, text, state.scores)
        restored = G.load(json.loads(json.dumps(G.dump(state), sort_keys=True)))
        assert canonical(G.view(restored, 0)) == canonical(G.view(state, 0)), (i, text)
        assert canonical(G.view(restored, 1)) == canonical(G.view(state, 1)), (i, text)
    assert state.over
    again = G.replay(2, opts, json.loads(json.dumps(log)))
    assert canonical(G.dump(again)) == canonical(G.dump(state))
    return state, log


def _of(log, kind):
    return [e for e in log if e["type"] == kind]


# -- The Tower -------------------------------------------------------------------------------------

TOWER_ORDER = ["TO1", "TO7", "TO11", "TO2", "TO3", "TO12", "TO4", "E", "A", "U"]

#: (seat, move, scores after it)
TOWER_SCRIPT = [
    # 1. TO1's cap S closes D's cap N: a city of 2 tiles (tiny_city_scoring 4): 4 to seat 0;
    #    the knight goes home.
    (0, "place 0,-1 r180 follower city S", (4, 0)),
    # 2. TO7 (four dead ends) east of D: seat 1's thief on the W stub, the road TO7-D, open west.
    (1, "place 1,0 r0 follower road W", (4, 0)),
    # 3. TO11 east of TO7: seat 0's thief on its W-E road (TO7's E stub + TO11, open east).
    (0, "place 2,0 r0 follower road W", (4, 0)),
    # 4. Seat 1 places TO2 without a follower, so it may add a floor (step 5) ...
    (1, "place -1,-1 r0", (4, 0)),
    (1, "tower 2,0", (4, 0)),                             # ... TO11's tower, height 1
    # height 1 reaches 2,0 itself and 1,0: seat 0's thief there and seat 1's own
    (1, "capture 2,0 road E seat 0", (4, 0)),             # seat 1 holds seat 0's thief
    # 5. Seat 0's own turn: the ransom, 3 points paid to the captor: 4-3 = 1, 0+3 = 3.
    (0, "ransom seat 1", (1, 3)),
    (0, "place 0,1 r0 follower cloister", (1, 3)),        # TO3: a monk (the follower bought back)
    # 6. Seat 1: TO12 north of TO1 (its city open), a floor on TO3 (height 1), the monk taken.
    (1, "place 0,-2 r0", (1, 3)),
    (1, "tower 0,1", (1, 3)),
    (1, "capture 0,1 cloister seat 0", (1, 3)),           # seat 1 holds seat 0's monk
    # 7. Seat 0: TO4 r270 at -1,0, its E stub closes the road TO4-D-TO7 (3 tiles), then a
    #    floor on TO7 (height 1) takes seat 1's thief on that road. The capture (step 5/6)
    #    comes before the scoring (step 8): the road scores 3 for nobody. Each seat now
    #    holds a follower of the other: the exchange sends both home at once.
    (0, "place -1,0 r270", (1, 3)),
    (0, "tower 1,0", (1, 3)),
    (0, "capture 1,0 road W seat 1", (1, 3)),
    # 8. Seat 1: E r180 closes TO11's cap (a 2-tile city, no knight: nobody scores); instead of
    #    a floor, a follower on top of TO11's tower (height 1) closes it for good.
    (1, "place 2,-1 r180", (1, 3)),
    (1, "tower 2,0 top", (1, 3)),
    # 9. Seat 0: A's road S meets TO7's N stub (a 2-tile road, nobody on it); a farmer on A's
    #    field, which joins TO1's, D's north field (through TO7's corner fields) and E's.
    (0, "place 1,-1 r0 farmer NL", (1, 3)),
    # 10. Seat 1, the last tile: U east of TO11; a floor on TO1 (height 1), whose reach holds
    #     seat 0's farmer at 1,-1 only; seat 1 declines. The game ends. Final scoring: no
    #     road, city or cloister holds a follower (the one on TO11's tower scores nothing);
    #     the farmer's field borders two completed cities (D+TO1, TO11+E; TO12's is open):
    #     2 x 3 = 6 to seat 0.
    (1, "place 3,0 r0", (1, 3)),
    (1, "tower 0,-1", (1, 3)),
    (1, "capture none", (7, 3)),
]


def _tower_checks():
    def first_capture(state):              # seat 1 may take seat 0's thief or its own
        assert G.legal_moves(state, 1) == [
            {"type": "capture", "pass": True},
            {"type": "capture", "x": 1, "y": 0, "on": "road W", "player": 1, "figure": "follower"},
            {"type": "capture", "x": 2, "y": 0, "on": "road E", "player": 0, "figure": "follower"}]

    def ransom(state):                     # seat 0's turn, seat 1 holds its thief
        assert G.view(state, 0)["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "follower"}]
        assert {"type": "ransom", "from": 1, "figure": "follower"} in G.legal_moves(state, 0)
        assert tuple(state.supply) == (6, 6)

    def decline(state):                    # the farmer is the one follower in reach
        assert G.legal_moves(state, 1) == [
            {"type": "capture", "pass": True},
            {"type": "capture", "x": 1, "y": -1, "on": "field NL", "player": 0, "figure": "follower"}]

    return {5: first_capture, 6: ransom, 19: decline}


def test_a_game_with_the_tower_alone():
    state, log = _play(TOWER_ORDER, ["tower"], TOWER_SCRIPT, _tower_checks())
    assert 10 <= len(TOWER_SCRIPT) <= 20
    assert G.result(state).scores == (7, 3)
    assert [e["height"] for e in _of(log, "TowerBuilt")] == [1, 1, 1, 1]
    assert [(e["captor"], e["player"]) for e in _of(log, "FollowerCaptured")] == [(1, 0), (1, 0), (0, 1)]
    assert _of(log, "CaptureDeclined") and len(_of(log, "RansomPaid")) == 1
    assert _of(log, "PrisonersExchanged") == [{"type": "PrisonersExchanged", "players": [0, 1],
                                               "figures": ["follower", "follower"]}]
    road = [e for e in _of(log, "FeatureScored") if e["feature"] == "road" and e["tiles"] == 3]
    assert road == [{"type": "FeatureScored", "feature": "road", "x": -1, "y": 0, "on": "road E", "tiles": 3,
                     "points": 3, "winners": [], "complete": True}]           # its thief taken first
    assert [(e["cities"], e["points"], e["winners"]) for e in _of(log, "FieldScored")] == [(2, 6, [0])]
    tower = G.view(state, 0)["tower"]
    assert tower["pieces"] == [10 - 1, 10 - 3] and tower["prisoners"] == []
    closed = [t for t in tower["towers"] if t["top"]]
    assert closed == [{"x": 2, "y": 0, "height": 1, "top": {"player": 1, "figure": "follower"}}]
    # seat 0's farmer and seat 1's follower on the tower stay on the board
    assert tuple(state.supply) == (6, 6)


# -- Bridges, Castles & Bazaars -------------------------------------------------------------------

BCB_ORDER = ["E", "BB6", "W", "A", "U", "V"]

BCB_SCRIPT = [
    # 1. E r180 closes D's cap: a city of exactly two one-edge caps with seat 0's knight.
    #    Instead of scoring 4 it becomes a castle (the knight stays): no points.
    (0, "place 0,-1 r180 follower city S", (0, 0)),
    (0, "castle 0,-1 city S", (0, 0)),
    # 2. BB6 (all field, a bazaar) east of D fits only with a bridge W-E on it (D's road
    #    meets its W edge): the road D + bridge, open at -1,0 and 2,0; seat 1's thief on
    #    the bridge. A bazaar follows the turn: W and A are shown, seat 0 (left of seat 1)
    #    hosts.
    (1, "place 1,0 r0 bridge 1,0 WE follower road E", (0, 0)),
    (0, "bazaar 1 bid 1", (0, 0)),                       # seat 0 picks A and opens at 1
    (1, "bid 3", (0, 0)),                                # seat 1 raises to 3
    (0, "sell", (3, -3)),                                # seat 1 takes A and pays 3 to seat 0;
    #                                                      seat 0 takes W, the last, for nothing
    # 3. The bazaar's tiles are played instead of drawing, from the first host on: seat 0's W
    #    closes the road's west end; a farmer north of its roads, in D's north field (which
    #    BB6's unbroken field joins to D's south field), next to the castle.
    (0, "place -1,0 r0 farmer NL", (3, -3)),
    # 4. Seat 1's A r90: its road W ends at the cloister and closes the road W-D-bridge-A,
    #    4 tiles: 4 to seat 1 (-3+4 = 1). The road runs through -1,0, 0,0 and 1,0, beside
    #    the castle on 0,-1/0,0 (2x3 vicinity: x -1..1, y -1..0): the castle scores the
    #    road's 4 for seat 0 (3+4 = 7), its knight goes home. A monk on A.
    (1, "place 2,0 r90 follower cloister", (7, 1)),
    # 5. Seat 0 draws U: r90 (road N-S) under W's S stub, its thief on that road (2 tiles).
    (0, "place -1,1 r90 follower road N", (7, 1)),
    # 6. Seat 1 draws V, the last tile: at 0,1 with a bridge W-E on U, the neighbour towards
    #    it (U's E and W edges are field; the bridge passes over U's road); V's road S-W
    #    meets it: the road bridge + V, seat 1's thief on it. The game ends. Final scoring:
    #    seat 0's road W+U 2 tiles: 2 (7+2 = 9); seat 1's road U(bridge)+V 2 tiles: 2;
    #    seat 1's cloister on A, one neighbour (BB6): 1+1 = 2 (1+2+2 = 5); seat 0's farmer:
    #    its field borders no completed city, only the castle (which stays on the board after
    #    it scored), worth 4 to farmers instead of a city's 3 (§3.8): 9+4 = 13.
    (1, "place 0,1 r0 bridge -1,1 WE follower road W", (13, 5)),
]


def _bcb_checks():
    def castle_offer(state):
        assert G.legal_moves(state, 0) == [{"type": "castle", "pass": True},
                                           {"type": "castle", "x": 0, "y": -1, "on": "city S"}]

    def bridge_needed(state):             # BB6 goes east of D only with a bridge on it
        at = [m for m in G.legal_moves(state, 1) if (m["x"], m["y"]) == (1, 0)]
        assert at and all(m.get("bridge") == [1, 0, "WE"] for m in at)

    def host(state):
        assert G.view(state, 0)["bazaar"]["tiles"] == ["W", "A"] and G.view(state, 0)["bazaar"]["host"] == 0

    def bazaar_tiles_in_order(state):     # seat 0 (the first host) plays W, seat 1's A waits
        view = G.view(state, 0)
        assert view["tile"] == "W" and view["bazaar_tiles"] == [None, "A"] and view["tiles_left"] == 2

    def then_seat_1(state):               # seat 1 plays A; U and V are still in the pile
        view = G.view(state, 0)
        assert view["tile"] == "A" and view["bazaar_tiles"] == [None, None] and view["tiles_left"] == 2

    def neighbour_bridge(state):
        assert {"type": "place_tile", "x": 0, "y": 1, "rotation": 0, "bridge": [-1, 1, "WE"], "figure": "follower",
                "on": "road S"} in G.legal_moves(state, 1)

    return {1: castle_offer, 2: bridge_needed, 3: host, 6: bazaar_tiles_in_order, 7: then_seat_1,
            9: neighbour_bridge}


def test_a_game_with_bridges_castles_bazaars_alone():
    state, log = _play(BCB_ORDER, ["bridges_castles_bazaars"], BCB_SCRIPT, _bcb_checks())
    assert 10 <= len(BCB_SCRIPT) <= 20
    assert G.result(state).scores == (13, 5)
    assert [(e["x"], e["y"], e["axis"]) for e in _of(log, "BridgeBuilt")] == [(1, 0, "WE"), (-1, 1, "WE")]
    # the bridged tile types name the axis in the tile's own orientation: U lies at r90 (1 turn)
    assert state.board[(1, 0)][:2] == ("BB6~WE", 0) and state.board[(-1, 1)][:2] == ("U~NS", 1)
    assert not [e for e in _of(log, "FeatureScored") if e["feature"] == "city"]   # the castle never scored as a city
    assert [(e["player"], e["points"]) for e in _of(log, "CastleScored")] == [(0, 4)]
    assert _of(log, "BazaarOpened") == [{"type": "BazaarOpened", "tiles": ["W", "A"], "host": 0}]
    assert [(e["host"], e["bidder"], e["price"], e["buy"], e["tile"]) for e in _of(log, "BazaarDealt")] == [
        (0, 1, 3, False, 1)]
    assert [(e["player"], e["tile"]) for e in _of(log, "BazaarTileTakenFree")] == [(0, 0)]
    final = [(e["feature"], e["tiles"], e["points"], e["winners"]) for e in _of(log, "FeatureScored")
             if not e["complete"]]
    assert sorted(final) == [("cloister", 1, 2, [1]), ("road", 2, 2, [0]), ("road", 2, 2, [1])]
    assert [(e["points"], e["winners"]) for e in _of(log, "FieldScored")] == [(4, [0])]
    view = G.view(state, 0)
    assert view["bridges"] == [3, 1] and view["castles"] == [2, 3]
    assert [c["scored"] for c in view["castles_built"]] == [True]
