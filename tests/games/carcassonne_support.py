"""What the Carcassonne tests share: a game with a scripted draw order, a
move typed in notation, an illegal move's code, events of one type."""
from __future__ import annotations

import random

import pytest

from pbem import games
from pbem.games.base import IllegalMove

G = games.get("carcassonne")


def new_game(order, players=2, start=0, expansions=(), **options):
    """A set-up game drawing exactly ``order``, seat ``start`` first."""
    opts = G.check_options(players, {"draw_order": list(order), "start_player": start,
                                     "expansions": list(expansions), **options})
    state = G.start(players, opts)
    return G.apply(state, G.setup(state, random.Random(0)))


def play(state, text, player=None):
    """Apply one move typed in notation (by the seat to act unless
    ``player`` is given); returns (state, events)."""
    if player is None:
        (player,) = G.to_act(state)
    move = G.parse(text, state, player)
    events = G.decide(state, player, move, random.Random(0))
    return G.apply(state, events), events


def refused(state, text, code):
    """The move typed in notation is refused with ``code``."""
    (player,) = G.to_act(state)
    with pytest.raises(IllegalMove) as err:
        G.decide(state, player, G.parse(text, state, player), random.Random(0))
    assert err.value.code == code, err.value


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def completed(events):
    return [e for e in events if e["type"] == "FeatureScored" and e["complete"]]
