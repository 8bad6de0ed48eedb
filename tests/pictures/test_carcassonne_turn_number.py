"""One turn number for Carcassonne: at every version of whole games (base,
and with the expansions whose turns have extra steps: the builder's double
turn, the dragon, the tower, the abbey), the picture's panel ("Turn N ·")
and the text board's head ("Carcassonne - turn N") say the same N, in
English and in Chinese, and N is the turn in play: 1 on the first turn,
one more as each turn begins, the turns played at the end."""
from __future__ import annotations

import re

import pytest

from pbem import games, pictures
from pbem.games.base import SPECTATOR
from pbem.games.carcassonne.rules import BEFORE_PLACING, turn_number
from pbem.games.i18n import reading
from pbem.games.playout import play_random

GAME = games.get("carcassonne")
SETUPS = [
    (2, {}, 1),
    (3, {"expansions": ["traders_builders", "princess_dragon", "tower", "abbey_mayor"]}, 2),
]
#: (language, the text board's head, the picture's status line)
WORDS = [("en", r"Carcassonne - turn (\d+)", r"Turn (\d+) \u00b7")]


def numbers(pattern: str, text: str) -> list:
    return [int(n) for n in re.findall(pattern, text)]


@pytest.mark.parametrize("players,options,seed", SETUPS)
def test_the_picture_and_the_text_board_number_every_turn_alike(players, options, seed):
    played = play_random(GAME, players, options, seed=seed)
    state = GAME.start(players, played.options)
    shown = []
    for i, event in enumerate(played.events):
        state = GAME.evolve(state, event)
        view = GAME.view(state, SPECTATOR)
        number = turn_number(view["turn"], view["step"], view["over"])
        assert number == turn_number(state.turn, state.step, state.over)
        text = GAME.render(state, SPECTATOR)
        assert numbers(WORDS[0][1], text.split("\n")[0]) == [number], (i, event["type"])
        if state.over:
            continue
        # the picture is the slow part: every version of the first 40, then every 7th
        if i < 40 or i % 7 == 0:
            svg = pictures.svg("carcassonne", view, names=["Ann", "Bob", "Cyd"][:players], viewer=SPECTATOR)
            assert numbers(WORDS[0][2], svg) == [number], (i, event["type"])
        shown.append((state.step, number))
    assert shown[0][1] == 1
    assert all(b >= a for (_t, a), (_u, b) in zip(shown, shown[1:]))
    # a new number comes as a turn begins (a tile drawn, the builder's second
    # tile too; an abbey offered before the draw), never while a turn is played
    for (_s, before), (step, after) in zip(shown, shown[1:]):
        if after != before:
            assert step in BEFORE_PLACING and after == before + 1, (step, before, after)
    assert turn_number(state.turn, state.step, state.over) == state.turn == len(state.placed) - 1


def test_the_same_number_in_chinese():
    played = play_random(GAME, 2, {}, seed=3)
    for upto in (29, 30):   # drawing, then placing
        state = GAME.replay(2, played.options, played.events[:upto])
        view = GAME.view(state, SPECTATOR)
        number = turn_number(view["turn"], view["step"], view["over"])
        with reading("zh-Hant"):
            text = GAME.render(state, SPECTATOR).split("\n")[0]
            svg = pictures.svg("carcassonne", view, names=["安妮", "寶伯"], viewer=SPECTATOR)
        assert numbers(r"第(\d+)回合－", text) == [number], text
        assert numbers(r"第(\d+)回合 · ", svg) == [number]
