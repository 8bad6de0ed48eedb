"""The Tower: floors, closing a tower, capture (step 5, the published C2 rules).

State in ``state.ext["tower"]``::

    {"pieces": [n per seat], "heights": {"x,y": height}, "tops": {"x,y": [player, figure]},
     "prisoners": [[captor, owner, figure], ...] (in capture order),
     "capture": {"x", "y", "height"} while the capture is chosen,
     "turn": [seat, first placement index of its current turn], "ransom": the same of a ransom}

* **A floor** (the action ``tower X,Y``, instead of a figure): on any tower foundation
  of the board or any open tower (no follower on top). Then the seat may capture one
  follower (of any kind, anyone's, its own too, also one on top of another tower)
  standing on a tile of the tower's row or column at most the new height away, the
  tower's tile included; empty cells count and block nothing (published: the reach
  goes over gaps). Decision ``capture`` (or ``capture none``, the default).
* **Closing** (``tower X,Y top``): a follower (or big follower) from supply on top of
  an open tower of height 1 or more; it stays there, scoring nothing, until captured
  (C2: then the tower is open again). The dragon does not reach it.
* A captured follower of the captor's own goes back to its supply; another's is the
  captor's prisoner (exchanges and ransom: ``prisoners.py``).
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...features import label_of, occupied
from ...moves import tile_block
from ...removal import protected, return_stranded
from ...rules import Turn
from ...segwords import cell_sid, is_int, typed
from .prisoners import exchange_after_capture
from .state import key, mine, put, take_from_supply
from .tiles import EXPANSION, PIECES

FOLLOWERS = ("follower", "big", "mayor", "wagon")
TOP_FIGURES = ("follower", "big")
CAPTURE = "capture"


def initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {"pieces": [PIECES[state.players]] * state.players, "heights": {},
                                          "tops": {}, "prisoners": [], "capture": None, "turn": None,
                                          "ransom": None, "foundations": []}}


def foundations(state) -> list:
    """Cells of every tile with a tower foundation, in placement order (kept in the
    state by the TilePlaced evolver: ``prisoners.turn_marker``)."""
    return [tuple(c) for c in mine(state).get("foundations", ())]


def height(state, cell) -> int:
    return mine(state).get("heights", {}).get(key(*cell), 0)


def top(state, cell):
    return mine(state).get("tops", {}).get(key(*cell))


def _top_figures(state, player: int) -> list:
    counts = state.rules.supply_count
    return [f for f in TOP_FIGURES if f in counts and counts[f](state, player) > 0]


def _no_top_cells(state):
    """Where no follower may close a tower now: every tower when the turn's tile takes no
    figure (a volcano: step 4 is skipped, and closing a tower deploys a follower), and
    the tiles where no figure may ever go (the dragon's)."""
    if state.placed and state.rules.tile_blocks and tile_block(state, state.board[state.placed[-1]][0]):
        return None
    return {tuple(c) for fn in state.rules.no_figure_cells for c in fn(state)}


def legal(state, player: int) -> list:
    m = mine(state)
    pieces = m["pieces"][player]
    tops_taken, heights = m.get("tops", {}), m.get("heights", {})
    banned = _no_top_cells(state)
    figures = _top_figures(state, player) if banned is not None else []
    out = []
    for y, x in sorted((c[1], c[0]) for c in m.get("foundations", ())):
        k = key(x, y)
        if k in tops_taken:
            continue
        if pieces > 0:
            out.append({"type": "action", "do": "tower", "x": x, "y": y})
        if heights.get(k, 0) >= 1 and figures and (x, y) not in banned:
            out.extend({"type": "action", "do": "tower", "x": x, "y": y, "top": f} for f in figures)
    return out


def validate(state, player: int, move: dict) -> dict:
    keys = set(move)
    if not {"type", "do", "x", "y"} <= keys <= {"type", "do", "x", "y", "top"}:
        raise IllegalMove("malformed_move", _("a tower action names its tower: x, y (and top: figure)"))
    if not (is_int(move["x"]) and is_int(move["y"])) or ("top" in move and not isinstance(move["top"], str)):
        raise IllegalMove("bad_position", _("x and y must be integers, e.g. tower 2,-1"))
    clean = {k: move[k] for k in ("type", "do", "x", "y", "top") if k in move}
    if clean not in legal(state, player):
        cell = (move["x"], move["y"])
        if cell not in foundations(state):
            raise IllegalMove("no_tower_there", _("there is no tower foundation at {x},{y}", x=cell[0], y=cell[1]))
        if top(state, cell) is not None:
            raise IllegalMove("tower_closed", _("a follower stands on top of that tower"))
        if "top" in move and _no_top_cells(state) is None:
            raise IllegalMove("figure_blocked", _("no follower may close a tower this turn: the tile "
                                                  "placed takes no figure (the volcano)"))
        if "top" in move and cell in _no_top_cells(state):
            raise IllegalMove("figure_blocked", _("no follower may close a tower on the dragon's tile"))
        if "top" in move:
            raise IllegalMove("bad_tower", _("a follower or big follower of your supply goes on top of "
                                             "a tower at least 1 floor high"))
        raise IllegalMove("no_tower_left", _("you have no tower floor left"))
    return clean


def targets(state, cell, reach: int) -> list:
    """What a tower at ``cell`` of height ``reach`` may capture: capture moves, sorted."""
    x0, y0 = cell
    out = []
    for _fid, f in occupied(state):
        if protected(f):
            continue                    # a castle's knight cannot be captured
        for p, sid, figure in f.meeples:
            if figure not in FOLLOWERS:
                continue
            x, y, label = label_of(state, sid)
            if (x == x0 and abs(y - y0) <= reach) or (y == y0 and abs(x - x0) <= reach):
                out.append({"type": CAPTURE, "x": x, "y": y, "on": label, "player": p, "figure": figure})
    for k, (p, figure) in mine(state).get("tops", {}).items():
        x, y = map(int, k.split(","))
        if (x == x0 and abs(y - y0) <= reach) or (y == y0 and abs(x - x0) <= reach):
            out.append({"type": CAPTURE, "x": x, "y": y, "on": "tower", "player": p, "figure": figure})
    out.sort(key=lambda m: (m["y"], m["x"], m["on"], m["player"], m["figure"]))
    return out


def run(turn: Turn, move: dict) -> None:
    st = turn.state
    cell = (move["x"], move["y"])
    if "top" in move:
        turn.emit({"type": "TowerClosed", "player": turn.player, "x": cell[0], "y": cell[1],
                   "figure": move["top"]})
        return
    h = height(st, cell) + 1
    turn.emit({"type": "TowerBuilt", "player": turn.player, "x": cell[0], "y": cell[1], "height": h})
    if targets(turn.state, cell, h):
        turn.emit({"type": "CaptureOffered", "player": turn.player, "x": cell[0], "y": cell[1], "height": h})


def describe(move: dict) -> str:
    text = f"tower {move.get('x')},{move.get('y')}"
    if "top" in move:
        text += " top" + ("" if move["top"] == "follower" else f" {move['top']}")
    return text


# -- the capture decision ----------------------------------------------------------------------


def legal_capture(state, player: int) -> list:
    if state.over or state.pending.get(player) != CAPTURE:
        return []
    c = mine(state)["capture"]
    return [{"type": CAPTURE, "pass": True}, *targets(state, (c["x"], c["y"]), c["height"])]


def validate_capture(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('capturing nobody is {"type": "capture", "pass": '
                                                  'true}'))
        return {"type": CAPTURE, "pass": True}
    if set(move) != {"type", "x", "y", "on", "player", "figure"}:
        raise IllegalMove("malformed_move", _("a capture names the figure: x, y, on, player, figure "
                                              "(e.g. capture 2,0 road E seat 1)"))
    if not typed(move, ints=("x", "y", "player"), strs=("on", "figure")):
        raise IllegalMove("malformed_move", _("x, y and player are integers, on and figure words"))
    clean = dict(move)
    if move["on"] != "tower":
        sid = cell_sid(state, move)
        if sid is not None:
            clean["on"] = label_of(state, sid)[2]
    if clean not in legal_capture(state, player)[1:]:
        raise IllegalMove("out_of_reach", _("the tower captures one follower in its row or column, at "
                                            "most its height away"))
    return clean


def capture(turn: Turn) -> None:
    """The answer to the capture decision (then a prisoner exchange, ``prisoners.py``)."""
    m = turn.move
    if not m or m.get("type") != CAPTURE:
        return
    if m.get("pass"):
        turn.emit({"type": "CaptureDeclined", "player": turn.player})
        return
    turn.emit({"type": "FollowerCaptured", "captor": turn.player,
               **{k: m[k] for k in ("player", "figure", "x", "y", "on")}})
    return_stranded(turn)
    exchange_after_capture(turn, m["player"], m["figure"])


# -- evolvers ----------------------------------------------------------------------------------


def _built(state, event):
    pieces = list(mine(state)["pieces"])
    pieces[event["player"]] -= 1
    heights = {**mine(state).get("heights", {}), key(event["x"], event["y"]): event["height"]}
    return put(state, pieces=pieces, heights=heights)


def _closed(state, event):
    tops = {**mine(state).get("tops", {}), key(event["x"], event["y"]): [event["player"], event["figure"]]}
    new = put(state, tops=tops)
    return take_from_supply(new, event["player"], event["figure"])


def _offered(state, event):
    new = put(state, capture={"x": event["x"], "y": event["y"], "height": event["height"]})
    new.pending = {event["player"]: CAPTURE}
    new.step = "figure_phase_2"
    return new


def _declined(state, event):
    new = put(state, capture=None)
    new.pending = {}
    return new


def _captured(state, event):
    new = put(state, capture=None)
    new.pending = {}
    if event["on"] == "tower":
        tops = dict(mine(state)["tops"])
        del tops[key(event["x"], event["y"])]
        new = put(new, tops=tops)
        if event["captor"] == event["player"]:
            return take_from_supply(new, event["player"], event["figure"], +1)
    else:
        item = {k: event[k] for k in ("player", "figure", "x", "y", "on")}
        new = state.rules.evolvers["FollowersReturned"](new, {"followers": [item]})
        if event["captor"] == event["player"]:
            return new
        new = take_from_supply(new, event["player"], event["figure"])   # not home: in prison
    if event["captor"] != event["player"]:
        new = put(new, prisoners=[*mine(new)["prisoners"], [event["captor"], event["player"], event["figure"]]])
    return new


EVOLVERS = {"TowerBuilt": _built, "TowerClosed": _closed, "CaptureOffered": _offered,
            "CaptureDeclined": _declined, "FollowerCaptured": _captured}
