"""The Princess & the Dragon, The Tower, the Count and Bridges, Castles & Bazaars on
the picture, through the same hooks as the other expansions, by the names their
rules and views use: tags (volcano, dragon, magic portal, tower, bazaar, the City's
districts), marks (princess, bridge), figures (dragon, fairy, tower, castle),
figures placed from the view (``hooks.PLACED``), supply rows, panel lines, legal
moves and what the panel says of each decision."""
from __future__ import annotations

import math

from ...games.carcassonne.expansions.count.text import district as district_name
from ...games.carcassonne.notation import at, either, figure_name, seat_name
from ...games.carcassonne.words import localize
from ...games.i18n import N_, _
from .. import markup as m
from ..palette import OUTLINE
from . import hooks
from .board import ring
from .figures import _label, _shape
from .terrain import INK

# -- tiles: tags and marks -----------------------------------------------------------------


@hooks.tag("volcano")
def volcano(art, size, rot) -> str:
    """A volcano: a dark cone with a red crater, in the tile's north-west corner."""
    x, y, r = size * 0.27, size * 0.3, size * 0.17
    return (m.polygon([(x - r, y + r * 0.8), (x - r * 0.25, y - r * 0.7), (x + r * 0.25, y - r * 0.7),
                       (x + r, y + r * 0.8)], fill="#5b4636", stroke=INK, stroke_width=0.8)
            + m.polygon([(x - r * 0.25, y - r * 0.7), (x, y - r * 1.2), (x + r * 0.25, y - r * 0.7)],
                        fill="#e2401c"))


@hooks.tag("dragon")
def dragon_tag(art, size, rot) -> str:
    """The dragon symbol: a small red wing in the north-east corner."""
    x, y, r = size * 0.76, size * 0.24, size * 0.11
    return m.polygon([(x - r, y + r * 0.6), (x, y - r), (x + r * 0.3, y - r * 0.1), (x + r, y - r * 0.5),
                      (x + r * 0.6, y + r * 0.6)], fill="#c0392b", stroke=INK, stroke_width=0.7)


@hooks.tag("magic portal")
def portal(art, size, rot) -> str:
    """A magic portal: a violet arch in the south-west corner."""
    x, y, r = size * 0.24, size * 0.74, size * 0.1
    return m.path(f"M{x - r:.1f},{y + r:.1f}v{-r:.1f}a{r:.1f},{r:.1f} 0 0,1 {2 * r:.1f},0v{r:.1f}z",
                  fill="#8e44ad", stroke=INK, stroke_width=0.8) + m.circle(x, y - r * 0.2, r * 0.35, fill="#e8d5f5")


@hooks.tag("tower")
def tower_base(art, size, rot) -> str:
    """A tower foundation: a grey stone ring at the tile's centre."""
    return m.circle(size * 0.5, size * 0.5, size * 0.11, fill="#c9c3b6", stroke="#6d675c",
                    stroke_width=f"{size * 0.025:.1f}")


@hooks.tag("bazaar")
def bazaar_tag(art, size, rot) -> str:
    """A bazaar: a striped awning in the south-east corner."""
    x, y, r = size * 0.76, size * 0.76, size * 0.11
    stripes = "".join(m.rect(x - r + i * r * 0.5, y - r * 0.4, r * 0.5, r * 0.5,
                             fill="#e67e22" if i % 2 else "#fdf2e9") for i in range(4))
    return stripes + m.rect(x - r, y - r * 0.4, 2 * r, r * 0.5, fill="none", stroke=INK, stroke_width=0.6)


@hooks.tag("district")
def district(art, size, rot) -> str:
    """A district of the City of Carcassonne: roofs of the walled city."""
    out = [m.rect(0, 0, size, size, fill="#cfc6b4")]
    for i in range(3):
        for j in range(3):
            x, y = size * (0.18 + 0.32 * i), size * (0.2 + 0.32 * j)
            out.append(m.rect(x - size * 0.09, y - size * 0.05, size * 0.18, size * 0.12, fill="#e8dcc2",
                              stroke="#8a7f6a", stroke_width=0.6))
            out.append(m.polygon([(x - size * 0.11, y - size * 0.05), (x, y - size * 0.13),
                                  (x + size * 0.11, y - size * 0.05)], fill="#b5533c"))
    return "".join(out)


@hooks.mark("princess")
def princess(art, k, at, size, count, rot) -> str:
    """The princess: a golden crown in the city."""
    x, y, r = at[0] * size, at[1] * size, size * 0.08
    return m.polygon([(x - r, y + r * 0.6), (x - r, y - r * 0.4), (x - r * 0.5, y), (x, y - r * 0.8),
                      (x + r * 0.5, y), (x + r, y - r * 0.4), (x + r, y + r * 0.6)],
                     fill="#f1c40f", stroke=INK, stroke_width=0.7)


@hooks.mark("bridge")
def bridge(art, k, at, size, count, rot) -> str:
    """A bridge: wooden planks with rails across the tile."""
    horizontal = any(p in (1, 3) for p in art.tile.segments[k].ports) ^ (rot % 2 == 1)
    w, h = (size * 0.9, size * 0.16) if horizontal else (size * 0.16, size * 0.9)
    x, y = (size - w) / 2, (size - h) / 2
    rails = (m.line(x, y, x + w, y, stroke=INK, stroke_width=1.2) + m.line(x, y + h, x + w, y + h, stroke=INK,
                                                                           stroke_width=1.2)
             if horizontal else
             m.line(x, y, x, y + h, stroke=INK, stroke_width=1.2) + m.line(x + w, y, x + w, y + h, stroke=INK,
                                                                           stroke_width=1.2))
    return m.rect(x, y, w, h, fill="#a0744c", fill_opacity="0.85") + rails


# -- figures -----------------------------------------------------------------------------------

DRAGON = "M-9,4L-4,-2L-2,-8L1,-2L5,-7L4,0L9,1L4,4L6,8L0,5L-5,8Z"


@hooks.figure("dragon")
def dragon(seat, role: str, size: float) -> str:
    """The dragon: a red winged shape (neutral, no number)."""
    k = size / 20
    return (f'<path d="{DRAGON}" transform="scale({k * 1.3:.3f})" fill="#c0392b" stroke="{OUTLINE}" '
            f'stroke-width="1.2" stroke-linejoin="round"/>')


@hooks.figure("fairy")
def fairy(seat, role: str, size: float) -> str:
    """The fairy: a small white star with a violet ring (neutral)."""
    r = size * 0.28
    pts = []
    for i in range(10):
        a = math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((rr * math.cos(a), -rr * math.sin(a)))
    return m.circle(0, 0, r * 1.05, fill="none", stroke="#8e44ad", stroke_width=1.4) + m.polygon(
        pts, fill="#ffffff", stroke=OUTLINE, stroke_width=0.8)


@hooks.figure("tower")
def tower(seat, role: str, size: float) -> str:
    """A tower of floors: grey stones, its height written on it."""
    h = int(role) if role.isdigit() else 0
    body = m.rect(-size * 0.22, -size * 0.35, size * 0.44, size * 0.62, fill="#bdb6a8", stroke=OUTLINE,
                  stroke_width=1.0)
    teeth = "".join(m.rect(-size * 0.22 + i * size * 0.16, -size * 0.45, size * 0.12, size * 0.1, fill="#bdb6a8",
                           stroke=OUTLINE, stroke_width=0.8) for i in range(3))
    return body + teeth + m.text(0, size * 0.12, str(h), size=round(size * 0.36, 1), anchor="middle",
                                 weight="bold", fill="#222")


CASTLE = "M-8,8V-2H-5V-5H-2V-2H2V-5H5V-2H8V8ZM-2,8V3H2V8Z"


@hooks.figure("castle")
def castle(seat, role: str, size: float) -> str:
    """A castle: a keep in the owner's colour."""
    return _shape(CASTLE, seat, size) + _label(seat, 0, size * 0.05, size, 0.8)


@hooks.figure("bridge")
def bridge_piece(seat, role: str, size: float) -> str:
    """A bridge piece (in the supply row)."""
    return (m.rect(-size * 0.45, -size * 0.1, size * 0.9, size * 0.2, fill="#a0744c", stroke=OUTLINE,
                   stroke_width=0.8)
            + m.path(f"M{-size * 0.3:.1f},{size * 0.1:.1f}a{size * 0.3:.1f},{size * 0.25:.1f} 0 0,1 "
                     f"{size * 0.6:.1f},0", fill="none", stroke=OUTLINE, stroke_width=1.0))


@hooks.figure("tower floor")
def floor(seat, role: str, size: float) -> str:
    """A tower floor (in the supply row)."""
    return m.rect(-size * 0.3, -size * 0.25, size * 0.6, size * 0.5, fill="#bdb6a8", stroke=OUTLINE,
                  stroke_width=1.0)


# -- what the view places on the board ------------------------------------------------------------


def placed(view) -> list:
    out = []
    d = view.get("dragon")
    if d:
        out.append({"player": None, "x": d["x"], "y": d["y"], "on": None, "figure": "dragon", "at": (0.72, 0.3)})
    f = view.get("fairy")
    if f:
        out.append({"player": None, "x": f["x"], "y": f["y"], "on": f["on"], "figure": "fairy",
                    **({"at": (0.28, 0.7)} if f["on"] is None else {})})   # on_tile: on the tile
    for t in (view.get("tower") or {}).get("towers", ()):
        if t["height"]:
            out.append({"player": None, "x": t["x"], "y": t["y"], "on": None, "figure": "tower",
                        "role": str(t["height"])})
        if t["top"]:
            out.append({"player": t["top"]["player"], "x": t["x"], "y": t["y"], "on": None,
                        "figure": t["top"]["figure"], "at": (0.5, 0.32)})
    for c in view.get("castles_built") or ():
        if not c["scored"]:
            out.append({"player": c["player"], "x": c["x"], "y": c["y"], "on": c["on"], "figure": "castle"})
    return out


hooks.PLACED.append(placed)
hooks.SUPPLIES.extend([
    ("bridges", "bridge", N_("bridge")),                                          # Bridges, Castles & Bazaars
    ("castles", "castle", N_("castle")),
    (lambda v: (v.get("tower") or {}).get("pieces"), "tower floor", N_("tower floor")),   # The Tower
])


# -- panel lines ---------------------------------------------------------------------------------


def dragon_lines(view, names) -> list:
    out = []
    if "dragon" in view:
        d = view["dragon"]
        out.append(_("Dragon: not in play yet") if d is None else _("Dragon: at {at}", at=at(d["x"], d["y"])))
    flight = view.get("dragon_flight")
    if flight:
        out.append(_("Dragon flying: {steps} of 6 steps; next {players}", steps=flight["steps"],
                     players=_(", ").join(seat_name(s, names) for s in flight["movers"][:3])))
    f = view.get("fairy")
    if f and f["on"] is None:           # fairy_placement = on_tile: on the tile itself
        args = dict(at=at(f["x"], f["y"]), player=seat_name(f["player"], names))
        out.append(_("Fairy: on the tile at {at}, moved by {player}", **args) if f["standing_by"] else
                   _("Fairy: on the tile at {at}, moved by {player} (no follower there)", **args))
    elif f:
        args = dict(at=at(f["x"], f["y"]), player=seat_name(f["player"], names), figure=figure_name(f["figure"]))
        out.append(_("Fairy: by {player}'s {figure} at {at}", **args) if f["standing_by"] else
                   _("Fairy: at {at}, where {player}'s {figure} was", **args))
    return out


def tower_lines(view, names) -> list:
    t = view.get("tower")
    if not t or not t["prisoners"]:
        return []
    return [_("Prisoners: {list}", list=_("; ").join(
        _("{captor} holds {player}'s {figure}", captor=seat_name(p["captor"], names),
          player=seat_name(p["player"], names), figure=figure_name(p["figure"])) for p in t["prisoners"]))]


def count_lines(view, names) -> list:
    c = view.get("count")
    if not c:
        return []
    parts = [_("{district}: {figures}", district=district_name(q),
               figures=_(", ").join(seat_name(f["player"], names) for f in fs) or "-")
             for q, fs in c["quarters"].items()]
    return [_("City of Carcassonne (the Count in the {district}): {list}", district=district_name(c["count"]),
              list=_("; ").join(parts))]


def bazaar_lines(view, names) -> list:
    b = view.get("bazaar")
    out = []
    if b:
        tiles = ", ".join(f"{i}: {t}" if o is None else _("{index}: {tile} ({player})", index=i, tile=t,
                                                           player=seat_name(o, names))
                          for i, (t, o) in enumerate(zip(b["tiles"], b["owners"])))
        args = dict(player=seat_name(b["host"], names), tiles=tiles)
        if b.get("mode") == "draft":
            out.append(_("Bazaar (the draft, {player} is the chooser): {tiles}", **args))
        elif b["phase"] == "bid":
            out.append(_("Bazaar (bidding, {player} hosts): {tiles}", **args))
        elif b["phase"] == "deal":
            out.append(_("Bazaar ({player} buys or sells): {tiles}", **args))
        else:
            out.append(_("Bazaar ({player} hosts and picks a tile): {tiles}", **args))
        if b["tile"] is not None:
            out.append(_("Tile {tile}: bid {price} by {player}", tile=b["tile"], price=b["price"],
                         player=seat_name(b["bidder"], names)))
    held = [(s, t) for s, t in enumerate(view.get("bazaar_tiles") or ()) if t]
    if held:
        out.append(_("Bazaar tiles to play: {list}", list=_(", ").join(
            _("{player} {tile}", player=seat_name(s, names), tile=t) for s, t in held)))
    d = view.get("castle_decision")
    if d:
        out.append(_("{player} may make the city at {at} a castle", player=seat_name(d["player"], names),
                     at=at(d["x"], d["y"])))
    return out


hooks.PANEL_LINES.extend([dragon_lines, tower_lines, count_lines, bazaar_lines])


# -- the viewer's legal moves ------------------------------------------------------------------------


@hooks.legal("dragon")
def legal_dragon(board, move) -> None:
    d = board.view.get("dragon") or {}
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}.get(move.get("direction"))
    if d and step:
        board.legal_cells.setdefault((d["x"] + step[0], d["y"] + step[1]), None)


@hooks.legal("action")
def legal_action(board, move) -> None:
    if move.get("do") == "tower" or (move.get("do") == "fairy" and "on" not in move):   # a tile (on_tile)
        board.legal_cells.setdefault((move["x"], move["y"]), None)
    elif "on" in move and "x" in move:
        ring(board, move)


for _kind in ("capture", "count_move", "castle", "choose_castle_feature"):
    def _ring(board, move) -> None:
        if "x" in move and move.get("on") not in (None, "tower"):
            ring(board, move)
    hooks.LEGAL[_kind] = _ring

hooks.DECISIONS.update(
    action=lambda moves: _("Marked: where the fairy, a tower floor, the princess or a portal may act (or {none})",
                           none=localize("pass")),
    dragon=lambda moves: _dragon_decision(moves),
    capture=lambda moves: _("Ringed: what your tower may capture (or {none})", none=localize("capture none")),
    exchange=lambda moves: _("Choose which of your followers comes back ({move})", move=", ".join(
        localize(f"exchange {m['figure']}") for m in moves if m.get("figure")) or localize("exchange big")),
    count=lambda moves: _("Enter a district of the City ({move}) or {none}", move=localize("enter castle count market"),
                          none=localize("stay out")),
    count_move=lambda moves: _("Ringed: where a follower may leave the City for (or {none})", none=localize("pass")),
    castle=lambda moves: _("Ringed: the city that may become a castle (or {none})", none=localize("no castle")),
    choose_castle_feature=lambda moves: _("Ringed: what your castle may score ({move} ...)",
                                          move=localize("castle points") + " X,Y"),
    bazaar=lambda moves: _bazaar_decision(moves),
)


def _dragon_decision(moves: list) -> str:
    """The dragon's steps the viewer may take now, as they are written."""
    steps = [localize(f"dragon {m['direction']}") for m in moves if m.get("direction")]
    return _("Framed: where you may move the dragon ({moves})", moves=either(steps))


def _bazaar_decision(moves: list) -> str:
    """What the viewer's bazaar moves let it do now (the phase shows in the moves' keys)."""
    if any("deal" in m for m in moves):
        return _("At the bazaar: buy the tile at the highest bid or sell it to the bidder ({buy} or {sell})",
                 buy=localize("buy"), sell=localize("sell"))
    if any("tile" in m and "bid" in m for m in moves):
        return _("At the bazaar: you host: pick a tile and bid ({move})", move=localize("bazaar N bid B"))
    if any("tile" in m for m in moves):
        return _("At the bazaar: choose a tile ({move}; the draft has no bids)", move=localize("bazaar N"))
    return _("At the bazaar: bid more than the bid so far ({move}), or {none}", move=localize("bid B"),
             none=localize("pass"))
