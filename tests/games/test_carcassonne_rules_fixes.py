"""Four rules bugs found by reading the expansions together (issue 31), each shown by
driving the engine on a scripted 2-seat board (each of these tests failed before the
fix):

* The Tower with the Princess & the Dragon: on a volcano turn (step 4 skipped) no
  follower closes a tower; no follower closes a tower standing on the dragon's tile.
* The Tower with castles: a castle's knight cannot be captured.
* The dragon with castles: the dragon spares a castle's knight (the notes' [HOUSE]
  reading, as JCloisterZone), so the castle keeps it.
* A drawn bazaar tile that fits nowhere still calls its bazaar (``unplaceable_bazaar`` =
  ``auction``, the published text; ``discard`` as JCloisterZone and carcassonne@1).

Board: the start tile D at 0,0 (city cap N, road W-E, field S). North is y-1.
"""
from __future__ import annotations

from .carcassonne_support import G, new_game, of_type, play, refused

PD_TOWER = ["princess_dragon", "tower"]


def _tops(state, player):
    return [m for m in G.legal_moves(state, player) if m.get("do") == "tower" and "top" in m]


def _tower_at_0_1(order, expansions):
    """Seat 0 places TO2 (all field) south of D and builds a floor on it (height 1)."""
    state = new_game(order, expansions=expansions)
    state, _ = play(state, "place 0,1 r0")
    state, ev = play(state, "tower 0,1")
    assert of_type(ev, "TowerBuilt")[0]["height"] == 1 and not of_type(ev, "CaptureOffered")
    return state


def test_no_follower_closes_a_tower_on_a_volcano_turn():
    state = _tower_at_0_1(["TO2", "PD1", "B", "B"], PD_TOWER)
    # seat 1: the volcano PD1 east of TO2; the dragon lands there, step 4 is skipped
    state, ev = play(state, "place 1,1 r0")
    assert of_type(ev, "DragonPlaced") and G.to_act(state) == {1}
    # step 5's actions elsewhere stay (a floor on the tower), but closing it deploys a follower
    assert {"type": "action", "do": "tower", "x": 0, "y": 1} in G.legal_moves(state, 1)
    assert _tops(state, 1) == []
    refused(state, "tower 0,1 top", "figure_blocked")


def test_on_an_ordinary_turn_a_follower_still_closes_the_tower():
    # the same tower, closed by seat 1 on an ordinary turn: the ban is the volcano's alone
    state = _tower_at_0_1(["TO2", "TO3", "B", "B"], PD_TOWER)
    state, _ = play(state, "place 1,1 r0")
    assert _tops(state, 1) == [{"type": "action", "do": "tower", "x": 0, "y": 1, "top": "follower"}]


def test_no_follower_closes_a_tower_on_the_dragons_tile():
    state = _tower_at_0_1(["TO2", "PD5", "PD4", "TO3", "B"], PD_TOWER)
    # seat 1: the volcano PD5 (city S) on D's cap: the dragon at 0,-1
    state, ev = play(state, "place 0,-1 r180")
    assert of_type(ev, "DragonPlaced")
    state, _ = play(state, "pass")
    # seat 0: the dragon tile PD4 east of the volcano; the flight: S onto D, S onto the tower tile
    state, ev = play(state, "place 1,-1 r0 follower city N")
    assert of_type(ev, "DragonFlightStarted")
    state, _ = play(state, "dragon S")
    state, ev = play(state, "dragon S", player=1)
    assert of_type(ev, "DragonFlightEnded") and G.view(state, 0)["dragon"] == {"x": 0, "y": 1}
    # seat 1: TO3 west of the tower tile, no follower: a floor anywhere, but no follower on top
    # of the tower the dragon stands on
    state, _ = play(state, "place -1,1 r0")
    assert {"type": "action", "do": "tower", "x": 0, "y": 1} in G.legal_moves(state, 1)
    assert _tops(state, 1) == []
    refused(state, "tower 0,1 top", "figure_blocked")


def _castle(expansions, order):
    """Seat 0's knight closes D's cap with E and turns the city into a castle."""
    state = new_game(order, expansions=["bridges_castles_bazaars", *expansions])
    state, _ = play(state, "place 0,-1 r180 follower city S")
    state, ev = play(state, "castle 0,-1 city S")
    assert of_type(ev, "CastleBuilt") and state.supply[0] == 6
    return state


def _castle_knight(state):
    return [f for f in G.view(state, 0)["followers"] if (f["x"], f["y"]) == (0, -1)]


def test_a_tower_cannot_capture_a_castles_knight():
    state = _castle(["tower"], ["E", "TO2", "B", "B"])
    # seat 1: TO2 east of E, a floor: height 1 reaches 0,-1, the castle's knight
    state, _ = play(state, "place 1,-1 r0")
    state, ev = play(state, "tower 1,-1")
    assert of_type(ev, "TowerBuilt") and not of_type(ev, "CaptureOffered")
    assert G.to_act(state) == {0} and len(_castle_knight(state)) == 1


def test_the_dragon_spares_a_castles_knight():
    state = _castle(["princess_dragon"], ["E", "PD1", "PD16", "B", "B"])
    state, ev = play(state, "place 1,-1 r0")                 # seat 1: the volcano east of E
    assert of_type(ev, "DragonPlaced")
    if G.to_act(state) == {1}:
        state, _ = play(state, "pass")
    # seat 0: the dragon tile PD16 west of D, its thief on the road; the dragon's one step: W
    state, ev = play(state, "place -1,0 r0 follower road E")
    assert of_type(ev, "DragonFlightStarted")
    state, ev = play(state, "dragon W")
    assert of_type(ev, "DragonMoved")[0]["x"] == 0 and not of_type(ev, "FiguresEaten")
    assert _castle_knight(state) == [{"player": 0, "figure": "follower", "x": 0, "y": -1, "on": "city S"}]
    built = G.view(state, 0)["castles_built"]
    assert len(built) == 1 and built[0]["player"] == 0 and state.supply[0] == 5


BAZAAR_ORDER = ["E", "BB1", "U", "V", "W", "B", "B"]


def test_a_bazaar_tile_that_fits_nowhere_still_calls_its_bazaar():
    state = new_game(BAZAAR_ORDER, expansions=["bridges_castles_bazaars"])
    assert state.options["unplaceable_bazaar"] == "auction"
    state, ev = play(state, "place 0,-1 r180")                # E closes D's cap: BB1 (all city) fits nowhere
    assert [e["type"] for e in ev if e["type"] in ("TileDiscarded", "BazaarCalled")] == \
        ["TileDiscarded", "BazaarCalled"]
    assert of_type(ev, "BazaarCalled")[0]["discarded"] == "BB1" and state.tile == "U"
    assert "fits nowhere" in G.describe(of_type(ev, "BazaarCalled")[0])
    state, ev = play(state, "place 1,0 r0")                   # seat 1 plays U; then the bazaar
    opened = of_type(ev, "BazaarOpened")
    assert opened and opened[0]["tiles"] == ["V", "W"] and opened[0]["host"] == 0
    assert G.to_act(state) == {0} and state.pending == {0: "bazaar"}


def test_unplaceable_bazaar_discard_removes_it_with_no_bazaar():
    state = new_game(BAZAAR_ORDER, expansions=["bridges_castles_bazaars"], unplaceable_bazaar="discard")
    state, ev = play(state, "place 0,-1 r180")
    assert of_type(ev, "TileDiscarded") and not of_type(ev, "BazaarCalled")
    state, ev = play(state, "place 1,0 r0")
    assert not of_type(ev, "BazaarOpened") and state.pending == {0: "place_tile"}
