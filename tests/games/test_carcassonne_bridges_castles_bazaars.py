"""Bridges, Castles & Bazaars: bridges on the new tile or the next one (a tile
placeable only with one), castles scored with a neighbouring feature, the bazaar."""
from __future__ import annotations

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
