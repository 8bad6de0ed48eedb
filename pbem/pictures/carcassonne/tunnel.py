"""The Tunnel on the picture, through the hooks: the mouths on the tiles (mark
``tunnel``: a dark arch where the road goes under), the tokens on the board in their
colours (``hooks.PLACED`` from the view's ``tunnel``; each disc also writes its colour's
short name, so colour is never the only cue), the seats' tokens left (a supply row and a
panel line by colour), the mouths the seat may claim (ringed) and what the panel says of
the decision. The touches of the decision (``touch.py``'s builders): the mouth's tile,
its road, then the colour when the seat holds several."""
from __future__ import annotations

from ...games.carcassonne.expansions.tunnel.tokens import colour_name
from ...games.carcassonne.notation import at as at_text, seat_name, segment
from ...games.carcassonne.words import localize
from ...games.i18n import N_, _
from .. import markup as m
from ..palette import OUTLINE, seat_fill
from . import hooks, legend, touch
from .board import ring
from .terrain import INK

#: token colour -> (fill, ink for its letters)
FILLS = {"red": ("#d62728", "#ffffff"), "blue": ("#1f5fbf", "#ffffff"), "green": ("#2ca02c", "#ffffff"),
         "yellow": ("#f2d22e", "#000000"), "black": ("#1a1a1a", "#ffffff"), "grey": ("#9a9a9a", "#000000")}
#: what a token writes on itself: its colour's short name
SHORT = {"red": N_("R"), "blue": N_("Bu"), "green": N_("G"), "yellow": N_("Y"), "black": N_("Bk"), "grey": N_("Gy")}
#: edge of a mouth's road -> where its token stands on the tile (unit coordinates): in the
#: field beside the road, clear of a thief on it, each edge's spot the last one turned a
#: quarter clockwise (a tile's three mouths never share one)
SPOTS = {"W": (0.16, 0.8), "N": (0.2, 0.16), "E": (0.84, 0.2), "S": (0.8, 0.84)}


@hooks.mark("tunnel")
def mouth(art, k, point, size, count, rot) -> str:
    """A tunnel mouth: a dark arch across the road's end."""
    x, y, r = point[0] * size, point[1] * size, size * 0.075
    return m.path(f"M{x - r:.1f},{y + r * 0.6:.1f}v{-r * 0.6:.1f}a{r:.1f},{r:.1f} 0 0,1 {2 * r:.1f},0v{r * 0.6:.1f}z",
                  fill="#2b2520", stroke=INK, stroke_width=0.6)


@hooks.figure("tunnel token")
def token(seat, role: str, size: float) -> str:
    """A token: a disc of its colour with its short name (in a supply row: the seat's colour)."""
    r = size * 0.3
    if role in FILLS:
        fill, ink = FILLS[role]
        return (m.circle(0, 0, r, fill=fill, stroke=OUTLINE, stroke_width=1.1)
                + m.text(0, r * 0.42, _(SHORT[role]), size=round(r * 1.05, 1), anchor="middle", weight="bold",
                         fill=ink))
    return (m.circle(0, 0, r, fill=seat_fill(seat), stroke=OUTLINE, stroke_width=1.1)
            + m.circle(0, 0, r * 0.45, fill="#2b2520"))


def placed(view) -> list:
    out = []
    for t in (view.get("tunnel") or {}).get("tokens", ()):
        edge = t["on"].split(" ")[-1]
        out.append({"player": t["player"], "x": t["x"], "y": t["y"], "on": None, "figure": "tunnel token",
                    "role": t["colour"], "at": SPOTS.get(edge, (0.5, 0.5))})
    return out


def _left(view):
    part = view.get("tunnel")
    return None if not part else [sum(s.values()) for s in part["supply"]]


def lines(view, names) -> list:
    part = view.get("tunnel")
    if not part:
        return []
    out = [_("Tunnel tokens left: {list}", list=_("; ").join(
        _("{player} {tokens}", player=seat_name(p, names), tokens=_(", ").join(
            _("{colour} {n}", colour=colour_name(c), n=n) for c, n in s.items()))
        for p, s in enumerate(part["supply"])))]
    firsts = {}
    for t in part["tokens"]:
        if t["colour"] in firsts:
            f = firsts.pop(t["colour"])
            out.append(_("Tunnel ({colour}): {on} at {at} to {other} at {other_at}", colour=colour_name(t["colour"]),
                         on=segment(f["on"]), at=at_text(f["x"], f["y"]), other=segment(t["on"]),
                         other_at=at_text(t["x"], t["y"])))
        else:
            firsts[t["colour"]] = t
    for c, f in firsts.items():
        out.append(_("Tunnel ({colour}): {on} at {at}, not joined yet", colour=colour_name(c), on=segment(f["on"]),
                     at=at_text(f["x"], f["y"])))
    return out


hooks.PLACED.append(placed)
legend.BY_EXPANSION["tunnel"] = [
    (None, lambda x, y: legend.figure_svg("tunnel token", None, "red", x, y, 18), N_("tunnel token")),
    ("tunnel", legend._mark(mouth, None, 0, (0.5, 0.5), 60, 1, 0), N_("tunnel mouth")),
]
hooks.SUPPLIES.append((_left, "tunnel token", N_("tunnel token")))
hooks.PANEL_LINES.append(lines)


@hooks.legal("tunnel")
def legal_tunnel(board, move) -> None:
    if "x" in move:
        ring(board, move)


hooks.DECISIONS["tunnel"] = lambda moves: _("Ringed: the tunnel mouths you may claim (or {none})",
                                            none=localize("no tunnel"))


# -- touch ---------------------------------------------------------------------------------------


def _tunnel(view, mv, names, many):
    return [touch._cell(mv["x"], mv["y"]), touch._seg(mv["x"], mv["y"], mv["on"]),
            (f"colour:{mv['colour']}", _("A {colour} token", colour=colour_name(mv["colour"])))]


touch._BUILDERS["tunnel"] = _tunnel
touch.PASS["tunnel"] = N_("No tunnel token")
