"""The Catapult on the picture: the fair on its tiles (the tag ``fair``), the
followers within the catapult's reach ringed for the seat that shoots (its
legal ``shot`` moves), and the round under way in the panel (what the view's
``catapult`` says: never another seat's shot)."""
from __future__ import annotations

from ...games.carcassonne.expansions.catapult.text import kind_name
from ...games.carcassonne.notation import at, seat_name
from ...games.carcassonne.words import localize
from ...games.i18n import _
from .. import markup as m
from . import hooks
from .board import ring
from .terrain import INK


@hooks.tag("fair")
def fair(art, size, rot) -> str:
    """A fair: a striped yellow tent with a red pennant, in the tile's south-east corner (the
    centre, where its roads end, holds the road ends' mark)."""
    x, y, r = size * 0.76, size * 0.74, size * 0.15
    body = m.polygon([(x - r, y + r * 0.7), (x, y - r * 0.8), (x + r, y + r * 0.7)], fill="#f2c230",
                     stroke=INK, stroke_width=0.9)
    stripe = m.polygon([(x - r * 0.33, y + r * 0.7), (x, y - r * 0.8), (x + r * 0.33, y + r * 0.7)], fill="#d9472b")
    flag = m.polygon([(x, y - r * 0.8), (x, y - r * 1.35), (x + r * 0.45, y - r * 1.15)], fill="#d9472b",
                     stroke=INK, stroke_width=0.5)
    return body + stripe + flag


@hooks.legal("shot")
def legal_shot(board, move: dict) -> None:
    if "x" in move:
        ring(board, move)


def catapult_line(view: dict, names) -> list:
    r = view.get("catapult")
    if not r:
        return []
    where = at(r["x"], r["y"])
    if not r.get("kind"):
        return [_("Catapult round at the fair {at}: {player} chooses", at=where,
                  player=seat_name(r["chooser"], names))]
    waiting = _(", ").join(seat_name(s, names) for s in r.get("to_shoot", ())) or _("nobody")
    return [_("Catapult round ({kind}) at the fair {at}: still to shoot: {players}", kind=kind_name(r["kind"]),
              at=where, players=waiting)]


hooks.PANEL_LINES.append(catapult_line)
hooks.DECISIONS.update(
    catapult=lambda moves: _("Catapult round: choose knock-out or seduction"),
    shot=lambda moves: _("Ringed: the followers your secret shot may hit (or {none})", none=localize("no shot")),
)
