"""Abbey & Mayor: the abbey instead of a draw (step 2.1) and the end round."""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...base_rules import draw_tile, finish
from ...features import port_features
from ...moves import frontier_cells, refusal
from ...orient import oriented
from ...rules import Turn
from .common import _int, _mine, _set, _supply, left
from .tiles import ABBEY


def holes(state) -> list:
    """Empty cells with all 4 orthogonal neighbours filled where an abbey may go."""
    out = []
    for cell in frontier_cells(state.frontier):          # by (y, x)
        if "." in state.frontier[cell]:
            continue
        if state.rules.placement_checks and refusal(state, ABBEY, cell, 0):
            continue
        out.append(cell)
    return out


def _abbey_figures(state, player, cell):
    o = oriented(ABBEY, 0)
    out = []
    if state.supply[player] > 0:
        out.append(("follower", "cloister"))
    ports = port_features(state, cell)
    for make in state.rules.figure_providers:
        fn = make(state, player)
        for figure, label in (fn(cell, o, 0, ports) if fn else ()):
            if label == "cloister":
                out.append((figure, label))
    for fn in state.rules.figure_options:
        for figure, label in fn(state, player, cell, o, 0):
            if label == "cloister":
                out.append((figure, label))
    return out


def legal_abbey(state, player: int) -> list:
    if state.over or state.pending.get(player) != "abbey":
        return []
    out = [{"type": "abbey", "pass": True}]
    for x, y in holes(state):
        out.append({"type": "abbey", "x": x, "y": y})
        for figure, label in _abbey_figures(state, player, (x, y)):
            out.append({"type": "abbey", "x": x, "y": y, "figure": figure, "on": label})
    return out



def validate_abbey(state, player: int, move: dict) -> dict:
    keys = set(move)
    if "pass" in move:
        if keys != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('drawing instead is {"type": "abbey", "pass": true}'))
        return {"type": "abbey", "pass": True}
    if not keys <= {"type", "x", "y", "figure", "on"} or not {"x", "y"} <= keys:
        raise IllegalMove("malformed_move", _("an abbey names its cell: x and y (e.g. abbey 1,1)"))
    x, y = move["x"], move["y"]
    if not (_int(x) and _int(y)):
        raise IllegalMove("bad_position", _("x and y must be integers, e.g. abbey 1,1"))
    if left(state, player, "abbey") <= 0:
        raise IllegalMove("no_abbey_left", _("you have already placed your abbey"))
    if (x, y) not in holes(state):
        raise IllegalMove("not_a_hole", _("{x},{y} is not an empty cell with 4 neighbouring tiles", x=x, y=y))
    clean = {"type": "abbey", "x": x, "y": y, "rotation": 0}
    if "figure" in move or "on" in move:
        figure, on = move.get("figure"), move.get("on")
        if (figure, on) not in _abbey_figures(state, player, (x, y)):
            raise IllegalMove("bad_figure", _("on the abbey only a follower, big follower or wagon may "
                                              "stand (on the cloister), if you have one"))
        clean.update(figure=figure, on=on)
    return clean


def offer_abbey(turn: Turn) -> None:
    """Start of turn (step 2.1): a seat holding its abbey with a hole on the board decides."""
    st = turn.state
    if st.tile is not None or _mine(st).get("round") is not None:
        return
    if left(st, turn.player, "abbey") > 0 and _pile_left(st) and holes(st):
        turn.emit({"type": "AbbeyOffered", "player": turn.player})


def _pile_left(state) -> bool:
    if state.order is not None:
        return bool(state.order)
    return any(v > 0 for v in state.pile.values())


def take_abbey(turn: Turn) -> None:
    """Step 2 (first): the answer to the abbey decision."""
    m = turn.move
    if not m or m.get("type") != "abbey":
        return
    turn.player = turn.state.active
    if m.get("pass"):
        turn.emit({"type": "AbbeyDeclined", "player": turn.player})
        if _mine(turn.state).get("round") is not None:
            _next_in_round(turn)
        return
    turn.emit({"type": "AbbeyTaken", "player": turn.player})


def gated_draw(turn: Turn) -> None:
    """The base draw, skipped when the abbey was taken or in the end round;
    with the pile empty and ``abbey_after_last_tile``, the end round starts."""
    st = turn.state
    if st.tile is not None or st.pending or _mine(st).get("round") is not None:
        return
    if not _pile_left(st) and st.options.get("abbey_after_last_tile", True):
        n = st.players
        seats = [(turn.player + i) % n for i in range(n)]
        seats = [p for p in seats if left(st, p, "abbey") > 0]
        if seats:
            turn.emit({"type": "AbbeyRoundStarted", "seats": seats})
            _next_in_round(turn)
            return
    draw_tile(turn)


def _next_in_round(turn: Turn) -> None:
    """End round: offer the next seat its abbey; finish when none is left."""
    while True:
        st = turn.state
        seats = _mine(st).get("round") or []
        if not seats:
            finish(turn)
            return
        p = seats[0]
        if holes(st):
            turn.player = p
            turn.emit({"type": "AbbeyOffered", "player": p, "final": True})
            return
        turn.emit({"type": "AbbeyRoundSkipped", "player": p})


def round_turn(turn: Turn) -> None:
    """Start of a turn during the end round: the next seat's abbey decision."""
    if _mine(turn.state).get("round") is not None and not turn.state.pending:
        _next_in_round(turn)


def _offered(state, event):
    new = state.copy()
    new.pending = {event["player"]: "abbey"}
    new.active = event["player"]
    new.step = "draw_tile"
    if event.get("final"):
        new = _set(new, round=[p for p in _mine(state).get("round") or [] if p != event["player"]])
    return new


def _declined(state, event):
    new = state.copy()
    new.pending = {}
    return new


def _taken(state, event):
    new = _supply(state, event["player"], "abbey", -1)
    new.tile = ABBEY
    new.pending = {}
    new.step = "place_tile"
    return new


def _round_started(state, event):
    return _set(state, round=list(event["seats"]))


def _round_skipped(state, event):
    return _set(state, round=[p for p in _mine(state).get("round") or [] if p != event["player"]])



def describe_abbey(move: dict) -> str:
    if move.get("pass"):
        return "draw"
    text = f"abbey {move.get('x')},{move.get('y')}"
    fig = move.get("figure")
    if fig:
        text += " " + {"follower": "monk"}.get(fig, fig)
    return text

