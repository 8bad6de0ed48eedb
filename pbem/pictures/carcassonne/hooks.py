"""Where each expansion's drawing plugs in, the way its rules plug into
``pbem.games.carcassonne.rules.Rules``: by the names the rules use.

* ``SEGMENTS[kind]``: draws a segment kind on a tile turned ``rot`` quarter
  turns, ``fn(art, k, size, rot) -> svg`` (tile pixels from (0, 0)), on a
  layer (``LAYERS``): road, city and cloister here; a river or a bridge is one
  more entry. ``art.parts[k]`` holds the segment's unturned shape.
* ``MARKS[name]``: draws a segment's mark (``Segment.marks``: pennant, inn,
  cathedral, wine, siege, shrine, ...) ``fn(art, k, point, size, count, rot)
  -> svg`` upright at ``point`` (unit coordinates, already turned), one of the
  points the segment's shape offers for marks.
* ``TAGS[name]``: draws a tile tag (``TileType.tags``: junction, abbey; later
  volcano, tower base...) ``fn(art, size, rot) -> svg``.
* ``FIGURES[figure]``: draws a figure (the view's ``followers[].figure``:
  follower, big, builder, pig, mayor, wagon, barn; later dragon, fairy,
  tower pieces...) ``fn(seat, role, size) -> svg`` centred on (0, 0).
* ``PLACED``: ``fn(view) -> [{"player", "x", "y", "on", "figure"}]``: figures on
  the board that are not in the view's ``followers`` (the dragon, the fairy, a
  tower and its top, a castle), drawn like them through ``FIGURES`` (``"on"``:
  the segment they stand by, or None: the tile's centre; ``"player"`` None: a
  neutral figure).
* ``SUPPLIES``: (view key, figure, label) rows of the panel: per-seat counts
  the expansions add to the view (``big_followers``, ``builders``...); the key
  may be ``fn(view) -> list per seat`` for a count nested in the view.
* ``PANEL_LINES``: ``fn(view, names) -> [str]`` lines of public state under
  the seats (King & Robber, besieged cities...).
* ``LEGAL[move type]``: notes a legal move for the board to mark, ``fn(board,
  move)`` (place_tile, abbey, wagon, escape), in ``board.legal_cells`` (cells,
  with the rotations that fit) or ``board.rings`` (segments); ``board`` is a
  ``board.Board``;
  ``DECISIONS[move type]`` says in the panel what the marks offer (a text, or
  ``fn(the viewer's legal moves of that type) -> text`` when it depends on them).

A kind, mark, tag or figure with no entry is still shown (a segment as its
base kind's colour, a figure as a generic pawn with its name's initial), so
a new expansion's rules never break the picture before its art exists.
"""
from __future__ import annotations

#: drawing order of a tile's parts, bottom first
LAYERS = ("ground", "hedge", "river", "road", "city", "building", "mark")

SEGMENTS: dict = {}
MARKS: dict = {}
TAGS: dict = {}
FIGURES: dict = {}
SUPPLIES: list = []
PLACED: list = []
PANEL_LINES: list = []
LEGAL: dict = {}
DECISIONS: dict = {}
#: marks drawn nowhere (flags of other expansions' rules, no picture)
SILENT_MARKS = {"no-castle", "underpass", "coc"}


def segment(kind: str, layer: str):
    def register(fn):
        SEGMENTS[kind] = (layer, fn)
        return fn
    return register


def mark(*names: str):
    def register(fn):
        for name in names:
            MARKS[name] = fn
        return fn
    return register


def tag(name: str):
    def register(fn):
        TAGS[name] = fn
        return fn
    return register


def figure(*names: str):
    def register(fn):
        for name in names:
            FIGURES[name] = fn
        return fn
    return register


def legal(move_type: str):
    def register(fn):
        LEGAL[move_type] = fn
        return fn
    return register
