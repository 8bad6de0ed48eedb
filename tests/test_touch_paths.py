"""Touching the board (issue 28): the ``touch`` of Kachina's and Wakanda's
pictures, over many seeded random states of every sample setup, from the
seat to act: one path per legal move, no two alike and none a strict prefix
of another; every key labelled, and either drawn with ``data-pick`` in the
picture the seat sees (and only for the seat to act) or listed off the
board. The labels are read in both languages (no English left in the
pseudo-locale)."""
from __future__ import annotations

import random

import pytest

from pbem import games, pictures
from pbem.games.base import SPECTATOR, canonical
from pbem.games.i18n import reading

from .pseudo_support import leftover_english
from .touch_support import check_touch, picks

GAMES = ("kachina", "wakanda")
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve"]
CASES = [pytest.param(name, players, options, id=f"{name}-{players}p-{canonical(options)}")
         for name in GAMES for players, options in games.get(name).sample_setups]


def walk(game, players, options, seed):
    """Every state of a seeded random game with its seat to act and the
    legal moves as the API lists them (``[{"move", "text"}]``)."""
    rng = random.Random(seed)
    state = game.start(players, game.check_options(players, options))
    state = game.apply(state, game.setup(state, random.Random(seed)))
    for _ in range(400):
        acting = sorted(game.to_act(state))
        if not acting or game.result(state) is not None:
            return
        seat = rng.choice(acting)
        moves = game.legal_moves(state, seat)
        yield state, seat, [{"move": m, "text": game.describe(m, seat, NAMES[:players])} for m in moves]
        move = rng.choice(moves)
        state = game.apply(state, game.decide(state, seat, move, random.Random(rng.random())))


@pytest.mark.parametrize("name,players,options", CASES)
def test_paths_are_unique_prefix_free_labelled_and_drawn(name, players, options):
    game = games.get(name)
    states = 0
    for seed in range(6):
        for state, seat, legal in walk(game, players, options, seed):
            view = game.view(state, seat)
            names = NAMES[:players]
            found = pictures.touch(name, view, legal, seat, names)
            svg = pictures.svg(name, view, names=names, viewer=seat, legal=[m["move"] for m in legal])
            check_touch(found, legal, svg)
            # nobody else's picture has anything to touch
            assert picks(pictures.svg(name, game.view(state, SPECTATOR), names=names, viewer=None)) == []
            assert picks(pictures.svg(name, view, names=names, viewer=seat)) == []
            states += 1
    assert states > 50


@pytest.mark.parametrize("name", GAMES)
def test_labels_are_translated(name):
    game = games.get(name)
    players, options = game.sample_setups[0]
    seen = set()
    for seed in range(3):
        for state, seat, legal in walk(game, players, options, seed):
            view = game.view(state, seat)
            with reading("x-pseudo"):
                found = pictures.touch(name, view, legal, seat, NAMES[:players])
            for key, label in found["labels"].items():
                kind = key.split(":")[0]
                if kind not in seen:
                    seen.add(kind)
                    assert not leftover_english(label), (key, label)
            with reading("zh-Hant"):
                found = pictures.touch(name, view, legal, seat, NAMES[:players])
            assert all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in found["labels"].values()), found
    assert len(seen) >= 2


def test_kachina_touches_by_hand_and_cell():
    """A tile in hand then a cell; a cover is an Eagle then a tile on the board."""
    from pbem.pictures.kachina import touch_path
    assert touch_path({"type": "place", "tile": "sun", "x": -2, "y": 1}) == ["tile:sun", "cell:-2,1"]
    assert touch_path({"type": "cover", "x": 0, "y": 0}) == ["tile:eagle", "cell:0,0"]
    assert touch_path({"type": "swap", "x": 1, "y": 0}) == ["tile:warrior", "cell:1,0"]
    assert touch_path({"type": "discard", "tile": "ogre"}) == ["tile:ogre"]
    assert touch_path({"type": "redraw"}) == ["redraw"]


def test_wakanda_touches_by_piece_or_headdress_then_village():
    from pbem.pictures.wakanda import touch_path
    assert touch_path({"type": "build", "piece": "fur", "village": 3}) == ["piece:fur", "village:3"]
    assert touch_path({"type": "claim", "village": 2}) == ["headdress", "village:2"]
    assert touch_path({"type": "pass"}) == ["pass"]


def test_no_touch_for_a_game_without_one_and_none_without_moves():
    assert pictures.touch("kachina", {}, [], 0, None) is None
    assert pictures.touch("no_such_game", {}, [{"move": {}, "text": ""}], 0, None) is None
