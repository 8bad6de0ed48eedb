"""The 24 Traders & Builders tiles as data (``carcassonne-expansion-tiles.md``
§2, JCZ set ``traders-and-builders:1``): 24 types TB1-TB24, one copy each,
written in the same table notation as the base tiles (``tiles.py``).

Columns: label | copies | edges N E S W | city segments | road segments |
field segments | other. The labels TB1..TB24 are the table's row labels and
are the tile ids the engine uses (draw events, ``draw_order``, views).

* 20 goods symbols, one per marked city segment: ``(wine)`` 9 (TB2, 4, 8, 12,
  13, 14, 15, 18, 19), ``(grain)`` 6 (TB1, 5, 10, 17, 21, 22), ``(cloth)`` 5
  (TB3, 6, 7, 9, 11); the marks are summed over a city like pennants;
* TB3/TB4/TB6/TB14: separate cities around an inner field ``I``;
* TB20: the monastery ends the roads E, S and W (three roads);
* TB24: two straight roads cross without joining (two roads, four fields);
* the "!" variants TB7, TB12, TB22 split one field further than their
  siblings TB8, TB11, TB21 and stay distinct tiles.

The table's free-text remarks ("meet {...}", shapes) are left out: only the
keywords the engine reads (``monastery``) are kept.
"""
from __future__ import annotations

from ..segments import parse_table

EXPANSION = "traders_builders"
#: the three goods, in the order they are listed and scored
GOODS = ("wine", "grain", "cloth")

TB_TABLE = """
TB1 | 1 | C F F C | N+W (grain) | – | EL ER SL SR [adj N] |
TB2 | 1 | C F F C | N+W (wine) | – | EL ER SL SR [adj N] |
TB3 | 1 | F C C C | E+W (cloth) ; S | – | NL NR [adj W] / I [adj S,W] |
TB4 | 1 | F C C C | E+W (wine) ; S | – | NL NR [adj W] / I [adj S,W] |
TB5 | 1 | C C F C | N+E+W (grain) | – | SL SR [adj N] |
TB6 | 1 | C C C C | N+W (cloth) ; E ; S | – | I [adj N,E,S] |
TB7 | 1 | C R R C | N+W (cloth) | E>end; S>end | EL [adj N] / ER [adj N] / SL [adj N] / SR [adj N] |
TB8 | 1 | C R R C | N+W (wine) | E>end; S>end | EL [adj N] / ER SL [adj N] / SR [adj N] |
TB9 | 1 | C R C C | N+W (cloth) ; S | E>end | EL [adj N] / ER [adj N,S] |
TB10 | 1 | C R C C | N+W (grain) ; S | E>end | EL [adj N] / ER [adj N,S] |
TB11 | 1 | C R F C | N+W (cloth) | E>end | EL [adj N] / ER SL SR [adj N] |
TB12 | 1 | C R F C | N+W (wine) | E>end | EL [adj N] / ER [adj N] / SL SR [adj N] |
TB13 | 1 | C C R C | N+E+W (wine) | S>end | SL [adj N] / SR [adj N] |
TB14 | 1 | C C C C | N+W (wine) ; E+S | – | I [adj N,S] |
TB15 | 1 | F C F C | E+W (wine) | – | NL NR [adj W] / SL SR [adj W] |
TB16 | 1 | C R F F | N | E>end | EL [adj N] / ER SL SR WL WR [adj N] |
TB17 | 1 | F C R C | E+W (grain) | S>end | NL NR [adj W] / SL [adj W] / SR [adj W] |
TB18 | 1 | F C R C | E+W (wine) | S>end | NL NR [adj W] / SL [adj W] / SR [adj W] |
TB19 | 1 | R C R C | E+W (wine) | N>end; S>end | NL [adj W] / NR [adj W] / SL [adj W] / SR [adj W] |
TB20 | 1 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | monastery
TB21 | 1 | C F R C | N+W (grain) | S>end | EL ER SL [adj N] / SR [adj N] |
TB22 | 1 | C F R C | N+W (grain) | S>end | EL ER [adj N] / SL [adj N] / SR [adj N] |
TB23 | 1 | C F R R | N | S>end; W>end | EL ER SL [adj N] / SR WL / WR [adj N] |
TB24 | 1 | R R R R | – | N–S; W–E | NL WR / NR EL / ER SL / SR WL |
"""

TB_TILES = parse_table(TB_TABLE, expansion=EXPANSION)


def tb_pile() -> dict[str, int]:
    """The 24 T&B tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in TB_TILES.items()}
