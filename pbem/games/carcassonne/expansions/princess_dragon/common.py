"""The Princess & the Dragon: its state in ``state.ext["princess_dragon"]`` and
what its parts share.

    {"dragon": [x, y] or None, "set_aside": [tile, ...],
     "fairy": {"player", "x", "y", "on", "figure"} or None,
     "flight": {"movers": [seat, ...], "steps": n, "visited": [[x, y], ...]} or None,
     "flown": the turn whose dragon tile has flown}
"""
from __future__ import annotations

from ...features import sid_at
from ...orient import TILES
from .tiles import EXPANSION
from ..ext_state import part_of, with_part

#: the figures that are followers (the fairy stands by one; the princess sends one home)
FOLLOWERS = ("follower", "big", "mayor", "wagon")


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def put(state, **changes):
    return with_part(state, EXPANSION, **changes)


def initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {"dragon": None, "set_aside": [], "fairy": None,
                                          "flight": None, "flown": None}}


def has_tag(letter: str, tag: str) -> bool:
    return tag in TILES[letter].tags


def dragon_at(state):
    d = mine(state).get("dragon")
    return None if d is None else (d[0], d[1])


def fairy_follower(state):
    """(player, sid, figure) of the follower the fairy stands by, or None (no fairy, or
    that follower has left its place)."""
    fairy = mine(state).get("fairy")
    if not fairy:
        return None
    sid = sid_at(state, (fairy["x"], fairy["y"]), fairy["on"])
    if sid is None:
        return None
    f = state.feature_of(sid)
    key = (fairy["player"], sid, fairy["figure"])
    return key if key in f.meeples else None


def fairy_cell(state):
    fairy = mine(state).get("fairy")
    return None if not fairy else (fairy["x"], fairy["y"])


def last_tile(state):
    """(cell, letter) of the tile placed last."""
    cell = state.placed[-1]
    return cell, state.board[cell][0]
