"""Bridges, Castles & Bazaars: bridges (step 3.4, the published rules as JCZ plays them).

A bridge is a road across a tile from one field edge to the opposite field edge (N-S
or W-E; what lies between, road, city or monastery, stays as it is and the fields are
not cut). The placement move may carry one (``"bridge": [x, y, "NS"]``, notation
``place X,Y rR bridge X,Y NS ...``), the seat having one left (3 each with 2-4
players, 2 with 5-6):

* **on the new tile**: both ends face a road or nothing; a follower may then stand on
  the bridge (``road N`` / ``road E`` on that tile);
* **on a tile next to it**, running towards the new tile (JCZ): both ends of that tile
  are field and face a road or nothing, the new tile's edge there being a road.

A tile may be placeable only thanks to a bridge: the draw keeps it
(``Rules.placeable_with``). One bridge a tile; none on the abbey or the City of
Carcassonne. A bridged tile is the tile type ``LETTER~NS`` / ``LETTER~WE`` (in its
own unrotated orientation): the tile's segments and one more road segment, made on
demand (``orient.FACTORIES``), so every rule, view and picture reads it as a tile.
"""
from __future__ import annotations

from dataclasses import replace

from ....i18n import _
from ....base import IllegalMove
from ...features import _merge, constraint_at, frontier_order
from ...geometry import DELTA
from ...moves import _yx, check_place, figure_choices, placement_moves, refusal, relevant_checks
from ...orient import FACTORIES, TILES, fits, oriented
from ...segments import Segment, check_tile
from ...segwords import is_int
from ...state import SEG_BITS, Feature
from .tiles import EXPANSION

AXES = {"NS": (0, 2), "WE": (1, 3)}


def _make(letter: str):
    base, sep, axis = letter.rpartition("~")
    if not sep or axis not in AXES or base not in TILES or "~" in base:
        return None
    tile = TILES[base]
    a, b = AXES[axis]
    if tile.edges[a] != "F" or tile.edges[b] != "F" or "*" in tile.edges or "·" in tile.edges:
        return None
    edges = "".join("R" if d in (a, b) else e for d, e in enumerate(tile.edges))
    segments = tile.segments + (Segment("road", (a, b), (("bridge", 1),)),)
    made = replace(tile, letter=letter, count=0, edges=edges, segments=segments, tags=(*tile.tags, "bridge"))
    check_tile(made)
    return made


FACTORIES.append(_make)


def unrotated(axis: str, rot: int) -> str:
    """A board axis on a tile turned ``rot`` quarter turns, in the tile's own terms."""
    return axis if rot % 2 == 0 else ("WE" if axis == "NS" else "NS")


_BRIDGED: dict = {}


def bridged(letter: str, axis: str, rot: int):
    """The bridged tile type for a bridge on the board axis ``axis``, or None."""
    key = (letter, unrotated(axis, rot))
    name = _BRIDGED.get(key, 0)
    if name == 0:
        name = None
        if "~" not in letter and TILES[letter].expansion != "count" and "*" not in TILES[letter].edges:
            try:
                TILES[f"{letter}~{key[1]}"]
                name = f"{letter}~{key[1]}"
            except KeyError:
                pass
        _BRIDGED[key] = name
    return name


_VARIANTS: dict = {}
_OWN: dict = {}


def variants(letter: str) -> list:
    """(rotation, board axis, bridged type) of every way the tile takes a bridge."""
    out = _VARIANTS.get(letter)
    if out is None:
        out = _VARIANTS[letter] = [(r, axis, v) for r in range(4) for axis in AXES
                                   if (v := bridged(letter, axis, r)) is not None]
    return out


def left(state, player: int) -> int:
    return (state.ext.get(EXPANSION) or {}).get("bridges", [0] * state.players)[player]


# -- a bridge on a placed tile --------------------------------------------------------------


def _ends_face_roads(state, cell, axis, skip=None) -> bool:
    """Both ends of a bridge on ``cell`` face a road edge or no tile (``skip``: the new tile's cell)."""
    x, y = cell
    for d in AXES[axis]:
        c = (x + DELTA[d][0], y + DELTA[d][1])
        if c == skip:
            continue
        t = state.board.get(c)
        if t is not None and oriented(t[0], t[1]).edges[(d + 2) % 4] != "R":
            return False
    return True


def apply_bridge(state, cell, axis):
    """A new state with a bridge on the placed tile at ``cell`` (the tile becomes its bridged
    type; the bridge's road joins the roads it meets; the cells at its ends see a road)."""
    letter, rot, n = state.board[cell]
    variant = f"{letter}~{unrotated(axis, rot)}"
    o = oriented(variant, rot)
    k = o.nseg - 1
    sid = (n << SEG_BITS) + k
    new = state.copy()
    board = state.board.copy()
    board[cell] = (variant, rot, n)
    seg_feature = state.seg_feature.copy()
    features = state.features.copy()
    frontier = dict(state.frontier)
    x, y = cell
    nbrs = [(d, (x + DELTA[d][0], y + DELTA[d][1])) for d in o.ports[k]]
    features[sid] = Feature("road", (sid,), frozenset((cell,)), sum(1 for _d, c in nbrs if c not in board),
                            {"bridge": 1}, (), frozenset())
    seg_feature[sid] = sid
    for d, c in nbrs:
        t = board.get(c)
        if t is None:
            frontier[c] = constraint_at(board, c)
            continue
        nk = oriented(t[0], t[1]).edge_seg[(d + 2) % 4]
        _merge(seg_feature, features, sid, (t[2] << SEG_BITS) + nk, 1)
    new.board, new.seg_feature, new.features, new.frontier = board, seg_feature, features, frontier
    return new


# -- placements with a bridge ------------------------------------------------------------------


def _own_options(state, letter, cell, constraint, checks=None):
    """(rotation, axis, variant) of every bridge on the new tile at ``cell`` with which it
    fits there (whether or not it would fit without); ``checks``: ``relevant_checks`` of
    the tile, if known."""
    key = (letter, constraint)
    fitting = _OWN.get(key)
    if fitting is None:
        # a tuple: kept for the process, it leaves the garbage collector's lists (a list stays)
        fitting = _OWN[key] = tuple((r, axis, v) for r, axis, v in variants(letter) if r in fits(v, constraint))
    if not fitting or not (relevant_checks(state, letter) if checks is None else checks):
        return fitting
    return [(r, axis, v) for r, axis, v in fitting if not refusal(state, v, cell, r)]


def _neighbour_options(state, letter, cell, constraint=None):
    """(rotation, bridge cell, axis) of a bridge on a tile next to ``cell`` that makes the
    new tile fit there (its road meets the bridge); ``constraint``: the cell's, if known."""
    if constraint is None:
        constraint = state.frontier[cell]
    out = []
    if "F" not in constraint or "R" not in TILES[letter].edges:
        return out                       # the new tile's road must meet a field edge
    x, y = cell
    board = state.board
    plain = None
    for d, (dx, dy) in enumerate(DELTA):
        if constraint[d] != "F":
            continue
        nc = (x + dx, y + dy)
        t = board.get(nc)
        if t is None:
            continue
        axis = "NS" if d in (0, 2) else "WE"
        if bridged(t[0], axis, t[1]) is None or not _ends_face_roads(state, nc, axis, skip=cell):
            continue
        if plain is None:
            plain = fits(letter, constraint)
        for r in fits(letter, constraint[:d] + "R" + constraint[d + 1:]):
            if r not in plain:
                out.append((r, nc, axis))
    return out


def bridge_moves(state, player: int) -> list:
    """The place_tile moves that carry a bridge, in order: cell, bridge, rotation, figure."""
    letter = state.tile
    if left(state, player) <= 0 or letter is None or "*" in TILES[letter].edges:
        return []
    out = []
    choices: dict = {}                   # bridged type -> its figure choices on this state
    checks = relevant_checks(state, letter)
    frontier = state.frontier
    own = variants(letter)
    road = "R" in TILES[letter].edges    # else no bridge next to the cell can make it fit
    own_get = _OWN.get
    for _y, _x, cell, constraint in frontier_order(frontier):
        # ``_own_options``, its kept answer read here when no check applies (most cells: none)
        fitting = own_get((letter, constraint)) if own else ()
        if fitting is None or (fitting and checks):
            fitting = _own_options(state, letter, cell, constraint, checks)
        for r, axis, variant in fitting:
            prep = choices.get(variant)
            if prep is None:
                prep = choices[variant] = figure_choices(state, player, variant)
            placement_moves(state, player, variant, [(cell, [r])], {"bridge": [cell[0], cell[1], axis]},
                            choices=prep, out=out)
        if not road or "F" not in constraint:
            continue                     # ``_neighbour_options`` has nothing
        near = {}
        for r, nc, axis in _neighbour_options(state, letter, cell, constraint):
            near.setdefault((nc, axis), []).append(r)
        for (nc, axis), rots in sorted(near.items(), key=lambda i: (_yx(i[0][0]), i[0][1])):
            hyp = apply_bridge(state, nc, axis)
            if state.rules.placement_checks:
                rots = [r for r in rots if not refusal(hyp, letter, cell, r)]
            if rots:
                out += placement_moves(hyp, player, letter, [(cell, sorted(rots))],
                                       {"bridge": [nc[0], nc[1], axis]})
    return out


def placeable(state, letter: str) -> bool:
    """``Rules.placeable_with``: the drawing seat could place the tile with a bridge."""
    player = state.active
    if left(state, player) <= 0 or "*" in TILES[letter].edges:
        return False
    for cell in state.frontier:
        constraint = state.frontier[cell]
        if _own_options(state, letter, cell, constraint):
            return True
        for r, nc, axis in _neighbour_options(state, letter, cell):
            if not state.rules.placement_checks or not refusal(apply_bridge(state, nc, axis), letter, cell, r):
                return True
    return False


def check_bridge(state, player: int, move: dict):
    """Validate the placement of a move with a bridge: (the state to validate the placement
    on, with the tile to place) or raise IllegalMove."""
    bridge = move["bridge"]
    if not (isinstance(bridge, list) and len(bridge) == 3 and is_int(bridge[0]) and is_int(bridge[1])
            and bridge[2] in AXES):
        raise IllegalMove("bad_bridge", _('a bridge is [x, y, "NS" | "WE"]'))
    if left(state, player) <= 0:
        raise IllegalMove("no_bridge_left", _("you have no bridge left"))
    x, y, axis = bridge
    cell = (move.get("x"), move.get("y"))
    if not (is_int(cell[0]) and is_int(cell[1])):
        raise IllegalMove("bad_position", _("x and y must be integers"))
    letter = state.tile
    if "*" in TILES[letter].edges:
        raise IllegalMove("bad_bridge", _("no bridge on the abbey"))
    if (x, y) == cell:
        rot = move.get("rotation")
        if not is_int(rot) or rot not in (0, 90, 180, 270):
            raise IllegalMove("bad_rotation", _("rotation must be 0, 90, 180 or 270 (clockwise)"))
        variant = bridged(letter, axis, rot // 90)
        if variant is None:
            raise IllegalMove("bad_bridge", _("a bridge {axis} needs field edges at both ends of the "
                                              "tile", axis=axis))
        hyp = state.copy()
        hyp.tile = variant
        return hyp
    if abs(x - cell[0]) + abs(y - cell[1]) != 1 or (x, y) not in state.board:
        raise IllegalMove("bad_bridge", _("a bridge goes on the new tile or on a tile next to it"))
    t = state.board[(x, y)]
    towards = "NS" if x == cell[0] else "WE"
    if axis != towards or bridged(t[0], axis, t[1]) is None or not _ends_face_roads(state, (x, y), axis, skip=cell):
        raise IllegalMove("bad_bridge", _("a bridge on the next tile runs towards the new tile, from "
                                          "field edge to field edge, facing roads or nothing"))
    if cell not in state.frontier:
        raise IllegalMove("not_adjacent", _("{x},{y} does not touch any tile", x=cell[0], y=cell[1]))
    return apply_bridge(state, (x, y), axis)


def validate_place(base):
    """Wrap the placement validator: a move with a bridge is checked on the board the bridge
    makes (and, on the new tile, with its bridged type)."""
    def validate(state, player: int, move: dict) -> dict:
        if "bridge" not in move:
            return base(state, player, move)
        hyp = check_bridge(state, player, move)
        rest = {k: v for k, v in move.items() if k != "bridge"}
        check_place(hyp, player, rest)
        return {**{k: rest[k] for k in ("type", "x", "y", "rotation", "figure", "on") if k in rest},
                "bridge": list(move["bridge"])}
    return validate


def legal_place(base):
    def legal(state, player: int) -> list:
        moves = base(state, player)
        if state.pending.get(player) == "place_tile":
            moves = moves + bridge_moves(state, player)
        return moves
    return legal


def build(turn) -> None:
    """Step 3 (before the tile is placed): the bridge of the placement move."""
    m = turn.move
    if not m or m.get("type") != "place_tile" or "bridge" not in m:
        return
    x, y, axis = m["bridge"]
    event = {"type": "BridgeBuilt", "player": turn.player, "x": x, "y": y, "axis": axis}
    if (x, y) == (m["x"], m["y"]):
        event["rotation"] = m["rotation"]          # on the new tile: the tile gets its bridge as placed
    turn.emit(event)


def _built(state, event):
    mine = state.ext.get(EXPANSION) or {}
    row = list(mine.get("bridges") or [0] * state.players)
    row[event["player"]] -= 1
    cell = (event["x"], event["y"])
    if "rotation" in event:
        new = state.copy()
        new.tile = bridged(state.tile, event["axis"], event["rotation"] // 90)
    else:
        new = apply_bridge(state, cell, event["axis"])
    new.ext = {**state.ext, EXPANSION: {**mine, "bridges": row}}
    return new
