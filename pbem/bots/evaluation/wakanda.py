"""Wakanda: what each seat scores now (its villages applied to its poles),
plus what its headdresses still held may bring: for each, one of the best
gains a claim of an open village would bring now (the best ones, one village
each), never counted below ``RESERVE`` (a pole grows: a headdress kept is
worth about that much later), all weighted ``CLAIM_WEIGHT``. So a claim is
made when it brings clearly more than a headdress kept, and a build is good
as it raises the seat's own claims more than its rival's."""
from __future__ import annotations

from pbem.games import wakanda as W

SCALE = 6.0
CLAIM_WEIGHT = 0.9
RESERVE = 5.0


def values(rules, state) -> list[float]:
    row, owner, poles = state["row"], state["owner"], state["poles"]
    out = []
    for seat in (0, 1):
        mine = [v for v in range(W.ROW) if owner[v] == seat]
        villages = [row[v] for v in mine]
        my_poles = [poles[v] for v in mine]
        now = W.score_breakdown(villages, my_poles)["total"]
        left = state["headdresses"][seat]
        gains = []
        if left > 0:
            for v in range(min(state["opened"], W.ROW)):
                if owner[v] is None and row[v] is not None and (poles[v] or state["options"]["allow_empty_claim"]):
                    gains.append(W.score_breakdown(villages + [row[v]], my_poles + [poles[v]])["total"] - now)
        gains.sort(reverse=True)
        gains += [0.0] * left
        out.append(now + CLAIM_WEIGHT * sum(max(g, RESERVE) for g in gains[:left]))
    return out
