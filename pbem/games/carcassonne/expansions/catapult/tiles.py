"""The 12 Catapult fair tiles as data, on HOUSE geometry.

No text source gives the published tiles' edges (the rules notes,
``docs/rules/carcassonne.md`` "The Catapult", and the shared notes on the Wheel
of Fortune and the Catapult): these 12 rows are a [HOUSE] set drawn after
base-game shapes, each with a fair (the tag ``fair``). The fair is a feature
of its own that holds no figure: every road on a fair tile runs into the fair
and ends there (``X>end``), so the fair splits what would be a through road,
and a wagon never passes it (``FAIR_TILES`` in ``MEETS``: no road end on these
tiles meets anything). Written in the table notation of the base tiles
(``tiles.py``); one copy each.
"""
from __future__ import annotations

from ...segments import parse_table

EXPANSION = "catapult"
FAIR = "fair"

CA_TABLE = """
CA1 | 1 | F F F F | – | – | all 8 halves | fair
CA2 | 1 | F F R F | – | S>end | all 8 halves | fair
CA3 | 1 | R F R F | – | N>end; S>end | NL SR WL WR / NR EL ER SL | fair
CA4 | 1 | F R R R | – | E>end; S>end; W>end | NL NR EL WR / ER SL / SR WL | fair
CA5 | 1 | R R R R | – | N>end; E>end; S>end; W>end | NL WR / NR EL / ER SL / SR WL | fair
CA6 | 1 | F F R R | – | S>end; W>end | NL NR EL ER SL WR / SR WL | fair
CA7 | 1 | C F F F | N | – | EL ER SL SR WL WR [adj N] | fair
CA8 | 1 | C F R F | N | S>end | EL ER SL SR WL WR [adj N] | fair
CA9 | 1 | C R F R | N | E>end; W>end | EL WR [adj N] / ER SL SR WL | fair
CA10 | 1 | C R R F | N | E>end; S>end | EL SR WL WR [adj N] / ER SL | fair
CA11 | 1 | C F F C | N+W (P) | – | EL ER SL SR [adj N] | fair
CA12 | 1 | F C F C | E+W | – | NL NR [adj W] / SL SR [adj W] | fair
"""

CA_TILES = parse_table(CA_TABLE, expansion=EXPANSION)


def ca_pile() -> dict[str, int]:
    """The 12 fair tiles added to the draw pile: label -> copies."""
    return {label: t.count for label, t in CA_TILES.items()}
