"""A seat handed to a bot for a while (a vacation), by consent, above every
game's rules. Standard library only.

The record names one key per seat, and a bot never holds its player's
private key. So a handover gives the seat a second key, the bot's, made by
the server and named in the log; the verifier then accepts that seat's
envelopes signed by either key until the player takes the seat back. Every
step is a move of a reserved shape that no game's move has (no ``type``,
like takebacks: pbem/games/takeback.py), signed by the seat's own key and
taken through the move pipeline (signatures, nonces, exactly once):

    {"handover": "request", "level": "greedy"}   the seat's holder asks
    {"handover": "accept"} | {"handover": "refuse"}   each other person answers
    {"handover": "return"}                      the holder takes the seat back

Their events (all public, none changes the game's state):
``HandoverRequested{seat, level, asked}``, ``HandoverAnswered{by, answer}``,
``SeatHandedOver{seat, level, bot_key}`` (once every seat asked accepted; at
once when nobody is asked), ``SeatTakenBack{seat}``.

The rules (docs/bots.md says them to players):

- Asked: every other seat held by a person (not a bot of the server's, not a
  seat handed over itself: its player is away). A refusal ends the request.
  Game moves go on meanwhile (a request never blocks the game).
- One request at a time in a game (``handover_pending``); a seat handed over
  already cannot be handed over again (``seat_handed_over``); a bot's seat
  cannot be handed over (``seat_is_a_bot``); taking back a seat that is not
  handed over is ``seat_not_handed_over``; answering with nothing pending is
  ``handover_not_pending``, by a seat not asked ``handover_not_asked``; a
  level that is not a bot's, ``unknown_bot_level``.
- The bot's key (``bot_key``) is the server's choice: the events a handover
  move gives are a pure function of the log and that key, so the verifier
  decides every handover move again with the key the log names.
- While a seat is handed over, its moves may be signed by its own key or by
  the bot's (its player may still play, the handover is a delegation, not
  a resignation); handover moves only by its own key.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import HANDOVER_ERROR_CODES, IllegalMove, name_seat, plain_width
from .i18n import CHINESE, ENGLISH, N_, _, notation_language

HANDOVER_REQUESTED = "HandoverRequested"
HANDOVER_ANSWERED = "HandoverAnswered"
SEAT_HANDED_OVER = "SeatHandedOver"
SEAT_TAKEN_BACK = "SeatTakenBack"
EVENTS = frozenset({HANDOVER_REQUESTED, HANDOVER_ANSWERED, SEAT_HANDED_OVER, SEAT_TAKEN_BACK})

ANSWERS = ("request", "accept", "refuse", "return")
#: The bot levels (pbem.bots.LEVELS; tests/test_handover.py checks both say the same).
LEVELS = ("random", "greedy", "search")
LEVEL_NAMES = {"random": N_("random"), "greedy": N_("greedy"), "search": N_("search")}
ERROR_CODES = HANDOVER_ERROR_CODES


def is_handover(move: Any) -> bool:
    """Whether a submitted move is a handover move (even a malformed one)."""
    return isinstance(move, dict) and "handover" in move and "type" not in move


def is_event(event: Any) -> bool:
    return isinstance(event, dict) and event.get("type") in EVENTS


@dataclass
class Request:
    seat: int
    level: str
    asked: list
    at: int  # the version the request made: answers signed before it are stale
    accepted: set = field(default_factory=set)


@dataclass
class Seats:
    """Where the handovers stand after some events: the seats handed over
    (seat -> {level, bot_key}) and the request waiting for answers."""
    handed: dict = field(default_factory=dict)
    waiting: Request | None = None


def standing(events) -> Seats:
    """The handovers after these events (the log's, from its first, in order)."""
    now = Seats()
    for at, event in enumerate(events, 1):
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == HANDOVER_REQUESTED:
            now.waiting = Request(event["seat"], event["level"], list(event["asked"]), at)
        elif kind == HANDOVER_ANSWERED and now.waiting is not None:
            if event["answer"] == "accept":
                now.waiting.accepted.add(event["by"])
            else:
                now.waiting = None
        elif kind == SEAT_HANDED_OVER:
            now.handed[event["seat"]] = {"level": event["level"], "bot_key": event["bot_key"]}
            now.waiting = None
        elif kind == SEAT_TAKEN_BACK:
            now.handed.pop(event["seat"], None)
    return now


def needs_bot_key(players: int, now: Seats, player: int, move: dict, bots=()) -> bool:
    """Whether this move, if legal, hands a seat over (its caller then makes
    the bot's key before deciding)."""
    answer = move.get("handover") if isinstance(move, dict) else None
    if answer == "request":
        return not asked_for(players, now, player, bots)
    w = now.waiting
    return answer == "accept" and w is not None and w.accepted | {player} >= set(w.asked)


def asked_for(players: int, now: Seats, player: int, bots=()) -> list:
    return [s for s in range(players) if s != player and s not in bots and s not in now.handed]


def decide(players: int, now: Seats, player: int, move: dict, bots=(), bot_key: str | None = None) -> list[dict]:
    """The events of a handover move by ``player`` (raises ``IllegalMove``
    with a stable code). ``now``: the handovers before it (``standing``);
    ``bots``: the seats the server's bots play (the record's header says
    them); ``bot_key``: the key the bot will sign with, when the move hands
    the seat over (``needs_bot_key``)."""
    answer = move.get("handover")
    level = move.get("level")
    if answer not in ANSWERS or set(move) != ({"handover", "level"} if answer == "request" else {"handover"}):
        raise IllegalMove("malformed_move", _("a handover move is {shape}",
                                              shape='{"handover": "request", "level": "greedy"} | '
                                                    '{"handover": "accept" | "refuse" | "return"}'))
    if answer == "return":
        if player not in now.handed:
            raise IllegalMove("seat_not_handed_over", _("your seat is not played by a bot: there is nothing to "
                                                        "take back"))
        return [{"type": SEAT_TAKEN_BACK, "seat": player}]
    if answer == "request":
        if level not in LEVELS:
            raise IllegalMove("unknown_bot_level", _("there is no bot level {level}: the levels are {levels}",
                                                     level=repr(level), levels=", ".join(LEVELS)),
                              levels=list(LEVELS))
        if player in bots:
            raise IllegalMove("seat_is_a_bot", _("a bot plays this seat already"))
        if player in now.handed:
            raise IllegalMove("seat_handed_over", _("your seat is handed to a bot already"))
        if now.waiting is not None:
            raise IllegalMove("handover_pending", _("a handover is already asked for; it waits for answers"))
        asked = asked_for(players, now, player, bots)
        events = [{"type": HANDOVER_REQUESTED, "seat": player, "level": level, "asked": asked}]
        if not asked:
            events.append(_handed(player, level, bot_key))
        return events
    w = now.waiting
    if w is None:
        raise IllegalMove("handover_not_pending", _("no handover is waiting for an answer"))
    if player not in w.asked or player in w.accepted:
        raise IllegalMove("handover_not_asked", _("you are not asked to answer this handover"))
    events = [{"type": HANDOVER_ANSWERED, "by": player, "answer": answer}]
    if answer == "accept" and w.accepted | {player} >= set(w.asked):
        events.append(_handed(w.seat, w.level, bot_key))
    return events


def _handed(seat: int, level: str, bot_key: str | None) -> dict:
    if not isinstance(bot_key, str) or not bot_key:
        raise IllegalMove("malformed_move", "a handover needs the bot's key")  # the server's bug, never a player's
    return {"type": SEAT_HANDED_OVER, "seat": seat, "level": level, "bot_key": bot_key}


#: The words of handover moves in mail and text, in each notation language;
#: both languages' words are read from everyone, a reader is shown their own.
#: (``accept``/``refuse`` alone are a takeback's answers: a handover's say "bot".)
WORDS = {"request": {ENGLISH: "bot", CHINESE: "機器人"},
         "accept": {ENGLISH: "accept bot", CHINESE: "接受機器人"},
         "refuse": {ENGLISH: "refuse bot", CHINESE: "拒絕機器人"},
         "return": {ENGLISH: "seat back", CHINESE: "收回座位"}}
#: A level as written after ``bot`` in each language.
LEVEL_WORDS = {"random": {ENGLISH: "random", CHINESE: "隨機"}, "greedy": {ENGLISH: "greedy", CHINESE: "貪婪"},
               "search": {ENGLISH: "search", CHINESE: "搜尋"}}
_ANSWERS = {w.casefold(): a for a, words in WORDS.items() if a != "request" for w in words.values()}
_LEVELS = {w.casefold(): level for level, words in LEVEL_WORDS.items() for w in words.values()}


def word(answer: str, level: str | None = None) -> str:
    """How a handover move is written for the reader (``bot greedy``, ``機器人 貪婪``)."""
    lang = notation_language()
    if answer == "request":
        return f"{WORDS['request'][lang]} {LEVEL_WORDS[level or 'greedy'][lang]}"
    return WORDS[answer][lang]


def parse(text: str) -> dict | None:
    """The handover move a text is, or None: ``bot LEVEL`` (``機器人 LEVEL``,
    ``機器人貪婪``), ``accept bot``, ``refuse bot``, ``seat back``, in either
    language, any case; ``bot`` with a level that is none is read as a
    request for that level (the move then says which levels there are)."""
    if not isinstance(text, str):
        return None
    said = " ".join(plain_width(text).split()).casefold().rstrip(".。!！")
    if said in _ANSWERS:
        return {"handover": _ANSWERS[said]}
    for first in (WORDS["request"][ENGLISH], WORDS["request"][CHINESE]):
        if said == first:
            return {"handover": "request", "level": "greedy"}
        rest = said[len(first):] if said.startswith(first) else None
        if rest is not None and (rest.startswith(" ") or not first.isascii()):
            rest = rest.strip(" :：")
            if rest and " " not in rest:
                return {"handover": "request", "level": _LEVELS.get(rest, rest)}
    return None


def level_name(level: str) -> str:
    return _(LEVEL_NAMES.get(level, level))


def describe(event: dict, names=None) -> str:
    """A handover event in words, in the reader's language (public)."""
    kind = event["type"]
    if kind == HANDOVER_REQUESTED:
        return _("{player} asks to hand their seat to a bot ({level}) for a while.",
                 player=name_seat(event["seat"], names, capital=True), level=level_name(event["level"]))
    if kind == HANDOVER_ANSWERED:
        who = name_seat(event["by"], names, capital=True)
        return _("{player} accepts the handover.", player=who) if event["answer"] == "accept" else \
            _("{player} refuses the handover.", player=who)
    if kind == SEAT_HANDED_OVER:
        return _("A bot ({level}) now plays for {player}.", level=level_name(event["level"]),
                 player=name_seat(event["seat"], names))
    return _("{player} takes their seat back from the bot.", player=name_seat(event["seat"], names, capital=True))


def describe_move(move: dict) -> str:
    """A handover move in words (a log line before its events are known)."""
    answer = move.get("handover")
    if answer == "request":
        return _("hand my seat to a bot ({level})", level=level_name(str(move.get("level"))))
    return {"accept": _("accept the handover"), "refuse": _("refuse the handover"),
            "return": _("take my seat back")}.get(answer, str(answer))
