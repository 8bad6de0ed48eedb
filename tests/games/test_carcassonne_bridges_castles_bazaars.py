"""Bridges, Castles & Bazaars: bridges on the new tile or the next one (a tile
placeable only with one), castles scored with a neighbouring feature, the bazaar."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import IllegalMove, ParseError
from pbem.games.carcassonne.expansions.bridges_castles_bazaars.tiles import BB_TILES, bb_pile

from pbem.games.carcassonne.features import sid_at

from .carcassonne_support import G, new_game, of_type, play, refused

BCB = ["bridges_castles_bazaars"]


def test_tiles_and_pieces():
    assert sum(bb_pile().values()) == 12
    assert sum(t.count for t in BB_TILES.values() if "bazaar" in t.tags) == 8
    for players, n in ((2, 3), (4, 3), (5, 2)):
        view = G.view(G.start(players, G.check_options(players, {"expansions": BCB})), 0)
        assert view["bridges"] == [n] * players and view["castles"] == [n] * players


def test_a_tile_placeable_only_with_a_bridge_on_it():
    # B (all field) east of D (road there): only with a bridge W-E across B
    state = new_game(["B", "E"], expansions=BCB)
    legal = G.legal_moves(state, 0)
    at = [m for m in legal if (m["x"], m["y"]) == (1, 0)]
    assert at and all(m.get("bridge") for m in at)
    assert {"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "bridge": [1, 0, "WE"]} in at
    assert {"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "bridge": [1, 0, "WE"], "figure": "follower",
            "on": "road E"} in at                                        # a thief on the bridge
    state, ev = play(state, "place 1,0 r0 bridge 1,0 WE follower road E")
    assert of_type(ev, "TilePlaced")[0]["tile"] == "B~WE" and G.view(state, 0)["bridges"] == [2, 3]
    road = state.feature_of(sid_at(state, (1, 0), "road E"))
    assert road is state.feature_of(sid_at(state, (0, 0), "road E"))
    assert len(road.tiles) == 2 and road.open == 2 and road.meeples[0][0] == 0   # D and the bridge


def test_a_bridge_on_the_next_tile_towards_the_new_one():
    state = new_game(["B", "U", "E"], expansions=BCB)
    state, _ = play(state, "place 0,1 r0")
    legal = G.legal_moves(state, 1)
    assert {"type": "place_tile", "x": 1, "y": 1, "rotation": 0, "bridge": [0, 1, "WE"]} in legal
    refused(state, "place 1,1 r0 bridge 0,1 NS", "bad_bridge")          # not towards the new tile
    state, ev = play(state, "place 1,1 r0 bridge 0,1 WE")
    assert state.board[(0, 1)][0] == "B~WE" and of_type(ev, "BridgeBuilt")[0]["axis"] == "WE"
    road = state.feature_of(sid_at(state, (0, 1), "road E"))
    assert road is state.feature_of(sid_at(state, (1, 1), "road E"))
    assert len(road.tiles) == 2 and road.open == 2                     # the bridge and U, one road


def test_a_castle_instead_of_a_small_city_scores_with_a_road_next_to_it():
    state = new_game(["E", "W", "W", "U"], expansions=BCB)
    state, ev = play(state, "place 0,-1 r180 follower city S")
    assert of_type(ev, "CastleOffered") and G.legal_moves(state, 0) == [
        {"type": "castle", "pass": True}, {"type": "castle", "x": 0, "y": -1, "on": "city S"}]
    state, ev = play(state, "castle 0,-1 city S")
    assert not [e for e in ev if e["type"] == "FeatureScored" and e["feature"] == "city"]
    assert state.scores == (0, 0) and G.view(state, 1)["castles"] == [2, 3] and state.supply[0] == 6
    state, _ = play(state, "place -1,0 r0")
    state, ev = play(state, "place 1,0 r0")                           # the road of 3 tiles is complete
    castle = of_type(ev, "CastleScored")
    assert castle and castle[0]["points"] == 3 and castle[0]["player"] == 0
    assert state.scores == (3, 0) and state.supply[0] == 7


def test_declining_the_castle_scores_the_city():
    state = new_game(["E", "U"], expansions=BCB)
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, ev = play(state, "no castle")
    assert state.scores == (4, 0)


def test_the_bazaar_host_sells_then_the_last_tile_is_free():
    state = new_game(["BB6", "U", "V", "E"], expansions=BCB)
    state, ev = play(state, "place 0,1 r0")
    assert of_type(ev, "BazaarOpened")[0] == {"type": "BazaarOpened", "tiles": ["U", "V"], "host": 1}
    assert G.to_act(state) == {1} and G.legal_moves(state, 1)[0] == {"type": "bazaar", "tile": 0, "bid": 0}
    state, _ = play(state, "bazaar 0 bid 2", player=1)
    assert G.to_act(state) == {0} and G.legal_moves(state, 0)[0] == {"type": "bazaar", "pass": True}
    state, _ = play(state, "bid 3", player=0)
    assert G.legal_moves(state, 1) == [{"type": "bazaar", "deal": "sell"}, {"type": "bazaar", "deal": "buy"}]
    state, ev = play(state, "sell", player=1)
    assert state.scores == (-3, 3)
    assert of_type(ev, "BazaarTileTakenFree")[0] == {"type": "BazaarTileTakenFree", "player": 1, "tile": 1}
    # seat 1 plays its V now, then seat 0 its U, then E is drawn
    assert state.tile == "V" and G.to_act(state) == {1}
    state, _ = play(state, "place 1,0 r90")
    assert state.tile == "U" and G.to_act(state) == {0}
    state, _ = play(state, "place -1,0 r0")
    assert state.tile == "E"


def test_the_host_buys_when_nobody_bids_more():
    state = new_game(["BB6", "U", "V", "E"], expansions=BCB)
    state, _ = play(state, "place 0,1 r0")
    state, _ = play(state, "bazaar 1 bid 4", player=1)
    state, ev = play(state, "pass", player=0)
    assert of_type(ev, "BazaarDealt")[0]["buy"] and state.scores == (0, -4)
    # seat 1 got V for nothing and plays it at once (its turn): seat 0's U waits
    assert state.tile == "V" and G.view(state, 0)["bazaar_tiles"] == ["U", None]


# -- bazaar_mode = draft: picks without bids --------------------------------------------------


def _draft_opened():
    """3 seats, draft: seat 0 places the bazaar BB6; U, V, E are shown; seat 1 chooses first."""
    state = new_game(["BB6", "U", "V", "E", "B"], players=3, expansions=BCB, bazaar_mode="draft")
    state, ev = play(state, "place 0,1 r0")
    opened = of_type(ev, "BazaarOpened")
    assert opened == [{"type": "BazaarOpened", "tiles": ["U", "V", "E"], "host": 1, "draft": True}]
    assert G.describe(opened[0]) == "The bazaar shows 0: U, 1: V, 2: E; seat 1 chooses first."
    assert of_type(ev, "BazaarHostOwed") == [{"type": "BazaarHostOwed", "player": 1, "draft": True}]
    return state


def test_a_whole_draft_bazaar_picks_in_order_without_points_then_plays_from_the_first_chooser():
    state = _draft_opened()
    # seat 1 (left of the active seat 0) chooses among the three; no bids
    assert G.to_act(state) == {1}
    assert G.legal_moves(state, 1) == [{"type": "bazaar", "tile": i} for i in range(3)]
    assert G.view(state, 1)["bazaar"] == {"mode": "draft", "tiles": ["U", "V", "E"], "owners": [None, None, None],
                                          "host": 1, "phase": "pick", "tile": None, "price": None, "bidder": None}
    state, ev = play(state, "bazaar 1", player=1)
    assert [e["type"] for e in ev] == ["BazaarTileDrafted", "BazaarNextHost", "BazaarHostOwed"]
    assert ev[0] == {"type": "BazaarTileDrafted", "player": 1, "tile": 1} and state.scores == (0, 0, 0)
    # then the next seat clockwise without a tile: seat 2; the default at its deadline is the first tile left
    assert G.to_act(state) == {2} and G.legal_moves(state, 2) == [{"type": "bazaar", "tile": 0},
                                                                   {"type": "bazaar", "tile": 2}]
    assert G.view(state, 2)["bazaar"]["owners"] == [None, 1, None] and G.view(state, 2)["bazaar"]["host"] == 2
    default = G.default_move(state, 2)
    assert default == {"type": "bazaar", "tile": 0}
    events = G.decide(state, 2, default, None)
    state = G.apply(state, events)
    # the last seat (the active seat 0) takes the last tile, E, for nothing; no points changed
    assert of_type(events, "BazaarTileDrafted") == [{"type": "BazaarTileDrafted", "player": 2, "tile": 0}]
    assert of_type(events, "BazaarTileTakenFree") == [{"type": "BazaarTileTakenFree", "player": 0, "tile": 2}]
    assert of_type(events, "BazaarClosed") and not of_type(events, "BazaarDealt")
    assert state.scores == (0, 0, 0) and "bridges_castles_bazaars" not in state.tally
    assert G.view(state, 0)["bazaar"] is None
    # placed in order from the first chooser: seat 1 (V), seat 2 (U), seat 0 (E), then seat 1 draws
    assert state.tile == "V" and G.to_act(state) == {1}
    assert G.view(state, 0)["bazaar_tiles"] == ["E", None, "U"]
    state, _ = play(state, "place 1,0 r0 follower road S")
    assert state.tile == "U" and G.to_act(state) == {2} and state.scores == (0, 0, 0)
    state, _ = play(state, "place -1,0 r0")
    assert state.tile == "E" and G.to_act(state) == {0}
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, ev = play(state, "no castle")                       # the 2-cap city scores for seat 0
    assert of_type(ev, "FeatureScored")[0]["points"] == 4 and state.scores == (4, 0, 0)
    assert state.tile == "B" and G.to_act(state) == {1} and G.view(state, 0)["bazaar_tiles"] == [None, None, None]


def test_draft_notation_and_refusals():
    state = _draft_opened()
    assert G.parse("bazaar 2", state, 1) == {"type": "bazaar", "tile": 2}
    assert G.describe({"type": "bazaar", "tile": 2}) == "bazaar 2"
    refused(state, "bazaar 0 bid 2", "bad_bid")                 # no bids in a draft
    refused(state, "bazaar 5", "bad_bid")                       # no such tile
    state, _ = play(state, "bazaar 0", player=1)
    refused(state, "bazaar 0", "bad_bid")                       # taken already
    refused(state, "bid 3", "bad_bid")                          # nothing to bid on in a draft
    refused(state, "buy", "bad_bid")
    # in an auction, "bazaar N" without a bid is not a move (as before)
    auction = new_game(["BB6", "U", "V", "E"], expansions=BCB)
    auction, _ = play(auction, "place 0,1 r0")
    with pytest.raises(ParseError):
        G.parse("bazaar 0", auction, 1)
    assert G.view(auction, 1)["bazaar"]["mode"] == "auction"


# -- allow_negative_scores = false: nobody pays points it does not have --------------------------


def _scored_then_bazaar(**options):
    """3 seats: seat 0 scores 4 (a city), seat 1 3 (a road); seat 1 places the bazaar BB6:
    U, V, K are shown and seat 2 (0 points) hosts first."""
    state = new_game(["E", "W", "X", "B", "BB6", "U", "V", "K", "B"], players=3, expansions=BCB, **options)
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "no castle")
    state, _ = play(state, "place 1,0 r0 follower road W")
    state, _ = play(state, "place -1,0 r0")                     # X closes the road: seat 1 +3
    state, _ = play(state, "place 0,1 r0")
    state, ev = play(state, "place 0,2 r0")
    assert of_type(ev, "BazaarOpened") == [{"type": "BazaarOpened", "tiles": ["U", "V", "K"], "host": 2}]
    assert state.scores == (4, 3, 0) and G.to_act(state) == {2}
    return state


def test_no_negative_scores_bids_stop_at_the_score_and_a_host_who_cannot_pay_sells():
    state = _scored_then_bazaar(allow_negative_scores=False)
    # seat 2 has 0 points: it opens at 0 only
    assert G.legal_moves(state, 2) == [{"type": "bazaar", "tile": i, "bid": 0} for i in range(3)]
    refused(state, "bazaar 0 bid 1", "not_enough_points")
    state, _ = play(state, "bazaar 0 bid 0", player=2)
    # seat 0 (4 points) may raise up to 4
    assert G.to_act(state) == {0}
    assert G.legal_moves(state, 0) == [{"type": "bazaar", "pass": True}] + \
        [{"type": "bazaar", "bid": b} for b in range(1, 5)]
    refused(state, "bid 5", "not_enough_points")
    refused(state, "bid 0", "bad_bid")                          # not a raise: a bad bid, as before
    state, _ = play(state, "bid 4", player=0)
    # seat 1 (3 points) cannot go above 4: it may only pass
    assert G.legal_moves(state, 1) == [{"type": "bazaar", "pass": True}]
    refused(state, "bid 5", "not_enough_points")
    state, _ = play(state, "pass", player=1)
    # seat 2 (0 points) cannot pay 4: it may only sell
    assert G.to_act(state) == {2} and G.legal_moves(state, 2) == [{"type": "bazaar", "deal": "sell"}]
    assert G.default_move(state, 2) == {"type": "bazaar", "deal": "sell"}
    refused(state, "buy", "not_enough_points")
    state, ev = play(state, "sell", player=2)
    assert state.scores == (0, 3, 4)                            # seat 0 pays its 4 to seat 2
    # next host: seat 1 (3 points) opens at 1; seat 2 (4 points) raises to 2; seat 1 can pay 2: buy listed
    assert G.to_act(state) == {1} and max(m["bid"] for m in G.legal_moves(state, 1)) == 3
    refused(state, "bazaar 1 bid 4", "not_enough_points")
    state, _ = play(state, "bazaar 1 bid 1", player=1)
    assert G.legal_moves(state, 2)[-1] == {"type": "bazaar", "bid": 4}
    state, _ = play(state, "bid 2", player=2)
    assert G.legal_moves(state, 1) == [{"type": "bazaar", "deal": "sell"}, {"type": "bazaar", "deal": "buy"}]
    state, ev = play(state, "buy", player=1)
    assert state.scores == (0, 1, 6)                            # seat 1 pays 2 to seat 2
    assert of_type(ev, "BazaarTileTakenFree") == [{"type": "BazaarTileTakenFree", "player": 2, "tile": 2}]
    # played from the first host on: seat 2 its K now, then seat 0 the U, seat 1 the V
    assert state.tile == "K" and G.to_act(state) == {2} and G.view(state, 0)["bazaar_tiles"] == ["U", "V", None]


def test_the_same_bazaar_with_negative_scores_allowed_goes_below_zero():
    state = _scored_then_bazaar()
    assert len(G.legal_moves(state, 2)) == 3 * 100              # bids 0-99
    state, _ = play(state, "bazaar 0 bid 0", player=2)
    state, _ = play(state, "bid 5", player=0)
    state, _ = play(state, "pass", player=1)
    assert G.legal_moves(state, 2) == [{"type": "bazaar", "deal": "sell"}, {"type": "bazaar", "deal": "buy"}]
    state, _ = play(state, "buy", player=2)
    assert state.scores == (9, 3, -5)


def test_no_negative_scores_with_the_current_score_cap():
    state = _scored_then_bazaar(allow_negative_scores=False, bazaar_bid_cap="current_score")
    assert G.legal_moves(state, 2) == [{"type": "bazaar", "tile": i, "bid": 0} for i in range(3)]
    state, _ = play(state, "bazaar 2 bid 0", player=2)
    assert G.legal_moves(state, 0)[-1] == {"type": "bazaar", "bid": 4}
    refused(state, "bid 5", "not_enough_points")
    state, _ = play(state, "bid 3", player=0)
    state, _ = play(state, "pass", player=1)
    assert G.legal_moves(state, 2) == [{"type": "bazaar", "deal": "sell"}]
    # the cap alone still lets a host buy at a bid it cannot pay (as before)
    state = _scored_then_bazaar(bazaar_bid_cap="current_score")
    state, _ = play(state, "bazaar 2 bid 0", player=2)
    refused(state, "bid 5", "bad_bid")
    state, _ = play(state, "bid 3", player=0)
    state, _ = play(state, "pass", player=1)
    state, _ = play(state, "buy", player=2)
    assert state.scores == (7, 3, -3)


# -- castle_feature_choice -------------------------------------------------------------------
#
# Seat 0's castle on (0,-1)/(0,0) (vicinity x -1..1, y -1..0); seat 1's L on (1,0) completes at
# once the road (-1,0)-(0,0)-(1,0) (3, seat 1's thief) and the city (1,-1) (2,-1) (2,0) (1,0)
# (4 tiles, 8 points, nobody's): both have a tile next to the castle.

CHOICE_TILES = ["E", "W", "N", "N", "K", "L", "B"]


def _castle_with_road_and_city(choice=None, tiles=CHOICE_TILES):
    opts = {} if choice is None else {"castle_feature_choice": choice}
    state = new_game(tiles, expansions=BCB, **opts)
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "castle 0,-1 city S")
    for move in ("place -1,0 r0", "place 1,-1 r180", "place 2,-1 r270", "place 2,0 r0"):
        state, _ = play(state, move)
    return play(state, "place 1,0 r0 follower road W")


def test_highest_a_castle_scores_the_best_feature_at_once():
    state, ev = _castle_with_road_and_city()                            # the default: highest
    assert [(e["feature"], e["points"]) for e in of_type(ev, "FeatureScored")] == [("city", 8), ("road", 3)]
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 8)]
    assert not of_type(ev, "CastleFeatureOffered")
    assert state.scores == (8, 3) and state.supply == (7, 7) and state.pending == {0: "place_tile"}
    state2, _ = _castle_with_road_and_city("highest")
    assert G.dump(state2)["scores"] == G.dump(state)["scores"] and state2.ext == state.ext


def test_owner_choice_the_castle_owner_chooses_the_road():
    state, ev = _castle_with_road_and_city("owner_choice")
    assert [(e["feature"], e["points"]) for e in of_type(ev, "FeatureScored")] == [("city", 8), ("road", 3)]
    assert ev[-1]["type"] == "CastleFeatureOffered" and not of_type(ev, "CastleScored")
    # seat 1 placed the tile; seat 0, the castle's owner, owes the choice: the highest first
    assert state.pending == {0: "choose_castle_feature"} and state.active == 1 and state.scores == (0, 3)
    assert G.legal_moves(state, 0) == [{"type": "choose_castle_feature", "x": 1, "y": 0, "on": "city N"},
                                       {"type": "choose_castle_feature", "x": 1, "y": 0, "on": "road W"}]
    assert G.legal_moves(state, 1) == []
    assert G.view(state, 1)["castle_feature_decision"] == {
        "player": 0, "x": 0, "y": -1, "on": "city S",
        "options": [{"x": 1, "y": 0, "on": "city N", "points": 8}, {"x": 1, "y": 0, "on": "road W", "points": 3}]}
    state, ev = play(state, "castle points -1,0 road E")               # any segment of the road names it
    assert [e["type"] for e in ev][:4] == ["CastleFeatureChosen", "CastleScored", "FollowersReturned",
                                           "FollowersReturned"]
    assert of_type(ev, "CastleFeatureChosen")[0] == {"type": "CastleFeatureChosen", "player": 0, "index": 0,
                                                      "x": 1, "y": 0, "on": "road W", "points": 3}
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 3)]
    # the rest of the turn: the knight and seat 1's thief go home, seat 0 draws the next tile
    assert state.scores == (3, 3) and state.supply == (7, 7) and state.pending == {0: "place_tile"}
    assert state.tile == "B" and G.view(state, 0)["castle_feature_decision"] is None
    assert G.view(state, 0)["castles_built"][0]["scored"] is True


def test_owner_choice_at_the_deadline_the_highest():
    state, _ = _castle_with_road_and_city("owner_choice")
    move = G.default_move(state, 0)
    assert move == {"type": "choose_castle_feature", "x": 1, "y": 0, "on": "city N"}
    state = G.apply(state, G.decide(state, 0, move, random.Random(0)))
    assert state.scores == (8, 3) and state.supply == (7, 7) and state.pending == {0: "place_tile"}


def test_owner_choice_refuses_a_feature_not_offered():
    state, _ = _castle_with_road_and_city("owner_choice")
    refused(state, "castle points 2,0 road S", "bad_castle_feature")   # K's open road
    refused(state, "castle points 0,-1 city S", "bad_castle_feature")  # the castle itself
    refused(state, "castle points 5,5 road W", "bad_castle_feature")   # no tile there
    with pytest.raises(IllegalMove) as err:
        G.decide(state, 0, {"type": "choose_castle_feature", "x": 1, "y": 0}, random.Random(0))
    assert err.value.code == "malformed_move"
    with pytest.raises(IllegalMove) as err:                             # not seat 1's decision
        G.decide(state, 1, {"type": "choose_castle_feature", "x": 1, "y": 0, "on": "road W"}, random.Random(0))
    assert err.value.code == "not_your_turn"
    with pytest.raises(ParseError) as perr:
        G.parse("castle points 1,0 over there", state, 0)
    assert perr.value.code == "bad_castle_feature"


def test_owner_choice_notation_and_a_snapshot_between():
    state, _ = _castle_with_road_and_city("owner_choice")
    for move in G.legal_moves(state, 0):
        text = G.describe(move)
        assert text.startswith("castle points 1,0 ") and G.parse(text, state, 0) == move
    assert G.parse("Castle Points (1, 0) city n", state, 0) == {"type": "choose_castle_feature", "x": 1, "y": 0,
                                                                 "on": "city N"}
    assert "castle points 1,0 road W (3 points)" in G.render(state, 0)
    again = G.load(json.loads(json.dumps(G.dump(state))))
    assert G.legal_moves(again, 0) == G.legal_moves(state, 0)
    again, _ = play(again, "castle points 1,0 road W")
    assert again.scores == (3, 3) and again.pending == {0: "place_tile"}


def test_owner_choice_no_decision_with_one_feature():
    # the road alone (the first castle test): nothing to choose, the castle scores 3 at once
    state = new_game(["E", "W", "W", "U"], expansions=BCB, castle_feature_choice="owner_choice")
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "castle 0,-1 city S")
    state, _ = play(state, "place -1,0 r0")
    state, ev = play(state, "place 1,0 r0")
    assert not of_type(ev, "CastleFeatureOffered")
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 3)]
    assert state.scores == (3, 0)


def test_owner_choice_no_decision_when_the_features_score_the_same():
    # a road of 4 (W, D, D, W) and a 2-tile city (E on 1,-1 and the D on 1,0): 4 and 4
    state = new_game(["E", "W", "E", "B", "W", "D", "U"], expansions=BCB, castle_feature_choice="owner_choice")
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "castle 0,-1 city S")
    for move in ("place -1,0 r0", "place 1,-1 r180", "place 2,-1 r0", "place 2,0 r0"):
        state, _ = play(state, move)
    state, ev = play(state, "place 1,0 r0")
    assert sorted((e["feature"], e["points"]) for e in of_type(ev, "FeatureScored")) == [("city", 4), ("road", 4)]
    assert not of_type(ev, "CastleFeatureOffered")
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 4)]
    assert state.scores == (4, 0) and state.pending == {0: "place_tile"}


def _two_castles(choice):
    # seat 1's castle on (-1,-2)/(-1,-1) (vicinity x -2..0, y -2..-1) is next to seat 0's castle
    # but to neither feature: only seat 0's castle triggers it (a chain)
    state = new_game(["E", "W", "N", "E", "N", "E", "K", "L", "B"], expansions=BCB, castle_feature_choice=choice)
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "castle 0,-1 city S")
    for move in ("place -1,0 r0", "place 1,-1 r180", "place -1,-1 r0", "place 2,-1 r270"):
        state, _ = play(state, move)
    state, _ = play(state, "place -1,-2 r180 follower city S")
    state, _ = play(state, "castle -1,-2 city S")
    state, _ = play(state, "place 2,0 r0")
    return play(state, "place 1,0 r0 follower road W")


def test_a_chain_the_second_castle_scores_what_the_first_chose():
    state, ev = _two_castles("highest")
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 8), (1, 8)]
    assert state.scores == (8, 11)
    state, ev = _two_castles("owner_choice")
    assert state.pending == {0: "choose_castle_feature"} and not of_type(ev, "CastleScored")
    state, ev = play(state, "castle points 1,0 road W")
    # seat 1's castle has one candidate, seat 0's castle (3 points now): no second decision
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 3), (1, 3)]
    assert state.scores == (3, 6) and state.supply == (7, 7) and state.pending == {0: "place_tile"}


def test_owner_choice_with_the_last_tile_the_game_ends_after_the_answer():
    state, ev = _castle_with_road_and_city("owner_choice", CHOICE_TILES[:-1])
    assert state.pending == {0: "choose_castle_feature"} and not state.over
    state, ev = play(state, "castle points 1,0 road W")
    assert of_type(ev, "GameEnded") and state.over
    # nothing more at the end: the castle scored 3 in play, the open road (K, L) is nobody's
    assert state.scores == (3, 3) and G.result(state).scores == (3, 3)


def _two_castles_at_once(choice):
    # seat 1's castle on (0,1)/(1,1) (vicinity x 0..1, y 0..2) is next to the road and the city
    # too: both castles are triggered in the same round, seat 0's (built first) first
    state = new_game(["E", "W", "N", "E", "N", "D", "K", "L", "B"], expansions=BCB, castle_feature_choice=choice)
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, _ = play(state, "castle 0,-1 city S")
    for move in ("place -1,0 r0", "place 1,-1 r180", "place 0,1 r90", "place 2,-1 r270"):
        state, _ = play(state, move)
    state, _ = play(state, "place 1,1 r270 follower city W")
    state, _ = play(state, "castle 1,1 city W")
    state, _ = play(state, "place 2,0 r0")
    return play(state, "place 1,0 r0 follower road W")


def test_two_castles_triggered_at_once_ask_their_owners_in_the_order_built():
    state, ev = _two_castles_at_once("highest")
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 8), (1, 8)]
    assert state.scores == (8, 11)
    state, ev = _two_castles_at_once("owner_choice")
    assert state.pending == {0: "choose_castle_feature"} and state.active == 1
    state, ev = play(state, "castle points 1,0 road W")
    assert [e["type"] for e in ev] == ["CastleFeatureChosen", "CastleScored", "FollowersReturned",
                                       "CastleFeatureOffered"]
    assert state.pending == {1: "choose_castle_feature"} and state.scores == (3, 3)
    assert G.view(state, 0)["castle_feature_decision"] == {
        "player": 1, "x": 1, "y": 1, "on": "city W",
        "options": [{"x": 1, "y": 0, "on": "city N", "points": 8}, {"x": 1, "y": 0, "on": "road W", "points": 3}]}
    state, ev = play(state, "castle points 2,-1 city W")              # the city, by another of its tiles
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(1, 8)]
    assert state.scores == (3, 11) and state.supply == (7, 7) and state.pending == {0: "place_tile"}


def test_the_count_entry_counts_points_scored_before_a_castle_owner_choice():
    # the run answering the choice has lost the events before it: the offer keeps their winners
    from pbem.games.carcassonne.expansions.count.city import note_scoring
    from pbem.games.carcassonne.rules import Turn
    state = new_game(["U"], expansions=BCB + ["count"], castle_feature_choice="owner_choice")
    for before, entry in (([[1]], True), ([[0]], False), ([[0, 1]], False), ([], False)):
        turn = Turn(state.rules, state, random.Random(0), 0)
        turn.data = {"scored_before": before}
        note_scoring(turn)
        assert turn.data.get("count_entry", False) is entry, before
    state, ev = _castle_with_road_and_city("owner_choice")
    assert state.ext["bridges_castles_bazaars"]["choice"]["turn_data"]["scored_before"] == [[1]]  # seat 1's road


# -- a castle choice and the Count's entry in one turn (scripted, BCB + the Count) ------------


def _castle_choice_beside_the_city():
    """Seat 0 makes a castle of CO9's city cap; seat 1's D at -3,1 then closes a 2-tile city
    (4, nobody's) and a 3-tile road (3, seat 0's follower), both beside the castle."""
    state = new_game(["E", "A", "A", "B", "E", "D", "B", "B"], expansions=BCB + ["count"],
                     castle_feature_choice="owner_choice")
    state, _ = play(state, "place -2,2 r0 follower city N")          # CO9's cap: a castle
    state, ev = play(state, "castle -2,2 city N")
    assert of_type(ev, "CastleBuilt")[0]["tiles"] == [[-2, 1], [-2, 2]]
    for move in ("place -3,0 r0", "place -3,2 r180 follower road N", "place -4,2 r0", "place -4,1 r90"):
        state, _ = play(state, move)
    state, ev = play(state, "place -3,1 r270")
    assert [(e["feature"], e["points"], e["winners"]) for e in of_type(ev, "FeatureScored")] == [
        ("city", 4, []), ("road", 3, [0])]
    assert ev[-1]["type"] == "CastleFeatureOffered" and not of_type(ev, "CityEntryOffered")
    assert state.pending == {0: "choose_castle_feature"} and state.active == 1 and state.scores == (3, 0)
    return state


def test_a_castle_choice_then_the_count_entry_of_the_seat_that_scored_only_for_others():
    state = _castle_choice_beside_the_city()
    assert G.legal_moves(state, 0) == [{"type": "choose_castle_feature", "x": -3, "y": 1, "on": "city W"},
                                       {"type": "choose_castle_feature", "x": -3, "y": 1, "on": "road N"}]
    state, ev = play(state, "castle points -3,1 road N")            # the lower one, by choice
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 3)]
    # then the end of the turn: the castle's knight and the road's follower go home, and seat 1,
    # whose tile scored for seat 0 and not for itself, may enter the City
    assert [[f["on"] for f in e["followers"]] for e in of_type(ev, "FollowersReturned")] == [["city N"], ["road N"]]
    assert (ev[-1]["type"], ev[-1]["player"], ev[-1]["turn_data"]["scored_before"]) == ("CityEntryOffered", 1, [[0]])
    assert state.scores == (6, 0) and state.supply == (7, 7) and state.pending == {1: "count"}
    state, ev = play(state, "enter castle count market", player=1)
    assert of_type(ev, "CityEntered")[0]["quarter"] == "castle" and G.view(state, 0)["count"]["count"] == "market"
    assert state.supply == (7, 6) and state.pending == {0: "place_tile"} and state.scores == (6, 0)


def test_a_castle_choice_left_to_its_deadline_before_the_count_entry_takes_the_highest():
    state = _castle_choice_beside_the_city()
    default = G.default_move(state, 0)
    assert default == {"type": "choose_castle_feature", "x": -3, "y": 1, "on": "city W"}
    state, ev = play(state, G.describe(default))
    assert [(e["player"], e["points"]) for e in of_type(ev, "CastleScored")] == [(0, 4)]
    assert state.scores == (7, 0) and state.pending == {1: "count"}
    assert G.default_move(state, 1) == {"type": "count", "pass": True}


def test_the_text_board_tells_a_follower_on_a_bridge_from_one_on_the_road_below():
    """A bridge crossing a road draws "x" in the middle (two roads cross without
    joining), and a follower on either road stands on that road's own arm."""
    rows = {}
    for label in ("road N", "road E"):
        state = new_game(["U", "V", "E"], expansions=BCB)
        state, _ = play(state, f"place -1,0 r0 bridge -1,0 NS follower {label}")
        lines = G.render(state, 0).splitlines()
        row = next(i for i, line in enumerate(lines) if line.startswith("   0 "))
        # tile -1,0 is the second column of the board (columns -2 -1 0 1, 6 characters each)
        rows[label] = [line[11:16] for line in lines[row - 1:row + 2]]
    assert rows["road N"] == ["..0..", "--x--", "..|.."]      # on the bridge, north-south
    assert rows["road E"] == ["..|..", "--x0-", "..|.."]      # on the road, west-east
