"""Options at the Option level: a list option checks each element (type,
choices, duplicates, count) before any rules module sees the list."""
from __future__ import annotations

import pytest

from pbem import games
from pbem.games.base import BadOptions, Option

COLOURS = Option("colours", [], "colours in play", list, item_choices=("red", "blue"), unique=True, max_items=3)
ORDER = Option("order", [], "a draw order (repeats allowed)", list)


@pytest.mark.parametrize("value,says", [
    ([[]], "item 0 must be a text, not []"),
    (["red", {}], "item 1 must be a text, not {}"),
    ([1], "item 0 must be a text, not 1"),
    ([True], "item 0 must be a text, not True"),
    ([None], "item 0 must be a text, not None"),
    (["green"], "item 0 must be one of red, blue, not 'green'"),
    (["red", "red"], "lists 'red' more than once"),
    (["red", "blue", "red", "blue"], "takes at most 3 items"),
])
def test_list_elements_are_checked(value, says):
    with pytest.raises(BadOptions) as err:
        COLOURS.check(value)
    assert err.value.code == "bad_option_value"
    assert says in err.value.message
    assert err.value.details["option"] == "colours"


def test_good_lists_pass_and_repeats_are_allowed_unless_unique():
    assert COLOURS.check(["blue", "red"]) == ["blue", "red"]
    assert COLOURS.check([]) == []
    assert ORDER.check(["A", "A", "B"]) == ["A", "A", "B"]
    with pytest.raises(BadOptions) as err:
        ORDER.check(["A", ["B"]])
    assert err.value.code == "bad_option_value"
    with pytest.raises(BadOptions) as err:
        ORDER.check("AB")  # not a list at all
    assert err.value.code == "bad_option_type"


def test_describe_shows_what_elements_may_be():
    assert COLOURS.describe()["items"] == {"type": "str", "choices": ["red", "blue"], "unique": True, "max_items": 3}


@pytest.mark.parametrize("game,options", [
    ("carcassonne", {"expansions": [[]]}),
    ("carcassonne", {"expansions": [{"a": 1}]}),
    ("carcassonne", {"expansions": ["cult", "cult"]}),
    ("carcassonne", {"expansions": ["no_such_expansion"]}),
    ("carcassonne", {"draw_order": [["A"]]}),
    ("kachina", {"tile_order": [[]]}),
    ("wakanda", {"fixed_villages": [[]]}),
    ("wakanda", {"fixed_bag": [{}]}),
])
def test_every_game_refuses_odd_list_elements(game, options):
    with pytest.raises(BadOptions) as err:
        games.get(game).check_options(2, options)
    assert err.value.code == "bad_option_value"


def test_every_list_option_of_every_game_checks_its_elements():
    for game in games.all_games():
        for option in game.options:
            if option.kind is list:
                with pytest.raises(BadOptions):
                    game.check_options(game.min_players, {option.name: [[]]})
