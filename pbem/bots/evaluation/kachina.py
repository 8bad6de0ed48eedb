"""Kachina: the score, plus a tenth of a point per tile in hand (a tile in
hand is a move still to make; a seat that runs out of tiles must pass or
discard while the others score on)."""
from __future__ import annotations

SCALE = 8.0
HAND_WEIGHT = 0.1


def values(rules, state) -> list[float]:
    return [s + HAND_WEIGHT * len(h) for s, h in zip(state.scores, state.hands)]
