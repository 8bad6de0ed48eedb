"""Registry of games by name and version. Standard library only.

Every module (or subpackage) in this package that calls ``register`` is
imported on first use, so adding a game is adding a module: the server, the
workers, the client and the contract suite find it here.
"""
from __future__ import annotations

import importlib
import pkgutil

from .base import (  # noqa: F401  (re-exported: the protocol's public names)
    OMNISCIENT,
    SPECTATOR,
    BadOptions,
    Game,
    GameError,
    IllegalMove,
    Option,
    ParseError,
    Result,
    SnapshotOutdated,
    rng_for,
    seed_commitment,
)
from .i18n import _

_REGISTRY: dict[tuple[str, int], Game] = {}
_LOADED = False
_INFRA = {"base", "notation", "playout"}


def register(game: Game) -> Game:
    key = (game.name, game.version)
    if key in _REGISTRY and _REGISTRY[key] is not game:
        raise ValueError(f"game {game.key} registered twice")
    _REGISTRY[key] = game
    return game


def _load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    # A module that fails to import fails every call, never a partial registry.
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name not in _INFRA and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    _LOADED = True


def all_games() -> list[Game]:
    _load_all()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def latest_games() -> list[Game]:
    """The newest version of each game: what new games are created with
    (the docs describe these; older versions stay registered for the games
    and records made with them)."""
    _load_all()
    newest: dict[str, int] = {}
    for name, version in _REGISTRY:
        newest[name] = max(version, newest.get(name, version))
    return [_REGISTRY[(name, newest[name])] for name in sorted(newest)]


def get(name: str, version: int | None = None) -> Game:
    """The game registered as ``name`` (newest version unless one is named)."""
    _load_all()
    if version is not None:
        game = _REGISTRY.get((name, version))
    else:
        versions = [v for (n, v) in _REGISTRY if n == name]
        game = _REGISTRY.get((name, max(versions))) if versions else None
    if game is None:
        known = ", ".join(sorted({n for n, _v in _REGISTRY}))
        raise BadOptions("unknown_game", _("no game {name} version {version}; the games: {known}", name=repr(name),
                                           version=version, known=known) if version else
                         _("no game {name}; the games: {known}", name=repr(name), known=known))
    return game
