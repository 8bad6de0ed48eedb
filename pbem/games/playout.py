"""Seeded random play of any registered game: for the contract suite, the
benchmarks, bots and the deadline's "random legal move" default."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .base import Game, rng_for


@dataclass
class Playout:
    game: Game
    players: int
    options: dict
    seed: bytes
    events: list = field(default_factory=list)
    moves: list = field(default_factory=list)  # (version_before, player, move)
    state: object = None


def play_random(game: Game, players: int, options: dict | None = None, seed: int = 0,
                max_moves: int = 20000, choose=None) -> Playout:
    """Play a whole game with uniformly random legal moves.

    ``choose(rng, player, legal)`` may replace the uniform choice. Returns the
    playout with the full log; raises AssertionError if the game stalls (no
    one to act and no result) or runs past ``max_moves``.
    """
    options = game.check_options(players, options)
    seed_bytes = f"playout:{seed}".encode()
    chooser = random.Random(seed)
    out = Playout(game, players, options, seed_bytes)
    state = game.start(players, options)
    for event in game.setup(state, rng_for(seed_bytes, 0)):
        out.events.append(event)
        state = game.evolve(state, event)
    for _ in range(max_moves):
        if game.result(state) is not None:
            break
        acting = sorted(game.to_act(state))
        assert acting, f"{game.key}: nobody to act and no result"
        player = chooser.choice(acting)
        legal = game.legal_moves(state, player)
        assert legal, f"{game.key}: seat {player} is to act but has no legal move"
        move = choose(chooser, player, legal) if choose else chooser.choice(legal)
        version = len(out.events)
        events = game.decide(state, player, move, rng_for(seed_bytes, version))
        out.moves.append((version, player, move))
        for event in events:
            out.events.append(event)
            state = game.evolve(state, event)
    else:
        raise AssertionError(f"{game.key}: no result after {max_moves} moves")
    out.state = state
    return out
