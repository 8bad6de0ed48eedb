"""The key beside the board: one small drawing and a word for each figure
and mark, the base game's first, then those of the expansions in play."""
from __future__ import annotations

from .. import markup as m
from .expansion_marks import GOODS, cathedral, good_icon, inn_icon, shrine, siege
from .figures import figure_svg
from .terrain import monastery, pennant

NEUTRAL = None   # figures in the key have no seat: drawn grey with a "?"


def _figure(name: str, role: str = "knight", size: float = 15):
    return lambda x, y: figure_svg(name, NEUTRAL, role, x, y, size)


def _mark(fn, *args):
    # marks draw in tile units: give them a 30-pixel tile whose point (0.5, 0.5) is (x, y)
    return lambda x, y: f'<g transform="translate({x - 15:.1f},{y - 15:.1f})">{fn(*args)}</g>'


def _good(kind: str):
    return lambda x, y: good_icon(kind, x, y, 5.5)


def _frame(colour: str, dash: str):
    return lambda x, y: m.rect(x - 8, y - 8, 16, 16, rx=2, fill="none", stroke=colour, stroke_width=2,
                               stroke_dasharray=dash)


BASE = [
    (_figure("follower"), "knight thief monk"),
    (_figure("follower", "farmer"), "farmer (lying)"),
    (_mark(pennant, None, 0, (0.5, 0.5), 40, 1, 0), "pennant"),
    (lambda x, y: monastery(x, y + 2, 7), "monastery"),
    (_frame("#d4145a", ""), "last tile"),
    (_frame("#1f4fbf", "3 2"), "tile fits here"),
]


def _abbey(x, y) -> str:
    return (m.rect(x - 8, y - 8, 16, 16, fill="#b9b3a6", stroke="#8a8376", stroke_width=1)
            + monastery(x, y + 2, 6))

BY_EXPANSION = {
    "inns_cathedrals": [(_figure("big", size=12), "big follower"),
                        (lambda x, y: inn_icon(x, y, 40), "inn"),
                        (_mark(cathedral, None, 0, (0.5, 0.5), 30, 1, 0), "cathedral")],
    "traders_builders": [(_figure("builder"), "builder"), (_figure("pig"), "pig"),
                         *[(_good(k), k) for k in GOODS]],
    "cult": [(_mark(shrine, None, 0, (0.5, 0.5), 30, 1, 0), "shrine")],
    "siege": [(_mark(siege, None, 0, (0.5, 0.5), 40, 1, 0), "besieged city")],
    "abbey_mayor": [(_figure("mayor"), "mayor"), (_figure("wagon"), "wagon"), (_figure("barn"), "barn"),
                    (_abbey, "abbey")],
}


def entries(expansions) -> list:
    out = list(BASE)
    for name in expansions:
        out.extend(BY_EXPANSION.get(name, ()))
    return out
