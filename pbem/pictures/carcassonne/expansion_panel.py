"""What the expansions add beside the board, by the keys their ``view`` hooks
write (``pbem/games/carcassonne/<expansion>.py``, ``_view``)."""
from __future__ import annotations

from ..palette import seat_name
from . import hooks

hooks.SUPPLIES.extend([
    ("big_followers", "big", "big follower"),      # Inns & Cathedrals
    ("builders", "builder", "builder"),            # Traders & Builders
    ("pigs", "pig", "pig"),
    ("mayors", "mayor", "mayor"),                  # Abbey & Mayor
    ("wagons", "wagon", "wagon"),
    ("barns", "barn", "barn"),
    ("abbeys", "abbey", "abbey"),
])


def _who(seat, names) -> str:
    return "nobody" if seat is None else seat_name(seat, names)


def king_robber(view, names) -> list:
    kr = view.get("king_robber")
    if not kr:
        return []
    return [f"King: {_who(kr['king'], names)} (largest completed city, {kr['king_size']} tiles)",
            f"Robber Baron: {_who(kr['robber'], names)} (largest completed road, {kr['robber_size']} tiles)"]


def besieged(view, names) -> list:
    cities = view.get("besieged_cities")
    if cities is None:
        return []
    done = sum(1 for c in cities if c["complete"])
    return [f"Besieged cities: {len(cities)} ({done} complete)"] if cities else []


def extra_tile(view, names) -> list:
    return ["Builder: this is an extra tile"] if view.get("extra_tile") else []


def wagon(view, names) -> list:
    w = view.get("wagon_decision")
    if not w:
        return []
    return [f"{seat_name(w['player'], names)} moves a wagon from {w['on']} at {w['x']},{w['y']}"]


def abbey_round(view, names) -> list:
    seats = view.get("abbey_round")
    if seats is None:
        return []
    return ["Abbey end round: " + (", ".join(seat_name(s, names) for s in seats) or "done")]


hooks.PANEL_LINES.extend([king_robber, besieged, extra_tile, wagon, abbey_round])


hooks.DECISIONS.update(
    abbey="Framed: the holes where your abbey may go (or draw a tile: 'draw')",
    wagon="Ringed: where your wagon may go (or 'wagon home')",
    escape="Ringed: your knights that may escape the siege (or 'no escape')",
)
