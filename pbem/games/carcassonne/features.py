"""Incremental feature tracking: placing a tile joins its segments to the
neighbours' features (merge the smaller into the larger, relabel its
segments), counting open road/city edges so completion is ``open == 0``.

``place_tile_into`` works on containers the caller has already copied; it is
the one place tiles are joined, used by ``evolve`` and by ``load``.
"""
from __future__ import annotations

from bisect import bisect_left

from .geometry import DELTA, RING, opposite_half
from .orient import _ORIENTED, oriented
from .state import SEG_BITS, Feature, State

_EMPTY = frozenset()
_OPPOSITE_HALF = tuple(opposite_half(h) for h in range(8))
_NO_MARKS: dict = {}


class Frontier(dict):
    """A state's frontier (empty cell -> edge constraint) with, once asked for, its cells in
    (y, x) order (``frontier_order``). A copy made to change (``child``) notes what
    ``place_tile_into`` changes and rebuilds the order from its parent's when asked, so
    the frontier is not sorted whole again, and the states nobody asks about (a turn's
    working states, a replay) pay only the notes."""

    order = None                    # [(y, x, cell, constraint)] sorted, or None until asked
    _base = None                    # the parent's order, while ``order`` is None
    _changes = None                 # (cell, constraint after or None: left the frontier)
    fitting = None                  # (letter, ``moves.fitting_cells`` of it), the last asked
    #: cell -> ``port_sids`` of it, filled as asked (``cell_ports``); a child takes its
    #: parent's and ``place_tile_into`` drops the cells whose neighbours it changes
    ports = None

    def child(self) -> "Frontier":
        """A copy to change (with ``place_tile_into``)."""
        new = Frontier(self)
        new.inherit(self)
        return new

    def inherit(self, parent) -> None:
        """Take what ``parent`` (a frontier this one is a fresh copy of) knows."""
        order = getattr(parent, "order", None)
        if order is not None:
            self._base = order
            self._changes = []
        self.ports = getattr(parent, "ports", None)

    def __reduce__(self):
        return (Frontier, (dict(self),))


def frontier_order(frontier: dict) -> list:
    """(y, x, cell, constraint) of every frontier cell, sorted (kept on a Frontier)."""
    order = getattr(frontier, "order", None)
    if order is None:
        if getattr(frontier, "_base", None) is not None:
            order = _reorder(frontier._base, frontier._changes)
        else:
            order = sorted([(cell[1], cell[0], cell, c) for cell, c in frontier.items()])
        if isinstance(frontier, Frontier):
            frontier.order = order
            frontier._base = frontier._changes = None
    return order


def _reorder(order: list, changes: list) -> list:
    """The order after ``changes``: (cell, constraint after or None)."""
    new = list(order)
    for cell, c in changes:
        x, y = cell
        i = bisect_left(new, (y, x))           # (y, x) sorts just before its own entry
        here = i < len(new) and new[i][2] == cell
        if c is None:
            if here:
                del new[i]
        elif here:
            new[i] = (y, x, cell, c)
        else:
            new.insert(i, (y, x, cell, c))
    return new


def constraint_at(board: dict, cell: tuple) -> str:
    """The edge types an empty cell's neighbours impose, N E S W ("." = none)."""
    x, y = cell
    n, e, s, w = board.get((x, y - 1)), board.get((x + 1, y)), board.get((x, y + 1)), board.get((x - 1, y))
    return ((_ORIENTED[n[0]][n[1]].edges[2] if n else ".") + (_ORIENTED[e[0]][e[1]].edges[3] if e else ".")
            + (_ORIENTED[s[0]][s[1]].edges[0] if s else ".") + (_ORIENTED[w[0]][w[1]].edges[1] if w else "."))


def _merge(seg_feature: dict, features: dict, a: int, b: int, closes: int) -> None:
    fa = seg_feature[a]
    fb = seg_feature[b]
    A = features[fa]
    if fa == fb:
        if closes:
            features[fa] = Feature(A.kind, A.segs, A.tiles, A.open - closes, A.marks, A.meeples, A.cities)
        return
    B = features[fb]
    if len(A.segs) < len(B.segs):
        A, B, fa, fb = B, A, fb, fa
    if B.marks:
        if A.marks:
            marks = dict(A.marks)
            for k, v in B.marks.items():
                marks[k] = marks.get(k, 0) + v
        else:
            marks = B.marks
    else:
        marks = A.marks
    features[fa] = Feature(
        A.kind, A.segs + B.segs, A.tiles | B.tiles if B.tiles else A.tiles,
        A.open + B.open - closes, marks,
        A.meeples + B.meeples if B.meeples else A.meeples,
        A.cities | B.cities if B.cities else A.cities)
    for s in B.segs:
        seg_feature[s] = fa
    del features[fb]


def place_tile_into(board: dict, seg_feature: dict, features: dict, frontier: dict,
                    n: int, cell: tuple, letter: str, rot: int) -> None:
    """Put tile ``letter`` (``rot`` quarter turns) as placement ``n`` at
    ``cell`` and join it to its neighbours. Mutates the given containers."""
    o = oriented(letter, rot)
    tile = o.tile
    base = n << SEG_BITS
    x, y = cell
    board[cell] = (letter, rot, n)
    changes = None
    if isinstance(frontier, Frontier):
        if frontier.order is not None:           # changed after its order was asked for
            frontier._base, frontier._changes, frontier.order = frontier.order, [], None
        frontier.fitting = None
        changes = frontier._changes
        if frontier.ports is not None:
            # the parent's (shared): a copy without the cells next to the new tile
            ports = frontier.ports.copy()
            ports.pop(cell, None)
            for dx, dy in DELTA:
                ports.pop((x + dx, y + dy), None)
            frontier.ports = ports
    frontier.pop(cell, None)
    if changes is not None:
        changes.append((cell, None))
    nbrs = [board.get((x + dx, y + dy)) for dx, dy in DELTA]
    here = frozenset((cell,))
    for k in range(o.nseg):
        kind = o.kinds[k]
        seg = tile.segments[k]
        marks = dict(seg.marks) if seg.marks else _NO_MARKS
        sid = base + k
        if kind == "field":
            cities = frozenset([base + c for c in seg.adj]) if seg.adj else _EMPTY
            f = Feature(kind, (sid,), _EMPTY, 0, marks, (), cities)
        else:
            opn = 0
            for d in o.ports[k]:
                if nbrs[d] is None:
                    opn += 1
            if marks is not _NO_MARKS and "tunnel" in marks:
                opn += 1             # a tunnel mouth is an open end until a pair of tokens joins it
            f = Feature(kind, (sid,), here, opn, marks, (), _EMPTY)
        features[sid] = f
        seg_feature[sid] = sid
    edge_seg = o.edge_seg
    half_seg = o.half_seg
    for d in range(4):
        nb = nbrs[d]
        if nb is None:
            ncell = (x + DELTA[d][0], y + DELTA[d][1])
            c = constraint_at(board, ncell)
            if changes is not None:
                changes.append((ncell, c))
            frontier[ncell] = c
            continue
        no = oriented(nb[0], nb[1])
        nbase = nb[2] << SEG_BITS
        k = edge_seg[d]
        if k >= 0:
            _merge(seg_feature, features, base + k, nbase + no.edge_seg[(d + 2) % 4], 1)
        elif o.edges[d] == "*":
            # a wildcard edge (the Abbey & Mayor abbey) closes the neighbour's road or city
            nk = no.edge_seg[(d + 2) % 4]
            if nk >= 0:
                _merge(seg_feature, features, nbase + nk, nbase + nk, 1)
        for h in (2 * d, 2 * d + 1):
            k = half_seg[h]
            if k >= 0:
                _merge(seg_feature, features, base + k, nbase + no.half_seg[_OPPOSITE_HALF[h]], 0)


# -- queries -----------------------------------------------------------------

#: (features dict, its length, ``occupied`` of it) for the last features dict asked about
_OCCUPIED: tuple = (None, 0, [])


def occupied(state: State) -> list:
    """(feature id, feature) of each feature holding a figure, in ``state.features``'
    order: what a scan for figures reads. Kept with the state (``State.occupied_memo``,
    which the base evolvers fill from their parent's, see ``occupied_after``) and for the
    last features dict asked about; a state's features are never changed once it is made."""
    global _OCCUPIED
    out = known_occupied(state)
    if out is None:
        features = state.features
        out = [(fid, f) for fid, f in features.items() if f.meeples]
        _OCCUPIED = (features, len(features), out)
    state.occupied_memo = (state.features, len(state.features), out)
    return out


def known_occupied(state: State) -> list | None:
    """``occupied(state)`` if it is known already (no scan), else None."""
    features = state.features
    memo = state.occupied_memo
    if memo is not None and memo[0] is features and memo[1] == len(features):
        return memo[2]
    last = _OCCUPIED
    if last[0] is features and last[1] == len(features):
        return last[2]
    return None


def occupied_after(new: State, before: list, changed=()) -> None:
    """Note ``occupied(new)`` on ``new`` from its parent's (``before``) where that needs no
    scan: ``new``'s features are the parent's with merges, new features without figures
    and the figures of the features ``changed`` (ids) changed. When no feature holding a
    figure was touched, the list is the parent's; when only those features' figures
    changed, their entries are replaced or dropped in place (a dict keeps a key's place
    when its value is replaced). A merge of such a feature, or a feature holding its
    first figure, leaves it to ``occupied``'s scan: the place of a key in the features'
    order is not known without one (a bridge on a placed tile adds a feature id out of
    the ids' order)."""
    features = new.features
    get = features.get
    for fid, f in before:
        if get(fid) is not f and fid not in changed:
            return                         # merged: left to the scan
    if changed:
        out = []
        for fid, f in before:
            if fid in changed:
                f = get(fid)
                if not f.meeples:
                    continue               # its last figure left
            out.append((fid, f))
        for fid in changed:
            f = get(fid)
            if f.meeples and (fid, f) not in out:
                return                     # its first figure: left to the scan
        before = out
    new.occupied_memo = (features, len(features), before)


def neighbours_filled(board: dict, cell: tuple) -> int:
    x, y = cell
    return sum(1 for dx, dy in RING if (x + dx, y + dy) in board)


def is_complete(state: State, f: Feature) -> bool:
    if f.kind == "cloister":
        return neighbours_filled(state.board, next(iter(f.tiles))) == 8
    if f.kind == "field":
        return False
    return f.open == 0


def sid_at(state: State, cell: tuple, label: str) -> int | None:
    """The segment id named ``label`` on the tile at ``cell`` (None if none)."""
    t = state.board.get(cell)
    if t is None:
        return None
    k = oriented(t[0], t[1]).label_index.get(label)
    return None if k is None else (t[2] << SEG_BITS) + k


def label_of(state: State, sid: int) -> tuple:
    """(x, y, label) of a segment id."""
    cell = state.placed[sid >> SEG_BITS]
    t = state.board[cell]
    return cell[0], cell[1], oriented(t[0], t[1]).labels[sid & ((1 << SEG_BITS) - 1)]


#: per direction d: (dx, dy, the neighbour's edge, (bit, the neighbour's half) x 2)
_PORTS = tuple((DELTA[d][0], DELTA[d][1], (d + 2) % 4,
                ((1 << (4 + 2 * d), opposite_half(2 * d)), (1 << (5 + 2 * d), opposite_half(2 * d + 1))))
               for d in range(4))


_PORT_SIDS: dict = {}


def _port_sids(nbrs: tuple) -> tuple:
    """(bit, neighbour segment id) of the ports an empty cell's 4 neighbours (board
    entries, None for none) meet: it depends on those tiles only, so it is kept."""
    out = _PORT_SIDS.get(nbrs)
    if out is None:
        sids = []
        for d, (_dx, _dy, back, halves) in enumerate(_PORTS):
            nb = nbrs[d]
            if nb is None:
                continue
            no = oriented(nb[0], nb[1])
            nbase = nb[2] << SEG_BITS
            k = no.edge_seg[back]
            if k >= 0:
                sids.append((1 << d, nbase + k))
            for bit, h in halves:
                k = no.half_seg[h]
                if k >= 0:
                    sids.append((bit, nbase + k))
        out = tuple(sids)
        if len(_PORT_SIDS) > 200000:     # a long-lived process: start again
            _PORT_SIDS.clear()
        _PORT_SIDS[nbrs] = out
    return out


def cell_ports(state: State) -> dict:
    """cell -> ``port_sids`` of it for the state's frontier cells, filled as asked: kept on
    the state's ``Frontier`` (its board is the state's) and passed on to its children."""
    frontier = state.frontier
    if isinstance(frontier, Frontier):
        if frontier.ports is None:
            frontier.ports = {}
        return frontier.ports
    return {}


def port_sids(state: State, cell: tuple) -> tuple:
    """(bit, neighbour segment id) of each port of an empty cell (kept by neighbours)."""
    board = state.board
    x, y = cell
    return _port_sids((board.get((x, y - 1)), board.get((x + 1, y)), board.get((x, y + 1)), board.get((x - 1, y))))


def sid_mask(state: State, sids) -> int:
    """The occupancy mask of ports from ``port_sids``."""
    features = state.features
    seg_feature = state.seg_feature
    mask = 0
    for bit, sid in sids:
        if features[seg_feature[sid]].meeples:
            mask |= bit
    return mask


def port_features(state: State, cell: tuple) -> list:
    """(bit, feature id) of each port of an empty cell that a neighbour's road, city or
    field meets (edge d = bit d, half h = bit 4 + h): what the occupancy mask and the
    expansions' figure choices are computed from."""
    board = state.board
    seg_feature = state.seg_feature
    x, y = cell
    nbrs = (board.get((x, y - 1)), board.get((x + 1, y)), board.get((x, y + 1)), board.get((x - 1, y)))
    return [(bit, seg_feature[sid]) for bit, sid in _port_sids(nbrs)]


def mask_of(state: State, ports) -> int:
    """The occupancy mask of ports from ``port_features``."""
    features = state.features
    mask = 0
    for bit, fid in ports:
        if features[fid].meeples:
            mask |= bit
    return mask


def occupancy_mask(state: State, cell: tuple) -> int:
    """Bits of the ports of an empty cell whose neighbouring feature already
    holds a follower (edge d = bit d, half h = bit 4 + h)."""
    board = state.board
    seg_feature = state.seg_feature
    features = state.features
    x, y = cell
    mask = 0
    for d in range(4):
        dx, dy = DELTA[d]
        nb = board.get((x + dx, y + dy))
        if nb is None:
            continue
        no = oriented(nb[0], nb[1])
        nbase = nb[2] << SEG_BITS
        k = no.edge_seg[(d + 2) % 4]
        if k >= 0 and features[seg_feature[nbase + k]].meeples:
            mask |= 1 << d
        for h in (2 * d, 2 * d + 1):
            k = no.half_seg[opposite_half(h)]
            if k >= 0 and features[seg_feature[nbase + k]].meeples:
                mask |= 1 << (4 + h)
    return mask
