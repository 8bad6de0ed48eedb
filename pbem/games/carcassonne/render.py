"""Plain-text board for terminals and email.

Each tile is drawn 3 lines high and 5 characters wide: its north edge type
on top, west and east edge types at the sides, south edge type below, and
in the middle its letter followed by the seat number of a follower on it
(``*`` for followers of several seats). Edge types: C city, R road, F field.
With expansion tiles (ids like ``IC13``) every cell is widened to the
longest id in the pile (the id padded to that width, a space, the seat, a
space); the list under the board names each figure ("seat 0 big city N at
1,0" for a big follower).
"""
from __future__ import annotations

from .features import label_of
from .moves import group_moves, legal_moves
from .orient import oriented


def followers_on_board(state) -> list:
    """[(player, x, y, label, figure)] sorted, for views and rendering."""
    out = []
    for f in state.features.values():
        for player, sid, figure in f.meeples:
            x, y, label = label_of(state, sid)
            out.append((player, x, y, label, figure))
    out.sort(key=lambda t: (t[2], t[1], t[0], t[3], t[4]))
    return out


def _where(figure: str, label: str) -> str:
    """How the board list names a figure's segment: "farmer NL" for a
    follower or big follower in a field, "NL" for a pig, else the label."""
    if not label.startswith("field "):
        return label
    return label[6:] if figure in ("pig", "barn") else "farmer " + label[6:]


def placements_text(state, player) -> str:
    """The drawn tile's legal placements, one line per position and rotation,
    with the follower choices of each."""
    lines = []
    for (x, y, rot), moves in group_moves(legal_moves(state, player)):
        labels = [m["on"] for m in moves if m.get("figure") == "follower"]
        extra = f"  + follower on: {', '.join(labels)}" if labels else ""
        others: dict = {}
        for m in moves:
            if m.get("figure") not in (None, "follower"):
                others.setdefault(m["figure"], []).append(m["on"])
        for figure, on in others.items():
            extra += f"  + {figure} on: {', '.join(on)}"
        lines.append(f"  place {x},{y} r{rot}{extra}")
    return "\n".join(lines)


def render(state, viewer=None) -> str:
    board = state.board
    xs = [c[0] for c in board]
    ys = [c[1] for c in board]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    w = max([1, *(len(t[0]) for t in board.values()), *(len(k) for k in state.pile)])
    rules = state.rules
    if rules is not None:
        w = max([w, *(len(k) for k in rules.pile)])
    gap = "" if w == 1 else " "              # wide ids: spaces around the seat
    cw = 4 + w + 2 * len(gap)                # cell width: 5 for one-letter tiles
    on_tile: dict = {}
    for player, x, y, _label, _figure in followers_on_board(state):
        prev = on_tile.get((x, y))
        on_tile[(x, y)] = str(player) if prev in (None, str(player)) else "*"
    out = ["      " + "".join(f"{x:^{cw + 1}}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        rows = ["", "", ""]
        for x in range(x0, x1 + 1):
            t = board.get((x, y))
            if t is None:
                blank = " " * cw
                cells = [blank, f"{'.':^{cw}}" if (x, y) in state.frontier else blank, blank]
            else:
                e = oriented(t[0], t[1]).edges
                mid = f"{t[0]:<{w}}{gap}{on_tile.get((x, y), ' ')}{gap}"
                cells = [f"{e[0]:^{cw}}", f"{e[3]} {mid}{e[1]}", f"{e[2]:^{cw}}"]
            for i in range(3):
                rows[i] += cells[i] + " "
        out.append("      " + rows[0].rstrip())
        out.append(f"{y:>4}  " + rows[1].rstrip())
        out.append("      " + rows[2].rstrip())
    out.append("")
    out.append("Scores: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(state.scores)))
    out.append("Followers in supply: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(state.supply)))
    placed = followers_on_board(state)
    if placed:
        out.append("On the board: " + "; ".join(
            f"seat {p} {'' if f == 'follower' else f + ' '}"
            f"{_where(f, lab)} at {x},{y}"
            for p, x, y, lab, f in placed))
    if rules is not None:
        for lines in rules.render_lines:
            out.extend(lines(state, viewer))
    out.append(f"Tiles left in the pile: {sum(state.pile.values())}")
    if state.over:
        out.append("The game is over.")
    elif state.tile:
        o = oriented(state.tile, 0)
        out.append(f"Seat {state.active} places tile {state.tile} "
                   f"(unrotated edges N E S W: {' '.join(o.edges)}).")
        if viewer in state.pending:
            out.append("Legal placements:")
            out.append(placements_text(state, viewer))
    return "\n".join(out)
