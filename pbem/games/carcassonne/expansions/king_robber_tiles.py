"""The 5 King & Robber tiles as data (``carcassonne-expansion-tiles.md`` §7,
JCZ set ``king-and-robber:1``): 5 types KR1-KR5, one copy each, written in the
same table notation as the base tiles (``tiles.py``).

Columns: label | copies | edges N E S W | city segments | road segments |
field segments | other. The labels KR1..KR5 are the table's row labels and
are the tile ids the engine uses (draw events, ``draw_order``, views).

* KR1: a monastery with a city cap;
* KR2, KR3: a road runs up to the city (``W>end``), KR3 has a separate road E–S;
* KR4: roads S and E run up to the city N+W (4 fields);
* KR5: cities N+S and E+W cross without joining, two inner fields ``I``, ``II``.

The King and Robber Baron tiles are scoring markers, not land tiles; the
table's free-text remarks are left out.
"""
from __future__ import annotations

from ..segments import parse_table

EXPANSION = "king_robber"

KR_TABLE = """
KR1 | 1 | C F F F | N | – | EL ER SL SR WL WR [adj N] | monastery
KR2 | 1 | C F F R | N | W>end | EL ER SL SR WL [adj N] / WR [adj N] |
KR3 | 1 | C R R R | N | E–S; W>end | EL SR WL [adj N] / ER SL / WR [adj N] |
KR4 | 1 | C R R C | N+W | E>end; S>end | EL [adj N] / ER [adj N] / SL [adj N] / SR [adj N] |
KR5 | 1 | C C C C | N+S ; E+W | – | I [adj N,W] / II [adj N,W] |
"""

KR_TILES = parse_table(KR_TABLE, expansion=EXPANSION)


def kr_pile() -> dict[str, int]:
    """The 5 K&R tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in KR_TILES.items()}
