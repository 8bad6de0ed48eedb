"""Bots: how a seat chooses its move from what that seat may see.

The one entry point the bot runner (``pbem bot``, which plays through the
public API only) calls is ``choose``. It is given exactly what the seat's
token may read (its view and its legal moves), never the game's full state;
where information is hidden, levels that look ahead sample it consistently
with the view (determinization: ``pbem.bots.determinize``).

Levels: ``random`` (a uniformly random legal move), ``greedy`` (the best
immediate evaluation: ``pbem.bots.greedy``), ``search`` (information-set
MCTS within a budget: ``pbem.bots.mcts``). docs/bots.md says how each
decides, the heuristics per game and how a budget stays deterministic.
"""
from __future__ import annotations

import random

LEVELS = ("random", "greedy", "search")

#: ``search``'s iterations per second of budget: the budget in iterations is
#: ``budget_s * ITERATIONS_PER_SECOND`` (what makes a choice the same on every
#: machine); the seconds themselves are only a cap.
ITERATIONS_PER_SECOND = 100


def default_iterations(budget_s: float) -> int:
    """``search``'s iterations for a budget of ``budget_s`` seconds."""
    return max(1, int(budget_s * ITERATIONS_PER_SECOND))


class UnknownLevel(ValueError):
    """A level name that is not one of LEVELS."""


def default_budget_s() -> float:
    """The budget per decision of ``search`` (setting ``PBEM_BOT_BUDGET_S``, 2 s by default)."""
    from pbem.settings.registry import env
    return float(env("PBEM_BOT_BUDGET_S"))


def choose(game: str, options: dict, players: int, seat: int, view: dict, legal: list[dict],
           level: str = "random", seed: int | str = 0, budget_s: float | None = 2.0, *,
           iterations: int | None = None, stats: dict | None = None, events: list | None = None) -> dict:
    """The move (one of ``legal``) the seat plays.

    ``game`` is the registered game key (e.g. ``carcassonne`` or ``wakanda@2``),
    ``view`` the seat's view (``GET /games/{id}/seats/{seat}/view``'s ``view``),
    ``legal`` the move dicts of ``GET /games/{id}/legal-moves`` for that seat.
    Deterministic for a given seed and inputs: ``search`` runs ``iterations``
    (default ``budget_s * ITERATIONS_PER_SECOND``) and stops early only if
    ``budget_s`` of wall-clock time runs out first (a slow machine);
    ``budget_s=None`` with ``iterations`` given runs them all, uncapped (the
    bench: its figures must not depend on the machine's load). ``stats``,
    if given, is filled with what the level did (``level``: the level that
    decided, ``random`` where the game's setup has no determinizer yet).
    ``events``, if given, are the game's events as the seat reads them (the
    ``event`` of each item of ``GET /games/{id}/events``, in order): in a game
    without hidden information (Carcassonne) the state is replayed from them,
    which every expansion supports; elsewhere they are not read.
    """
    if level not in LEVELS:
        raise UnknownLevel(level)
    if not legal:
        raise ValueError("no legal move to choose from")
    stats = {} if stats is None else stats
    rng = random.Random(f"{game}:{seat}:{seed}:{len(legal)}")
    if level == "random" or len(legal) == 1:
        stats["level"] = "random" if level == "random" else level
        return rng.choice(legal)
    from .determinize import Unsupported
    from . import evaluation
    from .thinking import Position
    try:
        pos = Position(game, options, players, seat, view, events)
        legal = evaluation.considered(pos.rules, legal)
        if level == "greedy":
            from . import greedy
            stats["level"] = "greedy"
            return greedy.choose(pos, legal, rng)
        from . import mcts
        if iterations is None:
            iterations = default_iterations(2.0 if budget_s is None else budget_s)
        budget = iterations
        move, found = mcts.search(pos, legal, rng, budget, deadline_s=budget_s)
        stats.update(found, level="search")
        return move
    except Unsupported as why:
        # a setup whose state cannot be rebuilt from the view yet: play on, at random
        stats.update(level="random", unsupported=str(why))
        return rng.choice(legal)
