"""Tiles as small text glyphs, for the text board (``render.py``).

A tile is 5 characters wide and 3 lines high; its north edge is the top
line::

    .###.     city N (a cap: one edge)         .###.   city N and S, apart
    -----     a road running through W-E       .....
    .....                                      .###.
    .###.     city N, roads E S W ending       #####   city W-E, one city
    --o--     (o: roads end on the tile)       .....
    ..|..                                      .....

Cities are ``#``; a city that joins several edges fills the middle, so a
city split in two leaves a gap. Roads are ``|`` and ``-``; a road running
through the tile goes straight through the middle (``+`` where it bends),
roads that end on the tile meet at ``o`` (or at the monastery). ``M`` is a
monastery (``S`` a shrine), ``*`` a pennant, ``.`` field. A figure stands
where its segment is drawn: a follower is its seat's digit (a knight in the
city, a thief on the road, a monk on the monastery, a farmer in the
field); another figure is its letter and the seat's digit (``b1``: seat 1's
big follower).
"""
from __future__ import annotations

import functools

from ..i18n import N_, _
from .columns import width
from .orient import oriented

W, H = 5, 3
FIELD, CITY, CENTRE = ".", "#", (1, 2)
#: the cells of each edge (N E S W), and the one cell of it a figure stands on
EDGE_CELLS = (((0, 1), (0, 2), (0, 3)), ((1, 4),), ((2, 1), (2, 2), (2, 3)), ((1, 0),))
EDGE_ANCHOR = ((0, 2), (1, 4), (2, 2), (1, 0))
#: the inner cell between an edge and the middle (where a road from it runs)
INNER = ((0, 2), (1, 3), (2, 2), (1, 1))
#: the corner between edge d and edge d + 1 (NE, SE, SW, NW)
CORNER = ((0, 4), (2, 4), (2, 0), (0, 0))
#: where a field's half-edge is drawn (NL NR EL ER SL SR WL WR, seen from the middle)
HALF_CELL = ((0, 1), (0, 3), (0, 4), (2, 4), (2, 3), (2, 1), (2, 0), (0, 0))
#: a barn's corners
BARN_CELL = {"NE": (0, 4), "SE": (2, 4), "SW": (2, 0), "NW": (0, 0)}
#: the letter of a figure other than the follower
FIGURE_LETTERS = {"big": "b", "builder": "u", "pig": "p", "mayor": "m", "wagon": "w", "barn": "n"}
#: what a segment's marks look like (a pennant is ``*``), and what the key says of them
MARK_CHARS = {"inn": ("I", N_("inn")), "cathedral": ("C", N_("cathedral")), "wine": ("W", N_("wine")),
              "grain": ("G", N_("grain")), "cloth": ("F", N_("cloth (fabric)")), "siege": ("!", N_("besieged")),
              "princess": ("P", N_("princess")), "tunnel": ("~", N_("a tunnel mouth"))}
#: marks drawn where their road meets the tile's middle, not in a spare cell (a tunnel
#: mouth: on the board, its token's letter takes its place, ``expansions/tunnel/text.py``)
MOUTH_MARKS = ("tunnel",)
#: a tile's symbols (its tags), drawn in a free field cell, and their key
TAG_CHARS = {"volcano": ("V", N_("volcano")), "magic portal": ("@", N_("magic portal")),
             "dragon": ("D", N_("dragon symbol")), "tower": ("T", N_("tower foundation")), "bazaar": ("$", N_("bazaar")),
             "fair": ("^", N_("fair")),
             "wheel_number": ("%", N_("wheel number (the Wheel of Fortune)"))}
#: where a tag goes: the first of these cells still field
TAG_CELLS = ((2, 4), (2, 0), (0, 4), (0, 0), (1, 1), (1, 3))
#: an edge inside the City of Carcassonne (the Count's tiles join there; the
#: tile tables write it ``·``): neither city, road nor field
INNER_EDGE = "="
DISTRICT_EDGE = "\u00b7"
#: the key's entry for the City of Carcassonne's inner edges
INNER_KEY = (INNER_EDGE, N_("inside the City of Carcassonne"))
#: ... and the Wheel of Fortune's (its board's tiles carry the tag ``wheel``)
WHEEL_INNER_KEY = (INNER_EDGE, N_("inside the Wheel of Fortune"))
ROAD_CHAR = ("|", "-", "|", "-")


def figure_mark(figure: str, seat: int) -> str:
    digit = str(seat) if 0 <= seat < 10 else "?"
    if figure == "follower":
        return digit
    return FIGURE_LETTERS.get(figure, figure[:1].lower() or "?") + digit


def _road_middle(edges: tuple) -> str:
    """The middle of a road segment touching ``edges`` (two or more)."""
    if len(edges) == 2 and (edges[0] + 2) % 4 == edges[1]:
        return ROAD_CHAR[edges[0]]  # straight through
    return "+"


def glyph(letter: str, rot: int, figures: tuple = ()) -> list:
    """The tile ``letter`` turned ``rot`` quarter turns, as 3 strings of 5
    characters; ``figures`` are (figure, seat, label) standing on it."""
    try:
        return list(_glyph(letter, rot, figures))
    except TypeError:  # figures that cannot be a key: drawn afresh
        return _glyph.__wrapped__(letter, rot, figures)


@functools.lru_cache(maxsize=4096)
def _glyph(letter: str, rot: int, figures: tuple) -> list:
    """``glyph``, kept: a board draws the same tiles, with the same figures, text after text."""
    o = oriented(letter, rot)
    grid = [[FIELD] * W for _i in range(H)]
    anchors: dict = {}
    cells: dict = {}                 # segment -> the cells drawn for it (for its marks)
    cloister = None
    road_ends = []
    through = []                     # segments running through the middle

    def put(k, r, c, ch):
        grid[r][c] = ch
        cells.setdefault(k, []).append((r, c))

    for k, kind in enumerate(o.kinds):
        ports = o.ports[k]
        if kind == "city":
            for d in ports:
                for r, c in EDGE_CELLS[d]:
                    put(k, r, c, CITY)
            if len(ports) > 1:       # one city joining edges: through the middle
                through.append(k)
                grid[1][2] = CITY
                for d in ports:
                    if d in (1, 3):
                        put(k, *INNER[d], CITY)
                    if (d + 1) % 4 in ports:
                        put(k, *CORNER[d], CITY)
                anchors[k] = CENTRE
            elif ports:
                anchors[k] = EDGE_ANCHOR[ports[0]]
            if ports and o.tile.segments[k].mark("pennant"):
                r, c = CENTRE if len(ports) > 1 else EDGE_ANCHOR[ports[0]]
                grid[r][c] = "*"
                cells[k] = [at for at in cells[k] if at != (r, c)]
        elif kind == "road":
            for d in ports:
                put(k, *EDGE_ANCHOR[d], ROAD_CHAR[d])
                put(k, *INNER[d], ROAD_CHAR[d])
            if len(ports) > 1:
                through.append(k)
                grid[1][2] = _road_middle(ports)
                anchors[k] = CENTRE
            elif ports:
                road_ends.append(k)
                anchors[k] = INNER[ports[0]]
                for name in MOUTH_MARKS:
                    if o.tile.segments[k].mark(name):
                        grid[INNER[ports[0]][0]][INNER[ports[0]][1]] = MARK_CHARS[name][0]
        elif kind == "cloister":
            cloister = k
            anchors[k] = CENTRE
        elif kind == "field":
            halves = ports
            anchors[k] = HALF_CELL[halves[0]] if halves else (1, 1)
    if cloister is not None:
        shrine = o.tile.segments[cloister].mark("shrine")
        grid[1][2] = "S" if shrine else "M"
    elif len(through) > 1:
        grid[1][2] = "x"             # two roads (or cities) cross without joining
        for k in through:            # a figure stands on its own arm: which of the two is its
            anchors[k] = INNER[o.ports[k][0]]
    elif road_ends and grid[1][2] == FIELD:
        grid[1][2] = "o"
    for d, kind in enumerate(o.edges):
        if kind == DISTRICT_EDGE:    # (not the abbey's edges, ``*``, which match any)
            for r, c in EDGE_CELLS[d]:
                grid[r][c] = INNER_EDGE
    for tag in o.tile.tags:
        if tag in TAG_CHARS:
            free = [at for at in TAG_CELLS if grid[at[0]][at[1]] == FIELD]
            if free:
                grid[free[0][0]][free[0][1]] = TAG_CHARS[tag][0]
    for k, seg in enumerate(o.tile.segments):
        spare = [at for at in cells.get(k, ()) if at != anchors.get(k)]
        for name, _count in seg.marks:
            if name in MARK_CHARS and name not in MOUTH_MARKS and spare:
                r, c = spare.pop()
                grid[r][c] = MARK_CHARS[name][0]
    for figure, seat, label in figures:
        k = o.label_index.get(label)
        if figure == "barn" and label.startswith("corner "):
            at = BARN_CELL.get(label[7:])
        else:
            at = anchors.get(k) if k is not None else None
        if at is None:
            continue
        mark = figure_mark(figure, seat)
        r, c = at
        if at == CENTRE and grid[1][2] in "MS":
            grid[1][1], c = grid[1][2], 2      # the monastery steps aside for its monk: ".M1.."
        elif len(mark) > 1:
            c = c - 1 if c > 0 else c
        for i, ch in enumerate(mark[:W - c]):
            grid[r][c + i] = ch
    return ["".join(row) for row in grid]


def shape(letter: str, rot: int) -> tuple:
    """What a turned tile looks like, to tell its distinct rotations apart."""
    o = oriented(letter, rot)
    return tuple(sorted((kind, o.ports[k], o.tile.segments[k].marks) for k, kind in enumerate(o.kinds)))


def distinct_rotations(letter: str) -> list:
    """The quarter turns that give the tile a different look (one for a
    tile that looks the same every way round)."""
    seen, out = set(), []
    for r in range(4):
        key = shape(letter, r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def marks_in_play(expansions) -> list:
    """The marks, tags and inner edges the glyphs of this game's tiles (the
    base game's and those of ``expansions``) draw, in the key's order: what
    the key must explain, and only that."""
    from .orient import TILES
    # every text board asks, and scanning every tile type was a tenth of its time:
    # kept per set of expansions and number of tile types known (factories add
    # types as games first name them; none is ever taken away)
    return list(_marks_in_play(tuple(expansions), len(TILES)))


@functools.lru_cache(maxsize=256)
def _marks_in_play(expansions: tuple, _tile_types: int) -> tuple:
    from .orient import TILES
    kinds = {"base", *expansions}
    found = set()
    for tile in TILES.values():
        if tile.expansion in kinds:
            found.update(name for seg in tile.segments for name, _count in seg.marks)
            found.update(tile.tags)
            if DISTRICT_EDGE in tile.edges:
                found.add("wheel_inner" if "wheel" in tile.tags else "district")
    return tuple(m for m in (*MARK_CHARS, *TAG_CHARS, "district", "wheel_inner") if m in found)


#: the figures' names in the key
FIGURE_KEYS = {"big": N_("big follower"), "builder": N_("builder"), "pig": N_("pig"), "mayor": N_("mayor"),
               "wagon": N_("wagon"), "barn": N_("barn")}


def _items_lines(lines: list, items: list, indent: str, sep: str = "  ") -> list:
    """``items`` added to the last of ``lines``, a new line (``indent``) where
    one would pass 80 columns."""
    for item in items:
        if lines[-1].strip() and width(lines[-1]) + width(sep) + width(item) > 80:
            lines.append(indent)
        lines[-1] += ("" if not lines[-1].strip() else sep) + item
    return lines


def key_lines(figures, shrines: bool, seats: list, marks_in_play=(), board_marks=None) -> list:
    """The glyphs' key, in the reader's language: only the figures in play
    (``figures``: their names besides the follower), shrines where the Cult
    is, the tile marks of the expansions in play, the marks of the figures
    off the segments (``board_marks``: char -> words), and each seat's
    digit with its name (``seats``)."""
    table = {**MARK_CHARS, **TAG_CHARS, "district": INNER_KEY, "wheel_inner": WHEEL_INNER_KEY}
    items = [_("# city (split cities leave a gap)"), _("| - road"), _("o roads end"), _("+ road bends"),
             _("x two cross without joining"), _("M monastery")]
    if shrines:
        items.append(_("S shrine"))
    items += [_("* pennant"), _(". field"), _("? the tile fits"), _("> < the last tile")]
    items += [f"{table[m][0]} {_(table[m][1])}" for m in marks_in_play if m in table]
    items += [f"{ch} {_(words)}" for ch, words in (board_marks or {}).items()]
    lines = _items_lines([_("Key:")], items, "    ")
    marks = [f"{FIGURE_LETTERS.get(f, f[:1])} {_(FIGURE_KEYS[f]) if f in FIGURE_KEYS else f}"
             for f in dict.fromkeys(figures) if f != "follower"]
    lines.append("    " + (_("digit: that seat's follower where it stands; letter+digit: another figure:")
                           if marks else _("digit: that seat's follower where it stands")))
    if marks:
        lines = _items_lines(lines + ["     "], marks, "     ", _(", "))
    return _items_lines(lines + ["    "], [f"{i} {name}" for i, name in enumerate(seats)], "    ", _(", "))
