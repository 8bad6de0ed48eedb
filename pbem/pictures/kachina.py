"""The Kachina board as a picture, drawn from one viewer's view.

Top to bottom: what happens now (and the last move), the players with their
scores and hand sizes, the viewer's own tiles, the grid with its x,y
coordinates (the notation's), and a key to the eight kinds.

Touching the board (``touch``, the pages' generic chooser): a move is made by
touching a tile in the hand, then a marked cell. Keys:

- ``tile:KIND`` (``tile:sun``): the viewer's tiles of that kind (each framed
  by a shape with ``data-pick``); alone, it is a discard of that kind (when no tile can
  be placed); an Eagle then a tile is a cover, a Warrior then a tile a swap.
- ``cell:X,Y`` (``cell:-2,1``): a cell of the grid, empty or not.
- ``keep``, ``redraw``, ``pass``: off the board (buttons beside it).
"""
from __future__ import annotations

from ..games.i18n import N_, _, ngettext
from ..games.kachina import KIND, a_tile, board_code, end_reason, tile_title
from .svgkit import (
    INK, LINE, MUTED, PANEL, Svg, and_list, fit, header, is_seat, name_column, player_row,
    seat_colour, seat_frame, seat_name, text_width, winners_text, wrap,
)

WIDTH = 640
#: the panels' width on a phone (``draw(narrow=True)``): near a phone's picture (about 356 CSS px)
NARROW = 330

#: the setups ``bench/pictures.py`` measures (the first is the headline figure)
BENCH_SETUPS = ((2, {}), (5, {}))
MARGIN = 16

#: kind -> (value, fill, text colour, what its power does, in a few words: translated where drawn)
KINDS = {
    "chief": (8, "#8e2424", "#ffffff", N_("no power")),
    "sun": (7, "#f2b705", "#222222", N_("no power")),
    "ogre": (6, "#4b5a23", "#ffffff", N_("only Ogres beside it")),
    "eagle": (5, "#8a5a2b", "#ffffff", N_("may cover a tile")),
    "wolf": (4, "#6c7a8c", "#ffffff", N_("4 × Wolves in its line")),
    "warrior": (3, "#d0643c", "#ffffff", N_("may swap for a tile")),
    "hummingbird": (2, "#1f8f84", "#ffffff", N_("wins bookended lines")),
    "koshari": (1, "#ece6d6", "#222222", N_("zeroes its neighbours")),
}
ORDER = ("chief", "sun", "ogre", "eagle", "wolf", "warrior", "hummingbird", "koshari")


def _tile(svg: Svg, x, y, s, kind: str, *, zeroed=False, covered=None, outline: int | None = None,
          code=True, code_size=None) -> None:
    """A tile: its kind's colour and value, and (``code``) its two-letter
    code. Values name kinds one to one, so the board's tiles go without
    the code: every label costs the rasteriser more than all the shapes."""
    value, fill, ink, _power = KINDS[kind]
    svg.rect(x, y, s, s, fill=fill, stroke="#00000055", sw=1, rx=s * 0.14)
    if kind == "koshari":
        # the Koshari clown's black-and-white bands
        svg.rect(x + s * 0.1, y + s * 0.08, s * 0.8, s * 0.07, fill=INK)
        svg.rect(x + s * 0.1, y + s * 0.85, s * 0.8, s * 0.07, fill=INK)
    if covered:
        # a corner in the colour of the tile under this Eagle
        c = s * 0.4
        svg.polygon(((x + s, y + s - c), (x + s, y + s - s * 0.14), (x + s - s * 0.14, y + s), (x + s - c, y + s)),
                    fill=KINDS[covered][1], stroke="#ffffff", sw=1.2)
    if code:
        svg.text(x + s / 2, y + s * 0.58, str(value), size=s * 0.46, fill=ink, anchor="middle", bold=True)
        svg.text(x + s / 2, y + s * 0.84, board_code(KIND[kind]), size=code_size or s * 0.22, fill=ink, anchor="middle",
                 bold=True)
    else:
        svg.text(x + s / 2, y + s * 0.68, str(value), size=s * 0.52, fill=ink, anchor="middle", bold=True)
    if zeroed:
        # worth 0 next to a Koshari: the value struck through
        svg.line(x + s * 0.3, y + s * 0.72, x + s * 0.7, y + s * 0.28, stroke="#e01a1a", sw=max(2, s * 0.07))
    if outline is not None:
        seat_frame(svg, x - 2, y - 2, s + 4, s + 4, outline, rx=s * 0.18)


def _zeroed(board: dict, x: int, y: int) -> bool:
    """A visible non-Koshari next to a visible Koshari is worth 0 (rules §2)."""
    if board[(x, y)]["tile"] == "koshari":
        return False
    return any(board.get(n, {}).get("tile") == "koshari" for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))


def _status(view: dict, names) -> tuple[str, str]:
    phase = view["phase"]
    acting = view.get("to_act") or []
    if phase == "over":
        status = _("Game over: {winners}", winners=winners_text(names, view.get("placings")))
        reason = str(view.get("reason") or "")
        return status, _("Why it ended: {reason}.", reason=end_reason(reason)) if reason else ""
    if phase == "redraw":
        waiting = and_list([seat_name(names, p) for p in acting])
        return _("Before play: redraw or keep"), _("Waiting for {who}", who=waiting) if waiting else ""
    if not acting:
        return _("Dealing"), ""
    who = seat_name(names, acting[0])
    if not view["board"]:
        return _("{who} opens at 0,0", who=who), _pile(view)
    return _("{who} to play", who=who), _last_move(view, names)


def _pile(view: dict) -> str:
    return ngettext("Draw pile: {n} tile", "Draw pile: {n} tiles", view["pile_size"])


def _last_move(view: dict, names) -> str:
    last = view.get("last")
    if not last or len(last) < 6:
        return _pile(view)
    player, mode, tile, x, y, points = last[:6]
    who = seat_name(names, player) if isinstance(player, int) else "?"
    pile = view["pile_size"]
    if mode == "cover":
        did = _("Last: {who} covered {x},{y} with an Eagle", who=who, x=x, y=y)
    elif mode == "swap":
        did = _("Last: {who} swapped a Warrior in at {x},{y}", who=who, x=x, y=y)
    elif mode == "place" and tile in KIND:
        did = _("Last: {who} placed {tile} at {x},{y}", who=who, tile=a_tile(KIND[tile]), x=x, y=y)
    else:
        return _pile(view)
    scored = ngettext("+{n} point", "+{n} points", points) if points else _("no points")
    # i18n: the last move, what it scored and the draw pile: "Last: Ann placed a Sun at 1,0 · +2 points · pile 40"
    return _("{did} · {scored} · pile {pile}", did=did, scored=scored, pile=pile)


def draw(view: dict, *, names=None, viewer=None, legal=None, narrow=False) -> str:
    """``narrow``: the panels drawn twice, as here and NARROW wide for a phone (``Svg.narrow_panel``)."""
    svg = Svg()
    layout = "wide" if narrow else None
    svg.part("panel", layout=layout)   # the header, the players and the hand: below the board on a phone
    y = _players(svg, view, names, viewer, 0, WIDTH)
    if _hand_shown(view, viewer):
        svg.end_part()
        svg.part("panel", layout=layout)   # its own part: on a phone it is scaled by its own width
        y = _hand(svg, view, viewer, legal, y, WIDTH)
    svg.end_part()
    svg.part("board")
    y = _grid(svg, view, y, viewer, legal)
    svg.end_part()
    svg.part("panel", layout=layout)
    shown = bool(_legal_cells(view, viewer, legal))
    y = _key(svg, view, y, legal_shown=shown)
    svg.end_part()
    if narrow:
        top = Svg()
        h = _players(top, view, names, viewer, 0, NARROW)
        if _hand_shown(view, viewer):
            h = _hand(top, view, viewer, legal, h, NARROW)
        svg.narrow_panel(top, NARROW, h)
        key = Svg()
        svg.narrow_panel(key, NARROW, _key(key, view, 0, legal_shown=shown, width=NARROW))
    return svg.document(WIDTH, y, title=_("Kachina"))


def _hand_shown(view: dict, viewer) -> bool:
    return is_seat(viewer, len(view["scores"])) and view.get("hand") is not None and view["phase"] != "over"


def _players(svg: Svg, view: dict, names, viewer, y, width) -> float:
    """The header and a line per player; the y below them."""
    n = len(view["scores"])
    status, detail = _status(view, names)
    y = header(svg, width, _("KACHINA"), status, detail)
    acting = set(view.get("to_act") or [])
    placings = view.get("placings")
    scores = view["scores"]
    y += 8
    over = view["phase"] == "over"
    labels = [_("{name} (you)", name=seat_name(names, p)) if p == viewer else seat_name(names, p) for p in range(n)]
    name_w = name_column(labels, width - 2 * MARGIN - 80)
    for p in range(n):
        size = view["hand_sizes"][p]
        notes = [] if over else [ngettext("{n} tile in hand", "{n} tiles in hand", size)]
        if view["phase"] == "redraw" and "redraw_answered" in view:
            notes.append(_("answered") if view["redraw_answered"][p] else _("deciding"))
        if placings and scores[p] and scores.count(scores[p]) > 1:
            notes.append(_("reached {score} at move {move}", score=scores[p], move=view["reached_at_move"][p]))
        y += 30
        player_row(svg, MARGIN, y, width - 2 * MARGIN, p, seat_name(names, p), score=scores[p],
                   acting=p in acting and not over, you=p == viewer, note=" · ".join(notes),
                   place=placings[p] if placings else None, name_w=name_w)
    return y + 14


def _hand(svg: Svg, view: dict, viewer, legal, y, width) -> float:
    """The viewer's own tiles; the y below them. Narrow (a phone's): the
    label on a line of its own and the tiles bigger, each touch spot wider
    than a finger (44 CSS px) with a gap to the next."""
    hand = view["hand"]
    narrow = width < WIDTH
    s, step = (42, 52) if narrow else (40, 46)
    label = _("Your tiles")
    svg.text(MARGIN, y + 26 if not narrow else y + 18, label, size=15, bold=True)
    if narrow:
        x0, y = MARGIN + 3, y + 30
    else:
        x0 = MARGIN + max(92, text_width(label, 15, True) + 12)
    x = x0
    if not hand:
        svg.text(x, y + 26, _("none"), size=15, fill=MUTED)
    picks = _pick_keys(view, viewer, legal)
    for kind in hand:
        if kind not in KINDS:
            continue
        if x + s > width - MARGIN:   # (narrow only: five tiles fit a line)
            x, y = x0, y + step
        _tile(svg, x, y + 2, s, kind, code_size=12 if narrow else None)   # (12: read on a phone)
        if f"tile:{kind}" in picks:
            pad = 4 if narrow else 3
            svg.hit(x - pad, y + 2 - pad, s + 2 * pad, s + 2 * pad, f"tile:{kind}")
        x += step
    if view["phase"] == "redraw" and "redraw_choice" in view:
        said = _("you chose to redraw") if view["redraw_choice"] else _("you chose to keep")
        if narrow and x + text_width(said, 14) > width - MARGIN:
            x, y = x0 - 8, y + s + 10
        svg.text(x + 8, y + 26, said, size=14, fill=MUTED)
    return y + s + 14


def _legal_cells(view, viewer, legal) -> set:
    if not legal or not is_seat(viewer, len(view["scores"])) or viewer not in (view.get("to_act") or ()):
        return set()
    return {(m["x"], m["y"]) for m in legal if isinstance(m, dict) and m.get("type") == "place"
            and isinstance(m.get("x"), int) and isinstance(m.get("y"), int)}


def _grid(svg: Svg, view: dict, y, viewer, legal) -> float:
    board = {(c["x"], c["y"]): c for c in view["board"]}
    free = _legal_cells(view, viewer, legal)
    cells = set(board) | free | {(0, 0)}
    # in play, a ring of empty cells shows where tiles can go; at the end it would be blank paper
    m = 0 if view["phase"] == "over" else 1
    x0 = min(x for x, _ in cells) - m
    x1 = max(x for x, _ in cells) + m
    y0 = min(v for _, v in cells) - m
    y1 = max(v for _, v in cells) + m
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    label_w = 30
    s = min(48.0, (WIDTH - 2 * MARGIN - label_w) / cols)
    gx = MARGIN + label_w + (WIDTH - 2 * MARGIN - label_w - cols * s) / 2
    gy = y + 22
    fs = max(10.0, min(13.0, s * 0.3))
    svg.rect(gx - label_w - 6, y, cols * s + label_w + 12, rows * s + 30, fill=PANEL, rx=8)
    svg.text(gx - label_w + 2, gy - 8, "y\\x", size=fs, fill=MUTED)
    for i in range(cols):
        svg.text(gx + i * s + s / 2, gy - 7, str(x0 + i), size=fs, fill=MUTED, anchor="middle")
    for j in range(rows):
        svg.text(gx - 6, gy + j * s + s / 2 + fs * 0.35, str(y0 + j), size=fs, fill=MUTED, anchor="end")
    # the cells: one white area and one path of grid lines (a rect per cell
    # costs the rasteriser more than the whole rest of the board)
    svg.rect(gx, gy, cols * s, rows * s, fill="#ffffff", stroke=LINE, sw=1)
    d = "".join(f"M{gx + i * s:.1f},{gy:.1f}v{rows * s:.1f}" for i in range(1, cols))
    d += "".join(f"M{gx:.1f},{gy + j * s:.1f}h{cols * s:.1f}" for j in range(1, rows))
    svg.path(d, stroke=LINE, sw=1)
    last = view.get("last")
    last_cell = (last[3], last[4]) if last and len(last) >= 5 else None
    last_seat = last[0] if last_cell and isinstance(last[0], int) else None
    pad = max(1.5, s * 0.06)
    for (cx, cy), c in sorted(board.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if c["tile"] not in KINDS:
            continue
        _tile(svg, gx + (cx - x0) * s + pad, gy + (cy - y0) * s + pad, s - 2 * pad, c["tile"],
              zeroed=_zeroed(board, cx, cy), covered=c.get("covered") if c.get("covered") in KINDS else None,
              outline=last_seat if (cx, cy) == last_cell else None, code=False)
    mine = seat_colour(viewer) if free else None
    for cx, cy in sorted(free - set(board), key=lambda c: (c[1], c[0])):
        svg.rect(gx + (cx - x0) * s + 3, gy + (cy - y0) * s + 3, s - 6, s - 6, stroke=mine, sw=2, dash="5,3", rx=4)
    # the cells a move may touch, over everything else (a tile to cover or swap too)
    for key in sorted(k for k in _pick_keys(view, viewer, legal) if k.startswith("cell:")):
        cx, cy = (int(v) for v in key[5:].split(","))
        # the whole cell (the next one's spot starts at its edge): on a phone every pixel of it counts
        svg.hit(gx + (cx - x0) * s, gy + (cy - y0) * s, s, s, key)
    return gy + rows * s + 18


def _key(svg: Svg, view: dict, y, legal_shown: bool, width=WIDTH) -> float:
    """The eight kinds, what each is worth and does (two columns; one on a
    narrow panel), and what the board's marks mean."""
    cols = 2 if width >= WIDTH else 1
    col = (width - 2 * MARGIN) / cols
    big = cols == 1   # a phone's: read at about the size drawn, nothing under 13
    s = 26
    below = 0   # (a phone's: a power too long for the line goes under its name, the rows below move down)
    for i, kind in enumerate(ORDER):
        kx = MARGIN + (i % cols) * col
        ky = y + (i // cols) * (s + 6) + below
        _tile(svg, kx, ky, s, kind, code=not big)   # (a phone's: the name beside it, the code too small to read)
        value, _fill, _ink, power = KINDS[kind]
        power = _(power)
        head = f"{tile_title(KIND[kind])} {value}"
        svg.text(kx + s + 8, ky + 18, head, size=14 if big else 13.5, bold=True)
        px = kx + s + 8 + text_width(head, 14 if big else 13.5, True) + 8
        size = 13 if big else 12.5
        if big and text_width(power, size) > kx + col - px - 4:
            svg.text(kx + s + 8, ky + 36, fit(power, size, kx + col - (kx + s + 8)), size=size, fill=MUTED)
            below += 14
            continue
        svg.text(px, ky + 18, fit(power, size, kx + col - px - 4), size=size, fill=MUTED)
    y += (len(ORDER) + cols - 1) // cols * (s + 6) + 4 + below
    notes = []
    board = {(c["x"], c["y"]): c for c in view["board"]}
    if any(_zeroed(board, x, v) for x, v in board):
        notes.append(_("red stroke: worth 0, next to a Koshari"))
    if any("covered" in c for c in view["board"]):
        notes.append(_("corner: the tile under an Eagle"))
    if view.get("last") and view["board"]:
        notes.append(_("outlined: the last tile played"))
    if legal_shown:
        notes.append(_("dashed: where you may place"))
    size = 13 if big else 12
    line = ""
    lines = []
    for note in notes:
        cand = f"{line} · {note}" if line else note
        if text_width(cand, size) > width - 2 * MARGIN:
            lines.append(line)
            cand = note
        line = cand
    if line:
        lines.append(line)
    for line in lines:
        for part in wrap(line, size, width - 2 * MARGIN) if big else [line]:
            svg.text(MARGIN, y + 12, part, size=size, fill=MUTED)
            y += 17 if not big else 18
    return y + 10


# -- touching the board ------------------------------------------------------------

#: the keys a page shows as buttons beside the board
OFFBOARD = ("keep", "redraw", "pass")


def touch_path(move: dict) -> list:
    """The touches that make ``move`` (a legal move of the viewer)."""
    kind = move.get("type")
    if kind in ("place", "cover", "swap"):
        tile = {"cover": "eagle", "swap": "warrior"}.get(kind) or move["tile"]
        return [f"tile:{tile}", f"cell:{move['x']},{move['y']}"]
    if kind == "discard":
        return [f"tile:{move['tile']}"]
    return [str(kind)]


def _moves(legal) -> list:
    return [m["move"] if isinstance(m, dict) and "move" in m else m for m in legal or ()]


def _pick_keys(view: dict, viewer, legal) -> set:
    """The keys drawn with ``data-pick`` (only for the seat to act)."""
    if not legal or not is_seat(viewer, len(view["scores"])) or viewer not in (view.get("to_act") or ()):
        return set()
    return {k for m in _moves(legal) for k in touch_path(m) if k not in OFFBOARD}


def touch(view: dict, legal: list, viewer, names) -> dict:
    """The touch paths of ``legal`` (the API's ``[{"move", "text"}]``), their
    keys' labels, and the keys shown off the board."""
    paths = [touch_path(m) for m in _moves(legal)]
    board = {(c["x"], c["y"]): c["tile"] for c in view["board"]}
    labels = {}
    for key in {k for p in paths for k in p}:
        if key.startswith("tile:"):
            kind = key[5:]
            labels[key] = _("your {tile} ({value})", tile=tile_title(KIND[kind]), value=KINDS[kind][0])
        elif key.startswith("cell:"):
            x, y = (int(v) for v in key[5:].split(","))
            here = board.get((x, y))
            labels[key] = (_("{tile} at {x},{y}", tile=tile_title(KIND[here]), x=x, y=y) if here in KIND
                           else _("empty cell {x},{y}", x=x, y=y))
        else:
            labels[key] = {"keep": _("Keep my tiles"), "redraw": _("Redraw my hand"),
                           "pass": _("Pass")}.get(key, key)
    offboard = sorted(k for k in labels if k in OFFBOARD)
    return {"paths": paths, "labels": labels, "offboard": offboard}
