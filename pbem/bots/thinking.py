"""What the thinking levels share: the seat's position as the engine sees it
(a determinized state), moves as keys, and applying a move with seeded chance."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass

from pbem.games.base import rng_for

from .determinize import game_of, state_from_view


def move_key(move: dict) -> str:
    """A move's identity across determinizations (its canonical JSON)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


@dataclass
class Position:
    """What a seat knows: the game's rules, its view, and how to sample states from it."""

    game: str
    options: dict
    players: int
    seat: int
    view: dict

    def __post_init__(self):
        self.rules = game_of(self.game)
        self.hidden = bool(self.rules.hidden_information)
        self._fixed = None

    def sample(self, rng: random.Random):
        """A state consistent with the view. Without hidden information every
        sample is the same state: it is built once."""
        if not self.hidden:
            if self._fixed is None:
                self._fixed = state_from_view(self.game, self.options, self.players, self.seat, self.view, rng)
            return self._fixed
        return state_from_view(self.game, self.options, self.players, self.seat, self.view, rng)


def play(rules, state, player: int, move: dict, chance: random.Random):
    """The state after ``move`` (chance drawn from ``chance``: seeded, so reproducible)."""
    seed = chance.getrandbits(64).to_bytes(8, "big")
    events = rules.decide(state, player, move, rng_for(seed, 0))
    return rules.apply(state, events)
