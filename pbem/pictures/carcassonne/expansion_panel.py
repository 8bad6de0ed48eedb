"""What the expansions add beside the board, by the keys their ``view`` hooks
write (``pbem/games/carcassonne/<expansion>.py``, ``_view``)."""
from __future__ import annotations

from ...games.carcassonne.notation import at, seat_name, segment
from ...games.carcassonne.words import localize
from ...games.i18n import N_, _
from . import hooks

hooks.SUPPLIES.extend([
    ("big_followers", "big", N_("big follower")),      # Inns & Cathedrals
    ("builders", "builder", N_("builder")),            # Traders & Builders
    ("pigs", "pig", N_("pig")),
    ("mayors", "mayor", N_("mayor")),                  # Abbey & Mayor
    ("wagons", "wagon", N_("wagon")),
    ("barns", "barn", N_("barn")),
    ("abbeys", "abbey", N_("abbey")),
])


def king_robber(view, names) -> list:
    kr = view.get("king_robber")
    if not kr:
        return []
    return [_("King: {player} (largest completed city: {n} tiles)", player=seat_name(kr["king"], names),
              n=kr["king_size"]),
            _("Robber Baron: {player} (longest completed road: {n} tiles)", player=seat_name(kr["robber"], names),
              n=kr["robber_size"])]


def besieged(view, names) -> list:
    cities = view.get("besieged_cities")
    if not cities:
        return []
    done = sum(1 for c in cities if c["complete"])
    return [_("Besieged cities: {n} ({done} complete)", n=len(cities), done=done)]


def extra_tile(view, names) -> list:
    return [_("Builder: this is an extra tile")] if view.get("extra_tile") else []


def wagon(view, names) -> list:
    w = view.get("wagon_decision")
    if not w:
        return []
    return [_("{player} moves a wagon from {on} at {at}", player=seat_name(w["player"], names), on=segment(w["on"]),
              at=at(w["x"], w["y"]))]


def abbey_round(view, names) -> list:
    seats = view.get("abbey_round")
    if seats is None:
        return []
    if not seats:
        return [_("Abbey end round: done")]
    return [_("Abbey end round: {players}", players=_(", ").join(seat_name(s, names) for s in seats))]


hooks.PANEL_LINES.extend([king_robber, besieged, extra_tile, wagon, abbey_round])


def _abbey_decision(moves) -> str:
    return _("Framed: the holes where your abbey may go (or draw a tile: {draw})", draw=localize("draw"))


hooks.DECISIONS.update(
    abbey=_abbey_decision,
    wagon=lambda moves: _("Ringed: where your wagon may go (or {home})", home=localize("wagon home")),
    escape=lambda moves: _("Ringed: your knights that may escape the siege (or {none})", none=localize("no escape")),
)
