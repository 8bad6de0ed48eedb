"""The 72 base tiles as data (rules digest §1.2, the Hans im Glück C2/C3 set).

Columns: letter | copies | edges N E S W | city segments | road segments |
field segments | other. One D is the start tile (placed at (0, 0), rotation
0), so the draw pile holds the other 71.
"""
from __future__ import annotations

from .segments import parse_table

BASE_TABLE = """
A | 2 | F F R F | – | S>end | all 8 halves | monastery
B | 4 | F F F F | – | – | all 8 halves | monastery
C | 1 | C C C C | N+E+S+W (P) | – | – |
D | 4 | C R F R | N | W–E | EL WR [adj N] / ER SL SR WL | start
E | 5 | C F F F | N | – | EL ER SL SR WL WR [adj N] |
F | 2 | F C F C | E+W (P) | – | NL NR [adj W] / SL SR [adj W] |
G | 1 | F C F C | E+W | – | NL NR [adj W] / SL SR [adj W] |
H | 3 | C F C F | N ; S | – | EL ER WL WR [adj N,S] |
I | 2 | C F F C | N ; W | – | EL ER SL SR [adj N,W] |
J | 3 | C R R F | N | E–S | EL SR WL WR [adj N] / ER SL |
K | 3 | C F R R | N | S–W | EL ER SL WR [adj N] / SR WL |
L | 3 | C R R R | N | E>end; S>end; W>end | EL WR [adj N] / ER SL / SR WL | junction
M | 2 | C F F C | N+W (P) | – | EL ER SL SR [adj N] |
N | 3 | C F F C | N+W | – | EL ER SL SR [adj N] |
O | 2 | C R R C | N+W (P) | E–S | EL SR [adj N] / ER SL |
P | 3 | C R R C | N+W | E–S | EL SR [adj N] / ER SL |
Q | 1 | C C F C | N+E+W (P) | – | SL SR [adj N] |
R | 3 | C C F C | N+E+W | – | SL SR [adj N] |
S | 2 | C C R C | N+E+W (P) | S>end | SL [adj N] / SR [adj N] |
T | 1 | C C R C | N+E+W | S>end | SL [adj N] / SR [adj N] |
U | 8 | F R F R | – | W–E | NL NR EL WR / ER SL SR WL |
V | 9 | F F R R | – | S–W | NL NR EL ER SL WR / SR WL |
W | 4 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | junction
X | 1 | R R R R | – | N>end; E>end; S>end; W>end | NL WR / NR EL / ER SL / SR WL | junction
"""

BASE_TILES = parse_table(BASE_TABLE)
START_TILE = "D"


def base_pile() -> dict[str, int]:
    """The draw pile of the base game: every tile but the start tile."""
    pile = {letter: t.count for letter, t in BASE_TILES.items()}
    pile[START_TILE] -= 1
    return pile
