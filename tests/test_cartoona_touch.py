"""Touching Cartoona's picture (issue 28): ``touch`` of
``pbem/pictures/cartoona.py`` over many seeded random games of every sample
setup (every mode and option set), from every seat that may act: one path
per legal move, no two alike and none a strict prefix of another; every
key labelled, and either drawn with ``data-pick`` in the picture that seat
sees (only for it, only when its legal moves are given) or listed off the
board; every kind of move of every mode is met. The picture and the labels
come from the seat's own view: what the view hides cannot change them."""
from __future__ import annotations

import random

import pytest

from pbem import games
from pbem.games.base import SPECTATOR, canonical
from pbem.games.cartoona.data import T_PART
from pbem.games.cartoona.moves import MODE_TYPES
from pbem.games.i18n import reading
from pbem.pictures.cartoona import draw, touch
from pbem.pictures.cartoona_touch import move_path, paths_of

from .pseudo_support import leftover_english
from .touch_support import check_touch, picks

GAME = games.get("cartoona")
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]
CASES = [pytest.param(players, options, id=f"{players}p-{canonical(options)}")
         for players, options in GAME.sample_setups]


def walk(players, options, seed, steps=250):
    """States of a seeded random game, each with a seat that may act and its
    legal moves as the API lists them (``[{"move", "text"}]``)."""
    rng = random.Random(seed)
    state = GAME.start(players, GAME.check_options(players, options))
    state = GAME.apply(state, GAME.setup(state, random.Random(seed)))
    for _ in range(steps):
        acting = sorted(GAME.to_act(state))
        if not acting or GAME.result(state) is not None:
            return
        seat = rng.choice(acting)
        moves = GAME.legal_moves(state, seat)
        if not moves:
            return
        yield state, seat, [{"move": m, "text": GAME.describe(m, seat, NAMES[:players])} for m in moves]
        # prefer what moves the game on, so that the walks see every phase
        useful = [m for m in moves if m["type"] != "set_order"] or moves
        move = rng.choice(useful)
        state = GAME.apply(state, GAME.decide(state, seat, move, random.Random(rng.random())))


@pytest.mark.parametrize("players,options", CASES)
def test_paths_are_unique_prefix_free_labelled_and_drawn(players, options):
    states = 0
    rng = random.Random(7)
    for seed in range(3):
        for i, (state, seat, legal) in enumerate(walk(players, options, seed)):
            view = GAME.view(state, seat)
            names = NAMES[:players]
            found = touch(view, legal, seat, names)
            moves = [m["move"] for m in legal]
            svg = draw(view, names=names, viewer=seat, legal=moves)
            check_touch(found, legal, svg)
            if i % 4 == 0:
                # the same with the API's form of the legal moves
                assert draw(view, names=names, viewer=seat, legal=legal) == svg
                # nobody else's picture has anything to touch, nor the seat's without its moves
                assert picks(draw(GAME.view(state, SPECTATOR), names=names, viewer=None)) == []
                assert picks(draw(view, names=names, viewer=seat)) == []
                # what the view hides cannot change the picture nor the touches
                other = GAME.resample(state, seat, rng)
                again = GAME.legal_moves(other, seat)
                if canonical(again) == canonical(moves):
                    assert draw(GAME.view(other, seat), names=names, viewer=seat, legal=again) == svg
                    assert touch(GAME.view(other, seat), legal, seat, names) == found
            states += 1
    assert states > 30


def test_every_move_type_of_every_mode_is_touched():
    """Over the sample setups' random games, every move type of every mode
    (and the Swap's three touches, the Block's one, a merge's or the
    singles' "no more") is met and given a path."""
    met, shapes = set(), set()
    for players, options in GAME.sample_setups:
        for seed in range(3):
            for state, seat, legal in walk(players, options, seed):
                found = touch(GAME.view(state, seat), legal, seat, NAMES[:players])
                for m, path in zip(legal, found["paths"]):
                    met.add(m["move"]["type"])
                    shapes.add((m["move"]["type"], len(path), path[-1].split(":")[0]))
    every = {t for types in MODE_TYPES.values() for t in types}
    assert every <= met, sorted(every - met)
    assert ("play_card", 3, "tile") in shapes      # a Swap: the card, your tile, theirs
    assert ("block", 1, "card") in shapes
    assert ("call_cheat", 2, "card") in shapes     # the card given up if wrong
    assert any(kind in ("place_tile", "score") and last == "done" for kind, _n, last in shapes)


def test_paths_by_example():
    assert T_PART[7] == "ears"
    assert move_path({"type": "place_tile", "tile": 7, "creatures": [3]}) == ["hand:7", "slot:3:ears"]
    assert move_path({"type": "place_tile", "tile": 7, "creatures": []}) == ["hand:7", "new"]
    assert move_path({"type": "place_tile", "tile": 7, "creatures": [], "colour": "Y"}) == ["hand:7", "new:Y"]
    assert move_path({"type": "play_card", "card": 40, "tile": 5, "with": 9}) == ["card:40", "tile:5", "tile:9"]
    assert move_path({"type": "play_card", "card": 60}) == ["card:60"]
    assert move_path({"type": "cheat", "tile": 5, "card": None}) == ["bluff", "tile:5"]
    assert move_path({"type": "call_cheat", "target": 2, "forfeit": 12}) == ["call:2", "card:12"]
    assert move_path({"type": "end_turn"}) == ["end"]
    # one creature, or a merge of two: "done" ends the shorter one
    both = paths_of([{"type": "place_tile", "tile": 7, "creatures": [3]},
                     {"type": "place_tile", "tile": 7, "creatures": [3, 4]},
                     {"type": "score", "creatures": [5]}, {"type": "score", "creatures": [5, 6]}], {})
    assert both == [["hand:7", "slot:3:ears", "done"], ["hand:7", "slot:3:ears", "slot:4:ears"],
                    ["creature:5", "done"], ["creature:5", "creature:6"]]


@pytest.mark.parametrize("players,options", [(3, {"cheat_cards": True, "use_single_creatures": True}),
                                             (2, {"mode": "basic"}), (1, {"mode": "solo"}),
                                             (3, {"mode": "kids"})])
def test_labels_are_translated(players, options):
    seen = set()
    for seed in range(2):
        for state, seat, legal in walk(players, options, seed, steps=120):
            view = GAME.view(state, seat)
            with reading("x-pseudo"):
                found = touch(view, legal, seat, NAMES[:players])
            for key, text in found["labels"].items():
                kind = key.split(":")[0]
                if kind not in seen:
                    seen.add(kind)
                    assert not leftover_english(text), (key, text)
            with reading("zh-Hant"):
                found = touch(view, legal, seat, NAMES[:players])
            assert all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in found["labels"].values()), found
    assert len(seen) >= 3
