"""Kachina: the digest's worked examples, the source's four special cases
(案例一 to 四), one test per power (a legal and an illegal use), the options,
the redraw, the end and tie-break, hidden information and the notation."""
from __future__ import annotations

import json
import random

import pytest

from pbem import games
from pbem.games.base import OMNISCIENT, SPECTATOR, IllegalMove, ParseError, canonical
from pbem.games.kachina import KIND, W, build_state, cell, score_line
from pbem.games.playout import play_random

G = games.get("kachina")
RNG = random.Random(0)


def pos(*tiles, hands=None, players=2, turn=0, pile=None, under=None, options=None, scores=None):
    """A play-phase state: tiles are (x, y, name) triples."""
    hands = hands if hands is not None else [["chief", "sun", "eagle", "warrior", "hummingbird"]] * players
    return build_state(players, {(x, y): name for x, y, name in tiles}, hands, turn=turn, pile=pile,
                       under=under, options=options, scores=scores)


def play(state, move, player=None):
    player = state.turn if player is None else player
    events = G.decide(state, player, move, RNG)
    return events, G.apply(state, events)


def place(tile, x, y):
    return {"type": "place", "tile": tile, "x": x, "y": y}


def points(state, move):
    events, _ = play(state, move)
    ev = events[0]
    assert ev["type"] == "TilePlaced"
    return ev["row"], ev["col"], ev["points"]


def illegal(state, move, code=None, player=None):
    player = state.turn if player is None else player
    before = canonical(G.dump(state))
    with pytest.raises(IllegalMove) as err:
        G.decide(state, player, move, RNG)
    assert canonical(G.dump(state)) == before
    assert move not in G.legal_moves(state, player)
    if code:
        assert err.value.code == code, err.value
    return err.value


def legal(state, move, player=None):
    player = state.turn if player is None else player
    return move in G.legal_moves(state, player)


# --------------------------------------------------------------------------
# Worked examples from the digest (section 5)


def test_example_1_four_tiles_become_five():
    s = pos((0, 0, "warrior"), (1, 0, "hummingbird"), (2, 0, "wolf"), (3, 0, "sun"))
    assert points(s, place("chief", 4, 0)) == (5, 0, 5)
    assert points(s, place("sun", 4, 0)) == (0, 0, 0)


def test_example_2_both_lines_and_filling_a_gap():
    s = pos((0, 1, "hummingbird"), (2, 1, "warrior"), (1, 0, "warrior"), (1, 2, "wolf"),
            (0, 0, "chief"), (2, 0, "chief"), (2, 2, "chief"))
    assert points(s, place("sun", 1, 1)) == (3, 3, 6)


def test_example_3_wolves_count_row_and_column_apart():
    s = pos((0, -2, "wolf"), (0, -1, "wolf"), (-1, 0, "wolf"), (-2, 0, "sun"), (-1, -1, "chief"),
            hands=[["wolf"], ["sun"]])
    assert points(s, place("wolf", 0, 0)) == (3, 3, 6)
    # the placed Wolf is worth 8 in its row: a Chief beside the Sun would beat it
    s2 = pos((0, -2, "wolf"), (0, -1, "wolf"), (-1, 0, "wolf"), (-2, 0, "chief"), (-1, -1, "chief"),
             hands=[["wolf"], ["sun"]])
    assert points(s2, place("wolf", 0, 0)) == (0, 3, 3)


def test_case_1_two_wolves_hold_a_line_against_a_chief():
    """案例一: two Wolves are worth 8; a Chief (8) is not greater; a third Wolf is 12."""
    s = pos((0, 0, "wolf"), (1, 0, "wolf"), hands=[["chief", "wolf"], ["sun"]])
    assert points(s, place("chief", 2, 0)) == (0, 0, 0)
    assert points(s, place("wolf", 2, 0)) == (3, 0, 3)


def test_case_2_bookended_row_cannot_be_taken_by_cover_or_swap():
    """案例二: in a row with Hummingbirds at both ends, an Eagle or Warrior
    put over/instead of the Sun scores nothing there (its column still scores)."""
    tiles = ((0, 0, "hummingbird"), (1, 0, "sun"), (2, 0, "hummingbird"), (1, 1, "hummingbird"))
    s = pos(*tiles, hands=[["eagle", "warrior"], ["sun"]], pile=["chief", "chief"])
    assert points(s, {"type": "cover", "x": 1, "y": 0}) == (0, 2, 2)
    events, after = play(s, {"type": "swap", "x": 1, "y": 0})
    ev = events[0]
    assert (ev["row"], ev["col"], ev["points"]) == (0, 2, 2)
    assert ev["taken"] == "sun" and ev["drew"] is False and "secret" not in ev
    assert G.view(after, 0)["hand"] == ["eagle", "sun"]
    assert len(after.pile) == 2


def test_case_3_koshari_breaks_then_hummingbird_restores_the_bookend():
    """案例三: A's Koshari at the end scores nothing and zeroes the Hummingbird
    beside it; B's Hummingbird after it bookends the row again and scores 5,
    although it is itself worth 0 next to the Koshari."""
    s = pos((0, 0, "hummingbird"), (1, 0, "sun"), (2, 0, "hummingbird"),
            hands=[["koshari", "chief"], ["hummingbird", "sun"]])
    events, s = play(s, place("koshari", 3, 0))
    assert events[0]["points"] == 0
    assert s.turn == 1
    events, s = play(s, place("hummingbird", 4, 0))
    assert (events[0]["row"], events[0]["points"]) == (5, 5)
    assert s.scores == (0, 5)


def test_case_4_wolf_next_to_a_koshari_is_worth_zero():
    """案例四: Wolf, Eagle, Wolf, Warrior, Koshari: a Wolf after the Koshari is
    worth 0, not 12, and scores nothing; without the Koshari it scores 5."""
    row = [(0, 0, "wolf"), (1, 0, "eagle"), (2, 0, "wolf"), (3, 0, "warrior")]
    s = pos(*row, (4, 0, "koshari"), hands=[["wolf"], ["sun"]])
    assert points(s, place("wolf", 5, 0)) == (0, 0, 0)
    s = pos(*row, hands=[["wolf"], ["sun"]])
    assert points(s, place("wolf", 4, 0)) == (5, 0, 5)


def test_example_8_ogres():
    s = pos((0, 0, "sun"), (1, 0, "ogre"), hands=[["chief", "ogre", "eagle"], ["sun"]])
    for x, y in ((2, 0), (1, -1), (1, 1)):
        illegal(s, place("chief", x, y), "ogre_adjacent")
        assert legal(s, place("ogre", x, y))
    illegal(s, {"type": "cover", "x": 0, "y": 0}, "ogre_adjacent")
    events, after = play(s, {"type": "cover", "x": 1, "y": 0})
    after.turn = 0  # back to the same player, to test what the cover changed
    after.hands = ((KIND["chief"],), (KIND["sun"],))
    after._cache = None
    assert legal(after, place("chief", 2, 0))
    s2 = pos((0, 0, "sun"), (1, 0, "ogre"), (2, 0, "ogre"), hands=[["eagle"], ["sun"]])
    illegal(s2, {"type": "cover", "x": 1, "y": 0}, "ogre_adjacent")


def test_example_9_line_limit():
    s = pos(*[(x, 0, "sun") for x in range(7)], hands=[["chief", "ogre"], ["sun"]])
    for x in (-1, 7):
        illegal(s, place("chief", x, 0), "line_too_long")
        illegal(s, place("ogre", x, 0), "line_too_long")
    assert legal(s, place("chief", 3, 1))
    runs = [(x, 0, "sun") for x in (0, 1, 2, 3, 5, 6, 7)]
    s = pos(*runs, (4, 1, "sun"), hands=[["chief"], ["sun"]])
    illegal(s, place("chief", 4, 0), "line_too_long")
    # joining two runs into exactly 7 is fine
    runs = [(x, 0, "sun") for x in (0, 1, 2, 4, 5, 6)]
    s = pos(*runs, (3, 1, "sun"), hands=[["chief"], ["sun"]])
    assert legal(s, place("chief", 3, 0))


def test_line_cap_scope_grid_line_counts_across_gaps():
    tiles = [(x, 0, "sun") for x in (0, 1, 2, 3, 5, 6, 7)] + [(4, 1, "sun"), (4, 2, "sun")]
    run = pos(*tiles, hands=[["chief"], ["sun"]])
    grid = pos(*tiles, hands=[["chief"], ["sun"]], options={"line_cap_scope": "grid_line"})
    assert legal(run, place("chief", -1, 0))
    illegal(grid, place("chief", -1, 0), "line_too_long")
    assert legal(grid, place("chief", 0, 1))


def test_example_10_tie_break_first_to_reach_the_score_wins():
    s = pos((0, 0, "sun"), hands=[[], ["chief"]], turn=1, scores=[31, 29])
    s.reached = (40, 38)
    s.moves = 43
    events, end = play(s, place("chief", 1, 0))
    assert events[0]["points"] == 2 and events[0]["move"] == 44
    res = G.result(end)
    assert res.scores == (31, 31)
    assert res.placings == (1, 2)
    assert res.detail["reached_at_move"] == [40, 44]
    # B already had 31 at move 38 and scores nothing more: B wins
    s = pos((0, 0, "sun"), hands=[[], ["hummingbird"]], turn=1, scores=[31, 31])
    s.reached = (40, 38)
    s.moves = 43
    assert G.result(play(s, place("hummingbird", 1, 0))[1]).placings == (2, 1)


def test_shared_win_when_nobody_scored():
    s = pos((0, 0, "chief"), (1, 0, "sun"), hands=[["hummingbird"], []], turn=0)
    events, end = play(s, place("hummingbird", 1, 1))
    assert events[0]["points"] == 0
    assert G.result(end).placings == (1, 1)


# --------------------------------------------------------------------------
# One test per power: a legal and an illegal use


def test_ogre_power():
    s = pos((0, 0, "sun"), (1, 0, "ogre"), hands=[["ogre", "sun"], ["sun"]])
    # legal: an Ogre may go next to an Ogre, or anywhere adjacent
    events, after = play(s, place("ogre", 2, 0))
    assert events[0]["tile"] == "ogre"
    assert legal(s, place("ogre", 0, 1))
    # illegal: a non-Ogre next to a visible Ogre
    illegal(s, place("sun", 1, 1), "ogre_adjacent")
    assert legal(s, place("sun", 0, 1))
    # an Ogre may not be the opening tile
    start = build_state(2, {}, [["ogre", "sun"], ["sun"]])
    illegal(start, place("ogre", 0, 0), "ogre_opening")
    assert G.legal_moves(start, 0) == [place("sun", 0, 0)]
    events, _ = play(start, place("sun", 0, 0))
    assert events[0]["points"] == 1


def test_eagle_power():
    s = pos((0, 0, "chief"), (1, 0, "sun"), (2, 0, "eagle"), (0, 1, "koshari"),
            hands=[["eagle"], ["sun"]])
    # legal: cover the Sun; the Eagle (5) beats the uncovered Chief? no: Chief is zeroed by the Koshari
    events, after = play(s, {"type": "cover", "x": 1, "y": 0})
    assert events[0]["covered"] == "sun" and events[0]["row"] == 0  # the other Eagle is 5 too
    assert G.view(after, 1)["board"][1] == {"x": 1, "y": 0, "tile": "eagle", "covered": "sun"}
    # illegal: an Eagle on an Eagle, on an empty cell, or without an Eagle in hand
    illegal(s, {"type": "cover", "x": 2, "y": 0}, "eagle_on_eagle")
    illegal(s, {"type": "cover", "x": 3, "y": 0}, "empty_cell")
    illegal(pos((0, 0, "chief"), hands=[["sun"], ["sun"]]), {"type": "cover", "x": 0, "y": 0}, "tile_not_in_hand")
    # covered tiles lose their value: a Sun beside an Eagle over a Chief scores
    s = pos((0, 0, "eagle"), under={(0, 0): "chief"}, hands=[["sun"], ["sun"]])
    assert points(s, place("sun", 1, 0)) == (2, 0, 2)
    # ... and their power: a covered Koshari no longer zeroes its neighbours
    s = pos((0, 0, "eagle"), (1, 0, "chief"), under={(0, 0): "koshari"}, hands=[["sun"], ["sun"]])
    assert points(s, place("sun", 1, 1)) == (0, 0, 0)  # the Chief (8) above is not zeroed


def test_wolf_power():
    s = pos((0, 0, "wolf"), (1, 0, "sun"), hands=[["wolf"], ["sun"]])
    # legal use: with an allied Wolf the placed Wolf is worth 8 and beats the Sun
    assert points(s, place("wolf", 2, 0)) == (3, 0, 3)
    # no ally in its column: a Wolf alone in a line is worth only 4
    s = pos((0, 0, "wolf"), (1, 0, "wolf"), (2, -1, "sun"), hands=[["wolf"], ["sun"]])
    assert points(s, place("wolf", 2, 0)) == (3, 0, 3)
    # illegal use: the Wolves of its column do not help it in its row
    s = pos((0, 0, "sun"), (1, -1, "wolf"), (1, -2, "wolf"), hands=[["wolf"], ["sun"]])
    assert points(s, place("wolf", 1, 0)) == (0, 3, 3)  # row: 4 < 7; column: 3 Wolves = 12
    s = pos((0, 0, "wolf"), (1, 0, "sun"), (2, 1, "koshari"), hands=[["wolf"], ["sun"]])
    assert points(s, place("wolf", 2, 0)) == (0, 0, 0)  # zeroed by the Koshari below


def test_warrior_power():
    s = pos((0, 0, "eagle"), (1, 0, "sun"), (2, 0, "warrior"), (3, 0, "eagle"), (1, 1, "chief"),
            under={(0, 0): "chief"}, hands=[["warrior", "hummingbird"], ["sun"]], pile=["sun"])
    # legal: take the Sun, which goes to the hand; no draw
    events, after = play(s, {"type": "swap", "x": 1, "y": 0})
    ev = events[0]
    assert ev["taken"] == "sun" and not ev["drew"]
    assert G.view(after, 0)["hand"] == ["hummingbird", "sun"]
    assert after.pile == s.pile
    assert G.view(after, 0)["board"][1] == {"x": 1, "y": 0, "tile": "warrior"}
    # legal: a normally placed Eagle can be taken
    assert legal(s, {"type": "swap", "x": 3, "y": 0})
    # illegal: an Eagle on top of a tile, a Warrior, a tile next to an Ogre, an empty cell
    illegal(s, {"type": "swap", "x": 0, "y": 0}, "covering_eagle")
    illegal(s, {"type": "swap", "x": 2, "y": 0}, "warrior_on_warrior")
    illegal(s, {"type": "swap", "x": 5, "y": 0}, "empty_cell")
    s = pos((0, 0, "sun"), (1, 0, "ogre"), hands=[["warrior"], ["sun"]])
    illegal(s, {"type": "swap", "x": 0, "y": 0}, "ogre_adjacent")
    # a lone Ogre may be taken [HOUSE #7]
    assert legal(s, {"type": "swap", "x": 1, "y": 0})


def test_hummingbird_power():
    # legal: the placed Hummingbird dominates a bookended line, even in the middle
    s = pos((0, 0, "hummingbird"), (1, 0, "chief"), (3, 0, "hummingbird"), (2, 1, "sun"),
            hands=[["hummingbird", "sun"], ["sun"]])
    assert points(s, place("hummingbird", 2, 0)) == (4, 0, 4)
    # two Hummingbirds side by side bookend a line of 2
    s = pos((0, 0, "hummingbird"), hands=[["hummingbird"], ["sun"]])
    assert points(s, place("hummingbird", 1, 0)) == (2, 0, 2)
    # illegal use: without the bookend a Hummingbird is just a 2
    s = pos((0, 0, "chief"), (1, 0, "sun"), hands=[["hummingbird"], ["sun"]])
    assert points(s, place("hummingbird", 2, 0)) == (0, 0, 0)
    # a non-Hummingbird cannot take a bookended line, even a Chief
    s = pos((0, 0, "hummingbird"), (2, 0, "hummingbird"), (1, 1, "koshari"), hands=[["chief"], ["sun"]])
    assert points(s, place("chief", 1, 0)) == (0, 0, 0)


def test_koshari_power():
    # legal: a Koshari zeroes its neighbours and dominates them with its 1
    s = pos((0, 0, "chief"), hands=[["koshari"], ["sun"]])
    assert points(s, place("koshari", 1, 0)) == (2, 0, 2)
    # Kosharis are not affected by each other: a Koshari next to one keeps its 1
    s = pos((1, 0, "koshari"), (2, 1, "sun"), (1, 1, "chief"), hands=[["koshari"], ["sun"]])
    assert points(s, place("koshari", 2, 0)) == (0, 2, 2)  # row K-K is a tie; column beats the zeroed Sun
    # illegal use: zeroing is positional, a tile not next to the Koshari keeps its value
    s = pos((0, 0, "chief"), (1, 0, "sun"), hands=[["koshari"], ["sun"]])
    assert points(s, place("koshari", 2, 0)) == (0, 0, 0)  # the Chief two cells away still counts 8
    # and a tile placed next to a Koshari is worth 0 in both its lines
    s = pos((0, 0, "koshari"), (1, 1, "warrior"), hands=[["chief"], ["sun"]])
    assert points(s, place("chief", 1, 0)) == (0, 0, 0)


def test_score_line_is_symmetric_in_direction():
    s = pos((0, 0, "warrior"), (0, 1, "hummingbird"), (0, 2, "wolf"), (0, 3, "sun"))
    b = dict(s.board)
    b[cell(0, 4)] = 8
    assert score_line(b, cell(0, 4), W) == 5 and score_line(b, cell(0, 4), 1) == 0


# --------------------------------------------------------------------------
# Turn structure, drawing, the end


def test_draw_after_placement_and_turn_order():
    s = pos((0, 0, "sun"), hands=[["chief"], ["koshari"], ["wolf"]], players=3, pile=["warrior"])
    events, after = play(s, place("chief", 1, 0))
    ev = events[0]
    assert ev["drew"] is True and ev["secret"] == {"drawn": "warrior"} and ev["to"] == [0]
    assert after.turn == 1 and after.pile == ()
    # a player with an empty hand is skipped
    events, after = play(after, place("koshari", 2, 0))
    events, after = play(after, place("wolf", 0, 1))
    assert after.turn == 0  # seat 1 is empty now
    events, after = play(after, place("warrior", -1, 0))
    assert G.result(after) is not None and G.to_act(after) == frozenset()
    assert G.result(after).reason == "the draw pile and every hand are empty"


def test_stuck_player_passes_and_a_full_round_of_passes_ends_the_game():
    s = pos((0, 0, "ogre"), hands=[["sun"], ["chief"]])
    assert G.legal_moves(s, 0) == [{"type": "pass"}]
    events, s = play(s, {"type": "pass"})
    assert events == [{"type": "TurnPassed", "player": 0}] and s.turn == 1
    events, s = play(s, {"type": "pass"})
    assert G.result(s).reason == "a full round passed with no tile placed"
    # one may not pass while a placement exists
    illegal(pos((0, 0, "sun"), hands=[["sun"], ["sun"]]), {"type": "pass"}, "must_place")


def test_stuck_player_discard_option():
    s = pos((0, 0, "ogre"), hands=[["sun", "chief"], ["chief"]], pile=["ogre"],
            options={"stuck_player": "discard"})
    assert G.legal_moves(s, 0) == [{"type": "discard", "tile": "sun"}, {"type": "discard", "tile": "chief"}]
    illegal(s, {"type": "pass"}, "wrong_stuck_rule")
    events, after = play(s, {"type": "discard", "tile": "chief"})
    assert events[0]["secret"] == {"drawn": "ogre"}
    assert G.view(after, 0)["hand"] == ["ogre", "sun"] and after.pile == ()


def test_opening_player_draws_option():
    order = ["sun"] * 5 + ["chief"] * 5 + ["wolf"] * 5
    for draws, size in ((True, 5), (False, 4)):
        opts = G.check_options(2, {"tile_order": order, "start_player": 0, "opening_redraw": False,
                                   "opening_player_draws": draws})
        s = G.start(2, opts)
        s = G.apply(s, G.setup(s, RNG))
        events, s = play(s, place("sun", 0, 0))
        assert events[0]["points"] == 1 and events[0]["drew"] is draws
        assert G.view(s, 0)["hand_sizes"] == [size, 5]


def test_fixed_tile_order_deals_and_draws_in_order():
    order = (["sun", "wolf", "chief", "koshari", "eagle"] + ["ogre", "ogre", "sun", "hummingbird", "warrior"]
             + ["chief", "koshari", "wolf", "wolf", "sun", "eagle"])
    opts = G.check_options(2, {"tile_order": order, "start_player": 1, "opening_redraw": False})
    s = G.start(2, opts)
    events = G.setup(s, random.Random(5))
    assert events[0] == {"type": "StartPlayerChosen", "player": 1}
    s = G.apply(s, events)
    assert G.view(s, 0)["hand"] == ["koshari", "wolf", "eagle", "sun", "chief"]
    assert G.view(s, 1)["hand"] == ["hummingbird", "warrior", "ogre", "ogre", "sun"]
    events, s = play(s, place("sun", 0, 0))
    assert events[0]["secret"]["drawn"] == "chief"
    events, s = play(s, place("chief", 1, 0))
    assert events[0]["secret"]["drawn"] == "koshari"
    # the same options give the same game whatever the rng
    dumps = []
    for seed in (5, 99):
        s = G.start(2, opts)
        dumps.append(canonical(G.dump(G.apply(s, G.setup(s, random.Random(seed))))))
    assert dumps[0] == dumps[1]


def test_bad_tile_order_is_rejected():
    from pbem.games.base import BadOptions
    with pytest.raises(BadOptions):
        G.check_options(2, {"tile_order": ["sun", "moon"] * 10})
    with pytest.raises(BadOptions):
        G.check_options(2, {"tile_order": ["chief"] * 7 + ["sun"] * 8})
    with pytest.raises(BadOptions):
        G.check_options(2, {"tile_order": ["sun"] * 8})
    with pytest.raises(BadOptions):
        G.check_options(2, {"start_player": 3})


def test_default_move_is_the_canonical_first_placement():
    s = pos((0, 0, "sun"), hands=[["chief", "warrior", "koshari"], ["sun"]])
    assert G.default_move(s, 0) == place("koshari", 0, -1)
    moves = G.legal_moves(s, 0)
    kinds = [m.get("tile", "warrior") for m in moves]
    assert kinds == sorted(kinds, key=["koshari", "warrior", "chief"].index)
    wa = [m for m in moves if m.get("tile") == "warrior" or m["type"] == "swap"]
    assert [m["type"] for m in wa] == ["place"] * 4 + ["swap"]


# --------------------------------------------------------------------------
# The redraw


def redraw_game(players=2, start=0, order=None, **extra):
    order = order or (["sun", "sun", "sun", "wolf", "chief"] + ["ogre", "eagle", "wolf", "koshari", "chief"]
                      + ["hummingbird", "warrior", "koshari", "eagle", "wolf", "chief", "sun"])
    opts = G.check_options(players, {"tile_order": order, "start_player": start, **extra})
    s = G.start(players, opts)
    return G.apply(s, G.setup(s, RNG))


def test_redraw_is_offered_to_every_seat_but_allowed_only_with_three_of_a_kind():
    s = redraw_game()
    assert s.phase == "redraw" and G.to_act(s) == frozenset({0, 1})
    assert G.legal_moves(s, 0) == [{"type": "keep"}, {"type": "redraw"}]
    assert G.legal_moves(s, 1) == [{"type": "keep"}]
    illegal(s, {"type": "redraw"}, "no_redraw", player=1)
    illegal(s, place("sun", 0, 0), "wrong_phase", player=0)
    # the answer is secret until all have answered
    events, s = play(s, {"type": "redraw"}, player=0)
    assert events == [{"type": "RedrawChosen", "player": 0, "secret": {"redraw": True}, "to": [0]}]
    assert "secret" not in G.redact(events[0], 1)
    assert G.redact_move({"type": "redraw"}, 0, 1) is None
    assert G.redact_move({"type": "redraw"}, 0, 0) == {"type": "redraw"}
    assert "redraw_choice" not in G.view(s, 1) and G.view(s, 0)["redraw_choice"] is True
    assert G.view(s, 1)["redraw_answered"] == [True, False]
    illegal(s, {"type": "keep"}, "already_answered", player=0)  # once only, and told so
    events, s = play(s, {"type": "keep"}, player=1)
    assert [e["type"] for e in events] == ["RedrawChosen", "HandRedrawn"]
    red = events[1]
    assert red["player"] == 0 and red["to"] == [0]
    assert red["secret"] == {"drawn": ["hummingbird", "warrior", "koshari", "eagle", "wolf"],
                             "returned": ["wolf", "sun", "sun", "sun", "chief"]}
    assert s.phase == "play" and G.to_act(s) == frozenset({0})
    assert G.view(s, 0)["hand"] == ["koshari", "hummingbird", "warrior", "wolf", "eagle"]
    assert G.view(s, 0)["pile_size"] == 7
    assert G.view(s, OMNISCIENT)["pile"] == ["chief", "sun", "wolf", "sun", "sun", "sun", "chief"]


def test_redraws_resolve_in_seat_order_from_the_start_player():
    order = (["sun"] * 3 + ["wolf", "chief"]) + (["eagle"] * 3 + ["ogre", "chief"]) \
        + ["koshari", "koshari", "hummingbird", "hummingbird", "warrior"] \
        + ["wolf", "wolf", "wolf", "warrior", "warrior"] + ["chief"]
    s = redraw_game(order=order, start=1)
    _, s = play(s, {"type": "redraw"}, player=0)
    events, s = play(s, {"type": "redraw"}, player=1)
    assert [e["player"] for e in events[1:]] == [1, 0]
    assert events[1]["secret"]["drawn"] == ["koshari", "koshari", "hummingbird", "hummingbird", "warrior"]
    assert events[2]["secret"]["drawn"] == ["wolf", "wolf", "wolf", "warrior", "warrior"]


def test_every_seat_answers_the_redraw_signed_at_the_deal():
    """The redraw is one window: an answer signed at the deal stands after
    the other seats' answers, until the last one ends the window."""
    order = (["sun"] * 3 + ["wolf", "chief"]) + (["eagle"] * 3 + ["ogre", "chief"]) \
        + (["wolf"] * 3 + ["koshari", "chief"]) + ["hummingbird", "warrior", "koshari", "eagle", "wolf"] * 2
    dealt = redraw_game(players=3, order=order)
    assert G.concurrency == "window" and G.window(dealt) == "redraw" and G.to_act(dealt) == {0, 1, 2}
    _, one = play(dealt, {"type": "redraw"}, player=1)
    assert G.concurrent_ok(dealt, one, 0) and G.concurrent_ok(dealt, one, 2), "still the same window"
    assert not G.concurrent_ok(dealt, one, 1), "seat 1 has answered"
    _, two = play(one, {"type": "keep"}, player=0)  # decided on the newer state, as the server does
    assert G.concurrent_ok(dealt, two, 2) and G.concurrent_ok(one, two, 2)
    events, done = play(two, {"type": "redraw"}, player=2)
    assert [e["type"] for e in events] == ["RedrawChosen", "HandRedrawn", "HandRedrawn"]
    assert done.phase == "play" and G.window(done) is None
    for seat in range(3):
        assert not G.concurrent_ok(dealt, done, seat), "the window closed"
        assert not G.concurrent_ok(two, done, seat)


def test_play_is_strict():
    s = pos((0, 0, "sun"), turn=0)
    _, after = play(s, place("chief", 1, 0))
    assert G.window(s) is None and G.window(after) is None
    assert not G.concurrent_ok(s, after, 1) and not G.concurrent_ok(s, after, 0)
    dealt = redraw_game(opening_redraw=False)
    assert dealt.phase == "play" and G.window(dealt) is None


def test_start_player_with_only_ogres_redraws_until_they_can_open():
    order = ["ogre"] * 5 + ["sun"] * 5 + ["ogre"] * 3 + ["eagle"] * 2 + ["chief"] * 5
    s = G.start(2, G.check_options(2, {"tile_order": order, "start_player": 0, "opening_redraw": False}))
    events = G.setup(s, RNG)
    forced = [e for e in events if e["type"] == "HandRedrawn"]
    assert len(forced) == 1 and forced[0]["forced"] is True
    s = G.apply(s, events)
    assert G.view(s, 0)["hand"] == ["eagle", "eagle", "ogre", "ogre", "ogre"]
    assert G.legal_moves(s, 0) == [place("eagle", 0, 0)]


# --------------------------------------------------------------------------
# Hidden information


@pytest.mark.parametrize("players", [2, 4])
def test_hands_and_pile_never_reach_another_player(players):
    playout = play_random(G, players, {}, seed=3)
    state = G.start(players, playout.options)
    hidden_fields = {"hands", "pile", "redraw_choices"}
    for event in playout.events:
        for viewer in [*range(players), SPECTATOR]:
            seen = G.redact(event, viewer)
            if viewer not in event.get("to", ()):
                assert "secret" not in seen
                text = json.dumps(seen)
                assert "drawn" not in text and "returned" not in text and "tiles" not in text
        state = G.evolve(state, event)
        for viewer in [*range(players), SPECTATOR]:
            v = G.view(state, viewer)
            assert not hidden_fields & set(v)
            assert ("hand" in v) == (viewer is not SPECTATOR)
            if viewer is not SPECTATOR:
                assert v["hand"] == G.view(state, OMNISCIENT)["hands"][viewer]
            # swapping every other hand and the pile changes nothing this viewer sees
            other = G.resample(state, viewer, random.Random(1))
            assert canonical(G.view(other, viewer)) == canonical(v)
    assert G.result(state) is not None


# --------------------------------------------------------------------------
# Notation


def test_notation_reads_variants_and_round_trips():
    s = pos((0, 0, "sun"), (1, 0, "chief"), hands=[["eagle", "warrior", "hummingbird"], ["sun"]])
    cases = {
        "hummingbird 2,0": place("hummingbird", 2, 0),
        "  HU  2 , 0 ": place("hummingbird", 2, 0),
        "place hummingbird at (0,-1)": place("hummingbird", 0, -1),
        "eagle on 1,0": {"type": "cover", "x": 1, "y": 0},
        "Eagle 1,0": {"type": "cover", "x": 1, "y": 0},
        "cover 1 0": {"type": "cover", "x": 1, "y": 0},
        "warrior swap 0,0": {"type": "swap", "x": 0, "y": 0},
        "swap 0,0": {"type": "swap", "x": 0, "y": 0},
        "warrior 2,0": place("warrior", 2, 0),
        "蜂鳥 2,0": place("hummingbird", 2, 0),
        "PASS": {"type": "pass"},
        "discard Sun": {"type": "discard", "tile": "sun"},
        "Keep": {"type": "keep"},
    }
    for text, move in cases.items():
        assert G.parse(text, s, 0) == move, text
    for move in G.legal_moves(s, 0):
        assert G.parse(G.describe(move, 0), s, 0) == move


@pytest.mark.parametrize("text", ["sun", "chief sun 1,0", "eagle swap 1,0", "moon 1,0", "hello", "sun 1,0 please"])
def test_notation_errors_say_what_was_expected(text):
    s = pos((0, 0, "sun"), hands=[["eagle", "warrior", "hummingbird"], ["sun"]])
    with pytest.raises(ParseError) as err:
        G.parse(text, s, 0)
    d = err.value.details
    assert "sun 3,-1" in d["expected"]
    assert d["examples"] and all(G.parse(e, s, 0) in G.legal_moves(s, 0) for e in d["examples"])
    assert any(e.startswith("eagle on") for e in d["examples"])
    assert any(e.startswith("warrior swap") for e in d["examples"])


def test_render_and_event_descriptions():
    s = pos((0, 0, "eagle"), (1, 0, "ogre"), under={(0, 0): "koshari"}, hands=[["ogre"], ["sun"]])
    text = G.render(s, 0)
    assert "EA*" in text and "OG" in text and "0,0 koshari" in text and "Your tiles: ogre" in text
    events, _ = play(s, place("ogre", 2, 0))
    assert G.describe(events[0], 1) == "Seat 0 placed an Ogre at 2,0 and scored nothing."


def test_module_docstring_example_runs():
    import doctest

    import pbem.games.kachina as module
    failed, attempted = doctest.testmod(module)
    assert attempted > 5 and failed == 0
