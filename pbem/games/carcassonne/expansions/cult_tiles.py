"""The Cult shrine tiles as data (``carcassonne-expansion-tiles.md`` §9): the
6-tile set ``cult/6`` (CU1-CU6, the default) and the 5-tile set ``cult/5``
(CU1-CU5, option ``cult_set`` = 5), one copy each, written in the same table
notation as the base tiles (``tiles.py``).

Every tile has one shrine (the ``shrine`` keyword: a cloister segment with the
mark ``shrine``). CU3/CU4: road S ends at the shrine; CU5: the shrine splits
the N–S road into two roads; CU6 (only in ``cult/6``): it splits the W–E road.
The table's free-text remarks are left out.
"""
from __future__ import annotations

from ..segments import parse_table

EXPANSION = "cult"

CU_TABLE = """
CU1 | 1 | F F F F | – | – | all 8 halves | shrine
CU2 | 1 | C F F F | N | – | EL ER SL SR WL WR [adj N] | shrine
CU3 | 1 | F F R F | – | S>end | all 8 halves | shrine
CU4 | 1 | C F R F | N | S>end | EL ER SL SR WL WR [adj N] | shrine
CU5 | 1 | R F R F | – | N>end; S>end | NL SR WL WR / NR EL ER SL | shrine
CU6 | 1 | C R F R | N | E>end; W>end | EL WR [adj N] / ER SL SR WL | shrine
"""

CU_TILES = parse_table(CU_TABLE, expansion=EXPANSION)
#: the tiles of each set (option ``cult_set``)
SETS = {6: tuple(CU_TILES), 5: tuple(l for l in CU_TILES if l != "CU6")}


def cult_pile(size: int = 6) -> dict[str, int]:
    """The shrine tiles added to the draw pile: label -> copies."""
    return {label: CU_TILES[label].count for label in SETS[size]}
