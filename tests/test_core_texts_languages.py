"""The protocol's own texts (pbem/games/base.py) in both languages (issue
27): seats with no usable name ("seat 2" / "座位2") and the Chinese forms a
player types for them, who won, the setup and option refusals; in the
pseudo-locale none of them leaves plain English but names and notation."""
from __future__ import annotations

import pytest

from pbem.games.base import (BadOptions, Game, Option, Result, forfeit_result, name_seat, name_seats, seat_from_text,
                             seat_names)
from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, reading

from .pseudo_support import leftover_english


class Toy(Game):
    name, title, min_players, max_players = "toy", "Toy", 1, 4
    options = (Option("fast", False, "Everything twice as fast"), Option("size", 3, "Board size", int, minimum=2,
                                                                         maximum=9),
               Option("colours", [], "Colours in play", list, item_choices=("red", "blue"), unique=True, max_items=2))


def test_a_seat_with_no_usable_name_reads_as_its_number_in_the_readers_language():
    names = ["Ann", "2", None, "ann "]  # a number, none, and two alike
    with reading(ENGLISH):
        assert seat_names(4, names) == ["seat 0", "seat 1", "seat 2", "seat 3"]
        assert name_seat(2, ["Ann", "Bob", None], capital=True) == "Seat 2"
        assert name_seat(None) == "nobody"
    with reading(CHINESE):
        assert seat_names(3, ["Ann", "2", None]) == ["Ann", "座位1", "座位2"]
        assert name_seat(2, ["Ann", "Bob", None], capital=True) == "座位2"
        assert name_seat(None, capital=True) == "沒有人"
        assert name_seats("Seat 1 drew; seat 0 passed.", ["Ann", ""]) == "座位1 drew; Ann passed."


def test_a_move_names_a_seat_in_the_notations_words_and_parses_back():
    names = ["Ann", None, "小明"]
    for lang, written in ((ENGLISH, "seat 1"), (CHINESE, "座位1"), (PSEUDO, "seat 1")):
        with reading(lang):
            assert name_seat(1, names, in_move=True) == written
            assert name_seat(2, names, in_move=True) == "小明"
            for reader in (ENGLISH, CHINESE):
                with reading(reader):
                    assert seat_from_text(written, 3, names) == 1


@pytest.mark.parametrize("text,seat", [("座位 2", 2), ("座位2", 2), ("２號", 2), ("玩家 1", 1), ("第2號", 2),
                                       ("座位２", 2), ("seat 2", 2), ("#1", 1), ("小明", 0), ("座位 7", None)])
def test_seat_from_text_reads_the_chinese_forms_too(text, seat):
    assert seat_from_text(text, 3, ["小明", "Ann", None]) == seat


def test_a_name_that_reads_like_a_chinese_seat_number_is_not_taken_as_a_name():
    assert seat_names(2, ["座位 1", "Bob"])[0] == "seat 0"
    assert seat_from_text("座位 1", 2, ["座位 1", "Bob"]) == 1


def test_who_won_in_both_languages():
    toy = Toy()
    names = ["Ann", "小明"]
    with reading(CHINESE):
        assert toy.describe_result(Result((17, 16), (1, 2)), names) == "Ann獲勝（17-16）。"
        assert toy.describe_result(Result((5, 5), (1, 1)), None) == "平手（5-5）。"
        assert toy.describe_result(forfeit_result(2, 1), names) == "Ann獲勝：小明棄權。"
        assert toy.describe_result(Result((2, 2, 1), (1, 1, 3)), ["Ann", "小明", "Cy"]) == "Ann和小明獲勝（2-2-1）。"
    with reading(ENGLISH):
        assert toy.describe_result(forfeit_result(2, 1), names) == "Ann won: 小明 forfeited."
        assert toy.describe_result(Result((2, 2, 1), (1, 1, 3)), ["Ann", "Bob", "Cy"]) == "Ann and Bob won (2-2-1)."


def test_the_setup_and_option_refusals_in_both_languages():
    toy = Toy()
    with reading(CHINESE):
        assert toy.describe_setup({"fast": True, "size": 3, "colours": []}, 2).startswith("Toy；2位玩家；")
        with pytest.raises(BadOptions) as err:
            toy.check_options(2, {"size": 12})
        assert err.value.message == "選項 size 的值最多是9" and err.value.code == "bad_option_value"
        with pytest.raises(BadOptions) as err:
            toy.check_options(7, {})
        assert err.value.message == "Toy需要1到4位玩家，不是7位"
    with reading(ENGLISH):
        with pytest.raises(BadOptions) as err:
            toy.check_options(2, {"speed": 1, "colour": 2})
        assert err.value.message == "this game has no options colour, speed; its options: colours, fast, size"


def test_no_protocol_text_is_left_in_english_in_the_pseudo_locale():
    toy = Toy()
    names = ["Ann", None]
    texts = {}
    with reading(PSEUDO):
        texts["setup"] = toy.describe_setup({"fast": True, "size": 5, "colours": ["red"]}, 2)
        texts["won"] = toy.describe_result(Result((3, 1), (1, 2), "forfeit", {"forfeited": 1}), names)
        texts["lost"] = toy.describe_result(Result((3,), (1,), outcome="lost"), None)
        texts["draw"] = toy.describe_result(Result((3, 3), (1, 1)), names)
        texts["nobody"] = toy.describe_result(Result((0, 0), (1, 1), "abandoned", outcome="no_winner"), names)
        texts["seat"] = name_seat(1, names, capital=True)
        for options in ({"size": 1}, {"size": "big"}, {"colours": ["green"]}, {"colours": ["red", "red"]},
                        {"colours": ["red", "blue", "red"]}, {"colours": [1]}, {"nope": 1}):
            with pytest.raises(BadOptions) as err:
                toy.check_options(2, options)
            texts[str(options)] = err.value.message
        with pytest.raises(BadOptions) as err:
            toy.check_options(9, {})
        texts["players"] = err.value.message
    # option names and values are what the client sent: they stay as sent
    allowed = ["Ann", "Toy", "size", "colours", "nope", "'big'", "'green'", "'red'", "red", "blue"]
    left = {k: leftover_english(v, allowed) for k, v in texts.items()}
    assert not any(left.values()), {k: (texts[k], v) for k, v in left.items() if v}
