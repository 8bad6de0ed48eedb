"""Carcassonne: each seat's score plus what its followers on unfinished
roads, cities, cloisters and fields would score if the game ended now (the
final scoring's own points and majorities), plus a point per follower still
in supply (a follower on the board is worth what it will bring, one in
hand what it may bring later)."""
from __future__ import annotations

from pbem.games.carcassonne.features import is_complete
from pbem.games.carcassonne.scoring import bordering_cities, majority

SCALE = 8.0
SUPPLY_WEIGHT = 1.0


def _majority(state, f, strength: dict) -> list:
    """``scoring.majority`` where no figure's strength is computed (the base
    game): the same seats, without its lookups (it runs for every feature
    of every state search evaluates)."""
    total: dict = {}
    for player, _sid, figure in f.meeples:
        total[player] = total.get(player, 0) + strength.get(figure, 1)
    best = max(total.values())
    if best <= 0:
        return []
    return sorted(p for p, v in total.items() if v == best)


def values(rules, state) -> list[float]:
    out = [float(s) for s in state.scores]
    points = state.rules.points
    strength = state.rules.strength
    plain = not getattr(state.rules, "strength_of", None)
    for f in state.features.values():
        if not f.meeples:
            continue
        if f.kind == "field":
            value = 3 * len(bordering_cities(state, f))
        elif f.kind in points and not is_complete(state, f):
            value = points[f.kind](state, f, False)
        else:
            continue
        for p in (_majority(state, f, strength) if plain else majority(state, f)):
            if 0 <= p < len(out):
                out[p] += value
    for p, n in enumerate(state.supply):
        out[p] += SUPPLY_WEIGHT * n
    return out
