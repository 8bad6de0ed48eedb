"""What mails call the players and how they word a game's text.

Players are named by the names they joined with; a seat number appears only
where a name is missing, or where two seats share one (``Ann (seat 0)``,
``Ann (seat 1)``), so a reader can always tell the seats apart.

The games' ``describe`` and ``render`` take the names too (a ``names``
keyword); a game that does not yet take it is called without, so the mail
side does not wait for every game to catch up.
"""
from __future__ import annotations

import functools
import inspect
from collections import Counter

from .mail import header_text, joined  # noqa: F401  (joined: the names of some seats in words)


def seat_names(seats: dict, players: int) -> list[str]:
    """One name per seat: the seat's name, made unique by its seat number
    where needed; "seat N" for a seat without one."""
    raw = [header_text((seats.get(s) or {}).get("name") or "", 64) for s in range(players)]
    counts = Counter(n.casefold() for n in raw if n)
    out = []
    for seat, name in enumerate(raw):
        if not name:
            out.append(f"seat {seat}")
        elif counts[name.casefold()] > 1:
            out.append(f"{name} (seat {seat})")
        else:
            out.append(name)
    return out


@functools.lru_cache(maxsize=None)
def _takes(cls: type, method: str, keyword: str) -> bool:
    try:
        return keyword in inspect.signature(getattr(cls, method)).parameters
    except (TypeError, ValueError, AttributeError):
        return False


def describe(game, item: dict, viewer, names: list[str] | None) -> str:
    """``game.describe`` with the players' names when the game takes them."""
    if names is not None and _takes(type(game), "describe", "names"):
        return game.describe(item, viewer, names=names)
    return game.describe(item, viewer)


def render(game, state, viewer, names: list[str] | None) -> str:
    """``game.render`` with the players' names when the game takes them."""
    if names is not None and _takes(type(game), "render", "names"):
        return game.render(state, viewer, names=names)
    return game.render(state, viewer)


def acting(loaded) -> tuple[list[int], list[int]]:
    """(the seats to act, the seats whose turn it is) of a loaded game;
    nobody unless it is active."""
    if loaded.meta.get("status") != "active":
        return [], []
    try:
        return sorted(loaded.game.to_act(loaded.state)), sorted(loaded.game.turn_of(loaded.state))
    except Exception:  # a state before setup, say
        return [], []


def examples(moves: list, n: int) -> list:
    """At most ``n`` of ``moves`` to show as examples, in their order: one
    of each type of move first, then others spread over the whole list
    (the first few of a long list are often one placement with each of its
    follower choices, which says little)."""
    if len(moves) <= n:
        return list(moves)
    chosen: list[int] = []
    kinds: set = set()
    for i, move in enumerate(moves):
        kind = move.get("type") if isinstance(move, dict) else None
        if kind not in kinds and len(chosen) < n:
            kinds.add(kind)
            chosen.append(i)
    step = (len(moves) - 1) / max(1, n - 1)
    for k in range(n):
        if len(chosen) >= n:
            break
        i = round(k * step)
        while i in chosen:
            i = (i + 1) % len(moves)
        chosen.append(i)
    return [moves[i] for i in sorted(chosen)]


def notation(game, options: dict) -> str:
    """The notation help for the rules in play (the game's own, for these
    options, once it has one; else all of it)."""
    own = getattr(game, "notation_help_for", None)
    if callable(own):
        return own(options) or ""
    return game.notation_help or ""


def options_in_words(game, options: dict) -> list[str]:
    """The game's options in words, one line each (the game's own wording
    once it has one; else each option that differs from its default, with
    its value)."""
    own = getattr(game, "options_in_words", None)
    if callable(own):
        text = own(options)
        return text.splitlines() if isinstance(text, str) else list(text or [])
    out = []
    for opt in game.options:
        value = options.get(opt.name, opt.default)
        if value != opt.default:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            out.append(f"{opt.name}: {shown}")
    return out or ["the standard rules (every option at its default)"]
