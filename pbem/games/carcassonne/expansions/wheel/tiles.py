"""The Wheel of Fortune's tiles, built from the house table (``data.HOUSE``): the
Wheel board ``WB1``-``WB16`` (never drawn) and the 19 wheel-number tiles ``WF`` +
base letter (the same geometry as that base tile, one copy taken out of the base
pile for each)."""
from __future__ import annotations

from dataclasses import replace

from ...segments import parse_table
from ...tiles import BASE_TILES
from .data import EXPANSION, HOUSE, ICON_LETTERS

BOARD_TILES = {letter: replace(t, count=0) for letter, t in parse_table(HOUSE["board"], expansion=EXPANSION).items()}
ICON_TILES = {f"WF{letter}": replace(BASE_TILES[letter], letter=f"WF{letter}", count=1, expansion=EXPANSION,
                                     tags=(*BASE_TILES[letter].tags, "wheel_number"))
              for letter in ICON_LETTERS}
WHEEL_TILES = {**BOARD_TILES, **ICON_TILES}


def layout(start_tiles: list) -> list:
    """The start tiles with the Wheel: instead of the start tile; with the City of
    Carcassonne (x = -2..1, y = -1..1) right below it."""
    top = -2
    if start_tiles != [(0, 0, "D", 0)]:
        top = max(y for _x, y, _l, _r in start_tiles) + 1
        board = list(start_tiles)
    else:
        board = []
    return board + [(x, top + r, f"WB{1 + r * 4 + (x + 2)}", 0) for r in range(4) for x in (-2, -1, 0, 1)]


def full_set_pile(pile: dict) -> dict:
    """``wheel_tiles`` = ``full_set``: the pile with the box's own 72 land tiles in place of
    the base game's 71 (house make-up, ``data.HOUSE["full_set"]``); the other expansions'
    tiles stay, a tile of the box also in an expansion in play is one copy more."""
    out = dict(pile)
    for letter in HOUSE["full_set"]["left_out"]:
        out[letter] -= 1
    for letter in HOUSE["full_set"]["added"]:
        out[letter] = out.get(letter, 0) + 1
    return out


def wheel_pile(pile: dict) -> dict:
    """The pile's changes: one copy of each icon design becomes its wheel tile."""
    out = {}
    for letter in ICON_LETTERS:
        out[letter] = pile[letter] - 1
        out[f"WF{letter}"] = 1
    return out
