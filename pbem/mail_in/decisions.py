"""Whether a mail written at an older version still answers the decision
its sender faces now.

Mail is slow: a reply to the turn mail of version 2 may arrive when the game
is at version 10 (others answered a window meanwhile, or the sender already
played one step of a turn of several). For a mail move the server itself
built the envelope from the token, so the signed version is no proof of
anything: the reply is applied when it is still legal, the sender still to
act, and the decision pending for it the same as when the mail was written.
Otherwise it is refused with what changed.

"The same decision" is the game's own notion where it has one: inside a
window (``Game.window``: Cartoona's reaction windows and free play, Kachina's
opening redraw) it is ``Game.concurrent_ok``, which is exactly "a move made
then still stands now". A strict game has one seat to act and no window, so
the decision is named from the seat's view, by one small function per game
below (``KEYS``); a game without one there compares the seat's legal moves,
which is right whenever nothing else in the view could change what a move
means.
"""
from __future__ import annotations

from typing import Any, Callable

from ..games.base import canonical


def _carcassonne(view: dict, legal: list) -> Any:
    # One drawn tile, in one turn, one kind of decision owed (a placement,
    # an abbey or wagon decision, an escape...).
    owed = sorted({m.get("type") for m in legal})
    return view.get("turn"), view.get("tile"), view.get("step"), view.get("active"), owed


def _wakanda(view: dict, legal: list) -> Any:
    return view.get("turn"), view.get("current")  # one move a turn


def _kachina(view: dict, legal: list) -> Any:
    return view.get("phase"), view.get("move_number")  # one tile a turn; the redraw is a window


def _cartoona(view: dict, legal: list) -> Any:
    # The full game decides inside windows; the basic, solo and kids' games
    # have one seat to act, in the phases of one turn.
    return view.get("mode"), view.get("turn"), view.get("active"), view.get("phase"), view.get("drawn"), \
        view.get("held")


def _default(view: dict, legal: list) -> Any:
    return sorted(canonical(m) for m in legal)


KEYS: dict[str, Callable[[dict, list], Any]] = {
    "carcassonne": _carcassonne,
    "wakanda": _wakanda,
    "kachina": _kachina,
    "cartoona": _cartoona,
}


def decision_key(game, state, seat: int) -> Any:
    """What names the decision ``seat`` faces in ``state`` (strict games)."""
    legal = game.legal_moves(state, seat)
    return KEYS.get(game.name, _default)(game.view(state, seat), legal)


def same_decision(game, then, now, seat: int) -> bool:
    """Whether a move ``seat`` chose seeing ``then`` answers what it faces
    ``now``: to act in both, and in the same window or the same decision."""
    if seat not in game.to_act(then) or seat not in game.to_act(now):
        return False
    if game.window(then) is not None or game.window(now) is not None:
        return game.concurrent_ok(then, now, seat)
    return decision_key(game, then, seat) == decision_key(game, now, seat)
