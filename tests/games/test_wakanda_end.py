"""Wakanda's end when a player is out of headdresses: the source's reading
(wakanda@2's default: such a player stops once the bag is empty) against the
English rulebook's (wakanda@1, and the ``build_after_bag_empty`` option: they
build on with what they hold). One position where the two give different
winners; the texts around it (names, village names, the score now, the
scoring rules on the board and in the help)."""
from __future__ import annotations

import random

import pytest

from pbem import games
from pbem.games.base import IllegalMove

V2 = games.get("wakanda", 2)
V1 = games.get("wakanda", 1)
A, B = 0, 1
NAMES = ["Ann", "Bob"]


def position(game, **options):
    """A to move, the bag empty. B (seat 1) has placed all three headdresses,
    the third on turn 12, and holds one Sun; A holds a Chief and has one
    headdress left; village 6 (Tipi) is the last pole. A owns Sun and Eagle,
    B owns Chief, Height and Fur. As it stands: A 16 once A claims village 6,
    B 16."""
    opts = game.check_options(2, {"fixed_villages": ["sun", "eagle", "chief", "height", "fur", "tipi",
                                                     "tomahawk", "variety"], "start_player": A, **options})
    state = game.start(2, opts)
    state = game.apply(state, game.setup(state, random.Random(0)))
    state.update(
        opened=6, current=A, turn=22, passes=0, headdresses=[1, 0], bag=[0] * 6,
        poles=[["sun", "sun", "chief"], ["eagle", "sun", "fur"], ["fur", "tipi", "tipi", "tipi"],
               ["fur", "tomahawk", "tomahawk", "tomahawk"], ["fur", "sun"], ["tipi", "tipi", "sun"]],
        owner=[A, A, B, B, B, None], held=[["chief"], ["sun"]],
        claims=[[B, 3, 4], [A, 1, 5], [B, 4, 8], [A, 2, 9], [B, 5, 12]])
    assert sum(map(len, state["poles"])) + sum(map(len, state["held"])) == 21
    return state


def play(game, state, player, move):
    assert game.to_act(state) == {player}, (game.to_act(state), move)
    events = game.decide(state, player, game.parse(move, state, player), random.Random(1))
    return game.apply(state, events), events


def test_the_source_a_player_out_of_headdresses_stops_once_the_bag_is_empty():
    state, events = play(V2, position(V2), A, "build chief on 6")
    assert events[-1] == {"type": "PlayerStopped", "player": B}
    assert V2.to_act(state) == {A} and V2.legal_moves(state, B) == []
    assert V2.view(state, B)["stopped"] == [B]
    state, events = play(V2, state, A, "claim 6")
    result = V2.result(state)
    assert result.scores == (16, 16)
    assert result.placings == (2, 1) and result.winners == [B]  # B placed the third headdress first
    assert result.detail["tie_break_key"] == {"winner": B, "rule": "third", "mine": 12, "theirs": 23}
    assert V2.describe_result(result, NAMES) == (
        "Bob won 16-16: all six poles are claimed. Tie broken: Bob placed the third headdress first "
        "(turn 12 against turn 23).")


@pytest.mark.parametrize("game,options", [(V1, {}), (V2, {"build_after_bag_empty": True})],
                         ids=["wakanda@1", "wakanda@2 build_after_bag_empty"])
def test_the_english_rulebook_they_build_on_until_they_hold_nothing(game, options):
    state, events = play(game, position(game, **options), A, "build chief on 6")
    assert [e["type"] for e in events] == ["PieceBuilt"]
    assert game.legal_moves(state, B) == [{"type": "build", "piece": "sun", "village": 6}]  # forced
    with pytest.raises(IllegalMove):
        game.decide(state, B, {"type": "pass"}, random.Random(0))
    state, _ = play(game, state, B, "build sun on 6")  # a Sun for A, who owns the Sun village
    state, _ = play(game, state, A, "claim 6")
    result = game.result(state)
    assert result.scores == (17, 16) and result.winners == [A]
    assert game.describe_result(result, NAMES) == "Ann won 17-16: all six poles are claimed."


def test_wakanda_1_has_no_option_and_new_games_are_wakanda_2():
    assert games.get("wakanda") is V2 and V2.key == "wakanda@2"
    assert "build_after_bag_empty" not in {o.name for o in V1.options}
    assert V2.check_options(2, {})["build_after_bag_empty"] is False


def test_a_stopped_player_and_one_who_cannot_act_end_the_game_at_once():
    """The other seat alone plays on; when it can do nothing, its pass ends
    the game (no second pass waits for a seat that has stopped)."""
    state = position(V2)
    state.update(held=[[], ["sun"]], poles=[*state["poles"][:5], []])  # village 6 empty: nothing to claim
    state["held"][A] = []
    state, events = play(V2, state, A, "pass")
    assert [e["type"] for e in events] == ["Passed", "PlayerStopped", "GameEnded"]
    assert events[-1]["reason"] == "stopped" and V2.result(state) is not None


def test_the_board_says_the_scoring_rules_the_score_now_and_the_names():
    state = position(V2)
    board = V2.render(state, A, NAMES)
    assert "Wakanda - turn 22 - Ann to act - Ann started" in board
    assert "8 per Eagle" in board and "2 per kind of piece" not in board  # Variety is not in the row
    assert "2 per piece of the tallest pole" in board and "1 per Sun, no Sun penalty" in board
    assert "Sun penalty: without the Sun village, -1 per Sun on your poles." in board
    assert "claimed by Bob (turn 12)" in board
    assert "Score now: Ann 10 (Sun 3, Eagle 8, Sun penalty" not in board  # A owns Sun: no penalty
    assert "Score now: Ann 11 (Sun 3, Eagle 8); Bob 16 (Chief 0, Height 8, Fur 9, Sun penalty -1)" in board
    assert "seat" not in board.lower().replace("each village", "")
    state, events = play(V2, state, A, "build chief on 6")
    assert V2.describe(events[0], A, NAMES) == "Ann built a Chief on village 6 (Tipi)."
    assert V2.describe(events[1], A, NAMES) == (
        "Bob has no headdress left and the bag is empty: Bob stops, the other player plays on.")
    assert "stopped (no headdress, the bag empty)" in V2.render(state, A, NAMES)
    assert V2.describe({"type": "PieceBuilt", "player": 1, "piece": "sun", "village": 2}) == \
        "Seat 1 built a Sun on village 2."  # a logged event from before names rode along


def test_the_help_says_the_scoring_and_the_end_rule_in_play():
    source = V2.notation_help_for(V2.check_options(2, {}))
    english = V2.notation_help_for(V2.check_options(2, {"build_after_bag_empty": True}))
    assert "until the bag is empty, then stops" in source and "also once the bag is empty" in english
    assert "also once the bag is empty" in V1.notation_help_for(V1.check_options(2, {}))
    for text in (source, english):
        assert "Variety: 2 per kind of piece" in text and "Sun penalty: without the Sun village" in text
        assert "third headdress first" in text
    assert "stops once the bag is empty (the source)" in V2.describe_setup(V2.check_options(2, {}), 2)
