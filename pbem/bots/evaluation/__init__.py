"""How good a state is for each seat: the score each seat would have if the
game were scored now, plus a small heuristic per game (each game's module
says which, and docs/bots.md lists them).

``values(rules, state)`` gives one number per seat (points, on the game's
scale); ``margin`` turns it into one seat's lead over its best rival, what
``greedy`` maximises and what ``search`` squashes into a reward in [0, 1].
A finished game is scored by its result: placings, then the margin.
"""
from __future__ import annotations

import importlib
import math

from . import generic

_MODULES = {"carcassonne", "kachina", "wakanda", "cartoona"}


_LOADED: dict = {}


def _module(rules):
    mod = _LOADED.get(rules.name)
    if mod is None:
        mod = importlib.import_module(f"{__name__}.{rules.name}") if rules.name in _MODULES else generic
        _LOADED[rules.name] = mod
    return mod


def considered(rules, legal: list[dict]) -> list[dict]:
    """The moves a thinking level weighs: a game's moves that leave the
    position as it is (Cartoona's standing orders, ``IGNORED``) are left out
    while there are others, or a level that sees no loss in them could make
    them for ever."""
    ignored = getattr(_module(rules), "IGNORED", ())
    kept = [m for m in legal if m.get("type") not in ignored]
    return kept or legal


def values(rules, state) -> list[float]:
    """Estimated points per seat (the heuristic included)."""
    return _module(rules).values(rules, state)


def sides(rules, state, players: int) -> list[int]:
    """The side each seat plays for (a team; each seat its own where there are none)."""
    fn = getattr(_module(rules), "sides", None)
    return fn(rules, state) if fn else list(range(players))


def margin(rules, state, seat: int, players: int) -> float:
    """The seat's side's lead over the best other side (a finished game: by its
    result, a win counting far above any lead in points)."""
    result = rules.result(state)
    if result is not None:
        scores = list(result.scores)
        best_other = max((s for p, s in enumerate(scores) if p != seat and result.placings[p] != result.placings[seat]),
                         default=scores[seat])
        place_bonus = 1000.0 * (1 if result.placings[seat] == 1 else -1) if players > 1 else 0.0
        if players == 1:
            return 1000.0 if result.outcome in ("won", None) and result.placings[seat] == 1 else -1000.0
        return place_bonus + scores[seat] - best_other
    vals = values(rules, state)
    side = sides(rules, state, players)
    totals: dict = {}
    for p, v in enumerate(vals):
        totals[side[p]] = totals.get(side[p], 0.0) + v
    mine = totals[side[seat]]
    others = [v for s, v in totals.items() if s != side[seat]]
    return mine - max(others) if others else mine


def reward(rules, state, seat: int, players: int) -> float:
    """The margin squashed into [0, 1] (a win near 1, a loss near 0), for search."""
    m = margin(rules, state, seat, players)
    scale = getattr(_module(rules), "SCALE", 10.0)
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, m / scale))))
