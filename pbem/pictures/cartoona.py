"""The Cartoona table as a picture, drawn from one viewer's view.

Top to bottom: what happens now (a reaction window, an Instant, the last
turn), then each player (grouped by team in team games) with their score,
their hand as a count, and their creatures drawn part by part, facing left
as on the table: ears above the head, the nose left of it, body front and
back to the right, feet below, the tail at the right. Each tile is drawn as
the body part it is, in its set's colour (``cartoona_art``: the parts of a
creature join into one animal), with its id (the notation's tN) and its
points on a white circle; an open socket shows the missing part's place
dashed; attached cards are a badge with their total and a star for
Special. The viewer's own tiles and cards follow their row; the centre pool
(kids), the drawn tile (solo) and the piles close the picture.

For the seat to act (``legal`` given), what it may touch carries
``data-pick`` (``cartoona_touch``: the keys, the paths, ``touch``).
"""
from __future__ import annotations

from ..games.cartoona.data import C_KIND, C_VALUE, SOCKETS, T_COLOURS, T_PART, T_SOCKETS, T_VALUE
from ..games.cartoona.names import colour_name, kind_name
from ..games.cartoona.text import end_words, kids_goal
from ..games.i18n import _, join_words, ngettext, pgettext
from . import cartoona_art as art
from . import markup
from .cartoona_touch import pick_keys, touch  # noqa: F401  (touch: the pictures' contract)
from .markup import esc, num
from .svgkit import INK, MUTED, PANEL, PAPER, Svg, fit, header, is_seat, player_row, seat_name, text_width

WIDTH = 640

#: the setups ``bench/pictures.py`` measures (the first is the headline figure):
#: each way to play, and the largest table
BENCH_SETUPS = ((3, {}), (2, {"mode": "basic"}), (8, {"mode": "basic_team", "teams": "2x4"}),
                (8, {"teams": "2x4", "target_score": 30}), (1, {"mode": "solo"}), (4, {"mode": "kids"}))
MARGIN = 16
CELL = 50
HAND = 54

COLOURS = {"Y": ("#f2c230", INK), "B": ("#3b7dd8", "#ffffff"), "M": ("#d6338a", "#ffffff"),
           "P": ("#6f46a8", "#ffffff")}
SINGLE_FILL = "#e9e2cf"

#: where each part sits in a creature (column, row): all creatures face left
POS = {"ears": (1, 0), "nose": (0, 1), "head": (1, 1), "body_front": (2, 1), "front_feet": (2, 2),
       "body_back": (3, 1), "back_feet": (3, 2), "tail": (4, 1), "single": (0, 0)}
#: on which edge of a part each of its sockets lies
EDGE = {("head", "EAR"): "top", ("head", "NOSE"): "left", ("head", "NECK"): "right",
        ("ears", "EAR"): "bottom", ("nose", "NOSE"): "right",
        ("body_front", "NECK"): "left", ("body_front", "FFEET"): "bottom", ("body_front", "REAR"): "right",
        ("front_feet", "FFEET"): "top", ("body_back", "REAR"): "left", ("body_back", "BFEET"): "bottom",
        ("body_back", "TAIL"): "right", ("back_feet", "BFEET"): "top", ("tail", "TAIL"): "left"}
#: a part's name short enough for a tile's foot (looked up when drawn)
PART_LABEL = {"ears": lambda: pgettext("cartoona tile", "ears"), "nose": lambda: pgettext("cartoona tile", "nose"),
              "head": lambda: pgettext("cartoona tile", "head"),
              "body_front": lambda: pgettext("cartoona tile", "body F"),
              "body_back": lambda: pgettext("cartoona tile", "body B"),
              "front_feet": lambda: pgettext("cartoona tile", "feet F"),
              "back_feet": lambda: pgettext("cartoona tile", "feet B"),
              "tail": lambda: pgettext("cartoona tile", "tail"),
              "single": lambda: pgettext("cartoona tile", "single")}
PART_ORDER = tuple(POS)


def _known(t) -> bool:
    return isinstance(t, int) and not isinstance(t, bool) and 0 <= t < len(T_PART)


def _card_known(k) -> bool:
    return isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(C_KIND)


#: where a tile's points sit: a corner its part leaves free (the top right,
#: where the badge of its cards ends, but for a tail's tip)
COIN_AT = {"tail": (0.84, 0.84)}
TILE_PAPER = "#fffdf7"


def _tile_marks(svg: Svg, x, y, s, t: int, *, cards=()) -> None:
    """A tile's id (top left, the notation's tN) and its points on a coin."""
    size = max(9.0, s * 0.2)
    # a halo (costly in the PNG) only where the part's drawing reaches the id's corner
    part = T_PART[t]
    crowded = part in ("front_feet", "back_feet", "single") or (part == "head" and "EAR" in T_SOCKETS[t])
    svg.text(x + 2.5, y + size * 0.95, f"t{t}", size=size, fill=INK, halo="#ffffff" if crowded else None)
    cu, cv = COIN_AT.get(T_PART[t], (0.84, 0.16))
    r = s * 0.15
    svg.circle(x + cu * s, y + cv * s, r, fill="#ffffff", stroke=INK, sw=1.2)
    svg.text(x + cu * s, y + cv * s + r * 0.5, str(T_VALUE[t]), size=r * 1.4, anchor="middle", bold=True)
    if cards:
        # the badge's right end under the coin's left side
        _badge(svg, x + (cu - 0.15) * s - 4 if cv < 0.5 else x + s, y, cards)


def _tile(svg: Svg, x, y, s, t: int, *, cards=(), label=False) -> None:
    """One tile on its own (in a hand, drawn, in the centre): the part
    drawn on a tile, its id and points; ``label`` adds the part's name below."""
    h = s + (s * 0.26 if label else 0)
    svg.rect(x, y, s, h, fill=TILE_PAPER, stroke="#00000055", sw=1, rx=5)
    art.draw_parts(svg, [(t, x, y, s)])
    _tile_marks(svg, x, y, s, t, cards=cards)
    if label:
        svg.text(x + s / 2, y + h - s * 0.07, PART_LABEL[T_PART[t]](), size=s * 0.19, fill=INK, anchor="middle")


def _picks(svg: Svg) -> frozenset:
    """The keys the seat to act may touch (``cartoona_touch``), set by ``draw``."""
    return getattr(svg, "picks", frozenset())


def _hit(svg: Svg, key: str, x, y, w, h) -> None:
    """A touchable area named ``key``: invisible in the picture (and the PNG),
    framed by the page's style while it may be touched."""
    svg.add(f'<g data-pick="{esc(key)}"><rect class="hit" x="{num(x)}" y="{num(y)}" width="{num(w)}" '
            f'height="{num(h)}" rx="5" fill="#ffffff" fill-opacity="0"/></g>')


def _star(svg: Svg, cx, cy, r, fill="#ffd23f") -> None:
    import math
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    svg.polygon(pts, fill=fill, stroke=INK, sw=1)


def _badge(svg: Svg, right, top, cards) -> None:
    """The cards on a tile: their point total in a pill at the tile's top
    right corner, and a star when a Special makes it every colour."""
    known = [k for k in cards if _card_known(k)]
    net = sum(C_VALUE[k] for k in known)
    special = any(C_KIND[k] == "special" for k in known)
    x = right + 5
    if net or not special:
        txt = f"{net:+d}" if net else "±0"
        w = text_width(txt, 10.5, True) + 7
        x -= w
        svg.rect(x, top - 9, w, 14, fill="#ffffff", stroke=INK, sw=1, rx=7)
        svg.text(x + w / 2, top + 1.5, txt, size=10.5, anchor="middle", bold=True,
                 fill="#1b7a1b" if net > 0 else ("#b3261e" if net < 0 else INK))
    if special:
        _star(svg, x - 6, top - 2, 6.5)


def _creature_box(c: dict) -> tuple[dict, int, int, int, int]:
    """Parts of a creature (present and missing behind an open socket) with
    their grid cells, and the bounding box (c0, r0, cols, rows)."""
    tiles = c.get("tiles") or {}
    cells = {}
    for part in PART_ORDER:
        if part in tiles:
            cells[part] = ("tile", tiles[part])
    for socket in sorted(set(c.get("open") or ())):
        for part in SOCKETS.get(socket, ()):
            if part not in tiles and part not in cells:
                cells[part] = ("open", socket)
    if not cells:
        return {}, 0, 0, 1, 1
    cs = [POS[p][0] for p in cells]
    rs = [POS[p][1] for p in cells]
    return cells, min(cs), min(rs), max(cs) - min(cs) + 1, max(rs) - min(rs) + 1


def _caption(c: dict) -> str:
    bits = [f"c{c['id']}"]
    if c.get("colour") in ("Y", "B", "M", "P"):
        bits.append(colour_name(c["colour"]))
    if c.get("complete"):
        bits.append(ngettext("{n} pt", "{n} pts", c["points"]) if "points" in c
                    else pgettext("cartoona", "complete"))
    return " · ".join(bits)


def _creature_size(c: dict) -> tuple[float, float]:
    _cells, _c0, _r0, cols, rows = _creature_box(c)
    w = max(cols * CELL, text_width(_caption(c), 12.5, True) + 4, 2 * CELL)
    return w, rows * CELL + 28


def _item_size(c: dict) -> tuple[float, float]:
    if "new" in c:
        return 2 * CELL, CELL + 28
    return _creature_size(c)


def _item(svg: Svg, x, y, c: dict) -> None:
    if "new" in c:
        _new_spot(svg, x, y, c["new"])
    else:
        _creature(svg, x, y, c)


def _creature(svg: Svg, x, y, c: dict) -> None:
    cells, c0, r0, cols, rows = _creature_box(c)
    complete = c.get("complete")
    svg.text(x, y + 13, _caption(c), size=12.5, bold=True, fill="#1b7a1b" if complete else INK)
    if complete:
        svg.rect(x - 4, y - 2, max(cols * CELL, text_width(_caption(c), 12.5, True) + 4) + 8,
                 rows * CELL + 32, stroke="#1b7a1b", sw=1.5, rx=6)
    cards = c.get("cards") or {}
    gy = y + 24
    # open places first, so the tiles' badges lie over them
    for part, (kind, what) in cells.items():
        if kind == "open":
            px, py = x + (POS[part][0] - c0) * CELL, gy + (POS[part][1] - r0) * CELL
            svg.rect(px + 3, py + 3, CELL - 6, CELL - 6, fill="#ffffff", stroke="#8a8a8a", sw=1.2,
                     dash="4,3", rx=4)
    placed = [(what, x + (POS[part][0] - c0) * CELL, gy + (POS[part][1] - r0) * CELL, CELL)
              for part, (kind, what) in cells.items() if kind == "tile" and _known(what)]
    for _t, px, py, s in placed:
        svg.rect(px + 1, py + 1, s - 2, s - 2, fill=TILE_PAPER, stroke="#0000001f", sw=1, rx=5)
    art.draw_parts(svg, placed)
    for t, px, py, s in placed:
        _tile_marks(svg, px, py, s, t, cards=cards.get(str(t), ()))
    picks = _picks(svg)
    if picks:
        # the creature to score: its caption, and the whole of it unless its
        # tiles are to be touched themselves (a card's target)
        key = f"creature:{c['id']}"
        tiles_touched = any(f"tile:{t}" in picks for t, *_rest in placed)
        if key in picks:
            _hit(svg, key, x - 4, y - 2, max(cols * CELL, text_width(_caption(c), 12.5, True) + 4) + 8,
                 22 if tiles_touched else rows * CELL + 32)
        for t, px, py, s in placed:
            if f"tile:{t}" in picks:
                _hit(svg, f"tile:{t}", px + 1, py + 1, s - 2, s - 2)
        for part, (kind, what) in cells.items():
            key = f"slot:{c['id']}:{part}"
            if kind == "open" and key in picks:
                _hit(svg, key, x + (POS[part][0] - c0) * CELL + 1, gy + (POS[part][1] - r0) * CELL + 1,
                     CELL - 2, CELL - 2)


def _new_spot(svg: Svg, x, y, key: str) -> None:
    """Where a new creature starts (for the seat placing a tile)."""
    colour = key.partition(":")[2]
    text = _("new {colour} creature", colour=colour_name(colour)) if colour else _("new creature")
    svg.rect(x + 3, y + 27, CELL - 6, CELL - 6, fill="#ffffff", stroke="#8a8a8a", sw=1.2, dash="4,3", rx=4)
    svg.text(x + CELL / 2, y + 24 + CELL / 2 + 6, "+", size=20, fill=MUTED, anchor="middle", bold=True)
    svg.text(x, y + 13, fit(text, 12.5, 2 * CELL + 30, bold=True), size=12.5, bold=True, fill=MUTED)
    _hit(svg, key, x + 1, y + 25, CELL - 2, CELL - 2)


def _flow(svg: Svg, items: list, x0, y, width, size, draw_one, gap=14) -> float:
    """Lay ``items`` out left to right, wrapping; returns the y below them."""
    x, row_h = x0, 0.0
    for item in items:
        w, h = size(item)
        if x > x0 and x + w > x0 + width:
            x, y, row_h = x0, y + row_h + 10, 0.0
        draw_one(svg, x, y, item)
        x += w + gap
        row_h = max(row_h, h)
    return y + row_h


def _hand_tiles(svg: Svg, x0, y, width, tiles, caption: str, key: str = "hand") -> float:
    svg.text(x0, y + 14, fit(caption, 13.5, width, bold=True), size=13.5, bold=True)
    y += 22
    known = [t for t in tiles if _known(t)]
    if not known:
        svg.text(x0, y + 12, pgettext("cartoona", "none"), size=13, fill=MUTED)
        return y + 20
    picks = _picks(svg)

    def one(s, x, yy, t):
        _tile(s, x, yy, HAND, t, label=True)
        if f"{key}:{t}" in picks:
            _hit(s, f"{key}:{t}", x - 2, yy - 2, HAND + 4, HAND * 1.26 + 4)

    return _flow(svg, known, x0, y, width, lambda t: (HAND, HAND * 1.26), one, gap=6) + 8


def _chip_label(k: int) -> str:
    """A card's kind on its chip: its points ("+3", "−2"), or its name."""
    return f"{C_VALUE[k]:+d}".replace("-", "−") if C_VALUE[k] else kind_name(C_KIND[k])


def _card_chip(svg: Svg, x, y, k: int) -> float:
    txt = f"k{k} {_chip_label(k)}"
    w = text_width(txt, 13, True) + 16
    kind = C_KIND[k]
    fill = "#e3f2e3" if C_VALUE[k] > 0 else "#f8e1df" if C_VALUE[k] < 0 else "#e8e6f4"
    svg.rect(x, y, w, 24, fill=fill, stroke="#00000055", sw=1, rx=5)
    svg.text(x + 8, y + 17, txt, size=13, bold=True)
    if kind == "special":
        _star(svg, x + w - 2, y + 2, 6)
    return w


def _cards(svg: Svg, x0, y, width, cards) -> float:
    svg.text(x0, y + 14, _("Your cards"), size=13.5, bold=True)
    y += 22
    known = [k for k in cards if _card_known(k)]
    if not known:
        svg.text(x0, y + 12, pgettext("cartoona", "none"), size=13, fill=MUTED)
        return y + 20

    def size(k):
        return text_width(f"k{k} {_chip_label(k)}", 13, True) + 16, 24

    picks = _picks(svg)

    def one(s, x, yy, k):
        w = _card_chip(s, x, yy, k)
        if f"card:{k}" in picks:
            _hit(s, f"card:{k}", x - 2, yy - 3, w + 4, 30)

    return _flow(svg, known, x0, y, width, size, one, gap=6) + 8


# ---------------------------------------------------------------- status


def _card_words(k) -> str:
    if not _card_known(k):
        return _("a card")
    return _("{kind} (k{id})", kind=_chip_label(k), id=k)


def _winners(names, placings) -> str:
    firsts = [seat_name(names, p) for p, place in enumerate(placings or ()) if place == 1]
    if not firsts:
        return _("Game over: nobody wins")
    if len(firsts) == 1:
        return _("Game over: {name} wins", name=firsts[0])
    return _("Game over: {names} share the win", names=join_words(firsts))


def _status(view: dict, names) -> tuple[str, str]:
    mode = view["mode"]
    end = view.get("end")
    active = view.get("active", 0)
    who = seat_name(names, active)
    if end is not None:
        reason = end.get("reason")
        if mode == "solo":
            won = end.get("won")
            return (_("Game over: won, a creature of every colour") if won else
                    _("Game over: the stack ran out"),
                    ngettext("{n} point from completed creatures", "{n} points from completed creatures",
                             view["scores"][0]))
        if mode == "kids":
            w = end.get("winner")
            if isinstance(w, int):
                return _("Game over: {name} wins", name=seat_name(names, w)), _("The first creature to meet the goal.")
            return _("Game over: time is up, nobody wins"), ""
        why = _("{reason}.", reason=end_words(reason)) if reason else ""
        why = why[:1].upper() + why[1:]
        teams = view.get("teams")
        if teams and view.get("placings"):
            won = sorted({teams[p] + 1 for p, place in enumerate(view["placings"]) if place == 1})
            if len(won) == 1:
                return _("Game over: team {n} wins", n=won[0]), why
            return _("Game over: teams {teams} share the win", teams=join_words([str(t) for t in won])), why
        return _winners(names, view.get("placings")), why
    piles = [_("Turn {n}", n=view["turn"]), _("stack {n}", n=view["stack"])]
    if "deck" in view:
        piles.append(_("deck {n}", n=view["deck"]))
    if mode == "full" and view.get("target_score"):
        piles.append(_("first to {n} wins", n=view["target_score"]))
    piles = " · ".join(piles)
    window = view.get("window")
    if window:
        waiting = join_words([seat_name(names, p) for p in window.get("pending") or ()])
        who_played = seat_name(names, window["player"])
        card = _card_words(window.get("card"))
        if "with" in window and "tile" in window:
            head = _("{name} plays {card} on t{tile} for t{other}", name=who_played, card=card, tile=window["tile"],
                     other=window["with"])
        elif "tile" in window:
            head = _("{name} plays {card} on t{tile}", name=who_played, card=card, tile=window["tile"])
        else:
            head = _("{name} plays {card}", name=who_played, card=card)
        return head, (_("Block or pass: waiting for {names}", names=waiting) if waiting else _("Block or pass"))
    inst = view.get("instant")
    if inst:
        return (_("{name} drew a tile with an Instant", name=seat_name(names, inst["player"])),
                _("Place it or keep it") + " · " + piles)
    phase = view.get("phase")
    if mode == "solo":
        return _("Place or discard the drawn tile"), piles
    if mode == "kids":
        if phase == "hold":
            return _("{name} places the tile or puts it in the centre", name=who), piles
        return _("{name}: draw, take from the centre, or remove a tile", name=who), piles
    if phase == "discard":
        return _("{name} to discard a tile", name=who), piles
    if phase == "finish":
        return _("{name} may score", name=who), piles
    return _("{name} to play", name=who), piles + (" · " + _("the last turn") if view.get("last_turn") else "")


# ---------------------------------------------------------------- the picture


def draw(view: dict, *, names=None, viewer=None, legal=None) -> str:
    svg = Svg()
    svg.picks = pick_keys(view, viewer, legal)
    n = view["players"]
    mode = view["mode"]
    status, detail = _status(view, names)
    title = {"basic": lambda: _("CARTOONA · basic game"), "basic_team": lambda: _("CARTOONA · basic team game"),
             "solo": lambda: _("CARTOONA · solo game"), "kids": lambda: _("CARTOONA · kids' game")}.get(
        mode, lambda: _("CARTOONA"))()
    y = header(svg, WIDTH, title, status, detail)
    y += 6
    by_owner: dict = {}
    for c in view.get("creatures") or ():
        by_owner.setdefault(c.get("owner"), []).append(c)
    teams = view.get("teams")
    placings = view.get("placings")
    end = view.get("end") or {}
    if mode == "kids":
        # the kids' game has a winner or nobody: equal zero scores are no shared win
        placings = [1 if end.get("winner") == p else 2 for p in range(n)] if placings else None
    if teams:
        groups = [[p for p in range(n) if teams[p] == t] for t in range(max(teams) + 1)]
    else:
        groups = [list(range(n))]
    for t, group in enumerate(groups):
        if teams:
            y = _team_header(svg, view, t, group, y + 8, names, placings)
        y = _group(svg, view, group, y, names, viewer, None if teams else placings, by_owner)
    y = _centre(svg, view, y, names, viewer)
    return markup.document(WIDTH, y + 8, svg.parts, defs=art.defs(), background=PAPER, title=_("Cartoona"))


def _team_header(svg: Svg, view: dict, t: int, group, y, names, placings) -> float:
    svg.rect(MARGIN - 6, y, WIDTH - 2 * MARGIN + 12, 28, fill=PANEL, rx=6)
    members = join_words([seat_name(names, q) for q in group])
    svg.text(MARGIN + 4, y + 19, fit(_("Team {n}: {names}", n=t + 1, names=members), 14, WIDTH - 190, bold=True),
             size=14, bold=True)
    team_score = (view.get("team_scores") or [None] * (t + 1))[t]
    label = _("team {score}", score=team_score)
    svg.text(WIDTH - MARGIN - 4, y + 19, label, size=15, bold=True, anchor="end")
    if placings and group and placings[group[0]] == 1:
        cx = WIDTH - MARGIN - 4 - text_width(label, 15, True) - 16
        svg.polygon(((cx - 9, y + 20), (cx - 10, y + 8), (cx - 5, y + 14), (cx, y + 6), (cx + 5, y + 14),
                     (cx + 10, y + 8), (cx + 9, y + 20)), fill="#e0a800", stroke="#8a6500", sw=1)
    return y + 30


def _group(svg: Svg, view: dict, group, y, names, viewer, placings, by_owner) -> float:
    """The players of a group (a team, or everyone) two to a row, so a
    many-player table stays short enough for a phone; the viewer's own panel
    (with their hand) first, across the whole width, unless that would leave
    one of the others alone on a row: then it takes half a row like the rest
    (its hand wraps), a row shorter (and a PNG that much quicker to make)."""
    full_w = WIDTH - 2 * MARGIN
    half_w = (full_w - 16) / 2
    others = [p for p in group if p != viewer]
    two_up = len(others) >= 2
    viewer_in_grid = two_up and len(others) % 2 == 1
    pending: list = []

    def flush(y):
        if not pending:
            return y
        bottoms = []
        for i, p in enumerate(pending):
            x = MARGIN + i * (half_w + 16)
            bottoms.append(_player(svg, view, p, x, y, half_w, names, viewer, placings, by_owner.get(p, [])))
        pending.clear()
        return max(bottoms)

    for p in sorted(group, key=lambda q: q != viewer):
        if (p == viewer and not viewer_in_grid) or not two_up:
            y = flush(y)
            y = _player(svg, view, p, MARGIN, y, full_w, names, viewer, placings, by_owner.get(p, []))
        else:
            pending.append(p)
            if len(pending) == 2:
                y = flush(y)
    return flush(y)


def _player(svg: Svg, view: dict, p: int, x, y, width, names, viewer, placings, creatures) -> float:
    mode = view["mode"]
    n = view["players"]
    over = view.get("end") is not None
    notes = []
    if mode in ("full", "basic", "basic_team"):
        size = view["hand_sizes"][p]
        notes.append(ngettext("{n} tile", "{n} tiles", size))
    if "card_counts" in view:
        notes.append(ngettext("{n} card", "{n} cards", view["card_counts"][p]))
    window = view.get("window")
    if window and p in (window.get("pending") or ()):
        notes.append(_("may block"))
    elif window and p in (window.get("answered") or ()):
        notes.append(_("answered"))
    y += 30
    # the seats the table waits for: the reaction window's, else the active player
    acting = not over and (p in (window.get("pending") or ()) if window else p == view.get("active"))
    show_score = mode not in ("kids",)
    # measured as player_row (svgkit) draws it: the name, and its own "(you)"
    label = seat_name(names, p) + (" (you)" if p == viewer else "")
    note = " · ".join(notes)
    # a half-width panel gives the name the whole line and puts the note under it
    below = width < 400
    score_room = 40 if show_score else 0
    note_w = text_width(note, 14) + 8 if note and not below else 0
    name_w = min(text_width(label, 16, True) + 14, max(width - 44 - score_room - note_w, (width - 44) * 0.45))
    player_row(svg, x, y, width, p, seat_name(names, p),
               score=view["scores"][p] if show_score else None, acting=acting, you=p == viewer,
               note="" if below else note, place=placings[p] if placings and mode != "solo" else None,
               name_w=name_w)
    if below and note:
        y += 20
        svg.text(x + 44, y, fit(note, 13, width - 48), size=13, fill=MUTED)
    y += 14
    x0 = x + 30
    inner = width - 30
    news = sorted(k for k in _picks(svg) if k == "new" or k.startswith("new:")) if p == viewer else []
    items = list(creatures) + [{"new": k} for k in news]
    if items:
        y = _flow(svg, items, x0, y, inner, _item_size, _item) + 6
    elif mode != "solo":
        svg.text(x0, y + 10, _("no creature on the table"), size=12.5, fill=MUTED, italic=True)
        y += 18
    if is_seat(viewer, n) and p == viewer and not over:
        if "hand" in view and mode in ("full", "basic", "basic_team"):
            y = _hand_tiles(svg, x0, y + 4, inner, view["hand"], _("Your tiles"))
        if "cards" in view:
            y = _cards(svg, x0, y + 2, inner, view["cards"])
        inst = view.get("instant")
        if inst and inst.get("player") == viewer and _known(inst.get("tile")):
            y = _hand_tiles(svg, x0, y + 2, inner, [inst["tile"]], _("Drawn with your Instant: place it or keep it"))
        theft = view.get("my_theft")
        if theft and _known(theft.get("tile")):
            y = _hand_tiles(svg, x0, y + 2, inner, [theft["tile"]],
                            _("Taken by your secret theft (yours at the start of your next turn)"))
    return y + 4


def _centre(svg: Svg, view: dict, y, names, viewer) -> float:
    mode = view["mode"]
    width = WIDTH - 2 * MARGIN
    y += 8
    if mode == "solo" and _known(view.get("drawn")) and view.get("end") is None:
        y = _hand_tiles(svg, MARGIN, y, width, [view["drawn"]], _("Drawn tile"))
    if mode == "kids":
        goal = _("Goal: {goal}", goal=kids_goal(view.get("target")))
        svg.text(MARGIN, y + 14, fit(goal, 14, width, bold=True), size=14, bold=True)
        y += 24
        if _known(view.get("held")):
            y = _hand_tiles(svg, MARGIN, y, width, [view["held"]],
                            _("{name} holds", name=seat_name(names, view.get("active", 0))))
        top = y
        y = _hand_tiles(svg, MARGIN, y, width, view.get("pool") or [], _("In the centre"), key="pool")
        if "pool" in _picks(svg):
            _hit(svg, "pool", MARGIN - 4, top, width + 8, y - top)
    lines = []
    for th in view.get("thefts") or ():
        if isinstance(th, dict) and "tile" in th:
            lines.append(_("t{tile} vanished from {name}'s c{creature}: call cheat on the thief before their "
                           "next turn", tile=th["tile"], creature=th.get("creature"),
                           name=seat_name(names, th.get("victim"))))
    if "deck" in view:
        discard = [k for k in view.get("card_discard") or () if _card_known(k)]
        piles = _("Tile stack {stack} · tile discard {discard} · card deck {deck} · card discard {cards}",
                  stack=view["stack"], discard=view.get("tile_discard", 0), deck=view["deck"], cards=len(discard))
        lines.append(_("{piles}, the last {card}", piles=piles, card=_card_words(discard[-1])) if discard else piles)
    elif mode in ("basic", "basic_team"):
        lines.append(_("Tile stack {stack} · set aside {aside}", stack=view["stack"], aside=view.get("set_aside", 0)))
    elif mode == "solo":
        lines.append(_("Tile stack {stack} · set aside {aside} · goal: a complete creature of each colour",
                       stack=view["stack"], aside=len(view.get("discarded") or ())))
    elif mode == "kids":
        lines.append(_("Tile stack {stack}", stack=view["stack"]))
    lines.append(_("Dashed: an open socket's missing part · circle: a tile's points · badge: cards on a tile")
                 if mode == "full" else _("Dashed: an open socket's missing part · circle: a tile's points"))
    for line in lines:
        svg.text(MARGIN, y + 14, fit(line, 12.5, width), size=12.5, fill=MUTED)
        y += 19
    return y + 4
