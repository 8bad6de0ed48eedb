"""The 18 Tower tiles as data (``carcassonne-expansion-tiles.md`` §4, JCZ set
``tower:1``): 17 types TO1-TO17 (TO1 twice), in the table notation of the base
tiles (``tiles.py``). Every tile has a tower foundation (the tag ``tower``).
TO4, TO5, TO7: separate dead-end roads (no junction); TO8: a road crossing the
city E+W; TO17: a city N+E+W and a cap S around an inner field.
"""
from __future__ import annotations

from ...segments import parse_table

EXPANSION = "tower"

TO_TABLE = """
TO1 | 2 | C F F F | N | – | EL ER SL SR WL WR [adj N] | tower
TO2 | 1 | F F F F | – | – | all 8 halves | tower
TO3 | 1 | F F F F | – | – | all 8 halves | tower; monastery
TO4 | 1 | F F R R | – | S>end; W>end | NL NR EL ER SL WR / SR WL | tower
TO5 | 1 | R R F R | – | N>end; E>end; W>end | NL WR / NR EL / ER SL SR WL | tower
TO6 | 1 | R R R R | – | W–N; E–S | NL WR / NR EL SR WL / ER SL | tower
TO7 | 1 | R R R R | – | N>end; E>end; S>end; W>end | NL WR / NR EL / ER SL / SR WL | tower
TO8 | 1 | R C R C | E+W | N–S | NL [adj W] / NR [adj W] / SL [adj W] / SR [adj W] | tower
TO9 | 1 | C F R F | N | S>end | EL ER SL [adj N] / SR WL WR [adj N] | tower
TO10 | 1 | C F R R | N | S–W | EL ER SL WR [adj N] / SR WL | tower
TO11 | 1 | C R F R | N | W–E | EL [adj N] / ER SL SR WL / WR [adj N] | tower
TO12 | 1 | C F F C | N+W | – | EL ER SL SR [adj N] | tower
TO13 | 1 | C R F C | N+W | E>end | EL [adj N] / ER [adj N] / SL SR [adj N] | tower
TO14 | 1 | C F F C | N ; W | – | EL ER SL SR [adj N,W] | tower
TO15 | 1 | C R C R | N ; S | W–E | EL WR [adj N] / ER WL [adj S] | tower
TO16 | 1 | C C R C | N+E+W | S>end | SL [adj N] / SR [adj N] | tower
TO17 | 1 | C C C C | N+E+W (P) ; S | – | I [adj S,W] | tower
"""

TO_TILES = parse_table(TO_TABLE, expansion=EXPANSION)
#: tower floors per seat, by the number of players
PIECES = {2: 10, 3: 9, 4: 7, 5: 6, 6: 5}


def to_pile() -> dict[str, int]:
    return {label: t.count for label, t in TO_TILES.items()}
