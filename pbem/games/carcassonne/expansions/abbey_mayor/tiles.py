"""The 12 Abbey & Mayor tiles as data (``carcassonne-expansion-tiles.md`` §5,
JCZ set ``abbey-and-mayor:1``): AM1-AM12, one copy each, in the table
notation of the base tiles (``tiles.py``); plus the abbey tile ``AB`` (one
per player, never in the draw pile), which the engine creates in code: a
monastery and nothing else, with wildcard edges ``*`` that match anything
and close every road or city they touch (``features.place_tile_into``).

AM3 follows the JCZ data (its south field borders both cities; see the
table's DOUBT). The ``meet`` groups of the table are kept only where the
wagon's ``along_road`` rule needs them and the general reading (a road ending
on a tile meets its monastery, else the tile's junction roads, else its city)
would be wrong: ``MEETS``.
"""
from __future__ import annotations

from ...segments import parse_table

EXPANSION = "abbey_mayor"
ABBEY = "AB"

AM_TABLE = """
AM1 | 1 | C C C C | N+E+S+W (P×2) | – | – |
AM2 | 1 | C C C C | N+S (P) ; E+W | – | I [adj N,W] / II [adj N,W] |
AM3 | 1 | C C F C | N (P, no-castle) ; E+W | – | SL SR [adj N,W] / I [adj N,W] |
AM4 | 1 | C R R C | N ; W | E>end; S>end | EL [adj N] / ER SL [adj N,W] / SR [adj W] |
AM5 | 1 | R R R R | – | N>end; E>end; S>end; W>end | NL WR / NR EL / ER SL / SR WL | monastery
AM6 | 1 | C F F R | N | W>end | EL ER SL SR WL [adj N] / WR [adj N] |
AM7 | 1 | C R R F | N | E–S | EL [adj N] / ER SL / SR WL WR [adj N] |
AM8 | 1 | C F R R | N | S–W | EL ER SL [adj N] / SR WL / WR [adj N] |
AM9 | 1 | F F F C | W (P, no-castle) | – | NL NR [adj W] / EL ER [adj W] / SL SR [adj W] |
AM10 | 1 | F F R F | – | S>end | all 8 halves |
AM11 | 1 | R R F R | – | N–E–W (well) | NL WR / NR EL / ER SL SR WL |
AM12 | 1 | R C R C | E+W (P) | N–S (underpass) | NL [adj W] / NR [adj W] / SL SR [adj W] |
"""

ABBEY_TABLE = f"""
{ABBEY} | 0 | * * * * | – | – | – | monastery, abbey
"""

AM_TILES = parse_table(AM_TABLE, expansion=EXPANSION)
ABBEY_TILES = parse_table(ABBEY_TABLE, expansion=EXPANSION)

#: wagon ``along_road``: tile -> {road edge (unrotated) -> the edge of the city it runs into}
MEETS = {"AM4": {1: 0, 2: 3}}


def am_pile() -> dict[str, int]:
    """The 12 tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in AM_TILES.items()}
