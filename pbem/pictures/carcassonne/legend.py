"""The key beside the board: one small drawing and a word for each figure
of the game and expansions in play, and for each mark, building or frame
the picture shows (a key of what is on the board, not of everything)."""
from __future__ import annotations

from ...games.carcassonne.notation import GOODS_NAMES
from ...games.i18n import N_
from .. import markup as m
from . import catapult
from .expansion_marks import GOODS, cathedral, good_icon, inn_icon, shrine, siege
from . import expansion_pieces as pieces
from .figures import figure_svg
from .terrain import monastery, pennant

NEUTRAL = None   # figures in the key have no seat: drawn grey with a "?"


def _figure(name: str, role: str = "knight", size: float = 15):
    return lambda x, y: figure_svg(name, NEUTRAL, role, x, y, size)


def _mark(fn, *args):
    # marks draw in tile units (args: art, segment, point ``at``, tile size...): the point
    # ``at`` of that tile on (x, y), the tile's size making the mark about 12 pixels wide
    at, size = args[2], args[3]
    return lambda x, y: (f'<g transform="translate({x - at[0] * size:.1f},{y - at[1] * size:.1f})">'
                         f'{fn(*args)}</g>')


def _good(kind: str):
    return lambda x, y: good_icon(kind, x, y, 5.5)


def _frame(colour: str, dash: str):
    return lambda x, y: m.rect(x - 8, y - 8, 16, 16, rx=2, fill="none", stroke=colour, stroke_width=2,
                               stroke_dasharray=dash)


#: (what must be on the picture for the entry to show, or None: always; drawing; word)
BASE = [
    (None, _figure("follower"), N_("knight, thief, monk")),
    (None, _figure("follower", "farmer"), N_("farmer (lying)")),
    ("pennant", _mark(pennant, None, 0, (0.5, 0.45), 64, 1, 0), N_("pennant")),
    ("monastery", lambda x, y: monastery(x, y + 2, 7), N_("monastery")),
    ("last", _frame("#d4145a", ""), N_("last tile")),
    ("legal", _frame("#1f4fbf", "3 2"), N_("tile fits here")),
]


def _tile_tag(fn, at=(0.5, 0.5), size=30):
    # a tile tag drawn for a tile of ``size`` pixels, its symbol (at ``at`` of the tile) on
    # (x, y): the symbols sit in a tile's corner, small; the key shows them at about 14 pixels
    return lambda x, y: (f'<g transform="translate({x - at[0] * size:.1f},{y - at[1] * size:.1f})">'
                         f'{fn(None, size, 0)}</g>')


def _abbey(x, y) -> str:
    return (m.rect(x - 8, y - 8, 16, 16, fill="#b9b3a6", stroke="#8a8376", stroke_width=1)
            + monastery(x, y + 2, 6))

BY_EXPANSION = {
    "inns_cathedrals": [(None, _figure("big", size=12), N_("big follower")),
                        ("inn", lambda x, y: inn_icon(x, y, 40), N_("inn")),
                        ("cathedral", _mark(cathedral, None, 0, (0.5, 0.5), 30, 1, 0), N_("cathedral"))],
    "traders_builders": [(None, _figure("builder"), N_("builder")), (None, _figure("pig"), N_("pig")),
                         *[(None, _good(k), GOODS_NAMES.get(k, k)) for k in GOODS]],       # goods are counted in the panel too
    "cult": [("shrine", _mark(shrine, None, 0, (0.5, 0.5), 30, 1, 0), N_("shrine"))],
    "siege": [("siege", _mark(siege, None, 0, (0.5, 0.55), 56, 1, 0), N_("besieged city"))],
    "abbey_mayor": [(None, _figure("mayor"), N_("mayor")), (None, _figure("wagon"), N_("wagon")),
                    (None, _figure("barn"), N_("barn")), (None, _abbey, N_("abbey"))],   # abbeys are in hand too
    "princess_dragon": [(None, _figure("dragon"), N_("dragon")), (None, _figure("fairy"), N_("fairy")),
                        ("volcano", _tile_tag(pieces.volcano, (0.27, 0.3), 40), N_("volcano")),
                        ("dragon", _tile_tag(pieces.dragon_tag, (0.76, 0.24), 60), N_("dragon tile")),
                        ("magic portal", _tile_tag(pieces.portal, (0.24, 0.72), 60), N_("magic portal")),
                        ("princess", _mark(pieces.princess, None, 0, (0.5, 0.5), 80, 1, 0), N_("princess"))],
    "tower": [(None, _figure("tower", "2"), N_("tower (height)")), (None, _figure("tower floor"), N_("tower floor")),
              ("tower", _tile_tag(pieces.tower_base, size=60), N_("tower foundation"))],
    "count": [("district", _tile_tag(pieces.district, size=18), N_("the City"))],
    "bridges_castles_bazaars": [(None, _figure("bridge"), N_("bridge")), (None, _figure("castle"), N_("castle")),
                                ("bazaar", _tile_tag(pieces.bazaar_tag, (0.76, 0.72), 60), N_("bazaar"))],
    "catapult": [("fair", _tile_tag(catapult.fair, (0.76, 0.72), 50), N_("fair"))],
}


def entries(expansions, shown: set) -> list:
    """(drawing, word) for the figures of these expansions and the things in ``shown``."""
    out = []
    for name in ("base", *expansions):
        for needs, draw, word in BASE if name == "base" else BY_EXPANSION.get(name, ()):
            if needs is None or needs in shown:
                out.append((draw, word))
    return out
