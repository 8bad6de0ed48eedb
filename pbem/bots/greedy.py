"""``greedy``: the legal move with the best immediate evaluation.

Each move is played on a state sampled from the view (several samples where
information is hidden, the values averaged) and the result evaluated
(``evaluation.margin``: the seat's estimated points less its best rival's).
A turn of several decisions by the same seat (Carcassonne's tile, then its
follower) is looked through: a move's value is that of the seat's best
continuation while it alone is still to act (up to ``TURN_DEPTH`` steps).
Ties go to a seeded random pick.
"""
from __future__ import annotations

import random

from . import evaluation
from .thinking import Position, move_key, play

#: States sampled where information is hidden (or a replayed state holds another seat's
#: secret: ``Position.redeal``).
SAMPLES = 4
#: Steps of one seat's own turn looked through.
TURN_DEPTH = 2


def _value(pos: Position, state, depth: int, chance: random.Random) -> float:
    rules = pos.rules
    if depth > 0 and rules.result(state) is None and rules.to_act(state) == frozenset((pos.seat,)):
        best = None
        for move in evaluation.considered(rules, rules.legal_moves(state, pos.seat)):
            v = _value(pos, play(rules, state, pos.seat, move, chance), depth - 1, chance)
            best = v if best is None or v > best else best
        if best is not None:
            return best
    return evaluation.margin(rules, state, pos.seat, pos.players)


def choose(pos: Position, legal: list[dict], rng: random.Random) -> dict:
    samples = SAMPLES if pos.hidden or pos.redeal else 1
    totals = [0.0] * len(legal)
    for i in range(samples):
        state = pos.sample(rng)
        for j, move in enumerate(legal):
            chance = random.Random(f"{i}:{move_key(move)}:{rng.random()}")
            after = play(pos.rules, state, pos.seat, move, chance)
            totals[j] += _value(pos, after, TURN_DEPTH - 1, chance)
    best = max(totals)
    return rng.choice([m for m, t in zip(legal, totals) if t >= best - 1e-9])
