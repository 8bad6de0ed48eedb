"""The Tower's part of a game's state (``state.ext["tower"]``, laid out in
towers.py) and the figure supply that closing a tower, a capture and a
ransom change: what towers.py and prisoners.py both read and write, here so
that prisoners.py needs nothing of towers.py (towers.py hands a capture on
to prisoners.py's exchange)."""
from __future__ import annotations

from ...orient import TILES
from ..ext_state import part_of, with_part
from .tiles import EXPANSION


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def put(state, **changes):
    return with_part(state, EXPANSION, **changes)


def key(x, y) -> str:
    return f"{x},{y}"


def is_foundation(letter: str) -> bool:
    return "tower" in TILES[letter].tags


def take_from_supply(state, player, figure, delta=-1):
    """A seat's supply of ``figure`` changed by ``delta`` (a floor's top, a capture, a ransom)."""
    if figure == "follower":
        new = state.copy()
        supply = list(state.supply)
        supply[player] += delta
        new.supply = tuple(supply)
        return new
    return state.rules.supplies[figure](state, player, figure, delta)
