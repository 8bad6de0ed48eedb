"""Determinization: a full rules state built from one seat's view only.

A bot thinks with the rules engine (``pbem.games``), which needs a whole
state; a seat sees only its view. ``state_from_view`` builds a state that
this seat could not tell from the real one: what the view shows is copied,
what it hides is sampled at random (uniformly among the arrangements the
view allows, by counting what is unseen). Each game has its own module;
nothing here is given anything but the view, the options, the seat count
and the seat, so a bot cannot read what the seat may not see.

A setup a determinizer cannot rebuild from the view raises ``Unsupported``
(the levels that need a state then play as ``random``: docs/bots.md).
"""
from __future__ import annotations

import importlib
import random

from pbem import games


class Unsupported(Exception):
    """No determinizer for this game or these options."""


#: game name -> module in this package (each has ``state_from_view``)
_MODULES = {"carcassonne": "carcassonne", "kachina": "kachina", "wakanda": "wakanda", "cartoona": "cartoona"}


def game_of(game: str):
    """The rules object of a game key (``name`` or ``name@version``)."""
    name, _at, version = game.partition("@")
    return games.get(name, int(version) if version else None)


def supported(game: str, options: dict, players: int) -> bool:
    """Whether this game with these options has a determinizer."""
    rules = game_of(game)
    module = _MODULES.get(rules.name)
    if module is None:
        return False
    mod = importlib.import_module(f"{__name__}.{module}")
    check = getattr(mod, "supports", None)
    return check(rules.check_options(players, options)) if check else True


def state_from_view(game: str, options: dict, players: int, seat: int, view: dict,
                    rng: random.Random):
    """A state consistent with ``view`` (what ``seat`` sees), hidden parts sampled with ``rng``."""
    rules = game_of(game)
    module = _MODULES.get(rules.name)
    if module is None:
        raise Unsupported(f"no determinizer for {rules.key}")
    mod = importlib.import_module(f"{__name__}.{module}")
    options = rules.check_options(players, options)
    return mod.state_from_view(rules, options, players, seat, view, rng)
