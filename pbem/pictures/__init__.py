"""Pictures of games: SVG drawn from a viewer's view, PNG rasterised from it.

    svg(game_name, view, *, names=None, viewer=None, legal=None, last=None) -> str
    png(svg_text, *, scale=1.0) -> bytes

A game has a picture when ``pbem/pictures/<game name>.py`` (or a package of
that name) exists and exposes

    draw(view, *, names=None, viewer=None, legal=None) -> str

``view`` is ``game.view(state, viewer)``, never the state, so a picture cannot
show what the view hides; ``names`` are the players' names by seat (None:
"seat N"); ``viewer`` is who looks (a seat, None for a spectator, ``"*"`` for
everything); ``legal`` is the viewer's own legal moves (None or empty: nothing
to mark). ``last`` is what the viewer last saw happen (the step's events as
redacted for them); a module that can mark it takes a ``last`` keyword, the
others are called without it.

A module may also expose ``touch(view, legal, viewer, names) -> dict``: how
the viewer's legal moves are made by touching the picture (the pages'
generic chooser, ``pbem/web/static/touch.js``):

    {"paths": [[key, ...] for each legal move, in the order of ``legal``],
     "labels": {key: what the key names, in the reader's language},
     "offboard": [the keys shown as buttons beside the picture]}

A key is a short string naming a thing touched (``tile:sun``, ``cell:-2,1``,
``village:4``, ``pass``; each module's docstring lists its own). No two
paths are the same and none is a strict prefix of another; every key of a
path is labelled, and is either drawn with ``data-pick="KEY"`` (when
``draw`` is given ``legal``) or listed in ``offboard``.

SVG is written as text (no drawing library), with the helpers of ``markup``;
seat colours are in ``palette``; ``raster`` makes the PNG with the fonts
shipped in ``fonts/`` and never a system font.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect

from .raster import png

__all__ = ["svg", "png", "touch", "draw_function", "has_picture", "games_with_pictures", "NoPicture"]

#: modules of this package that are not a game's picture (a shared helper added
#: here is named here too)
SHARED = frozenset({"markup", "palette", "raster", "metrics", "fonts", "svgkit", "cartoona_art", "cartoona_touch"})


class NoPicture(LookupError):
    """The game has no picture module."""


_DRAW: dict = {}


def draw_function(game_name: str):
    """The ``draw`` of ``pbem/pictures/<game_name>``; raises NoPicture."""
    fn = _DRAW.get(game_name)
    if fn is None:
        if not has_picture(game_name):
            raise NoPicture(f"no picture for game {game_name!r}")
        fn = getattr(importlib.import_module(f"{__name__}.{game_name}"), "draw", None)
        if fn is None:
            raise NoPicture(f"pbem/pictures/{game_name} has no draw()")
        _DRAW[game_name] = fn
    return fn


def has_picture(game_name: str) -> bool:
    if not isinstance(game_name, str) or not game_name.isidentifier() or game_name in SHARED:
        return False
    return importlib.util.find_spec(f"{__name__}.{game_name}") is not None


def games_with_pictures() -> list:
    """The registered games that have a picture (the newest version of
    each: a picture draws a view, the same for every version)."""
    from .. import games
    return [g for g in games.latest_games() if has_picture(g.name)]


def _takes_last(fn) -> bool:
    return "last" in inspect.signature(fn).parameters


def _takes(fn, name: str) -> bool:
    return name in inspect.signature(fn).parameters


def svg(game_name: str, view: dict, *, names: list | None = None, viewer=None,
        legal: list | None = None, last=None, narrow: bool = False) -> str:
    """The picture of ``view`` (a viewer's filtered view) as SVG text.
    ``narrow``: the pages' picture, with a narrow twin of its panels for a
    phone (hidden as drawn: the mails' pictures go without)."""
    fn = draw_function(game_name)
    kw = {}
    if last is not None and _takes_last(fn):
        kw["last"] = last
    if narrow and _takes(fn, "narrow"):
        kw["narrow"] = True
    return fn(view, names=names, viewer=viewer, legal=legal, **kw)


_TOUCH: dict = {}


def touch(game_name: str, view: dict, legal: list, viewer, names: list | None) -> dict | None:
    """How ``legal`` (the viewer's legal moves as the API lists them,
    ``[{"move", "text"}]``) is made by touching the picture: the game's own
    ``touch``, or None where its picture module has none."""
    if game_name not in _TOUCH:
        fn = None
        if has_picture(game_name):
            fn = getattr(importlib.import_module(f"{__name__}.{game_name}"), "touch", None)
        _TOUCH[game_name] = fn
    fn = _TOUCH[game_name]
    if fn is None or not legal:
        return None
    return fn(view, legal, viewer, names)
