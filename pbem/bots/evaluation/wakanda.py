"""Wakanda: what each seat scores now (its villages applied to its poles),
plus, per headdress it still holds, half the best gain one more claim of an
open village would bring (a claim to come is worth something, and a pole
built up for oneself is worth claiming: this is what makes a build good)."""
from __future__ import annotations

from pbem.games import wakanda as W

SCALE = 6.0
CLAIM_WEIGHT = 0.5


def values(rules, state) -> list[float]:
    row, owner, poles = state["row"], state["owner"], state["poles"]
    out = []
    for seat in (0, 1):
        mine = [v for v in range(W.ROW) if owner[v] == seat]
        villages = [row[v] for v in mine]
        my_poles = [poles[v] for v in mine]
        now = W.score_breakdown(villages, my_poles)["total"]
        best = 0
        if state["headdresses"][seat] > 0:
            for v in range(min(state["opened"], W.ROW)):
                if owner[v] is None and row[v] is not None and (poles[v] or state["options"]["allow_empty_claim"]):
                    gain = W.score_breakdown(villages + [row[v]], my_poles + [poles[v]])["total"] - now
                    best = max(best, gain)
        out.append(now + CLAIM_WEIGHT * state["headdresses"][seat] * best / max(1, state["headdresses"][seat]))
    return out
