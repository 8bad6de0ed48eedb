"""The Princess & the Dragon: the volcano and the dragon's flight (steps 2.4, 3.1, 6.1).

* **Before the dragon is in play** (no volcano placed yet), a drawn dragon tile is
  put aside and another drawn (``dragon_tiles_before_volcano`` = ``set_aside``,
  the published rule); the first volcano shuffles them back (``DragonTilesReturned``).
* **Volcano** (step 3.1): the dragon flies onto the tile (``DragonPlaced``); no figure
  may stand on that tile (``volcano_blocks`` = ``followers``: steps 5's actions away
  from it and a barn on its corner remain; ``all_figures``: nothing at all this turn).
* **Flight** (step 6.1, after the figure actions, before any scoring): a dragon tile
  makes the dragon take up to 6 single orthogonal steps, one step a seat, from the
  active seat on (``DragonStepOwed`` / the move ``dragon``); a step never enters a tile
  entered in this flight (the start counts), the fairy's tile, or a district tile of
  the City of Carcassonne; the flight stops when no step is possible. On each tile it
  enters it eats every figure (followers of every kind, builders, pigs; not barns, not
  followers on towers): ``FiguresEaten``. Default at a deadline: the first legal step
  in the order N, E, S, W.
"""
from __future__ import annotations

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
        if t is None or c in visited or c == fairy or has_tag(t[0], "district"):
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


def fly(turn: Turn) -> None:
    """Step 6.1: a dragon tile starts the flight; a ``dragon`` move takes its step."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == DRAGON_MOVE:
        cell = next(c for d, c in steps_from(st) if d == m["direction"])
        mover = mine(st)["flight"]["movers"][mine(st)["flight"]["steps"]]
        turn.emit({"type": "DragonMoved", "player": mover, "x": cell[0], "y": cell[1],
                   "direction": m["direction"]})
        eaten = figures_on(turn.state, [cell])
        if eaten:
            turn.emit({"type": "FiguresEaten", "x": cell[0], "y": cell[1], "followers": eaten})
            return_stranded(turn)
        _next_step(turn)
        return
    # any other move that runs this step (the placement, step 5's action, a capture...):
    # the tile's flight once
    if mine(st).get("flown") == st.turn or not _in_play(st) or not st.placed:
        return
    cell, letter = last_tile(st)
    if not has_tag(letter, DRAGON):
        return
    n = st.players
    movers = [(turn.player + k) % n for k in range(STEPS)]
    here = dragon_at(st)
    turn.emit({"type": "DragonFlightStarted", "player": turn.player, "movers": movers,
               "x": here[0], "y": here[1]})
    _next_step(turn)


def legal_dragon(state, player: int) -> list:
    if state.over or state.pending.get(player) != DRAGON_MOVE:
        return []
    return [{"type": DRAGON_MOVE, "direction": d} for d, _c in steps_from(state)]


def validate_dragon(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "direction"} or move["direction"] not in EDGES:
        raise IllegalMove("bad_dragon", 'a dragon step names a direction: {"type": "dragon", "direction": "N"}')
    legal = [d for d, _c in steps_from(state)]
    if move["direction"] not in legal:
        raise IllegalMove("dragon_blocked", f"the dragon cannot step {move['direction']}: it may step "
                          + (", ".join(legal) or "nowhere"))
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
    return put(state, flight={"movers": list(event["movers"]), "steps": 0,
                              "visited": [[event["x"], event["y"]]]}, flown=state.turn)


def _owed(state, event):
    new = state.copy()
    new.pending = {event["player"]: DRAGON_MOVE}
    new.step = "resolve_figures"
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
