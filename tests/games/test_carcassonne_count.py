"""The Count of Carcassonne: the City as the start, entering after a tile that scored
only for others, leaving into a completed feature before its scoring, the end."""
from __future__ import annotations

from pbem.games.carcassonne.expansions.count.tiles import LAYOUT

from .carcassonne_support import G, new_game, of_type, play

COUNT = ["count"]


def test_the_city_is_the_start_and_counts_as_a_completed_city():
    state = new_game(["E"], expansions=COUNT)
    view = G.view(state, 0)
    assert [(t["x"], t["y"], t["tile"]) for t in view["board"]] == [(x, y, t) for x, y, t, _r in LAYOUT]
    assert view["count"]["count"] == "castle"
    assert sum(G.start(2, G.check_options(2, {"expansions": COUNT})).pile.values()) == 71
    # a farmer north of the City: its field borders the City, one completed city: 3 at the end
    state, ev = play(state, "place -1,-2 r0 farmer SL")
    fields = of_type(ev, "FieldScored")
    assert fields and fields[0]["cities"] == 1 and fields[0]["points"] == 3 and state.scores == (3, 0)


def _entered():
    """Seat 0's knight in a city that seat 1's tile completes: seat 1 enters the castle."""
    state = new_game(["N", "E", "E", "U"], expansions=COUNT)
    state, _ = play(state, "place 2,1 r0 follower city N")
    state, ev = play(state, "place 2,0 r180")
    assert [e["points"] for e in of_type(ev, "FeatureScored")] == [6] and state.scores == (6, 0)
    assert of_type(ev, "CityEntryOffered") and G.to_act(state) == {1}
    legal = G.legal_moves(state, 1)
    assert legal[0] == {"type": "count", "pass": True}
    assert {"type": "count", "quarter": "castle", "figure": "follower", "count_to": "market"} in legal
    state, ev = play(state, "enter castle count market", player=1)
    assert G.view(state, 0)["count"]["quarters"]["castle"] == [{"player": 1, "figure": "follower"}]
    assert G.view(state, 0)["count"]["count"] == "market" and state.supply[1] == 6
    return state


def test_entering_after_scoring_only_for_others():
    state = _entered()
    assert G.to_act(state) == {0}


def test_leaving_the_castle_into_a_city_completed_this_turn_before_it_scores():
    state = _entered()
    state, ev = play(state, "place -2,2 r0 follower city N")          # seat 0 completes CO9's cap
    assert of_type(ev, "CityLeavingStarted")[0]["seats"] == [1, 0] and G.to_act(state) == {1}
    assert G.legal_moves(state, 1) == [{"type": "count_move", "pass": True},
                                       {"type": "count_move", "quarter": "castle", "figure": "follower",
                                        "x": -2, "y": 1, "on": "city S"}]
    state, ev = play(state, "leave castle -2,2 city N", player=1)
    scored = of_type(ev, "FeatureScored")
    assert scored[0]["winners"] == [0, 1] and scored[0]["points"] == 4
    assert state.scores == (10, 4) and state.supply == (7, 7)


def test_nobody_leaves_the_counts_district():
    state = _entered()
    # the Count stands in the market: the castle may be left. Move it there instead:
    from pbem.games.carcassonne.expansions.count.city import put
    state = put(state, count="castle")
    state, ev = play(state, "place -2,2 r0 follower city N")
    assert not of_type(ev, "CityLeavingStarted") and state.scores == (10, 0)


def test_at_the_end_from_the_market_into_a_field():
    state = new_game(["N", "E", "U"], expansions=COUNT)
    state, _ = play(state, "place 2,1 r0 follower city N")
    state, _ = play(state, "place 2,0 r180")
    state, _ = play(state, "enter market count castle", player=1)
    state, ev = play(state, "place 3,0 r90 farmer WL")                # seat 0's farmer; the pile is empty
    assert of_type(ev, "CityLeavingStarted")[0] == {"type": "CityLeavingStarted", "seats": [1, 0], "final": True}
    moves = G.legal_moves(state, 1)
    assert any(m.get("quarter") == "market" and m["on"].startswith("field") for m in moves)
    # any segment of the farmer's field will do: the one the farmer stands on
    state, ev = play(state, "leave market 3,0 farmer WL", player=1)
    assert state.over
    fields = [e for e in ev if e["type"] == "FieldScored" and e["winners"]]
    # the field borders the City and the completed city east of it: 2 x 3, to both seats
    assert [(f["cities"], f["points"], f["winners"]) for f in fields] == [(2, 6, [0, 1])]
    assert state.scores == (12, 6)
