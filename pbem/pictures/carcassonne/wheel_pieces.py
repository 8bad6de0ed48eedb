"""The Wheel of Fortune (a house reading) on the picture, through the same hooks as the
other expansions: the Wheel's four middle tiles (tag ``hub``) drawn as a quarter of
the wheel each, a gold badge on the tiles that show a wheel number (tag
``wheel_number``), and a panel line with the six sectors clockwise, the pink pig's
sector and who stands on the crown spaces; the Plague's choices ringed on the board and
a crown space offered as a button (the touch contract)."""
from __future__ import annotations

from ...games.carcassonne.expansions.wheel.data import EXPANSION, ICON_NUMBERS
from ...games.carcassonne.expansions.wheel.text import sector_name
from ...games.carcassonne.notation import seat_name
from ...games.carcassonne.words import localize
from ...games.i18n import N_, _
from .. import markup as m
from . import hooks, legend, touch
from .board import ring
from .terrain import INK


@hooks.tag("hub")
def hub(art, size, rot) -> str:
    """A quarter of the wheel: a pale disc with spokes and a crown."""
    c = size / 2
    out = [m.rect(0, 0, size, size, fill="#f6e7c1"),
           m.circle(c, c, size * 0.42, fill="#f3c6d3", stroke=INK, stroke_width=0.8)]
    for dx, dy in ((1, 0), (0, 1), (0.7, 0.7), (-0.7, 0.7)):
        out.append(m.line(c - dx * size * 0.42, c - dy * size * 0.42, c + dx * size * 0.42, c + dy * size * 0.42,
                          stroke=INK, stroke_width=0.6))
    out.append(m.polygon([(c - size * 0.14, c + size * 0.08), (c - size * 0.14, c - size * 0.08),
                          (c - size * 0.07, c), (c, c - size * 0.1), (c + size * 0.07, c),
                          (c + size * 0.14, c - size * 0.08), (c + size * 0.14, c + size * 0.08)],
                         fill="#e0b020", stroke=INK, stroke_width=0.6))
    return "".join(out)


@hooks.tag("wheel_number")
def wheel_number(art, size, rot) -> str:
    """The wheel icon with its number, in the north-west corner."""
    n = ICON_NUMBERS.get(art.letter.split("~", 1)[0], 0) if art is not None else 0   # (the key: no number)
    x, y, r = size * 0.2, size * 0.2, size * 0.12
    return (m.circle(x, y, r, fill="#f3c6d3", stroke=INK, stroke_width=0.8)
            + (m.text(x, y + r * 0.45, str(n), size=r * 1.3, anchor="middle", fill=INK) if n else ""))


def wheel_lines(view, names) -> list:
    w = view.get("wheel")
    if not w:
        return []
    order = " > ".join(("[" + sector_name(s["sector"]) + "]") if s["sector"] == w["pig"] else sector_name(s["sector"])
                       for s in w["sectors"])
    crowns = _("; ").join(_("{sector} {list}", sector=sector_name(s["sector"]), list=_(", ").join(
        _("free") if p is None else seat_name(p, names) for p in s["crowns"])) for s in w["sectors"] if s["crowns"])
    return [_("Wheel of Fortune (house reading), clockwise: {order}; the pink pig stands on {sector}.",
              order=order, sector=sector_name(w["pig"])), _("Crown spaces: {list}", list=crowns)]


hooks.PANEL_LINES.append(wheel_lines)
legend.BY_EXPANSION[EXPANSION] = [("hub", legend._tile_tag(hub, size=18), N_("the Wheel")),
                                  ("wheel_number", legend._tile_tag(wheel_number, (0.2, 0.2), 60),
                                   N_("wheel number"))]


# -- the viewer's decisions: the Plague (ringed followers) and a crown space (buttons) ----------


def _ring_plague(board, move) -> None:
    if "x" in move and "on" in move:
        ring(board, move)


hooks.LEGAL["plague"] = _ring_plague
_ACTION_TEXT = hooks.DECISIONS.get("action")


def _action_text(moves) -> str:
    """Step 5's choices: with only crown spaces offered, say so; else the other expansions' text."""
    if all(m.get("pass") or m.get("do") == "wheel" for m in moves) or _ACTION_TEXT is None:
        return _("Choose a crown space of the Wheel of Fortune for a follower ({move}), or {none}",
                 move=localize("wheel tax"), none=localize("pass"))
    return _ACTION_TEXT(moves)


hooks.DECISIONS.update(
    plague=lambda moves: _("Ringed: which of your followers the Plague sends home ({move})",
                           move=localize("plague X,Y road E")),
    action=_action_text,
)

_TOUCH_ACTION = touch._BUILDERS.get("action")


def _touch_action(view, mv, names, many):
    if mv.get("do") == "wheel":
        return [(f"crown:{mv['sector']}", _("A follower on a crown space of {sector}",
                                            sector=sector_name(mv["sector"])))]
    return _TOUCH_ACTION(view, mv, names, many) if _TOUCH_ACTION else None


def _touch_plague(view, mv, names, many):
    return touch._place(mv) + [touch._figure(mv["figure"])]


touch._BUILDERS.update(action=_touch_action, plague=_touch_plague)
