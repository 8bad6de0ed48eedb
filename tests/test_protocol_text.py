"""The protocol's words for people: naming seats, results' outcomes, the
default setup line and result line (pbem/games/base.py)."""
from __future__ import annotations

import pytest

from pbem.games.base import Game, Option, Result, forfeit_result, name_seat, seat_from_text, seat_names


def test_a_seat_is_named_by_its_players_name():
    assert seat_names(3, ["Ann", "Bob", "Cy"]) == ["Ann", "Bob", "Cy"]
    assert name_seat(1, ["Ann", "Bob"]) == "Bob"
    assert name_seat(1, ["Ann", "  Bob   Lee "]) == "Bob Lee"  # spaces tidied


def test_a_seat_number_where_a_name_is_missing_blank_or_shared():
    assert seat_names(4, ["Ann", None, "  ", "ann"]) == ["seat 0", "seat 1", "seat 2", "seat 3"]
    assert seat_names(3, ["Ann"]) == ["Ann", "seat 1", "seat 2"]
    assert seat_names(2, None) == ["seat 0", "seat 1"]


def test_a_name_that_reads_like_a_seat_number_is_not_used():
    assert seat_names(3, ["2", "Seat 0", "p1"]) == ["seat 0", "seat 1", "seat 2"]


def test_capital_only_for_the_seat_fallback():
    assert name_seat(0, None, capital=True) == "Seat 0"
    assert name_seat(0, ["ann"], capital=True) == "ann"  # a name stays as its player wrote it
    assert name_seat(None, None, capital=True) == "Nobody"


def test_a_seat_is_read_back_by_number_or_name():
    names = ["Ann", "Bob Lee"]
    assert [seat_from_text(t, 2, names) for t in ("1", "seat 1", "p1", "#0", "bob lee", "ANN")] == [1, 1, 1, 0, 1, 0]
    assert seat_from_text("seat 2", 2, names) is None and seat_from_text("Cy", 2, names) is None
    # a shared name names nobody: the texts show "seat N" for both
    assert seat_from_text("ann", 2, ["Ann", "ann"]) is None and seat_from_text("seat 1", 2, ["Ann", "ann"]) == 1


def test_outcome_and_winners():
    won = Result((3, 1), (1, 2))
    assert won.as_dict()["outcome"] == "won" and won.as_dict()["winners"] == [0]
    lost = Result((12,), (1,), "lost", outcome="lost")
    assert lost.as_dict()["winners"] == [] and lost.as_dict()["outcome"] == "lost"
    none = Result((0, 0, 0), (1, 1, 1), "time up", outcome="no_winner")
    assert none.as_dict()["winners"] == []
    with pytest.raises(ValueError):
        Result((0,), (1,), outcome="maybe")


def test_a_solo_forfeit_is_lost_and_a_seat_forfeit_is_won_by_the_others():
    assert forfeit_result(1, 0).as_dict()["outcome"] == "lost" and forfeit_result(1, 0).winners == []
    assert forfeit_result(3, 1).winners == [0, 2] and forfeit_result(3, 1).outcome == "won"


class Toy(Game):
    name = "toy"
    title = "Toy"
    options = (Option("fast", False, "Everything twice as fast."), Option("size", 3, "Board size.", int))


def test_default_setup_line_names_only_options_off_their_default():
    assert Toy().describe_setup({"fast": False, "size": 3}, 2) == "Toy; 2 players."
    assert Toy().describe_setup({"fast": True, "size": 5}, 1) == (
        "Toy; 1 player; Everything twice as fast: on; Board size: 5.")


def test_default_result_line():
    toy = Toy()
    assert toy.describe_result(Result((17, 16), (1, 2), "all claimed"), ["Ann", "Bob"]) == "Ann won (17-16): all claimed."
    assert toy.describe_result(Result((5, 5), (1, 1)), None) == "Draw (5-5)."
    assert toy.describe_result(Result((12,), (1,), outcome="lost")) == "Seat 0 lost (12)."
    assert toy.describe_result({"scores": [0, 0], "placings": [1, 1], "outcome": "no_winner", "winners": []}) == \
        "No winner (0-0)."
    # a result stored before outcomes existed reads as won
    assert toy.describe_result({"scores": [2, 1], "placings": [1, 2], "winners": [0]}, ["Ann", "Bob"]) == "Ann won (2-1)."


def test_a_game_over_mail_says_lost_or_no_winner_never_a_winning_seat_that_lost():
    from pbem.notify.kinds import GAME_OVER, Notice
    from pbem.notify.mail import _html_body, _text_body
    toy = Toy()
    for result, said in ((Result((12,), (1,), "lost", outcome="lost"), "Ann lost (12)"),
                         (Result((0, 0), (1, 1), "time up", outcome="no_winner"), "No winner (0-0)")):
        names = ["Ann", "Bob"][:len(result.scores)]
        n = Notice(GAME_OVER, "g1", "toy", "A game", 0, "Ann", 9, "finished", [], result=result.as_dict(),
                   names=names, result_text=toy.describe_result(result, names))
        for body in (_text_body(n), _html_body(n, None, "reply@example.test", "Game over")):
            assert said in body and "Winner" not in body and " won" not in body, body


def test_a_record_written_before_outcomes_still_verifies_and_one_missing_a_field_does_not():
    from pbem.trust.record import same_decision
    replayed = Result((12,), (1,), "lost", {"won": False, "new": 1}, outcome="lost").as_dict()
    old = {"scores": [12], "placings": [1], "winners": [0], "reason": "lost", "detail": {"won": False}}
    assert same_decision(old, replayed)  # written before outcomes: its winners are the seats placed first
    assert same_decision(replayed, replayed)
    assert same_decision({**replayed, "reason": "worded by another server", "detail": {}}, replayed)
    assert not same_decision({**old, "winners": []}, replayed)
    assert not same_decision({**replayed, "outcome": "won", "winners": [0]}, replayed)
    assert not same_decision({k: v for k, v in old.items() if k != "scores"}, replayed)
    assert not same_decision({**old, "scores": [11]}, replayed)
