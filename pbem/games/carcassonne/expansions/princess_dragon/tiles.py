"""The 30 Princess & Dragon tiles as data (``carcassonne-expansion-tiles.md`` §3,
JCZ set ``princess-and-dragon:1``): 29 types PD1-PD29 (PD14 twice), in the
table notation of the base tiles (``tiles.py``).

Symbols are tags: ``volcano`` (PD1, 3, 5, 15, 17, 21), ``dragon`` (PD4, 6,
7, 13, 14 x2, 16, 19, 22, 25, 26, 28), ``magic portal`` (PD2, 8, 12, 24,
27, 29); the princess is a ``(princess)`` mark on a city segment (PD9, 10,
11, 18, 20, 23). PD13's monastery stands inside the city (separate
features); PD25's road passes under the city (one road, two fields).
"""
from __future__ import annotations

from ...segments import parse_table

EXPANSION = "princess_dragon"

PD_TABLE = """
PD1 | 1 | F F F F | – | – | all 8 halves | volcano
PD2 | 1 | R R R R | – | W–N; E–S | NL WR / NR EL SR WL / ER SL | magic portal
PD3 | 1 | F F R F | – | S>end | all 8 halves | volcano
PD4 | 1 | C F F F | N | – | EL ER SL SR WL WR [adj N] | dragon
PD5 | 1 | C F F F | N | – | EL ER SL SR WL WR [adj N] | volcano
PD6 | 1 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | dragon; monastery
PD7 | 1 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | dragon; junction
PD8 | 1 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | magic portal; junction
PD9 | 1 | C R R R | N (princess) | E>end; S>end; W>end | EL WR [adj N] / ER SL / SR WL | junction
PD10 | 1 | C C C F | N (princess, no-castle) ; E+S (P) | – | WL WR [adj N] / I [adj N,S] |
PD11 | 1 | C C F C | N+E+W (princess) | – | SL SR [adj N] |
PD12 | 1 | C C F C | N+E+W (P) | – | SL SR [adj N] | magic portal
PD13 | 1 | C C F C | N+E+W | – | SL SR [adj N] | dragon; monastery
PD14 | 2 | F F R R | – | S–W | NL NR EL ER SL WR / SR WL | dragon
PD15 | 1 | F F R R | – | S–W | NL NR EL ER SL WR / SR WL | volcano
PD16 | 1 | F R F R | – | W–E | NL NR EL WR / ER SL SR WL | dragon
PD17 | 1 | F R F R | – | W–E | NL NR EL WR / ER SL SR WL | volcano
PD18 | 1 | C F F C | N+W (princess) | – | EL ER [adj N] / SL SR [adj N] |
PD19 | 1 | C F F C | N+W | – | EL ER SL SR [adj N] | dragon
PD20 | 1 | C F F C | N+W (princess) | – | EL ER SL SR [adj N] |
PD21 | 1 | C C F F | N ; E | – | SL SR WL WR [adj N,E] | volcano
PD22 | 1 | F C F C | E+W (P) | – | NL NR [adj W] / SL SR [adj W] | dragon
PD23 | 1 | C R R C | N+W (princess) | E–S | EL SR [adj N] / ER SL |
PD24 | 1 | C R R C | N+W | E–S | EL SR [adj N] / ER SL | magic portal
PD25 | 1 | R C R C | E+W | N–S (underpass) | NL NR [adj W] / SL SR [adj W] | dragon
PD26 | 1 | C F R R | N | S–W | EL ER SL WR [adj N] / SR WL | dragon
PD27 | 1 | C F R R | N | S–W | EL ER SL WR [adj N] / SR WL | magic portal
PD28 | 1 | C R R F | N | E–S | EL SR WL WR [adj N] / ER SL | dragon
PD29 | 1 | C R R F | N | E–S | EL SR WL WR [adj N] / ER SL | magic portal
"""

PD_TILES = parse_table(PD_TABLE, expansion=EXPANSION)
VOLCANO, DRAGON, PORTAL = "volcano", "dragon", "magic portal"


def pd_pile() -> dict[str, int]:
    """The 30 P&D tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in PD_TILES.items()}
