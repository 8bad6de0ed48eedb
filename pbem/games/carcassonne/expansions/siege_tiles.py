"""The 4 Siege (Cathars) tiles as data (``carcassonne-expansion-tiles.md``
§10, JCZ set ``siege/cathars``): SI1-SI4, one copy each, written in the same
table notation as the base tiles (``tiles.py``). Each has one city segment
marked ``(siege)``: a city holding such a segment is besieged (the marks are
summed over a city like pennants). The 6-tile "Besiegers" appendix is not used.
"""
from __future__ import annotations

from ..segments import parse_table

EXPANSION = "siege"

SI_TABLE = """
SI1 | 1 | C F F F | N (siege) | – | EL ER SL SR WL WR [adj N] |
SI2 | 1 | C R F R | N (siege) | W–E | EL WR [adj N] / ER SL SR WL |
SI3 | 1 | C F F C | N+W (siege) | – | EL ER SL SR [adj N] |
SI4 | 1 | C R R C | N+W (siege) | E–S | EL SR [adj N] / ER SL |
"""

SI_TILES = parse_table(SI_TABLE, expansion=EXPANSION)


def siege_pile() -> dict[str, int]:
    """The 4 siege tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in SI_TILES.items()}
