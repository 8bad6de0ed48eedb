"""Abbey & Mayor: the wagon's move after its feature is scored (step 8.2)."""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...evolve import EVOLVERS
from ...features import is_complete, label_of, sid_at
from ...orient import oriented
from ...rules import Turn
from ...scoring import completed_by_last_tile
from ...state import SEG_BITS
from .common import WAGON, _int, _mine, _set
from .tiles import ABBEY, EXPANSION, MEETS
from ...geometry import DELTA


def _eligible(state, f) -> bool:
    return f.kind in ("road", "city", "cloister") and not f.meeples and not is_complete(state, f)


def _segs_on(state, cell):
    t = state.board.get(cell)
    if t is None:
        return []
    o = oriented(t[0], t[1])
    return [(o, k, (t[2] << SEG_BITS) + k) for k in range(o.nseg)]


def _meets(state, cell, o, k) -> list:
    """Segment indices on the tile that the dead-end road k meets (along_road)."""
    special = MEETS.get(o.letter)
    if special is not None:
        unrot = (o.ports[k][0] - o.rot) % 4
        edge = special.get(unrot)
        if edge is None:
            return []
        return [o.edge_seg[(edge + o.rot) % 4]]
    if o.cloister >= 0:
        return [o.cloister]
    ends = [j for j in range(o.nseg) if j != k and o.kinds[j] == "road" and len(o.ports[j]) == 1]
    if ends:
        return ends
    return [j for j in range(o.nseg) if o.kinds[j] == "city"]


_ORTHOGONAL = ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0))
_NEARBY = ((0, 0), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def _abbey_ends(state, f, fid: int, found: dict) -> None:
    """along_road: a road or city closed by an abbey ends at the abbey's cloister, so the
    wagon moves between them (either way round)."""
    if f.kind == "cloister":
        cell = state.cell_of(f.segs[0])
        if state.board[cell][0] != ABBEY:
            return
        for d, (dx, dy) in enumerate(DELTA):
            t = state.board.get((cell[0] + dx, cell[1] + dy))
            if t is None:
                continue
            k = oriented(t[0], t[1]).edge_seg[(d + 2) % 4]
            if k >= 0:
                sid = (t[2] << SEG_BITS) + k
                g = state.seg_feature[sid]
                if g != fid and _eligible(state, state.features[g]):
                    found.setdefault(g, sid)
        return
    for sid in sorted(f.segs):
        cell = state.cell_of(sid)
        t = state.board[cell]
        o = oriented(t[0], t[1])
        for d in o.ports[sid & ((1 << SEG_BITS) - 1)]:
            a = state.board.get((cell[0] + DELTA[d][0], cell[1] + DELTA[d][1]))
            if a is not None and a[0] == ABBEY:
                asid = a[2] << SEG_BITS                  # the abbey's one segment: its cloister
                g = state.seg_feature[asid]
                if _eligible(state, state.features[g]):
                    found.setdefault(g, asid)


def wagon_targets(state, wsid: int, fid: int) -> list:
    """Feature-representative segment ids the wagon at ``wsid`` (on scored feature ``fid``) may move to."""
    f = state.features[fid]
    found: dict = {}
    mode = state.options.get("wagon_move", "along_road")
    if mode in ("adjacent_tiles", "nearby_tiles"):
        x, y = state.cell_of(wsid)
        # adjacent_tiles: the tile and its 4 orthogonal neighbours (the reading of the first
        # version, kept for its games); nearby_tiles: and the 4 diagonal ones too (published C2)
        around = _ORTHOGONAL if mode == "adjacent_tiles" else _NEARBY
        for cx, cy in ((x + dx, y + dy) for dx, dy in around):
            for o, k, sid in _segs_on(state, (cx, cy)):
                g = state.seg_feature[sid]
                if g != fid and _eligible(state, state.features[g]):
                    found.setdefault(g, sid)
    else:
        for cell in sorted(f.tiles if f.kind != "cloister" else {state.cell_of(f.segs[0])}):
            for o, k, sid in _segs_on(state, cell):
                mine = state.seg_feature[sid] == fid
                if o.kinds[k] == "road" and len(o.ports[k]) == 1:
                    # a dead-end road: it meets segments on this tile
                    for j in _meets(state, cell, o, k):
                        other = sid - k + j
                        g = state.seg_feature[other]
                        if mine and g != fid and _eligible(state, state.features[g]):
                            found.setdefault(g, other)
                        if state.seg_feature[other] == fid and not mine:
                            g = state.seg_feature[sid]
                            if _eligible(state, state.features[g]):
                                found.setdefault(g, sid)
        _abbey_ends(state, f, fid, found)
    out = []
    for g, sid in found.items():
        x, y, label = label_of(state, sid)
        out.append({"type": WAGON, "x": x, "y": y, "on": label})
    out.sort(key=lambda m: (m["y"], m["x"], m["on"]))
    return out


def _waiting_wagons(turn: Turn) -> list:
    st = turn.state
    n = st.players
    out = []
    for fid in turn.completed:
        f = st.features.get(fid)
        if f is None:
            continue
        for p, sid, fig in f.meeples:
            if fig == WAGON:
                out.append(((p - st.active) % n, sid, p, fid))
    out.sort()
    return out


def wagons(turn: Turn) -> None:
    """Step 8.2 (after the rest of step 8): wagons on scored features move or go home."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == WAGON:
        turn.player = st.active
        turn.completed = [fid for fid, _i in completed_by_last_tile(st)]
        turn.data = dict(_mine(st).get("turn_data") or {})
        who = st.ext[EXPANSION]["wagon_at"]
        if m.get("home"):
            turn.emit({"type": "WagonReturned", "player": who[0],
                       "followers": [{"player": who[0], "figure": WAGON, "x": who[1], "y": who[2],
                                      "on": who[3]}]})
        else:
            turn.emit({"type": "WagonMoved", "player": who[0], "from": who[1:],
                       "x": m["x"], "y": m["y"], "on": m["on"]})
    if not turn.completed:
        return
    while True:
        st = turn.state
        waiting = _waiting_wagons(turn)
        if not waiting:
            return
        _, sid, p, fid = waiting[0]
        x, y, label = label_of(st, sid)
        if wagon_targets(st, sid, fid):
            turn.emit({"type": "WagonOffered", "player": p, "at": [p, x, y, label],
                       "turn_data": dict(turn.data)})
            return
        turn.emit({"type": "WagonReturned", "player": p,
                   "followers": [{"player": p, "figure": WAGON, "x": x, "y": y, "on": label}]})


def legal_wagon(state, player: int) -> list:
    if state.over or state.pending.get(player) != WAGON:
        return []
    p, x, y, label = _mine(state)["wagon_at"]
    sid = sid_at(state, (x, y), label)
    return [{"type": WAGON, "home": True}, *wagon_targets(state, sid, state.seg_feature[sid])]


def validate_wagon(state, player: int, move: dict) -> dict:
    if "home" in move:
        if set(move) != {"type", "home"} or move["home"] is not True:
            raise IllegalMove("malformed_move", _('taking the wagon home is {"type": "wagon", "home": '
                                                  'true}'))
        return {"type": WAGON, "home": True}
    if set(move) != {"type", "x", "y", "on"}:
        raise IllegalMove("malformed_move", _("a wagon move names x, y and on (e.g. wagon 1,0 road E)"))
    x, y, on = move["x"], move["y"], move["on"]
    if not (_int(x) and _int(y)) or not isinstance(on, str):
        raise IllegalMove("bad_position", _("x and y must be integers and on a segment, e.g. wagon 1,0 "
                                            "road E"))
    sid = sid_at(state, (x, y), on)
    if sid is None:
        raise IllegalMove("bad_segment", _("there is no segment “{on}” at {x},{y}", on=on, x=x, y=y))
    x, y, label = label_of(state, sid)
    clean = {"type": WAGON, "x": x, "y": y, "on": label}
    targets = legal_wagon(state, player)[1:]
    want = state.seg_feature[sid]
    for t in targets:
        if state.seg_feature[sid_at(state, (t["x"], t["y"]), t["on"])] == want:
            return clean
    raise IllegalMove("bad_wagon_target", _("the wagon may go only to an incomplete, unoccupied road, "
                                            "city or cloister next to its scored feature: {list}", list=', '.join((describe_wagon(t) for t in targets))))


def _wagon_offered(state, event):
    new = state.copy()
    new.pending = {event["player"]: WAGON}
    new.step = "end_turn"
    return _set(new, wagon_at=list(event["at"]), turn_data=event.get("turn_data") or {})


def _clear(state):
    new = state.copy()
    new.pending = {}
    mine = {k: v for k, v in _mine(state).items() if k not in ("wagon_at", "turn_data")}
    new.ext = {**state.ext, EXPANSION: mine}
    return new


def _wagon_returned(state, event):
    return EVOLVERS["FollowersReturned"](_clear(state), event)


def _wagon_moved(state, event):
    new = _clear(state)
    p = event["player"]
    fx, fy, flabel = event["from"]
    old = sid_at(state, (fx, fy), flabel)
    sid = sid_at(state, (event["x"], event["y"]), event["on"])
    features = new.features.copy()
    f = features[state.seg_feature[old]]
    meeples = list(f.meeples)
    meeples.remove((p, old, WAGON))
    features[state.seg_feature[old]] = f.with_meeples(tuple(meeples))
    g = features[state.seg_feature[sid]]
    features[state.seg_feature[sid]] = g.with_meeples(g.meeples + ((p, sid, WAGON),))
    new.features = features
    return new



def describe_wagon(move: dict) -> str:
    if move.get("home"):
        return "wagon home"
    return f"wagon {move.get('x')},{move.get('y')} {move.get('on')}"
