"""Bots: how a seat chooses its move from what that seat may see.

The one entry point the bot runner (``pbem bot``, which plays through the
public API only) calls is ``choose``. It is given exactly what the seat's
token may read (its view and its legal moves), never the game's full state;
where information is hidden, levels that look ahead sample it consistently
with the view (determinization).

Levels: ``random`` (a uniformly random legal move), ``greedy`` (the best
immediate evaluation), ``search`` (information-set MCTS within a time
budget). Only ``random`` is here yet; the others come with their engines.
"""
from __future__ import annotations

import random

LEVELS = ("random", "greedy", "search")


class UnknownLevel(ValueError):
    """A level name that is not one of LEVELS."""


def choose(game: str, options: dict, players: int, seat: int, view: dict, legal: list[dict],
           level: str = "random", seed: int | str = 0, budget_s: float = 2.0) -> dict:
    """The move (one of ``legal``) the seat plays.

    ``game`` is the registered game key (e.g. ``carcassonne`` or ``wakanda@2``),
    ``view`` the seat's view (``GET /games/{id}/seats/{seat}/view``'s ``view``),
    ``legal`` the move dicts of ``GET /games/{id}/legal-moves`` for that seat.
    Deterministic for a given seed and inputs (``search`` also for its budget
    counted in iterations where a wall-clock budget would differ by machine).
    """
    if level not in LEVELS:
        raise UnknownLevel(level)
    if not legal:
        raise ValueError("no legal move to choose from")
    rng = random.Random(f"{game}:{seat}:{seed}:{len(legal)}")
    return rng.choice(legal)
