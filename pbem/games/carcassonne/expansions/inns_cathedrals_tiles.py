"""The 18 Inns & Cathedrals tiles as data (``carcassonne-expansion-tiles.md``
§1, JCZ set ``inns-and-cathedrals:1``): 17 types IC1-IC17, written in the
same table notation as the base tiles (``tiles.py``).

Columns: label | copies | edges N E S W | city segments | road segments |
field segments | other. The labels IC1..IC17 are the table's row labels and
are the tile ids the engine uses (draw events, ``draw_order``, views).

* 6 inn tiles (IC11-IC16, one inn each, on the road segment marked ``(inn)``);
* 2 cathedral tiles (IC1, a 4-edge city marked ``(cathedral)``);
* 3 pennants (IC6, IC10, IC13);
* IC2: the monastery splits the W-E road into two roads that end on the tile;
* IC3: four separate city caps around an inner field ``I``;
* IC7: the JCZ ``no-castle`` flag is kept as a mark (it only matters to
  Bridges, Castles & Bazaars).

The table's free-text remarks ("meet {...}", shapes) are left out: only the
keywords the engine reads (``monastery``, ``junction``) are kept.
"""
from __future__ import annotations

from ..segments import parse_table

EXPANSION = "inns_cathedrals"

IC_TABLE = """
IC1 | 2 | C C C C | N+E+S+W (cathedral) | – | – |
IC2 | 1 | F R F R | – | E>end; W>end | NL NR EL WR / ER SL SR WL | monastery
IC3 | 1 | C C C C | N ; E ; S ; W | – | I [adj N,E,S,W] |
IC4 | 1 | C C F C | N ; E ; W | – | SL SR [adj N,E,W] |
IC5 | 1 | C R C R | N ; S | E>end; W>end | EL [adj N] / ER [adj S] / WL [adj S] / WR [adj N] |
IC6 | 1 | C F C C | N+W (P) ; S | – | EL ER [adj N,S] |
IC7 | 1 | C F F F | N (no-castle) | – | EL ER [adj N] / SL SR WL WR [adj N] |
IC8 | 1 | C F R F | N | S>end | EL ER SL [adj N] / SR WL WR [adj N] |
IC9 | 1 | C R F C | N+W | E>end | EL [adj W] / ER SL SR [adj W] |
IC10 | 1 | R C R C | E+W (P) | N>end; S>end | NL [adj W] / NR [adj W] / SL [adj W] / SR [adj W] |
IC11 | 1 | C F R C | N+W | S>end (inn) | EL ER SL [adj W] / SR [adj W] |
IC12 | 1 | C F R R | N | S–W (inn) | EL ER SL WR [adj N] / SR WL |
IC13 | 1 | C R R C | N+W (P) | E–S (inn) | EL SR [adj N] / ER SL |
IC14 | 1 | F R R R | – | E>end (inn); S>end; W>end | NL NR EL WR / ER SL / SR WL | junction
IC15 | 1 | F R F R | – | W–E (inn) | NL NR EL WR / ER SL SR WL |
IC16 | 1 | F F R R | – | S–W (inn) | NL NR EL ER SL WR / SR WL |
IC17 | 1 | R R R R | – | W–N; E–S | NL WR / NR EL SR WL / ER SL |
"""

IC_TILES = parse_table(IC_TABLE, expansion=EXPANSION)


def ic_pile() -> dict[str, int]:
    """The 18 I&C tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in IC_TILES.items()}
