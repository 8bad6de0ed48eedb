"""The board: placed tiles (cropped to their extent and the legal spots),
coordinates on all four margins so the text notation (``place X,Y rR``) can be
read off, the last tile framed, figures on their segments, and the viewer's
legal moves marked (through ``hooks.LEGAL``, by move type)."""
from __future__ import annotations

from ...games.carcassonne.orient import TILES, oriented
from .. import markup as m
from . import hooks
from .figures import ROLES, figure_svg
from .terrain import tile_group
from .tile_art import art_of

TILE = 40                 # board pixels per tile on a big board...
BIG_TILE = 96             # ... and on a young one: the board fills its picture, not an inset beside the panel
BOARD_PIXELS = 620
FILL_TILE = 128           # at most, to be as tall as the panel (Board.fill)
MARGIN = 22               # room for the coordinates
EMPTY = "#eee8d8"
GRID = "#d9d0bb"
LAST = "#d4145a"
LEGAL_LINE = "#1f4fbf"
FIGURE = 0.43             # a follower's height, in tiles


def tile_id(letter: str, rot: int) -> str:
    return f"c-{letter}-{rot}"


def distinct_rotations(letter: str) -> dict:
    """Rotation (quarter turns) -> the first rotation that looks the same
    (a cloister tile has 1 distinct rotation, a straight road 2, a crossing 1)."""
    seen: dict = {}
    out = {}
    marks = [s.marks for s in TILES[letter].segments]
    for r in range(4):
        o = oriented(letter, r)
        sig = tuple(sorted(zip(o.kinds, o.ports, marks)))
        out[r] = seen.setdefault(sig, r)
    return out


class Board:
    def __init__(self, view: dict, legal: list | None):
        self.view = view
        self.cells = {(t["x"], t["y"]): (t["tile"], t["rotation"] // 90) for t in view["board"]}
        self.order = [(t["x"], t["y"]) for t in view["board"]]
        self.legal = [mv for mv in (legal or []) if isinstance(mv, dict)]
        spots = {(mv["x"], mv["y"]) for mv in self.legal if isinstance(mv.get("x"), int) and isinstance(mv.get("y"), int)}
        cells = set(self.cells) | spots
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        self.x0, self.x1, self.y0, self.y1 = min(xs), max(xs), min(ys), max(ys)
        span = max(self.x1 - self.x0, self.y1 - self.y0) + 1
        # tiles as big as fit in BOARD_PIXELS, within [TILE, BIG_TILE]: the board is sized
        # to the tiles placed (a young board drawn large, at least as tall as the panel
        # beside it), a finished one stays small enough for mail
        self.tile = t = max(TILE, min(BIG_TILE, BOARD_PIXELS // span // 2 * 2))
        self.width = (self.x1 - self.x0 + 1) * t + 2 * MARGIN
        self.height = (self.y1 - self.y0 + 1) * t + 2 * MARGIN
        self.ox = 0.0
        self.oy = 0.0
        self.legal_cells: dict = {}    # cell -> rotations (quarter turns) legal there (None: a cell move)
        self.rings: list = []          # (x, y, label) of segments a legal move names
        for mv in self.legal:          # the LEGAL hooks note what to mark; svg() draws it
            fn = hooks.LEGAL.get(mv.get("type"))
            if fn is not None:
                fn(self, mv)

    def fill(self, height: float) -> None:
        """A young board beside a taller panel: tiles as big as make it as
        tall as the panel (up to FILL_TILE), rather than a small board in the
        middle of a frame. Call before drawing: everything drawn is in tiles."""
        rows = self.y1 - self.y0 + 1
        t = min(FILL_TILE, int((height - 2 * MARGIN) / rows) // 2 * 2)
        if t > self.tile:
            self.tile = t
            self.width = (self.x1 - self.x0 + 1) * t + 2 * MARGIN
            self.height = rows * t + 2 * MARGIN

    # -- geometry -------------------------------------------------------------------

    def origin(self, x: int, y: int) -> tuple:
        return (self.ox + MARGIN + (x - self.x0) * self.tile, self.oy + MARGIN + (y - self.y0) * self.tile)

    def segment_point(self, x: int, y: int, label: str):
        """Board pixels of the spot a figure on segment ``label`` of the tile at x,y stands on."""
        placed = self.cells.get((x, y))
        if placed is None:
            return None
        letter, rot = placed
        k = oriented(letter, rot).label_index.get(label)
        if k is None:
            return None
        ux, uy = art_of(letter).anchor(k, rot)
        px, py = self.origin(x, y)
        return (px + ux * self.tile, py + uy * self.tile)

    def barn_point(self, x: int, y: int, label: str):
        """A barn stands on a tile corner; the view names only its field, so it
        goes to a corner of that field where four tiles meet."""
        placed = self.cells.get((x, y))
        if placed is None:
            return None
        o = oriented(*placed)
        k = o.label_index.get(label)
        corners = (("NE", (1, 2), (1, -1), (1, 0)), ("SE", (3, 4), (1, 1), (1, 1)),
                   ("SW", (5, 6), (-1, 1), (0, 1)), ("NW", (7, 0), (-1, -1), (0, 0)))
        px, py = self.origin(x, y)
        for _name, halves, (dx, dy), (cx, cy) in corners:
            if all(o.half_seg[h] == k for h in halves) and all(
                    c in self.cells for c in ((x + dx, y), (x, y + dy), (x + dx, y + dy))):
                return (px + cx * self.tile, py + cy * self.tile)
        return self.segment_point(x, y, label)

    def shown(self, last_cells: list) -> set:
        """What the board shows that the key may explain: the tiles' marks and
        buildings, the last tile's frame, the legal spots' frames."""
        out = set()
        for letter, _ in set(self.cells.values()):
            tile = TILES[letter]
            for s in tile.segments:
                out.update(name for name, _ in s.marks)
                if s.kind == "cloister" and not s.mark("shrine"):
                    out.add("monastery")
            out.update(tile.tags)
        if any(c in self.cells for c in last_cells):
            out.add("last")
        if self.legal_cells:
            out.add("legal")
        return out

    # -- drawing ----------------------------------------------------------------------

    def defs(self) -> str:
        kinds = sorted(set(self.cells.values()))
        return "".join(tile_group(letter, rot, self.tile, tile_id(letter, rot)) for letter, rot in kinds)

    def svg(self, last_cells: list) -> str:
        out = [m.rect(self.ox + MARGIN, self.oy + MARGIN, self.width - 2 * MARGIN, self.height - 2 * MARGIN,
                      fill=EMPTY)]
        for (x, y), (letter, rot) in self.cells.items():
            px, py = self.origin(x, y)
            out.append(f'<use xlink:href="#{tile_id(letter, rot)}" x="{px:.0f}" y="{py:.0f}"/>')
        out.append(self._grid())
        for cell in last_cells:
            if cell in self.cells:
                px, py = self.origin(*cell)
                out.append(m.rect(px + 1.5, py + 1.5, self.tile - 3, self.tile - 3, fill="none", stroke="#ffffff",
                                  stroke_width=4))
                out.append(m.rect(px + 1.5, py + 1.5, self.tile - 3, self.tile - 3, fill="none", stroke=LAST,
                                  stroke_width=2.2, cls="last", data_x=cell[0], data_y=cell[1]))
        out.append(self._legal_cells())
        out.append(self._figures())
        out.append(self._rings())
        out.append(self._coordinates())
        return "".join(out)

    def _grid(self) -> str:
        d = []
        for (x, y) in self.cells:
            px, py = self.origin(x, y)
            d.append(f"M{px:.0f},{py:.0f}h{self.tile}v{self.tile}h-{self.tile}z")
        return m.path("".join(d), fill="none", stroke="#000000", stroke_opacity="0.28", stroke_width=0.8)

    def _figures(self) -> str:
        out = []
        numbers = m.Labels()
        spots: dict = {}
        placed = [f for fn in hooks.PLACED for f in fn(self.view)]
        for f in [*self.view.get("followers", ()), *placed]:
            x, y, label, figure = f["x"], f["y"], f["on"], f.get("figure", "follower")
            if label is None:            # a figure standing on a tile (the dragon, a tower)
                if (x, y) not in self.cells:
                    continue
                px, py = self.origin(x, y)
                dx, dy = f.get("at", (0.5, 0.5))
                where = (px + dx * self.tile, py + dy * self.tile)
                label = "tile"
            elif figure == "barn":
                where = self.barn_point(x, y, label)
            else:
                where = self.segment_point(x, y, label)
            if where is None:
                continue
            # two figures on one spot (a farmer and its pig): the later one steps aside
            key = (round(where[0]), round(where[1]))
            n = spots.get(key, 0)
            spots[key] = n + 1
            px, py = where[0] + n * self.tile * 0.2, where[1] - n * self.tile * 0.08
            kind = label.split(" ")[0]
            role = f.get("role") or ROLES.get(kind, kind)
            if kind == "cloister" and self._is_shrine(x, y):
                role = "heretic"
            out.append(figure_svg(figure, f["player"], role, px, py, FIGURE * self.tile,
                                  data=f'data-x="{x}" data-y="{y}" data-on="{label}" data-figure="{figure}"',
                                  labels=numbers))
        return "".join(out) + numbers.svg()

    def _rings(self) -> str:
        out = []
        for x, y, label in self.rings:
            cx, cy = self.segment_point(x, y, label)
            out.append(m.circle(cx, cy, self.tile * 0.22, fill="none", stroke="#ffffff", stroke_width=4))
            out.append(m.circle(cx, cy, self.tile * 0.22, fill="none", stroke=LEGAL_LINE, stroke_width=2,
                                stroke_dasharray="4 2", cls="legal-segment", data_x=x, data_y=y, data_on=label))
        return "".join(out)

    def _is_shrine(self, x: int, y: int) -> bool:
        letter, _ = self.cells[(x, y)]
        return any(s.kind == "cloister" and s.mark("shrine") for s in TILES[letter].segments)

    def _legal_cells(self) -> str:
        if not self.legal_cells:
            return ""
        letter = self.view.get("tile")
        same = distinct_rotations(letter) if letter in TILES else {r: r for r in range(4)}
        out = []
        for (x, y), rots in sorted(self.legal_cells.items(), key=lambda c: (c[0][1], c[0][0])):
            px, py = self.origin(x, y)
            lines = [] if rots is None else [f"r{r * 90}" for r in sorted({same[r] for r in rots})]
            out.append(m.rect(px + 3, py + 3, self.tile - 6, self.tile - 6, rx=5, fill="#ffffff", fill_opacity="0.55",
                              stroke=LEGAL_LINE, stroke_width=1.6, stroke_dasharray="5 3", cls="legal",
                              data_x=x, data_y=y, data_rotations=" ".join(lines)))
            step = 10.5 if len(lines) > 3 else 12
            for i, text in enumerate(lines):
                ty = py + self.tile / 2 + 4 + (i - (len(lines) - 1) / 2) * step
                out.append(m.text(px + self.tile / 2, ty, text, size=10.5, anchor="middle", weight="bold",
                                  fill=LEGAL_LINE))
        return "".join(out)

    def _coordinates(self) -> str:
        """The columns' x above and below the board, the rows' y left and right of
        it: one text element per margin (one label per span), which renders faster
        than a text element per label."""
        top, bottom = self.oy + MARGIN - 7, self.oy + self.height - MARGIN + 15
        left, right = self.ox + MARGIN - 5, self.ox + self.width - MARGIN + 5
        half = self.tile / 2
        cols = [(x, self.origin(x, self.y0)[0] + half) for x in range(self.x0, self.x1 + 1)]
        rows = [(y, self.origin(self.x0, y)[1] + half + 4) for y in range(self.y0, self.y1 + 1)]

        def margin(cls, anchor, spans) -> str:
            inner = "".join(f'<tspan x="{px:.0f}" y="{py:.0f}">{value}</tspan>' for value, px, py in spans)
            return f'<text class="{cls}" font-size="11" text-anchor="{anchor}" fill="#444">{inner}</text>'

        return (margin("coord-x", "middle", [(x, px, top) for x, px in cols])
                + margin("coords", "middle", [(x, px, bottom) for x, px in cols])
                + margin("coord-y", "end", [(y, left, py) for y, py in rows])
                + margin("coords", "start", [(y, right, py) for y, py in rows]))


# -- the viewer's legal moves ------------------------------------------------------------------


@hooks.legal("place_tile")
def legal_place(board: Board, move: dict) -> None:
    rots = board.legal_cells.setdefault((move["x"], move["y"]), set())
    if rots is not None:
        rots.add(move["rotation"] // 90)


@hooks.legal("abbey")
def legal_abbey(board: Board, move: dict) -> None:
    if "x" in move:
        board.legal_cells.setdefault((move["x"], move["y"]), None)


def ring(board: Board, move: dict) -> None:
    """A segment the move names (a wagon's target, a knight that may escape): ringed on the board."""
    if board.segment_point(move["x"], move["y"], move["on"]) is not None:
        board.rings.append((move["x"], move["y"], move["on"]))


@hooks.legal("wagon")
def legal_wagon(board: Board, move: dict) -> None:
    if "x" in move:
        ring(board, move)


@hooks.legal("escape")
def legal_escape(board: Board, move: dict) -> None:
    if "x" in move:
        ring(board, move)
