"""Cartoona: each seat's score, plus half of what each of its unfinished
creatures would score as it stands (the game's own creature points: a
creature built up is points to come), plus a tenth of a point per tile in
hand. Seats of a team play for the team (``sides``). In the kids' game,
where only reaching the target counts, the score is replaced by the tiles
of the seat's creatures (progress towards any target)."""
from __future__ import annotations

from pbem.games.cartoona import creatures as cr
from pbem.games.cartoona.rules import creature_points

SCALE = 6.0
#: standing orders for reactions change nothing on the table: a bot answers each window itself
IGNORED = {"set_order"}
UNFINISHED_WEIGHT = 0.5
HAND_WEIGHT = 0.1


def sides(rules, state) -> list[int]:
    return list(state["team"])


def values(rules, state) -> list[float]:
    n = state["n"]
    out = [float(s) for s in state["scores"]] if state["mode"] != "kids" else [0.0] * n
    for c in state["cre"].values():
        owner = c.get("owner")
        if owner is None or not 0 <= owner < n:
            continue
        if state["mode"] == "kids":
            out[owner] += len(c["tiles"])
        elif not cr.is_complete(c["tiles"]):
            try:
                out[owner] += UNFINISHED_WEIGHT * creature_points(state, c)["total"]
            except (KeyError, ValueError):
                pass  # a creature the scoring does not read unfinished: no estimate
    for p, hand in enumerate(state["hands"]):
        out[p] += HAND_WEIGHT * len(hand)
    return out
