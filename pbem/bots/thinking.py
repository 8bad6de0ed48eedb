"""What the thinking levels share: the seat's position as the engine sees it
(a determinized state), moves as keys, and applying a move with seeded chance."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass

from pbem.games.base import rng_for

from .determinize import Unsupported, game_of, state_from_view


#: one encoder for every key (``json.dumps`` with options builds one a call)
_KEYS = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def move_key(move: dict) -> str:
    """A move's identity across determinizations (its canonical JSON)."""
    return _KEYS.encode(move)


@dataclass
class Position:
    """What a seat knows: the game's rules, its view, and how to sample states from it."""

    game: str
    options: dict
    players: int
    seat: int
    view: dict
    #: the game's public events (as the seat's token reads them), if the caller has them
    events: list | None = None

    def __post_init__(self):
        self.rules = game_of(self.game)
        self.hidden = bool(self.rules.hidden_information)
        self._fixed = None
        #: the replayed state holds a secret of another seat all the same (Carcassonne's
        #: Catapult shots while the round waits): each sample re-deals it (``resample``)
        self.redeal = False
        if self.events is not None and not self.hidden:
            self._fixed = replayed(self.rules, self.options, self.players, self.seat, self.view, self.events)
            self.redeal = self.rules.resample(self._fixed, self.seat, random.Random(0)) is not self._fixed

    def sample(self, rng: random.Random):
        """A state consistent with the view. Without hidden information every
        sample is the same state: it is built once (the other seats' secret shots
        of a Catapult round, which the public events withhold, re-dealt each time)."""
        if not self.hidden:
            if self._fixed is None:
                self._fixed = state_from_view(self.game, self.options, self.players, self.seat, self.view, rng)
            return self.rules.resample(self._fixed, self.seat, rng) if self.redeal else self._fixed
        return state_from_view(self.game, self.options, self.players, self.seat, self.view, rng)


def replayed(rules, options: dict, players: int, seat: int, view: dict, events: list):
    """The state replayed from a game's events, where nothing is hidden (every
    seat reads the same events: Carcassonne with any expansion). Checked
    against the view: a log that does not lead to it is refused."""
    options = rules.check_options(players, options)
    state = rules.replay(players, options, events)
    if json.dumps(rules.view(state, seat), sort_keys=True) != json.dumps(view, sort_keys=True):
        raise Unsupported("the events given do not lead to the view")
    return state


def play(rules, state, player: int, move: dict, chance: random.Random):
    """The state after ``move`` (chance drawn from ``chance``: seeded, so reproducible)."""
    seed = chance.getrandbits(64).to_bytes(8, "big")
    events = rules.decide(state, player, move, rng_for(seed, 0))
    return rules.apply(state, events)
