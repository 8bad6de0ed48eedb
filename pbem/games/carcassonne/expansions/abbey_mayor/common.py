"""Abbey & Mayor: the figures' supplies and the expansion's state in ``state.ext``."""
from __future__ import annotations

from ...orient import add_tiles
from .tiles import ABBEY_TILES, AM_TILES, EXPANSION

add_tiles(AM_TILES)
add_tiles(ABBEY_TILES)

MAYOR, WAGON, BARN = "mayor", "wagon", "barn"
FIGURES = ("abbey", MAYOR, WAGON, BARN)
FARMERS = ("follower", "big")
#: corner name -> the two half-edges of a tile at that corner
CORNERS = {"NW": (7, 0), "NE": (1, 2), "SE": (3, 4), "SW": (5, 6)}
_CORNER_DELTA = {"NW": (-1, -1), "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1)}


def _mine(state) -> dict:
    return state.ext.get(EXPANSION) or {}


def left(state, player: int, figure: str) -> int:
    row = _mine(state).get(figure)
    return row[player] if row else 0


def _initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {f: [1] * state.players for f in FIGURES}}


def _set(state, **changes):
    new = state.copy()
    new.ext = {**state.ext, EXPANSION: {**_mine(state), **changes}}
    return new


def _supply(state, player: int, figure: str, delta: int):
    row = list(_mine(state).get(figure) or [0] * state.players)
    row[player] += delta
    return _set(state, **{figure: row})



def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)

