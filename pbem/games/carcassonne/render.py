"""Plain-text board for terminals and email, at most 80 columns.

The board is drawn tile by tile in glyphs (``glyphs.py``: 5 characters by 3
lines, showing how roads and cities run and where the figures stand), with
the x coordinates above and y beside it. A board too big for 80 columns
(12 tiles across) or for a screen (12 tiles down) is shown in part: the
window around the last tile placed that holds the most cells where the
drawn tile fits, and a line says how to see it all (``whole``). Under it:
the drawn tile in each of its distinct rotations, the scores and supplies,
the expansions' lines, and for the seat to place, the placements, one move
per line (a figure is added after the rotation as listed under it).
"""
from __future__ import annotations

from ..i18n import _
from .columns import WIDTH, width
from .columns import wrap as wrap_columns
from .features import label_of
from .glyphs import distinct_rotations, glyph, key_lines, marks_in_play
from .moves import group_moves, legal_moves, legal_placements
from .rules import turn_number
from .notation import OWED_TEXTS, describe_move, figure_name, name_in_move, names_in, seat, seat_name, segment
from .words import localize

#: tiles across and down in the window (4 + 6 * 12 + 1 = 77 columns)
MAX_ACROSS, MAX_DOWN = 12, 12
EMPTY = ["     "] * 3
SPOT = ["     ", "  ?  ", "     "]


def followers_on_board(state) -> list:
    """[(player, x, y, label, figure)] sorted, for views and rendering."""
    out = []
    for f in state.features.values():
        for player, sid, figure in f.meeples:
            x, y, label = label_of(state, sid)
            out.append((player, x, y, label, figure))
    out.sort(key=lambda t: (t[2], t[1], t[0], t[3], t[4]))
    return out


def _on_board(player, x, y, label, figure) -> str:
    """One figure of the board's list: "Ann: knight on city N at 1,0"."""
    args = dict(player=seat(player), on=segment(label), at=f"{x},{y}", figure=figure_name(figure))
    if figure == "follower":
        role = {"city": _("knight"), "road": _("thief"), "cloister": _("monk"), "field": _("farmer")}.get(
            label.split(" ")[0])
        if role:
            return _("{player}'s {figure} on {on} at {at}", **{**args, "figure": role})
    return _("{player}'s {figure} on {on} at {at}", **args)


def spots(state) -> list:
    """The empty cells where the drawn tile fits (public: anyone can work
    them out), while a tile waits to be placed."""
    if state.over or not state.tile or "place_tile" not in state.pending.values():
        return []
    return sorted({cell for cell, _i in legal_placements(state)}, key=lambda c: (c[1], c[0]))


def window(state, marked: list, whole: bool = False) -> tuple:
    """(x0, y0, x1, y1) of the part of the board shown: all of it when it
    fits (or ``whole``), else the window around the last tile placed with
    the most marked cells, then the most tiles, then the last tile nearest
    its middle."""
    cells = list(state.board) + list(marked)
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if whole or (x1 - x0 < MAX_ACROSS and y1 - y0 < MAX_DOWN):
        return x0, y0, x1, y1
    fx, fy = state.placed[-1]

    def starts(lo, hi, focus, size):
        if hi - lo < size:
            return [lo]
        return list(range(max(lo, focus - size + 1), min(focus, hi - size + 1) + 1))

    # the cells inside each candidate window are counted from summed-area tables (a
    # late-game board has ~200 tiles and ~100 candidate windows: scanning the board
    # once per window was most of a text board's time)
    in_marked = _counter(marked, x0, y0, x1, y1)
    in_board = _counter(state.board, x0, y0, x1, y1)
    best = None
    for wx in starts(x0, x1, fx, MAX_ACROSS):
        for wy in starts(y0, y1, fy, MAX_DOWN):
            ex, ey = min(x1, wx + MAX_ACROSS - 1), min(y1, wy + MAX_DOWN - 1)
            key = (in_marked(wx, wy, ex, ey), in_board(wx, wy, ex, ey),
                   -abs(2 * fx - wx - ex) - abs(2 * fy - wy - ey), -wy, -wx)
            if best is None or key > best[0]:
                best = (key, (wx, wy, ex, ey))
    return best[1]


def _counter(cells, x0: int, y0: int, x1: int, y1: int):
    """fn(wx, wy, ex, ey) -> how many of ``cells`` (distinct, inside x0..x1, y0..y1) lie
    in that box (ends included), read off a summed-area table."""
    width = x1 - x0 + 2
    table = [0] * (width * (y1 - y0 + 2))   # table[(y + 1) * width + x + 1]: cells left of and above
    for x, y in cells:
        table[(y - y0 + 1) * width + x - x0 + 1] += 1
    for row in range(1, y1 - y0 + 2):
        at = row * width
        for col in range(1, width):
            i = at + col
            table[i] += table[i - 1] + table[i - width] - table[i - width - 1]

    def count(wx: int, wy: int, ex: int, ey: int) -> int:
        top, bottom = (wy - y0) * width, (ey - y0 + 1) * width
        left, right = wx - x0, ex - x0 + 1
        return table[bottom + right] - table[top + right] - table[bottom + left] + table[top + left]
    return count


#: where a board mark goes on its tile's glyph: the first of these still field
MARK_CELLS = ((0, 0), (0, 4), (2, 0), (2, 4), (1, 1), (1, 3))


#: what a mark placed at a cell of its own (a tunnel token at its mouth) may cover there:
#: road, field, a free mouth
UNDER_MARK = "|-.~"


def _with_marks(cell: list, chars: list) -> list:
    """A tile's glyph with the board marks standing on it (``Rules.board_marks``): each
    ``(char, cells)``, at the first of its own ``cells`` still road or field (a figure
    drawn there stays), else in a corner left field."""
    grid = [list(row) for row in cell]
    for ch, cells in chars:
        own = [(r, c) for r, c in cells if grid[r][c] in UNDER_MARK]
        free = own or [(r, c) for r, c in MARK_CELLS if grid[r][c] == "."]
        r, c = free[0] if free else MARK_CELLS[0]
        grid[r][c] = ch
    return ["".join(row) for row in grid]


def board_lines(state, box: tuple, marked: list) -> list:
    x0, y0, x1, y1 = box
    on_tile: dict = {}
    for player, x, y, label, figure in followers_on_board(state):
        on_tile.setdefault((x, y), []).append((figure, player, label))
    marks: dict = {}
    for fn in (state.rules.board_marks if state.rules is not None else ()):
        for x, y, ch, *cells in fn(state):          # (x, y, char[, glyph cells it prefers])
            marks.setdefault((x, y), []).append((ch, cells[0] if cells else ()))
    last = state.placed[-1] if state.placed else None
    marked = set(marked)
    out = ["    " + "".join(f" {x:^5}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        rows = ["    ", f"{y:>4}", "    "]
        for x in range(x0, x1 + 1):
            t = state.board.get((x, y))
            cell = glyph(t[0], t[1], tuple(on_tile.get((x, y), ()))) if t else SPOT if (x, y) in marked else EMPTY
            if t and (x, y) in marks:
                cell = _with_marks(cell, marks[(x, y)])
            for i in range(3):
                sep = ">" if i == 1 and (x, y) == last else "<" if i == 1 and (x - 1, y) == last else " "
                rows[i] += sep + cell[i]
        rows[1] += "<" if (x1, y) == last else ""
        out += [r.rstrip() for r in rows]
    return out


def tile_lines(letter: str) -> list:
    """The drawn tile in each of its distinct rotations, side by side."""
    turns = distinct_rotations(letter)
    drawn = [glyph(letter, r) for r in turns]
    out = ["  " + " ".join(f"{'r' + str(r * 90):^5}" for r in turns)]   # (notation: as typed)
    out += ["  " + " ".join(g[i] for g in drawn) for i in range(3)]
    return out


def wrap(line: str, indent: str = "  ") -> list:
    """A line cut to 80 columns (a Chinese character takes two); a
    continuation starts with ``indent`` (a line that may hold moves is cut
    with "... " as the continuation, so no part of it reads as a move)."""
    return wrap_columns(line, WIDTH, indent)


def placements_lines(state, player, names=None) -> list:
    """The drawn tile's legal placements for ``player``: each placement a
    line that is a move, and under it the figures that may go with it, each
    written as it is added after the move."""
    lines = []
    for (x, y, rot), moves in group_moves(legal_moves(state, player)):
        bare = f"place {x},{y} r{rot}"
        lines.append("  " + localize(bare))
        extras = [localize(describe_move(m)[len(bare) + 1:]) for m in moves if m.get("figure")]
        if extras:
            lines += wrap_items("      + ", extras, "        | ")
    return lines


def wrap_items(first: str, items: list, then: str, sep: str = " | ") -> list:
    """Items joined by ``sep`` in lines of at most 80 columns, cut only
    between items; the first line starts with ``first``, the others with
    ``then``."""
    lines, line = [], first
    for item in items:
        if line not in (first, then) and width(line) + len(sep) + width(item) > WIDTH:
            lines.append(line)
            line = then
        line += ("" if line in (first, then) else sep) + item
    return lines + [line]


def waiting_lines(state, names=None) -> list:
    """Who owes a decision other than the placement the heading names, and what they may
    do ("Waiting for Bob, who may bid or pass."): a decision by a seat other than the
    active one (a bazaar bid, a dragon step, a castle's choice) says so on the board."""
    if state.over:
        return []
    out = []
    for player, owed in sorted(state.pending.items()):
        if owed == "place_tile":
            continue
        text = OWED_TEXTS.get(owed)
        what = text(state, player) if text else _("owes a decision")
        out.append(name_in_move(names_in(_("Waiting for {player}, who {what}.", player=seat(player), what=what),
                                         names), names))
    return out


def render(state, viewer=None, names=None, whole: bool = False) -> str:
    who = [seat_name(p, names) for p in range(state.players)]
    marked = spots(state)
    box = window(state, marked, whole)
    number = turn_number(state.turn, state.step, state.over)  # as the picture numbers it
    if state.over:
        head = _("Carcassonne - turn {turn} - game over", turn=number)
    elif state.tile:
        head = _("Carcassonne - turn {turn} - {player} places tile {tile}", turn=number,
                 player=who[state.active], tile=state.tile)
    else:
        head = _("Carcassonne - turn {turn} - {player}'s turn", turn=number, player=who[state.active])
    out = wrap(head)
    out += board_lines(state, box, marked)
    shown = sum(1 for c in state.board if box[0] <= c[0] <= box[2] and box[1] <= c[1] <= box[3])
    hidden_spots = sum(1 for c in marked if not (box[0] <= c[0] <= box[2] and box[1] <= c[1] <= box[3]))
    if shown < len(state.board) or hidden_spots:
        where = dict(shown=shown, tiles=len(state.board), x0=box[0], x1=box[2], y0=box[1], y1=box[3],
                     fits=len(marked) - hidden_spots, cells=len(marked))
        part = (_("Part of the board: {shown} of {tiles} tiles, {fits} of the {cells} cells where the tile fits "
                  "(x {x0} to {x1}, y {y0} to {y1}).", **where) if marked else
                _("Part of the board: {shown} of {tiles} tiles (x {x0} to {x1}, y {y0} to {y1}).", **where))
        out += wrap(part + " " + _("The whole board: `pbem show GAME --whole`, the API's ?board=whole, or the "
                                   "picture (`pbem show GAME --png board.png`)."))
    figures = set(state.rules.figure_words.values()) if state.rules is not None else set()
    if "abbey_mayor" in state.options.get("expansions", ()):
        figures.add("barn")  # (its word is read by the expansion's own parser)
    figures = sorted(figures)
    expansions = state.options.get("expansions", ())
    out += key_lines(figures, "cult" in expansions, who, marks_in_play(expansions),
                     state.rules.board_mark_keys if state.rules is not None else {})
    out.append("")
    for line in waiting_lines(state, names):
        out += wrap(line, "      ... ")     # it may list moves: "... " keeps them apart
    out += wrap(_("Scores: {list}", list=_(", ").join(
        _("{player} {n}", player=who[i], n=s) for i, s in enumerate(state.scores))))
    out += wrap(_("Followers in supply: {list}", list=_(", ").join(
        _("{player} {n}", player=who[i], n=s) for i, s in enumerate(state.supply))))
    placed = followers_on_board(state)
    if placed:
        out += wrap(names_in(_("On the board: {list}", list=_("; ").join(
            _on_board(p, x, y, lab, f) for p, x, y, lab, f in placed)), names))
    rules = state.rules
    if rules is not None:
        for lines in rules.render_lines:
            for line in lines(state, viewer):  # these may list moves: "... " keeps them apart
                out += wrap(name_in_move(names_in(line, names), names), "      ... ")
    out.append(_("Tiles left in the pile: {n}", n=sum(state.pile.values())))
    if state.over:
        out.append(_("The game is over."))
    elif state.tile:
        out.append(_("The tile to place, {tile}, each way round (r: clockwise turns):", tile=state.tile))
        out += tile_lines(state.tile)
        if viewer in state.pending and state.pending[viewer] == "place_tile":
            out.append(_("Legal placements (each line a move; add a figure after it as listed):"))
            out += placements_lines(state, viewer, names)
    return "\n".join(out)
