"""The 12 Bridges, Castles & Bazaars tiles as data (``carcassonne-expansion-tiles.md``
§8, JCZ set ``bridges-castles-and-bazaars:1``): 11 types BB1-BB11 (BB1 twice), in
the table notation of the base tiles. Bazaars are the tag ``bazaar`` (BB1 x2, BB3,
BB5, BB6, BB9, BB10, BB11); BB7 and BB8 have monasteries, BB9 and BB11 inns. No
bridge or castle is printed: both are pieces placed in play (``bridges.py``,
``castles.py``).
"""
from __future__ import annotations

from ...segments import parse_table

EXPANSION = "bridges_castles_bazaars"

BB_TABLE = """
BB1 | 2 | C C C C | N+E+S+W | – | – | bazaar
BB2 | 1 | C C R C | N ; E ; W | S>end | SL [adj E] / SR [adj N,E,W] |
BB3 | 1 | F C F C | E+W | – | NL NR [adj W] / SL SR [adj W] | bazaar
BB4 | 1 | F R F C | W (no-castle) | E>end | NL NR [adj W] / EL [adj W] / ER SL SR [adj W] |
BB5 | 1 | C F R F | N | S>end | EL ER SL SR WL WR [adj N] | bazaar
BB6 | 1 | F F F F | – | – | all 8 halves | bazaar
BB7 | 1 | F C F C | E+W | – | NL NR [adj W] / SL SR [adj W] | monastery
BB8 | 1 | F R F R | – | W–E | NL NR EL WR / ER SL SR WL | monastery
BB9 | 1 | F F R F | – | S>end (inn) | all 8 halves | bazaar
BB10 | 1 | R F R F | – | N>end; S>end | NL SR WL WR / NR EL ER SL | bazaar
BB11 | 1 | R F R F | – | N>end; S>end (inn) | NL SR WL WR / NR EL ER SL | bazaar
"""

BB_TILES = parse_table(BB_TABLE, expansion=EXPANSION)
BAZAAR = "bazaar"


def bb_pile() -> dict[str, int]:
    return {label: t.count for label, t in BB_TILES.items()}


def pieces(players: int) -> int:
    """Bridges, and castles, per seat: 3 with 2 to 4 players, 2 with 5 or 6."""
    return 3 if players <= 4 else 2
