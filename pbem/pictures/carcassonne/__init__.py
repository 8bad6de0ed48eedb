"""The picture of a Carcassonne view: the board on the left, the players and
the drawn tile on the right.

    draw(view, *, names=None, viewer=None, legal=None, last=None) -> str

Drawn from the view alone (``game.view(state, viewer)``) and the tile
geometry of the rules; ``legal`` (the viewer's own legal moves) marks where
the drawn tile fits, the abbey's holes, a wagon's targets or an escape.
``last`` (the last step's events, as the viewer saw them) frames the tiles
they placed; without it the last tile of the board is framed.

``touch(view, legal, viewer, names)`` (``touch.py``) says which touches of
this picture make each of the seat's moves (None for a placement, which the
game page's chooser makes); ``draw`` marks those places with ``data-pick``.

Expansions draw through ``hooks`` (segment kinds, marks, tags, figures,
supplies, panel lines, legal moves), so a new one adds entries there.
"""
from __future__ import annotations

import math

from ... import games
from ...games.i18n import _
from .. import markup as m
from . import catapult, expansion_marks, expansion_panel, expansion_pieces, figures, terrain, tunnel  # noqa: F401  (register their hooks)
from .board import Board
from .panel import WIDTH, Panel
from .touch import touch  # noqa: F401  (the touch contract: every decision but the placement)

#: what bench/pictures.py measures: the base game first (the headline), then every expansion
BENCH_SETUPS = (
    (2, {}),
    (2, {"expansions": ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege", "abbey_mayor"]}),
)

games.get("carcassonne")   # the rules register every tile type


def last_cells(view: dict, last) -> list:
    if last:
        cells = [(e["x"], e["y"]) for e in last if isinstance(e, dict) and e.get("type") == "TilePlaced"]
        if cells:
            return cells
    board = view.get("board") or []
    return [(board[-1]["x"], board[-1]["y"])] if len(board) > 1 else []


def draw(view: dict, *, names=None, viewer=None, legal=None, last=None) -> str:
    board = Board(view, legal)
    framed = last_cells(view, last)
    shown = board.shown(framed)
    panel_svg, panel_height = Panel(view, names, viewer, legal, shown).svg(board.width + 6)
    if board.height < panel_height:   # a young board: as tall as the panel, not an inset beside it
        board.fill(panel_height)      # (a Panel draws once: a new one, placed beside the bigger board)
        panel_svg, panel_height = Panel(view, names, viewer, legal, shown).svg(board.width + 6)
    height = math.ceil(max(board.height, panel_height))
    board.oy = (height - board.height) / 2      # centred beside a taller panel
    # Two parts the page may lay out by itself (markup.part): on a phone the
    # board comes first, fitted to the screen, and the panel below it.
    body = [m.part("board", board.svg(framed), (board.ox, board.oy, board.width, board.height)),
            m.part("panel", [m.rect(board.width + 6, 0, WIDTH, height, fill="#fbf9f4"), panel_svg],
                   (board.width + 6, 0, WIDTH, math.ceil(panel_height)))]
    return m.document(board.width + 6 + WIDTH, height, body, defs=board.defs(), background="#ffffff",
                      title=_("Carcassonne"))
