"""Taking figures off the board outside scoring (the dragon eats them, the
princess sends a knight home, a tower captures one): which figures stand
where, and the builders and pigs left without their owner's follower.

Traders & Builders' builder and pig go home as soon as their owner has no
follower left in their feature (its rule; ``stranded``), so whatever removes a
follower also returns them in the same decision, before the turn goes on.
"""
from __future__ import annotations

from .features import label_of, occupied
from .state import SEG_BITS

#: figures that are not followers: they never stand alone in a feature
SPECIAL = ("builder", "pig")


def item(state, player: int, sid: int, figure: str) -> dict:
    x, y, label = label_of(state, sid)
    return {"player": player, "figure": figure, "x": x, "y": y, "on": label}


def protected(f) -> bool:
    """Whether nothing may take a figure off this feature before it scores: a castle's
    knight (Bridges, Castles & Bazaars) is neither eaten by the dragon nor captured by a
    tower (the rules notes' [HOUSE] reading, as JCloisterZone plays it)."""
    return bool(f.marks.get("castle"))


def figures_on(state, cells, keep=("barn",)) -> list:
    """Every figure standing on a segment of a tile at one of ``cells`` (not the
    figures in ``keep``, nor a castle's knight: ``protected``), sorted by cell,
    segment, seat, figure."""
    cells = set(cells)
    out = []
    for _fid, f in occupied(state):
        if protected(f):
            continue
        for player, sid, figure in f.meeples:
            if figure in keep:
                continue
            if state.placed[sid >> SEG_BITS] in cells:
                out.append(item(state, player, sid, figure))
    out.sort(key=lambda i: (i["y"], i["x"], i["on"], i["player"], i["figure"]))
    return out


def stranded(state) -> list:
    """Builders and pigs whose owner has no follower left in their feature."""
    out = []
    for _fid, f in occupied(state):
        for player, sid, figure in f.meeples:
            if figure in SPECIAL and not any(p == player and fig not in SPECIAL for p, _s, fig in f.meeples):
                out.append(item(state, player, sid, figure))
    out.sort(key=lambda b: (b["player"], b["figure"], b["y"], b["x"], b["on"]))
    return out


def return_stranded(turn) -> None:
    back = stranded(turn.state)
    if back:
        turn.emit({"type": "FollowersReturned", "followers": back})
