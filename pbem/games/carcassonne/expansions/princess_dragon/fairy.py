"""The Princess & the Dragon: the fairy (steps 1.1, 5, 8 and the final scoring).

* **Move it** (step 5, the action ``fairy``, instead of a figure): next to one of the
  seat's followers on the board (``FairyMoved``). It stays on that tile when the
  follower leaves, standing by nobody.
* **+1** at the start of the turn of the seat whose follower it stands by (not again on
  a builder's extra tile: the double turn is one turn).
* **+3** to that follower's owner when its feature is scored, in play (after the
  feature's own scoring) or at the end, whoever wins the feature.
* The dragon never enters the fairy's tile (``dragon.steps_from``).

``fairy_placement`` = ``on_tile`` (C1, the published first edition: "on the tile" with one
of your followers): the move names a tile (``fairy X,Y``: one holding a follower of the
seat, not the fairy's own) and the fairy counts for every follower on its tile (``on_*``
below): +1 at the start of the turn of each seat with a follower there; +3 to each seat
with a follower there in a feature scored, once per feature and seat [HOUSE: the rule
does not say what several followers do]. The other format is refused (``fairy_format``).
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...features import is_complete, label_of, occupied
from ...rules import Turn
from ...segwords import cell_sid
from ...state import SEG_BITS
from .common import FOLLOWERS, fairy_cell, fairy_follower, mine, put

POINTS_TURN, POINTS_FEATURE = 1, 3
ON_TILE = "on_tile"


def on_tile(state) -> bool:
    """``fairy_placement`` = ``on_tile`` (C1)."""
    return state.options.get("fairy_placement", "next_to_follower") == ON_TILE


#: (features, board, placed, seat, the fairy's follower, the answer) of the last ``targets``
_LAST: tuple = (None, None, None, None, None, ())


def targets(state, player: int) -> list:
    """The seat's followers the fairy may be moved next to: (x, y, on, figure), sorted
    (kept for the last state asked about: the listing, then the move's validation)."""
    global _LAST
    here = fairy_follower(state)
    last = _LAST
    if last[0] is state.features and last[1] is state.board and last[2] is state.placed \
            and last[3] == player and last[4] == here:
        return list(last[5])
    out = _targets(state, player, here)
    _LAST = (state.features, state.board, state.placed, player, here, tuple(out))
    return out


def _targets(state, player: int, here) -> list:
    out = []
    for _fid, f in occupied(state):
        for p, sid, figure in f.meeples:
            if p == player and figure in FOLLOWERS and (p, sid, figure) != here:
                x, y, label = label_of(state, sid)
                out.append((y, x, label, figure))
    out.sort()
    return [(x, y, label, figure) for y, x, label, figure in out]


def exists(state, player: int) -> bool:
    if on_tile(state):
        return bool(on_targets(state, player))
    here = fairy_follower(state)
    for _fid, f in occupied(state):
        if f.meeples:
            for p, sid, figure in f.meeples:
                if p == player and figure in FOLLOWERS and (p, sid, figure) != here:
                    return True
    return False


def legal(state, player: int) -> list:
    if on_tile(state):
        return [{"type": "action", "do": "fairy", "x": x, "y": y} for x, y in on_targets(state, player)]
    return [{"type": "action", "do": "fairy", "x": x, "y": y, "on": on, "figure": figure}
            for x, y, on, figure in targets(state, player)]


_TILE_KEYS = {"type", "do", "x", "y"}


def validate(state, player: int, move: dict) -> dict:
    if on_tile(state):
        return on_validate(state, player, move)
    if set(move) != {"type", "do", "x", "y", "on", "figure"}:
        if set(move) == _TILE_KEYS:
            raise IllegalMove("fairy_format", _("with fairy_placement = next_to_follower the fairy "
                                                "goes next to one of your followers: name its segment "
                                                "(fairy 1,0 road E)"))
        raise IllegalMove("malformed_move", _("the fairy names your follower: x, y, on, figure (e.g. "
                                              "fairy 1,0 road E)"))
    figure = move["figure"]
    sid = cell_sid(state, move)
    if sid is None or not isinstance(figure, str):
        raise IllegalMove("bad_segment", _("there is no segment “{on}” at {x},{y}", on=move['on'], x=move['x'], y=move['y']))
    x, y, on = label_of(state, sid)
    if (x, y, on, figure) not in targets(state, player):
        raise IllegalMove("bad_fairy", _("the fairy goes next to one of your followers (not where it "
                                         "stands)"))
    return {"type": "action", "do": "fairy", "x": x, "y": y, "on": on, "figure": figure}


def run(turn: Turn, move: dict) -> None:
    if "on" not in move:                 # on_tile: the tile alone
        turn.emit({"type": "FairyMoved", "player": turn.player, "x": move["x"], "y": move["y"]})
        return
    turn.emit({"type": "FairyMoved", "player": turn.player, "x": move["x"], "y": move["y"],
               "on": move["on"], "figure": move["figure"]})


def describe(move: dict) -> str:
    figure = move.get("figure")
    if "on" not in move:
        return f"fairy {move.get('x')},{move.get('y')}"
    return f"fairy {move.get('x')},{move.get('y')} {move.get('on')}" + ("" if figure == "follower" else f" {figure}")


# -- scoring ---------------------------------------------------------------------------------


def _score(turn: Turn, player: int, points: int, reason: str) -> None:
    turn.emit({"type": "FairyScored", "player": player, "points": points, "winners": [player],
               "reason": reason, "category": "fairy"})


def _extra_tile(state) -> bool:
    """Whether the turn starting now is a builder's extra tile (Traders & Builders)."""
    extra = (state.ext.get("traders_builders") or {}).get("extra")
    return extra is not None and extra == state.turn + 1


def _no_turn_starts(st, player: int) -> bool:
    """Whether the turn "starting" now is none: the pile is empty and no bazaar tile waits
    for the seat, so the draw ends the game (the game ends with the turn of the last tile:
    the fairy's +1 is for the start of a turn that is played)."""
    if st.order is not None:
        if st.order:
            return False
    elif any(v > 0 for v in st.pile.values()):
        return False
    held = (st.ext.get("bridges_castles_bazaars") or {}).get("held") or {}
    return str(player) not in held


def start_turn(turn: Turn) -> None:
    """Step 1.1: +1 when the fairy stands by one of the active seat's followers."""
    st = turn.state
    if st.tile is not None or st.pending:
        return
    if st.options.get("fairy_placement", "next_to_follower") == ON_TILE:
        if (any(p == turn.player for p, _fid in on_followers(st)) and not _extra_tile(st)
                and not _no_turn_starts(st, turn.player)):
            _score(turn, turn.player, POINTS_TURN, "turn")
        return
    by = fairy_follower(st)
    if by is not None and by[0] == turn.player and not _extra_tile(st) and not _no_turn_starts(st, turn.player):
        _score(turn, by[0], POINTS_TURN, "turn")


def scored(turn: Turn) -> None:
    """Step 8: +3 when the fairy's follower was in a feature scored this turn."""
    st = turn.state
    if st.options.get("fairy_placement", "next_to_follower") == ON_TILE:
        scored_now = set(turn.completed) | set(turn.data.get("castles_scored", ()))
        for p, fid in on_followers(st):
            if fid in scored_now:
                _score(turn, p, POINTS_FEATURE, "feature")
        return
    by = fairy_follower(st)
    if by is None:
        return
    fid = st.seg_feature[by[1]]
    if fid in turn.completed or fid in turn.data.get("castles_scored", ()):
        _score(turn, by[0], POINTS_FEATURE, "feature")


def final(turn: Turn) -> None:
    """Final scoring: +3 when the fairy's follower is in a feature scored at the end (a
    field, an incomplete road, city or cloister)."""
    st = turn.state
    if on_tile(st):
        for p, fid in on_followers(st):
            f = st.features[fid]
            if not is_complete(st, f) and not f.marks.get("castle"):
                _score(turn, p, POINTS_FEATURE, "final")
        return
    by = fairy_follower(st)
    if by is None:
        return
    f = st.feature_of(by[1])
    if not is_complete(st, f) and not f.marks.get("castle"):   # fields are never complete
        _score(turn, by[0], POINTS_FEATURE, "final")


# -- fairy_placement = on_tile (C1) -----------------------------------------------------------


def on_followers(state) -> list:
    """(seat, feature id) of every feature with a follower of that seat on the fairy's tile,
    each once, sorted (the fairy counts for them all)."""
    cell = fairy_cell(state)
    if cell is None:
        return []
    placed = state.placed
    out = set()
    for fid, f in occupied(state):
        for p, sid, figure in f.meeples:
            if figure in FOLLOWERS and placed[sid >> SEG_BITS] == cell:
                out.add((p, fid))
    return sorted(out)


def on_targets(state, player: int) -> list:
    """The tiles holding a follower of the seat, but the fairy's: (x, y) sorted by row."""
    here = fairy_cell(state)
    placed = state.placed
    cells = set()
    for _fid, f in occupied(state):
        for p, sid, figure in f.meeples:
            if p == player and figure in FOLLOWERS:
                cell = placed[sid >> SEG_BITS]
                if cell != here:
                    cells.add(cell)
    return [(x, y) for y, x in sorted((y, x) for x, y in cells)]


def on_validate(state, player: int, move: dict) -> dict:
    if set(move) != _TILE_KEYS:
        if {"on", "figure"} & set(move):
            raise IllegalMove("fairy_format", _("with fairy_placement = on_tile the fairy goes onto a "
                                                "tile: name the tile alone (fairy 1,0)"))
        raise IllegalMove("malformed_move", _("the fairy names a tile: x, y (e.g. fairy 1,0)"))
    x, y = move["x"], move["y"]
    if type(x) is not int or type(y) is not int:
        raise IllegalMove("bad_position", _("`x` and `y` must be integers"))
    if (x, y) not in on_targets(state, player):
        raise IllegalMove("bad_fairy", _("the fairy goes onto a tile with one of your followers (not "
                                         "the tile where it is)"))
    return {"type": "action", "do": "fairy", "x": x, "y": y}


def _moved(state, event):
    return put(state, fairy={k: event.get(k) for k in ("player", "x", "y", "on", "figure")})


EVOLVERS = {"FairyMoved": _moved}
__all__ = ["mine"]
