"""The 4 Tunnel tiles as data (``carcassonne-expansion-tiles.md`` §11, JCZ set
``tunnel``): TU1-TU4, one copy each, 10 tunnel mouths in all. A road written
``X>tunnel`` ends at a mouth: the parser marks its segment ``tunnel`` and the
feature tracking counts a mouth as an open end until a pair of tokens closes it.

With ``tunnel_other_expansions`` the two underpass roads of other expansions
(P&D's PD25, A&M's AM12: one road N-S under a city) become two mouths each, as
JCZ cuts them: the tiles ``PD25T`` and ``AM12T`` below take their place in the pile.
"""
from __future__ import annotations

from ...segments import parse_table

EXPANSION = "tunnel"

TU_TABLE = """
TU1 | 1 | C R R R | N | E>tunnel; S>tunnel; W>tunnel | EL WR [adj N] / ER SL / SR WL |
TU2 | 1 | C R F R | N | E>tunnel; W>tunnel | EL WR [adj N] / ER SL SR WL |
TU3 | 1 | F R R F | – | E>tunnel; S>tunnel | NL NR EL SR WL WR / ER SL |
TU4 | 1 | R R R R | – | N>end; E>tunnel; S>tunnel; W>tunnel | NL NR EL WR / ER SL / SR WL | junction
"""

#: the underpass tiles cut into two mouths (their own rows with the road split; they
#: belong to their own expansions, whose tiles they stand in for)
PD25T = "PD25T | 1 | R C R C | E+W | N>tunnel; S>tunnel | NL NR [adj W] / SL SR [adj W] | dragon"
AM12T = "AM12T | 1 | R C R C | E+W (P) | N>tunnel; S>tunnel | NL [adj W] / NR [adj W] / SL SR [adj W] |"

TU_TILES = parse_table(TU_TABLE, expansion=EXPANSION)
UNDERPASS_TILES = {**parse_table(PD25T, expansion="princess_dragon"), **parse_table(AM12T, expansion="abbey_mayor")}
#: underpass tile of another expansion -> its tile cut into two mouths
UNDERPASS = {"PD25": "PD25T", "AM12": "AM12T"}


def tunnel_pile() -> dict[str, int]:
    """The 4 tunnel tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in TU_TILES.items()}
