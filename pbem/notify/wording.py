"""What mails call the players and how they word a game's text.

Players are named as the games' own texts name them
(``pbem.games.base.seat_names``): the name they joined with, or "seat N"
where a name is missing, reads like a seat number or is shared, so a reader
can always tell the seats apart. The games' ``describe``, ``render`` and
``parse`` take those names; the rules in play and their notation come from
the games' ``describe_setup`` and ``notation_help_for``.
"""
from __future__ import annotations

from ..games import handover, takeback
from ..games.base import GAME_ABANDONED, SEAT_FORFEITED, name_seats
from ..games.i18n import _
from ..games.base import seat_names as game_seat_names
from .kinds import in_others_turn  # noqa: F401  (for the mail replies' wording)
from .mail import header_text, joined, others_turn_line  # noqa: F401  (the names of some seats in words)


def seat_names(seats: dict, players: int) -> list[str]:
    """One name per seat, from the seats' records (``Store.seats``)."""
    raw = [header_text((seats.get(s) or {}).get("name") or "", 64) or None for s in range(players)]
    return game_seat_names(players, raw)


def describe(game, item: dict, viewer, names: list[str] | None) -> str:
    """A move or an event in words; the events the server makes itself (a
    forfeit at a deadline, a game the operator abandoned), which no game
    describes, in the mails' own words."""
    kind = item.get("type") if isinstance(item, dict) else None
    if kind == SEAT_FORFEITED:
        seat = item.get("player")
        who = names[seat] if isinstance(seat, int) and names and 0 <= seat < len(names) else _("seat {n}", n=seat)
        return (_("{name} forfeited the game: the deadline passed.", name=who) if item.get("reason") == "deadline"
                else _("{name} forfeited the game.", name=who))
    if kind == GAME_ABANDONED:
        return (_("The server's operator ended the game: {why}", why=item["why"]) if item.get("why")
                else _("The server's operator ended the game."))
    return takeback.describe_item(game, item, viewer, names)


def render(game, state, viewer, names: list[str] | None) -> str:
    return game.render(state, viewer, names=names)


def parse(game, text: str, state, seat: int, names: list[str] | None):
    """A line as a move; a move that names a seat may name it by name. The
    takeback words (``takeback``, ``accept``, ``refuse``; ``悔棋``, ``接受``,
    ``拒絕``) are read above every game (pbem/games/takeback.py), and so are
    a handover's (``bot greedy``, ``accept bot``, ``seat back``: pbem/games/handover.py)."""
    return takeback.parse(text) or handover.parse(text) or game.parse(text, state, seat, names=names)


def acting(loaded) -> tuple[list[int], list[int]]:
    """(the seats to act, the seats whose turn it is) of a loaded game;
    nobody unless it is active."""
    if loaded.meta.get("status") != "active":
        return [], []
    try:
        return sorted(loaded.game.to_act(loaded.state)), sorted(loaded.game.turn_of(loaded.state))
    except Exception:  # a state before setup, say
        return [], []


def active_seat(loaded) -> int | None:
    """The seat whose turn of the round it is, where another seat's decision
    is owed in it (``Game.active_seat``); None when the game is not running."""
    if loaded.meta.get("status") != "active":
        return None
    try:
        return loaded.game.active_seat(loaded.state)
    except Exception:  # a state before setup, say
        return None


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


def setup_line(game, options: dict, players: int, names: list[str] | None = None) -> str:
    """The game's setup in words: the rules in play (``describe_setup``);
    with ``names``, a seat it names ("seat 0 starts") by its player's name."""
    return name_seats(game.describe_setup(options, players), names)


def notation(game, options: dict) -> str:
    """The notation help for the rules in play only (``notation_help_for``)."""
    return game.notation_help_for(options) or ""


def result_line(game, result: dict, names: list[str]) -> str:
    """Who won, in words (``describe_result``)."""
    return game.describe_result(result, names)

