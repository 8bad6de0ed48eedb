"""Abbey & Mayor: the barn's placement and scoring (steps 5, 8.1 and the end)."""
from __future__ import annotations

from ...features import label_of
from ...orient import oriented
from ...rules import Turn
from ...scoring import bordering_cities
from ...state import SEG_BITS
from .common import BARN, CORNERS, FARMERS


def deploy_barn(turn: Turn) -> None:
    m = turn.move
    if not m or m.get("figure") != BARN:
        return
    st = turn.state
    corner = m["on"].split()[-1]
    t = st.board[(m["x"], m["y"])]
    o = oriented(t[0], t[1])
    k = o.half_seg[CORNERS[corner][0]]
    turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": BARN,
               "x": m["x"], "y": m["y"], "on": o.labels[k], "corner": corner})
    st = turn.state
    fid = st.seg_feature[(t[2] << SEG_BITS) + k]
    _score_farmers(turn, fid, connected=False)


def _score_farmers(turn: Turn, fid: int, connected: bool) -> None:
    """The farmers of a barn field score (placement: the full farmer values;
    a later connection: 1 per city, 2 with pig) and go home with their pigs."""
    st = turn.state
    f = st.features[fid]
    farmers = [(p, s, fig) for p, s, fig in f.meeples if fig in FARMERS]
    if not farmers:
        return
    strength = st.rules.strength
    total: dict = {}
    for p, _s, fig in farmers:
        total[p] = total.get(p, 0) + strength.get(fig, 1)
    best = max(total.values())
    winners = sorted(p for p, v in total.items() if v == best)
    done = bordering_cities(st, f)
    rules = st.rules
    x, y, label = label_of(st, min(f.segs))
    for p in winners:
        has_pig = any(q == p and fig == "pig" for q, _s, fig in f.meeples)
        if connected:
            points = (2 if has_pig else 1) * len(done)
        else:
            points = sum(rules.field_city_points(st, c) + (rules.pig_city_points(st, c) if has_pig else 0)
                         for c in done)
        turn.emit({"type": "BarnFarmersScored", "x": x, "y": y, "on": label, "cities": len(done),
                   "points": points, "winners": [p], "pig": has_pig, "connected": connected,
                   "category": "field"})
    back = []
    for p, s, fig in f.meeples:
        if fig in FARMERS or fig == "pig":
            bx, by, blabel = label_of(st, s)
            back.append({"player": p, "figure": fig, "x": bx, "y": by, "on": blabel})
    turn.emit({"type": "FollowersReturned", "followers": back})


def barn_connections(turn: Turn) -> None:
    """Step 8.1: farmers the new tile joined to a barn field score 1 per city (2 with pig)."""
    st = turn.state
    cell = st.placed[-1]
    t = st.board[cell]
    o = oriented(t[0], t[1])
    seen = set()
    for k in range(o.nseg):
        if o.kinds[k] != "field":
            continue
        fid = st.seg_feature[(t[2] << SEG_BITS) + k]
        if fid in seen:
            continue
        seen.add(fid)
        f = turn.state.features[fid]
        figs = {fig for _p, _s, fig in f.meeples}
        if BARN in figs and figs & set(FARMERS):
            _score_farmers(turn, fid, connected=True)


def barn_final(turn: Turn) -> None:
    """Final scoring: each barn field's barn majority scores per completed city."""
    st = turn.state
    rules = st.rules
    for sid, fid in sorted((min(f.segs), fid) for fid, f in st.features.items()
                           if f.kind == "field" and any(fig == BARN for _p, _s, fig in f.meeples)):
        f = st.features[fid]
        count: dict = {}
        for p, _s, fig in f.meeples:
            if fig == BARN:
                count[p] = count.get(p, 0) + 1
        best = max(count.values())
        winners = sorted(p for p, v in count.items() if v == best)
        done = bordering_cities(st, f)
        x, y, label = label_of(st, sid)
        turn.emit({"type": "BarnScored", "x": x, "y": y, "on": label, "cities": len(done),
                   "points": sum(rules.field_city_points(st, c) + rules.pig_city_points(st, c) for c in done),
                   "winners": winners, "category": "barn"})

