"""Takebacks by consent, above every game's rules. Standard library only.

A player asks to take back their last move; every other seat accepts or
refuses; once all have accepted, the game goes on from the version before
that move. Nothing is removed from the log: the request, the answers and the
takeback are events of their own (``TakebackRequested``,
``TakebackAnswered``, ``TakebackApplied``), made by moves of a reserved
shape that no game's move has (no ``type``):

    {"takeback": "request"} | {"takeback": "accept"} | {"takeback": "refuse"}

They take the same path as any move (signatures, nonces, mail tokens,
exactly once), but the games never see them: ``decide`` here makes their
events, and ``fold`` reads them where a log is folded into a state, a
``TakebackApplied(to_version=v)`` reading "the state is now the state at v"
(the version keeps growing). Everything here is a pure function of the
log's steps, so the server, the replay and the offline verifier agree.

The rules of consent (docs/record.md says them to players):

- Only the seat whose move is the last move still standing may ask
  (``takeback_moved_on`` once another seat has moved since, and
  ``takeback_no_move`` when the seat has no move standing), and only when
  the game allows it (``Game.takeback_refusal``: no chance, no secret, no
  hidden information revealed by that move).
- Every other seat is asked; in a game of one player nobody is, and the
  takeback is applied at once.
- A refusal ends the request. A move of the game made while a request is
  pending ends it too (the move it would take back is no longer the last):
  moving on is declining, so a pending request never blocks the game.
- A second request while one is pending, an answer with nothing pending, an
  answer from a seat not asked (or asked and already answered) are refused
  with a stable code and store nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from . import handover
from .base import TAKEBACK_ERROR_CODES, Game, IllegalMove, State, name_seat, plain_width
from .i18n import CHINESE, ENGLISH, _, notation_language

TAKEBACK_REQUESTED = "TakebackRequested"
TAKEBACK_ANSWERED = "TakebackAnswered"
TAKEBACK_APPLIED = "TakebackApplied"
# A handover's events (pbem/games/handover.py) are meta events too: above the
# game, its state unchanged, not a game move (a takeback request stands).
META_EVENTS = frozenset({TAKEBACK_REQUESTED, TAKEBACK_ANSWERED, TAKEBACK_APPLIED}) | handover.EVENTS

ANSWERS = ("request", "accept", "refuse")

#: The codes a takeback move may be refused with (answered with 422, or a
#: rejected move's ``error.code``).
ERROR_CODES = TAKEBACK_ERROR_CODES


def is_takeback(move: Any) -> bool:
    """Whether a submitted move is a takeback move (of any answer, even a
    wrong one: ``decide`` then says what is wrong with it)."""
    return isinstance(move, dict) and "takeback" in move and "type" not in move


def is_meta(event: Any) -> bool:
    return isinstance(event, dict) and event.get("type") in META_EVENTS


@dataclass
class Step:
    """One step of a game's log: who moved (None: the server, for the setup
    and forfeits), the move, the version it started at and its events."""
    player: int | None
    move: Any
    version_before: int
    events: list = field(default_factory=list)


@dataclass
class Pending:
    by: int
    to_version: int
    asked: list
    at: int  # the version the request made: answers signed since stand
    accepted: set = field(default_factory=set)


def standing(steps: list[Step]) -> list[Step]:
    """The steps of game moves not taken back, in order."""
    stack: list[Step] = []
    for step in steps:
        for event in step.events:
            if isinstance(event, dict) and event.get("type") == TAKEBACK_APPLIED:
                stack = [s for s in stack if s.version_before < event["to_version"]]
        if not any(is_meta(e) for e in step.events) and step.events:
            stack.append(step)
    return stack


def pending(steps: list[Step]) -> Pending | None:
    """The request waiting for answers after these steps, if any."""
    waiting = None
    for step in steps:
        if step.events and not any(is_meta(e) for e in step.events):
            waiting = None  # a game move ends a pending request
        for at, event in enumerate(step.events, step.version_before + 1):
            kind = event.get("type") if isinstance(event, dict) else None
            if kind == TAKEBACK_REQUESTED:
                waiting = Pending(event["by"], event["to_version"], list(event["asked"]), at)
            elif kind == TAKEBACK_ANSWERED and waiting is not None:
                if event["answer"] == "accept":
                    waiting.accepted.add(event["by"])
                else:
                    waiting = None
            elif kind == TAKEBACK_APPLIED:
                waiting = None
    return waiting


def decide(game: Game, players: int, steps: list[Step], player: int, move: dict,
           state_at: Callable[[int], State]) -> list[dict]:
    """The events of a takeback move by ``player`` after ``steps`` (raises
    ``IllegalMove`` with a stable code, saying why not). ``state_at(v)`` is
    the game's state at version v (the state before the move taken back)."""
    answer = move.get("takeback")
    if answer not in ANSWERS or set(move) != {"takeback"}:
        raise IllegalMove("malformed_move", _("a takeback move is {shape}",
                                              shape='{"takeback": "request" | "accept" | "refuse"}'))
    waiting = pending(steps)
    if answer == "request":
        if waiting is not None:
            raise IllegalMove("takeback_pending", _("a takeback is already asked for; it waits for answers"))
        stack = standing(steps)
        last = stack[-1] if stack else None
        if last is None or last.player != player:
            if any(s.player == player for s in stack):
                raise IllegalMove("takeback_moved_on", _("another player has moved since your last move: "
                                                         "only the last move can be taken back"))
            raise IllegalMove("takeback_no_move", _("you have no move to take back"))
        refusal = game.takeback_refusal(state_at(last.version_before), players, player, last.move, last.events)
        if refusal is not None:
            raise IllegalMove(*refusal)
        asked = [seat for seat in range(players) if seat != player]
        events = [{"type": TAKEBACK_REQUESTED, "by": player, "to_version": last.version_before, "asked": asked}]
        if not asked:  # a game of one: nobody to ask
            events.append({"type": TAKEBACK_APPLIED, "to_version": last.version_before})
        return events
    if waiting is None:
        raise IllegalMove("takeback_not_pending", _("no takeback is waiting for an answer"))
    if player not in waiting.asked or player in waiting.accepted:
        raise IllegalMove("takeback_not_asked", _("you are not asked to answer this takeback"))
    events = [{"type": TAKEBACK_ANSWERED, "by": player, "answer": answer}]
    if answer == "accept" and waiting.accepted | {player} >= set(waiting.asked):
        events.append({"type": TAKEBACK_APPLIED, "to_version": waiting.to_version})
    return events


def fold(game: Game, state: State, event: dict, state_at: Callable[[int], State]) -> State:
    """``game.evolve`` for a log that may hold takeback events: a request or
    an answer leaves the state as it is; a takeback makes it the state at
    the version it names."""
    if not is_meta(event):
        return game.evolve(state, event)
    if event["type"] == TAKEBACK_APPLIED:
        return state_at(event["to_version"])
    return state


def describe(event: dict, names=None) -> str:
    """A takeback event in words, in the reader's language (they are
    public: every seat sees who asked and who answered what)."""
    kind = event["type"]
    if kind in handover.EVENTS:
        return handover.describe(event, names)
    if kind == TAKEBACK_REQUESTED:
        return _("{player} asks to take back their last move.", player=name_seat(event["by"], names, capital=True))
    if kind == TAKEBACK_ANSWERED:
        who = name_seat(event["by"], names, capital=True)
        return _("{player} accepts the takeback.", player=who) if event["answer"] == "accept" else \
            _("{player} refuses the takeback.", player=who)
    return _("The move is taken back: the game goes on from version {version}.", version=event["to_version"])


#: The words of takeback moves in mail and text, in each notation language;
#: both languages' words are read from everyone, a reader is shown their own.
WORDS = {"request": {ENGLISH: "takeback", CHINESE: "悔棋"},
         "accept": {ENGLISH: "accept", CHINESE: "接受"},
         "refuse": {ENGLISH: "refuse", CHINESE: "拒絕"}}
_READ = {word.casefold(): answer for answer, words in WORDS.items() for word in words.values()} | {
    "take back": "request", "要求悔棋": "request", "同意": "accept"}


def word(answer: str) -> str:
    """How a takeback move is written for the reader (``takeback``, ``悔棋``)."""
    return WORDS[answer][notation_language()]


def parse(text: str) -> dict | None:
    """The takeback move a text is, or None (``takeback``, ``accept``,
    ``refuse``, in either language, any case, surrounding blanks ignored)."""
    answer = _READ.get(" ".join(plain_width(text).split()).casefold()) if isinstance(text, str) else None
    return {"takeback": answer} if answer else None


def shown(game: Game, event: dict, viewer) -> dict:
    """An event as ``viewer`` may see it: takeback events are public, the
    game's own go through its ``redact``."""
    return event if is_meta(event) else game.redact(event, viewer)


def describe_item(game: Game, item: dict, viewer=None, names=None) -> str:
    """``game.describe`` for a log or moves that may hold takebacks."""
    if is_meta(item):
        return describe(item, names)
    if handover.is_handover(item):
        return handover.describe_move(item)
    if is_takeback(item):
        return word(item["takeback"]) if item.get("takeback") in WORDS else str(item.get("takeback"))
    return game.describe(item, viewer, names)
