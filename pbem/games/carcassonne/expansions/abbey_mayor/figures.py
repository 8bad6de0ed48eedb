"""Abbey & Mayor: the mayor, wagon and barn as choices of the placement move (steps 4 and 5)."""
from __future__ import annotations

from ....i18n import _
from ...notation import figure_name, segment
from ....base import IllegalMove
from ...features import occupancy_mask
from ...geometry import DELTA, opposite_half
from ...orient import oriented
from ...rules import Turn
from ...state import SEG_BITS
from .common import BARN, CORNERS, FARMERS, MAYOR, WAGON, _CORNER_DELTA, left
from .tiles import ABBEY


def _touching(state, cell, o, k) -> set:
    """Feature ids of neighbour segments that segment k joins."""
    out = set()
    x, y = cell
    board = state.board
    if o.kinds[k] == "field":
        for h in o.ports[k]:
            dx, dy = DELTA[h // 2]
            nb = board.get((x + dx, y + dy))
            if nb is None:
                continue
            j = oriented(nb[0], nb[1]).half_seg[opposite_half(h)]
            if j >= 0:
                out.add(state.seg_feature[(nb[2] << SEG_BITS) + j])
    else:
        for d in o.ports[k]:
            dx, dy = DELTA[d]
            nb = board.get((x + dx, y + dy))
            if nb is None:
                continue
            j = oriented(nb[0], nb[1]).edge_seg[(d + 2) % 4]
            if j >= 0:
                out.add(state.seg_feature[(nb[2] << SEG_BITS) + j])
    return out


def _joined(state, cell, o, k) -> set:
    mine = _touching(state, cell, o, k)
    others = [_touching(state, cell, o, j) for j in range(o.nseg) if j != k and o.kinds[j] == o.kinds[k]]
    grown = bool(mine)
    while grown:
        grown = False
        for s in others:
            if s & mine and not s <= mine:
                mine |= s
                grown = True
    return mine


def _barn_corner(state, cell, o, corner):
    """The field segment index of the new tile at ``corner`` if a barn may go there, else None."""
    a, b = CORNERS[corner]
    k = o.half_seg[a]
    if k < 0 or o.half_seg[b] < 0 or not _corner_fields(state, cell, corner):
        return None
    return k


def _corner_fields(state, cell, corner) -> bool:
    """Whether the 3 other tiles at ``corner`` of ``cell`` are there, field at that corner."""
    x, y = cell
    dx, dy = _CORNER_DELTA[corner]
    for cx, cy in ((x + dx, y), (x, y + dy), (x + dx, y + dy)):
        t = state.board.get((cx, cy))
        if t is None:
            return False
        # the corner of that tile touching the shared vertex
        vert = "S" if (y + dy / 2) > cy else "N"
        horiz = "E" if (x + dx / 2) > cx else "W"
        ta, tb = CORNERS[vert + horiz]
        no = oriented(t[0], t[1])
        if no.half_seg[ta] < 0 or no.half_seg[tb] < 0:
            return False
    return True


def _field_has(state, fids, figures) -> bool:
    return any(fig in figures for fid in fids for _p, _s, fig in state.features[fid].meeples)


def _options(state, player: int, cell, o, mask: int):
    out = []
    if left(state, player, MAYOR) > 0:
        out += [(MAYOR, lab) for lab in o.free_labels(mask) if lab.startswith("city")]
    if left(state, player, WAGON) > 0:
        out += [(WAGON, lab) for lab in o.free_labels(mask) if not lab.startswith("field")]
    if left(state, player, BARN) > 0 and o.letter != ABBEY:
        for corner in CORNERS:
            if _barn_ok(state, cell, o, corner):
                out.append((BARN, f"corner {corner}"))
    return out


_FREE: dict = {}
#: corner, (dx, dy) of the diagonal cell, the edges (N E S W) of the two sides at the corner
_CORNER_SIDES = tuple((corner, dx, dy, 1 if dx > 0 else 3, 2 if dy > 0 else 0)
                      for corner, (dx, dy) in _CORNER_DELTA.items())


def provider(state, player: int):
    """``Rules.figure_providers``: the mayor, wagon and barn choices, prepared once."""
    mayor, wagon, barn = (left(state, player, f) > 0 for f in (MAYOR, WAGON, BARN))
    if not (mayor or wagon or barn):
        return None
    board = state.board

    def pure(o, mask):
        out = []
        if mayor or wagon:
            key = (o.letter, o.rot, mask)
            lists = _FREE.get(key)
            if lists is None:
                free = o.free_labels(mask)
                # tuples: kept for the process, they leave the garbage collector's lists
                lists = _FREE[key] = (tuple([(MAYOR, lab) for lab in free if lab.startswith("city")]),
                                      tuple([(WAGON, lab) for lab in free if not lab.startswith("field")]))
            if mayor:
                out += lists[0]
            if wagon:
                out += lists[1]
        return out

    last = [None, ()]                    # the rotations of one cell share its filled corners
    frontier = state.frontier

    def corners(cell) -> list:
        """The corners of ``cell`` where the 3 other tiles of a barn's 4 lie, field there
        (what of ``_barn_corner`` does not depend on the new tile)."""
        if cell != last[0]:
            x, y = cell
            c = frontier.get(cell)
            if c is not None:
                # a frontier cell's constraint says which sides have a tile ("." none): a
                # corner needs two of them
                found = []
                if c.count(".") < 3:
                    found = [corner for corner, dx, dy, side, end in _CORNER_SIDES
                             if c[side] != "." and c[end] != "." and (x + dx, y + dy) in board
                             and _corner_fields(state, cell, corner)]
            else:
                found = [corner for corner in _CORNER_DELTA if _corner_fields(state, cell, corner)]
            last[0], last[1] = cell, found
        return last[1]

    def barns(cell, o, mask, ports):
        if o.letter == ABBEY:
            return ()
        out = []
        # the fields a corner's segment joins meet the cell at its half-edge ports: with no
        # figure on any of those (mask bits 4-11 clear) none holds a barn or a farmer
        asked = mask >> 4
        for corner in corners(cell):
            a, b = CORNERS[corner]
            k = o.half_seg[a]              # ``_barn_ok``, the rest of ``_barn_corner`` known
            if k >= 0 and o.half_seg[b] >= 0 and (not asked or _barn_free(state, cell, o, k)):
                out.append((BARN, f"corner {corner}"))
        return out

    barns.cell_ok = corners              # ``moves.placement_moves``: none where it is empty
    if not (mayor or wagon):
        return barns                     # the choices of ``options`` below: the barn's alone

    def options(cell, o, mask, ports):
        out = pure(o, mask)
        if barn:
            out += barns(cell, o, mask, ports)
        return out
    # ``moves._pure_plan``: the mayor and wagon choices depend on the tile and mask alone
    options.pure_key = ("abbey_mayor", mayor, wagon)
    options.pure = pure
    options.rest = barns if barn else None
    return options


def _barn_ok(state, cell, o, corner) -> bool:
    k = _barn_corner(state, cell, o, corner)
    return k is not None and _barn_free(state, cell, o, k)


def _barn_free(state, cell, o, k) -> bool:
    """Whether the field that segment k of the new tile joins takes a barn (none there yet;
    with barn_placement = no_farmers, no farmer either)."""
    fids = _joined(state, cell, o, k)
    if _field_has(state, fids, (BARN,)):
        return False
    if state.options.get("barn_placement", "any") == "no_farmers" and _field_has(state, fids, FARMERS):
        return False
    return True


def _figure_validator(figure: str):
    def validate(state, player: int, cell, o, on: str) -> int:
        if left(state, player, figure) <= 0:
            raise IllegalMove(f"no_{figure}_left", _("your {figure} is not in your supply", figure=figure_name(figure)))
        if figure == BARN:
            corner = on[7:] if on.startswith("corner ") else ""
            if corner not in CORNERS or not _barn_ok(state, cell, o, corner):
                raise IllegalMove("bad_barn", _("a barn goes on a corner (NE SE SW NW) of the new tile "
                                                "where 4 tiles meet, all 4 corners field, in a field "
                                                "without a barn"))
            return _barn_corner(state, cell, o, corner)
        if (figure, on) not in _options(state, player, cell, o, _occupancy(state, cell)):
            raise IllegalMove("bad_segment", _("the mayor goes on an unoccupied city, not on {on}", on=segment(on))
                              if figure == MAYOR else
                              _("the wagon goes on an unoccupied road, city or cloister, not on {on}",
                                on=segment(on)))
        return o.labels.index(on)
    return validate


def _occupancy(state, cell):
    return occupancy_mask(state, cell)


def deploy(turn: Turn) -> None:
    """Steps 4 (mayor, wagon) and 5 (barn: the farmers already there score and go home)."""
    m = turn.move
    if not m or m.get("figure") not in (MAYOR, WAGON, BARN):
        return
    if m["figure"] != BARN:
        turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": m["figure"],
                   "x": m["x"], "y": m["y"], "on": m["on"]})

