"""The Princess & the Dragon: the volcano and the dragon's flight (steps 2.4, 3.1, 6.1).

* **Before the dragon is in play** (no volcano placed yet), a drawn dragon tile is
  put aside and another drawn (``dragon_tiles_before_volcano`` = ``set_aside``,
  the published rule); the first volcano shuffles them back (``DragonTilesReturned``).
* **Volcano** (step 3.1): the dragon flies onto the tile (``DragonPlaced``); no figure
  may stand on that tile (``volcano_blocks`` = ``followers``: steps 5's actions away
  from it and a barn on its corner remain; ``all_figures``: nothing at all this turn).
* **Flight** (step 6.1, after the figure actions, before any scoring; with
  ``dragon_move_timing`` = ``after_scoring``: in step 9, once the features the tile
  completed are scored and their followers home, ``fly_after_scoring``): a dragon tile
  makes the dragon take up to 6 single orthogonal steps, one step a seat, from the
  active seat on (``DragonStepOwed`` / the move ``dragon``); a step never enters a tile
  entered in this flight (the start counts), the fairy's tile, or a district tile of
  the City of Carcassonne; the flight stops when no step is possible. On each tile it
  enters it eats every figure (followers of every kind, builders, pigs; not barns, not
  followers on towers): ``FiguresEaten``. Default at a deadline: the first legal step
  in the order N, E, S, W.
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...geometry import DELTA, EDGES
from ...removal import figures_on, return_stranded
from ...rules import Turn
from .common import dragon_at, fairy_cell, has_tag, last_tile, mine, put
from .tiles import DRAGON, VOLCANO

STEPS = 6
DRAGON_MOVE = "dragon"


def _in_play(state) -> bool:
    return dragon_at(state) is not None


# -- the draw and the volcano ---------------------------------------------------------------


def set_aside(turn: Turn, letter: str) -> bool:
    """Draw filter: a dragon tile before the first volcano waits outside the pile."""
    st = turn.state
    if not has_tag(letter, DRAGON) or _in_play(st):
        return False
    if st.options.get("dragon_tiles_before_volcano", "set_aside") != "set_aside":
        return False
    turn.emit({"type": "DragonTileSetAside", "player": turn.player, "tile": letter})
    return True


def volcano(turn: Turn) -> None:
    """Step 3.1: a volcano brings the dragon onto its tile (and the set-aside tiles back)."""
    m = turn.move
    if not m or m.get("type") not in ("place_tile", "abbey"):
        return
    cell, letter = last_tile(turn.state)
    if not has_tag(letter, VOLCANO):
        return
    first = not _in_play(turn.state)
    turn.emit({"type": "DragonPlaced", "x": cell[0], "y": cell[1]})
    waiting = mine(turn.state).get("set_aside") or []
    if first and waiting:
        turn.emit({"type": "DragonTilesReturned", "tiles": list(waiting)})


def volcano_block(state, letter: str):
    """``Rules.tile_blocks``: no figure on a volcano tile (the dragon stands there)."""
    if not has_tag(letter, VOLCANO):
        return None
    return "all" if state.options.get("volcano_blocks", "followers") == "all_figures" else "tile"


def dragon_cells(state) -> list:
    """``Rules.no_figure_cells``: the dragon's tile (no figure may ever be placed there)."""
    here = dragon_at(state)
    return [] if here is None else [here]


def on_dragon(state, cell) -> bool:
    return dragon_at(state) == tuple(cell)


# -- the flight -------------------------------------------------------------------------------


def steps_from(state) -> list:
    """The legal steps of the flight now: [(direction letter, (x, y))] in the order N E S W."""
    flight = mine(state).get("flight")
    here = dragon_at(state)
    if not flight or here is None:
        return []
    visited = {tuple(c) for c in flight["visited"]}
    fairy = fairy_cell(state)
    out = []
    for d, (dx, dy) in enumerate(DELTA):
        c = (here[0] + dx, here[1] + dy)
        t = state.board.get(c)
        if t is None or c in visited or c == fairy or has_tag(t[0], "district") or has_tag(t[0], "wheel"):
            continue
        out.append((EDGES[d], c))
    return out


def _next_step(turn: Turn) -> None:
    """Offer the next step of the flight to its seat, or end the flight."""
    st = turn.state
    flight = mine(st)["flight"]
    if flight["steps"] >= STEPS or not steps_from(st):
        turn.emit({"type": "DragonFlightEnded", "steps": flight["steps"]})
        return
    turn.emit({"type": "DragonStepOwed", "player": flight["movers"][flight["steps"]]})


def _step(turn: Turn) -> None:
    """The ``dragon`` move: its step, what it eats there, then the next step or the end."""
    st = turn.state
    m = turn.move
    cell = next(c for d, c in steps_from(st) if d == m["direction"])
    mover = mine(st)["flight"]["movers"][mine(st)["flight"]["steps"]]
    turn.emit({"type": "DragonMoved", "player": mover, "x": cell[0], "y": cell[1],
               "direction": m["direction"]})
    eaten = figures_on(turn.state, [cell])
    if eaten:
        turn.emit({"type": "FiguresEaten", "x": cell[0], "y": cell[1], "followers": eaten})
        return_stranded(turn)
    _next_step(turn)


def _take_off(turn: Turn, **late) -> None:
    """The tile's flight, once: when the dragon is in play and the tile is a dragon tile."""
    st = turn.state
    if mine(st).get("flown") == st.turn or not _in_play(st) or not st.placed:
        return
    cell, letter = last_tile(st)
    if not has_tag(letter, DRAGON):
        return
    if (st.options.get("dragon_move_timing", "before_scoring") == "after_scoring") != bool(late):
        return                          # the flight belongs to the other step
    n = st.players
    movers = [(turn.player + k) % n for k in range(STEPS)]
    here = dragon_at(st)
    turn.emit({"type": "DragonFlightStarted", "player": turn.player, "movers": movers,
               "x": here[0], "y": here[1], **late})
    _next_step(turn)


def fly(turn: Turn) -> None:
    """Step 6.1: a dragon tile starts the flight; a ``dragon`` move takes its step."""
    m = turn.move
    if m and m.get("type") == DRAGON_MOVE:
        _step(turn)
        return
    # any other move that runs this step (the placement, step 5's action, a capture...):
    # the tile's flight once
    _take_off(turn)


def fly_after_scoring(turn: Turn) -> None:
    """``dragon_move_timing`` = ``after_scoring`` (step 9, after the followers of the scored
    features went home, wagons moved, the Count's entry; before a builder's extra tile and a
    bazaar): the tile's flight, and its steps (their decisions start again at this step,
    ``start_step``). The turn's scratch data (a builder's extra tile) waits in the flight."""
    st = turn.state
    if st.options.get("dragon_move_timing", "before_scoring") != "after_scoring":
        return
    m = turn.move
    if m and m.get("type") == DRAGON_MOVE:
        data = mine(st)["flight"].get("turn_data") or {}
        _step(turn)
        if mine(turn.state).get("flight") is None:      # landed: the rest of the turn goes on
            turn.data = dict(data)
        return
    _take_off(turn, after_scoring=True, turn_data=dict(turn.data))


def start_step(state) -> str:
    """``Rules.move_starts``: where a dragon step's decision starts again."""
    return "end_turn" if (mine(state).get("flight") or {}).get("after_scoring") else "resolve_figures"


def legal_dragon(state, player: int) -> list:
    if state.over or state.pending.get(player) != DRAGON_MOVE:
        return []
    return [{"type": DRAGON_MOVE, "direction": d} for d, _c in steps_from(state)]


def validate_dragon(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "direction"} or move["direction"] not in EDGES:
        raise IllegalMove("bad_dragon", _('a dragon step names a direction: {"type": "dragon", '
                                          '"direction": "N"}'))
    legal = [d for d, _c in steps_from(state)]
    if move["direction"] not in legal:
        raise IllegalMove("dragon_blocked", (_("the dragon cannot step {direction}: it may step {directions}", direction=move["direction"],
                                                 directions=", ".join(legal)) if legal else
                                               _("the dragon cannot step {direction}: it may step nowhere",
                                                 direction=move["direction"])))
    return {"type": DRAGON_MOVE, "direction": move["direction"]}


# -- evolvers ---------------------------------------------------------------------------------


def _set_aside(state, event):
    new = put(state, set_aside=[*(mine(state).get("set_aside") or []), event["tile"]])
    new.tile = None
    new.pending = {}
    new.step = "draw_tile"
    return new


def _placed(state, event):
    return put(state, dragon=[event["x"], event["y"]])


def _returned(state, event):
    new = put(state, set_aside=[])
    pile = state.pile.copy()
    for letter in event["tiles"]:
        pile[letter] = pile.get(letter, 0) + 1
    new.pile = pile
    if state.order is not None:          # a fixed draw order: at its end
        new.order = state.order + tuple(event["tiles"])
    return new


def _started(state, event):
    flight = {"movers": list(event["movers"]), "steps": 0, "visited": [[event["x"], event["y"]]]}
    if event.get("after_scoring"):
        flight.update(after_scoring=True, turn_data=dict(event.get("turn_data") or {}))
    return put(state, flight=flight, flown=state.turn)


def _owed(state, event):
    new = state.copy()
    new.pending = {event["player"]: DRAGON_MOVE}
    new.step = start_step(state)
    return new


def _moved(state, event):
    flight = mine(state)["flight"]
    new = put(state, dragon=[event["x"], event["y"]],
              flight={**flight, "steps": flight["steps"] + 1,
                      "visited": [*flight["visited"], [event["x"], event["y"]]]})
    new.pending = {}
    return new


def _ended(state, event):
    new = put(state, flight=None)
    new.pending = {}
    return new


EVOLVERS = {"DragonTileSetAside": _set_aside, "DragonPlaced": _placed, "DragonTilesReturned": _returned,
            "DragonFlightStarted": _started, "DragonStepOwed": _owed, "DragonMoved": _moved,
            "DragonFlightEnded": _ended}
