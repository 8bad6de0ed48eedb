"""The Princess & the Dragon: the princess and the magic portal (step 5 actions).

* **Princess** (``princess``): the tile just placed has a princess on a city segment
  and that city holds knights (followers of any kind in the city): instead of a
  figure, send one of them home, anyone's (``KnightRemoved``); a builder or pig left
  without its owner's follower goes home too. ``princess_action`` = ``must`` makes it
  compulsory when possible.
* **Magic portal** (``portal``): the tile just placed shows a portal: instead of a
  figure on it, deploy a follower (big follower, mayor on a city, wagon off the fields)
  on any unoccupied, incomplete feature of the board, on any tile but the dragon's.
  One choice per feature and tile is listed (its first segment there); any segment of
  that feature on that tile is accepted.
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...features import is_complete, label_of, sid_at
from ...orient import marked_segments
from ...removal import return_stranded
from ...rules import Turn
from ...segwords import cell_sid, typed
from ...state import SEG_BITS
from .common import FOLLOWERS, dragon_at, has_tag, last_tile
from .tiles import PORTAL

# -- the princess ----------------------------------------------------------------------------


def _princess_cities(state):
    cell, letter = last_tile(state)
    ks = marked_segments(letter, "city", "princess")
    if not ks:
        return []
    t = state.board[cell]
    fids = []
    for k in ks:
        fid = state.seg_feature[(t[2] << SEG_BITS) + k]
        if fid not in fids:
            fids.append(fid)
    return fids


def princess_legal(state, player: int) -> list:
    out = []
    for fid in _princess_cities(state):
        for p, sid, figure in state.features[fid].meeples:
            if figure in FOLLOWERS:
                x, y, label = label_of(state, sid)
                out.append({"type": "action", "do": "princess", "x": x, "y": y, "on": label,
                            "player": p, "figure": figure})
    out.sort(key=lambda m: (m["y"], m["x"], m["on"], m["player"], m["figure"]))
    return out


def princess_required(state, player: int) -> bool:
    return state.options.get("princess_action", "may") == "must" and bool(princess_legal(state, player))


def princess_validate(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "do", "x", "y", "on", "player", "figure"}:
        raise IllegalMove("malformed_move", _("the princess names the knight: x, y, on, player, figure "
                                              "(e.g. princess 1,0 city N seat 1)"))
    if not typed(move, ints=("x", "y", "player"), strs=("on", "figure")):
        raise IllegalMove("malformed_move", _("x, y and player are integers, on and figure words"))
    sid = cell_sid(state, move)
    if sid is not None:
        x, y, label = label_of(state, sid)
        move = {**move, "x": x, "y": y, "on": label}
    if move not in princess_legal(state, player):
        raise IllegalMove("bad_princess", _("the princess sends home a knight of the city her tile "
                                            "joins"))
    return dict(move)


def princess_run(turn: Turn, move: dict) -> None:
    turn.emit({"type": "KnightRemoved", "player": turn.player,
               "followers": [{k: move[k] for k in ("player", "figure", "x", "y", "on")}]})
    return_stranded(turn)


def princess_describe(move: dict) -> str:
    figure = move.get("figure")
    return (f"princess {move.get('x')},{move.get('y')} {move.get('on')} seat {move.get('player')}"
            + ("" if figure == "follower" else f" {figure}"))


# -- the magic portal ------------------------------------------------------------------------

#: figure -> the feature kinds it may go on
_KINDS = {"follower": ("road", "city", "cloister", "field"), "big": ("road", "city", "cloister", "field"),
          "mayor": ("city",), "wagon": ("road", "city", "cloister")}


def _free_places(state) -> list:
    """(x, y, label, kind) of the first segment on each tile of every unoccupied,
    incomplete feature, not on the dragon's tile; sorted by cell and label."""
    dragon = dragon_at(state)
    out = []
    for f in state.features.values():
        if f.meeples or f.kind not in ("road", "city", "cloister", "field"):
            continue
        if f.kind != "field" and is_complete(state, f):
            continue
        seen = set()
        for sid in sorted(f.segs):
            cell = state.placed[sid >> SEG_BITS]
            if cell in seen or cell == dragon:
                continue
            seen.add(cell)
            x, y, label = label_of(state, sid)
            out.append((y, x, label, f.kind))
    out.sort()
    return [(x, y, label, kind) for y, x, label, kind in out]


def portal_legal(state, player: int) -> list:
    _cell, letter = last_tile(state)
    if not has_tag(letter, PORTAL):
        return []
    counts = state.rules.supply_count
    figures = [f for f in _KINDS if f in counts and counts[f](state, player) > 0]
    if not figures:
        return []
    out = []
    for x, y, label, kind in _free_places(state):
        for figure in figures:
            if kind in _KINDS[figure]:
                out.append({"type": "action", "do": "portal", "figure": figure, "x": x, "y": y, "on": label})
    return out


def portal_validate(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "do", "figure", "x", "y", "on"}:
        raise IllegalMove("malformed_move", _("a portal deployment names figure, x, y and on (e.g. "
                                              "portal 2,3 follower road E)"))
    sid = cell_sid(state, move)
    if sid is None or not isinstance(move["figure"], str):
        raise IllegalMove("bad_segment", _("there is no segment “{on}” at {x},{y}", on=move['on'], x=move['x'], y=move['y']))
    x, y, label = label_of(state, sid)
    fid = state.seg_feature[sid]
    wanted = (move["figure"], x, y)
    for m in portal_legal(state, player):
        if (m["figure"], m["x"], m["y"]) == wanted and state.seg_feature[sid_at(state, (x, y), m["on"])] == fid:
            return {"type": "action", "do": "portal", "figure": move["figure"], "x": x, "y": y, "on": label}
    raise IllegalMove("bad_portal", _("through the portal a figure of your supply goes on an "
                                      "unoccupied, incomplete feature (not on the dragon's tile)"))


def portal_run(turn: Turn, move: dict) -> None:
    turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": move["figure"],
               "x": move["x"], "y": move["y"], "on": move["on"], "portal": True})


def portal_describe(move: dict) -> str:
    on = str(move.get("on", ""))
    figure = move.get("figure")
    if on.startswith("field "):
        where = ("farmer " if figure == "follower" else f"{figure} farmer ") + on[6:]
    else:
        where = f"{figure} {on}"
    return f"portal {move.get('x')},{move.get('y')} {where}"
