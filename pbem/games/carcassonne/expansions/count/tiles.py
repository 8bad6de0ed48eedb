"""The 12 City of Carcassonne tiles (``carcassonne-expansion-tiles.md`` §6, JCZ set
``count``): never drawn, laid out at the start instead of the start tile, all at
rotation 0, 4 columns x 3 rows (x = -2..1, y = -1..1). An edge ``·`` faces another
of these tiles and is never matched in play.

Two things are added in code: every field of these tiles is marked ``coc`` (it
borders the City, which counts as one completed city for farmers), and the City
itself is a city segment ``city I`` on CO7, with no edges, so complete from the
start (one completed city for the King of King & Robber too; nobody stands on it).
CO6 and CO7 are the City's district tiles (the tag ``district``): no figure goes
there and the dragon never enters them.
"""
from __future__ import annotations

from dataclasses import replace

from ...segments import Segment, parse_table

EXPANSION = "count"

CO_TABLE = """
CO1 | 1 | F · · R | – | W>end | NL NR EL WR / SR WL |
CO2 | 1 | F · · · | – | – | NL NR EL WR |
CO3 | 1 | F · · · | – | – | NL NR EL WR |
CO4 | 1 | R F · · | – | N>end | NL WR / NR EL ER SL |
CO5 | 1 | · · · F | – | – | NL SR WL WR |
CO6 | 1 | · · · · | – | – | – | district
CO7 | 1 | · · · · | – | – | – | district
CO8 | 1 | · F · · | – | – | NR EL ER SL |
CO9 | 1 | · · C F | S | – | NL ER WL WR [adj S] |
CO10 | 1 | · · F · | – | – | ER SL SR WL |
CO11 | 1 | · · R · | – | S>end | ER SL / SR WL |
CO12 | 1 | · C F · | E | – | NR SL SR WL [adj E] |
"""


def _tiles() -> dict:
    tiles = parse_table(CO_TABLE, expansion=EXPANSION)
    for letter, t in tiles.items():
        segments = tuple(replace(s, marks=(("coc", 1),)) if s.kind == "field" else s for s in t.segments)
        tiles[letter] = replace(t, segments=segments, count=0)
    city = Segment("city", (), (("coc", 1),), (), "I")
    tiles["CO7"] = replace(tiles["CO7"], segments=(city,))
    return tiles


CO_TILES = _tiles()
#: the layout: (x, y, tile, quarter turns) in placement order
LAYOUT = [(x, y, f"CO{1 + (y + 1) * 4 + (x + 2)}", 0) for y in (-1, 0, 1) for x in (-2, -1, 0, 1)]
#: the City's segment (on CO7): the one completed city the fields of these tiles border
CITY_TILE = "CO7"
#: district -> the feature kind its followers may join
QUARTERS = {"castle": "city", "blacksmith": "road", "cathedral": "cloister", "market": "field"}
