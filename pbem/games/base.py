"""The game protocol every rules module implements, and its typed errors.

A game is an object registered by name and version (see ``pbem.games``).
Rules are pure functions:

    start(players, options)            -> state           (no randomness)
    setup(state, rng)                  -> [event]         (chance outcomes are events)
    evolve(state, event)               -> state           (total: never rejects a logged event)
    to_act(state)                      -> frozenset[int]  (several seats at once for reactions)
    turn_of(state)                     -> frozenset[int]  (whose turn it is: the seats the game waits for)
    window(state)                      -> None | id       (the window several seats answer at once)
    concurrent_ok(then, now, player)   -> bool            (a move signed at ``then`` still stands)
    legal_moves(state, player)         -> [move]
    decide(state, player, move, rng)   -> [event]         (raises IllegalMove)
    view(state, viewer)                -> dict            (the one place state is filtered)
    redact(event, viewer)              -> event           (the one place events are filtered)
    redact_move(move, mover, viewer, events) -> move | None (the one place moves are filtered)
    parse(text, state, player, names)  -> move            (raises ParseError)
    describe(item, viewer, names)      -> str             (a move or an event, in words)
    render(state, viewer, names, whole) -> str            (the board as text; whole: all of it)
    result(state)                      -> None | Result

``names`` is the players' names, a list by seat (None, or a shorter list,
where names are unknown). Every text names a seat through ``name_seat``:
the player's name, or "seat N" where the name is missing, blank, looks like
a seat number or is shared with another seat, so that two seats never read
alike. Where a move names a seat, ``parse`` takes the name as well as the
number (``seat_from_text``), and ``describe`` of such a move with names
parses back with the same names.

Words for people around the notation, each with a default here:
``describe_setup(options, players)`` (the setup in a line or two),
``notation_help_for(options)`` (the help with only the rules in play),
``notation_examples(options)`` (the example moves that help shows, each
parsing as it stands) and ``describe_result(result, names)`` (who won, in
words). Every line a game's ``render`` offers as a move (a line that starts
with a legal move's text) parses whole to a legal move; the contract suite
checks it, and that every example of the help parses.

Moves and events are plain JSON-able dicts with a ``type``: moves are named
in the imperative (``place_tile``), events as past participles
(``TilePlaced``). ``evolve`` must not mutate its input, ``decide`` must not
mutate the state it is given: the server caches states by version.

Hidden information in events follows one convention so that it is filtered in
one place: an event may carry a ``secret`` dict and a ``to`` list of seats
allowed to see it. ``redact`` drops both for every other viewer: who is let
into a secret is itself secret (the thief of a secret theft), so a recipient
the rules make public is named in a public field (``player``) as well. A game
may override ``redact`` to do more, never less.

A submitted move (the signed envelope behind a step of the log) is filtered
by ``redact_move``: it is shown whole, or withheld with its envelope (not
even who sent it is shown), never in part, so that what is shown can still
be verified. A move whose events keep a secret from a viewer usually must be
withheld from them too (a face-down discard names the tile in the move); the
contract suite checks that no move shows what its redacted events hide.

Viewers are a seat number, ``SPECTATOR`` (None) or ``OMNISCIENT`` (a finished
game, or the game's own replay check: nothing hidden).

Concurrency: a move is signed at the version its player saw. Most of the time
one seat acts and the rule is strict: a move signed at an older version is
refused (``stale_version``). When several seats are to act at once they
answer one *window* (Cartoona's reaction window, Kachina's opening redraw),
and each answer moves the version on while the others are still deciding;
having them all sign again would be pointless. So ``window(state)`` names the
window open in a state (any JSON-able id, equal for every state of one
window; None when there is none, the default), and ``concurrent_ok(then, now,
player)`` says whether a move ``player`` signed at state ``then`` still stands
at the later state ``now``: the default is True exactly when both states are
in the same window and the seat is to act in both, so a move from a seat of a
window, signed at any version since the window opened, applies (``decide``
still checks it on ``now``). Without a window it is False: strict. Each game
declares its rule in ``concurrency`` ("strict" or "window") and in words in
``concurrency_doc`` (``GET /game-types``); a game with several seats to act
at once must name their window (the contract suite checks it).

Randomness: the server holds a secret seed per game and gives ``setup`` and
``decide`` a ``random.Random`` made by ``rng_for(seed, version)``, so a game is
deterministic from its seed and its log, and a replay never re-rolls.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import json
import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Sequence

from .i18n import CHINESE, N_, _, join_words, language, ngettext, notation_language

Event = dict
Move = dict
State = Any

SPECTATOR = None
OMNISCIENT = "*"


# --------------------------------------------------------------------------
# Errors: user errors carry a stable code and a human message.


class GameError(Exception):
    """A problem with what a player asked for, never a bug in the server."""

    code = "game_error"

    def __init__(self, code: str | None = None, message: str = "", **details: Any):
        self.code = code or self.code
        # Built where it is raised, in the reader's language (``pbem.games.i18n``).
        self.message = message or default_message(self.code)
        self.details = details
        super().__init__(f"{self.code}: {self.message}")

    def as_dict(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class IllegalMove(GameError):
    code = "illegal_move"


class ParseError(GameError):
    """Text notation that could not be read. ``details`` holds ``expected``
    (what the parser wanted) and ``examples`` (a few legal moves in notation)."""

    code = "parse_error"


class BadOptions(GameError):
    code = "bad_options"


class SnapshotOutdated(Exception):
    """Raised by ``load`` for a dump it can no longer restore exactly (an
    older format that lost an order the rules depend on). The server then
    rebuilds the state from the log, which is always exact."""


#: The codes the protocol itself raises, for every game (each game lists its
#: own in ``Game.error_codes``). A game's codes are answered with 422, or are
#: a rejected move's ``error.code``; the registry of the server's codes is
#: pbem/errors.py, and tests/test_error_codes.py checks both against the source.
PROTOCOL_ERROR_CODES = {
    "game_error": N_("a rules error without a more precise code"),
    "illegal_move": N_("the move is not legal here (`details.move` is what was sent)"),
    "malformed_move": N_("the move is not an object with a string `type` and the fields of that type"),
    "not_your_turn": N_("the seat is not to act now"),
    "game_over": N_("the game is over"),
    "parse_error": N_("the text could not be read as a move (`details.expected`, `details.examples`)"),
    "bad_options": N_("the options are not valid for this game"),
    "bad_player_count": N_("the game does not take this number of players"),
    "unknown_option": N_("the game has no option with this name"),
    "bad_option_type": N_("the option's value has the wrong type (`details.option` names it)"),
    "bad_option_value": N_("the option's value is not one it allows (`details.option` names it, where one does; "
                           "for a list, each element's type and choices, duplicates and count too, `details.index`)"),
    "unknown_game": N_("no game type with this name (and version)"),
}

#: The codes a takeback move (pbem/games/takeback.py) is refused with.
TAKEBACK_ERROR_CODES = {
    "takeback_no_move": N_("the seat has no move standing to take back"),
    "takeback_moved_on": N_("another seat has moved since the seat's last move"),
    "takeback_chance": N_("the move drew by chance (a tile, a card, a seat): it cannot be taken back"),
    "takeback_secret": N_("the move made a secret that someone saw: it cannot be taken back"),
    "takeback_revealed": N_("the move showed another seat something hidden from them: it cannot be taken back"),
    "takeback_pending": N_("a takeback is already asked for and waits for answers"),
    "takeback_not_pending": N_("no takeback is waiting for an answer"),
    "takeback_not_asked": N_("this seat is not asked to answer the takeback (or has answered it)"),
}
PROTOCOL_ERROR_CODES.update(TAKEBACK_ERROR_CODES)

#: The codes a handover move (a seat handed to a bot: pbem/games/handover.py) is refused with.
HANDOVER_ERROR_CODES = {
    "handover_pending": N_("a handover is already asked for in this game and waits for answers"),
    "seat_handed_over": N_("the seat is handed to a bot already"),
    "seat_is_a_bot": N_("a bot of the server's plays the seat: it cannot be handed over"),
    "seat_not_handed_over": N_("the seat is not handed to a bot: there is nothing to take back"),
    "handover_not_pending": N_("no handover is waiting for an answer"),
    "handover_not_asked": N_("this seat is not asked to answer the handover (or has answered it)"),
    "unknown_bot_level": N_("no bot level with this name (`details.levels`: the levels there are)"),
}
PROTOCOL_ERROR_CODES.update(HANDOVER_ERROR_CODES)


def default_message(code: str) -> str:
    """The message of an error raised with a code only: the protocol code's
    meaning in the reader's language, else the code in words (the server's
    codes read pbem/errors.py's registry the same way)."""
    meaning = PROTOCOL_ERROR_CODES.get(code)
    return _(meaning) if meaning else code.replace("_", " ")


def require(condition: Any, code: str, message: str, **details: Any) -> None:
    """Raise IllegalMove(code, message) unless condition holds."""
    if not condition:
        raise IllegalMove(code, message, **details)


# --------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Option:
    """One named rules option. ``kind`` is bool, int, str or list. A list's
    elements are each of type ``items`` (one of ``item_choices``, if given),
    at most ``max_items`` of them, and distinct if ``unique``."""

    name: str
    default: Any
    doc: str
    kind: type = bool
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    items: type = str
    #: Any collection: a registry (a dict that grows) is read when checked.
    item_choices: Collection = ()
    unique: bool = False
    max_items: int = 1000

    def check(self, value: Any) -> Any:
        # The option's name is what the client sent, so it stays as written.
        if not _is_a(value, self.kind):
            raise BadOptions("bad_option_type", _("option {option} takes {kind}, not {value}", option=self.name,
                                                  kind=_kind_words(self.kind), value=_short(value)),
                             option=self.name)
        if self.kind is list:
            self._check_items(value)
        elif self.choices and value not in self.choices:
            raise BadOptions("bad_option_value", _("option {option} takes one of {choices}, not {value}",
                                                   option=self.name, choices=_choices(self.choices),
                                                   value=_short(value)), option=self.name)
        if self.minimum is not None and value < self.minimum:
            raise BadOptions("bad_option_value", _("option {option} takes {minimum} or more", option=self.name,
                                                   minimum=self.minimum), option=self.name)
        if self.maximum is not None and value > self.maximum:
            raise BadOptions("bad_option_value", _("option {option} takes {maximum} or less", option=self.name,
                                                   maximum=self.maximum), option=self.name)
        return value

    def _check_items(self, value: list) -> None:
        """Each element checked before any rules module sees the list: one
        that is not even hashable (``[[]]``) must not reach a set or a dict."""
        if len(value) > self.max_items:
            raise BadOptions("bad_option_value", ngettext("option {option} takes at most {n} item",
                                                          "option {option} takes at most {n} items",
                                                          self.max_items, option=self.name), option=self.name)
        for index, item in enumerate(value):
            if not _is_a(item, self.items):
                raise BadOptions("bad_option_value", _("option {option}: item {index} must be {kind}, not {value}",
                                                       option=self.name, index=index, kind=_kind_words(self.items),
                                                       value=_short(item)), option=self.name, index=index)
            if self.item_choices and item not in self.item_choices:
                raise BadOptions("bad_option_value", _("option {option}: item {index} must be one of {choices}, "
                                                       "not {value}", option=self.name, index=index,
                                                       choices=_choices(self.item_choices), value=_short(item)),
                                 option=self.name, index=index)
        if self.unique and len(set(value)) != len(value):
            twice = next(item for index, item in enumerate(value) if item in value[:index])
            raise BadOptions("bad_option_value", _("option {option} lists {value} more than once",
                                                   option=self.name, value=_short(twice)), option=self.name)

    def describe(self) -> dict:
        """The option for ``GET /game-types``: its doc in the reader's language."""
        out = {"name": self.name, "type": self.kind.__name__, "default": self.default,
               "doc": _(self.doc) if self.doc else self.doc}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.kind is list:
            out["items"] = {"type": self.items.__name__, "max_items": self.max_items, "unique": self.unique}
            if self.item_choices:
                out["items"]["choices"] = list(self.item_choices)
        return out


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if isinstance(value, list):
        return _(", ").join(map(str, value)) or _("none")
    return str(value)


def _kind_words(kind: type) -> str:
    """What a value of ``kind`` is, in words ("a whole number")."""
    words = {bool: N_("true or false"), int: N_("a whole number"), str: N_("a text"), list: N_("a list")}
    return _(words[kind]) if kind in words else kind.__name__


def _choices(choices: Collection) -> str:
    """An option's allowed values, as a client writes them ("a, b, c")."""
    return _(", ").join(str(c) for c in list(choices)[:40]) + (", ..." if len(choices) > 40 else "")


def _is_a(value: Any, kind: type) -> bool:
    """``isinstance``, where a bool is not an int (JSON's true is not 1)."""
    if kind is bool:
        return isinstance(value, bool)
    return isinstance(value, kind) and not isinstance(value, bool)


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# --------------------------------------------------------------------------
# Results


#: What a result's ``outcome`` may be: somebody won (``winners`` lists the
#: seats placed first; several share a win on a tie), the player(s) lost
#: against the game itself (a solo game, a forfeit with nobody left), or the
#: game ended with no winner (a kids' game out of time). ``winners`` is
#: empty unless the outcome is ``won``.
OUTCOMES = ("won", "lost", "no_winner")


@dataclass(frozen=True)
class Result:
    """The end of a game: a score per seat and a placing per seat (1 = first;
    tied seats share a placing), and the ``outcome`` (see ``OUTCOMES``):
    placings rank the seats among themselves, the outcome says whether
    anybody won at all. ``detail`` holds per-game breakdowns."""

    scores: tuple
    placings: tuple
    reason: str = ""
    detail: dict = field(default_factory=dict)
    outcome: str = "won"

    def __post_init__(self):
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, not {self.outcome!r}")

    @property
    def winners(self) -> list:
        if self.outcome != "won":
            return []
        return [i for i, p in enumerate(self.placings) if p == 1]

    def as_dict(self) -> dict:
        return {
            "scores": list(self.scores),
            "placings": list(self.placings),
            "outcome": self.outcome,
            "winners": self.winners,
            "reason": self.reason,
            "detail": self.detail,
        }


#: The server-made event for a seat that forfeits (a deadline's default
#: action). Rules modules never see it decided; ``evolve`` passes it by, and
#: the game's result is ``forfeit_result``, the same for every game.
SEAT_FORFEITED = "SeatForfeited"


def forfeit_result(players: int, seat: int, reason: str = "") -> Result:
    """The forfeiting seat placed last, every other seat sharing first; a
    solo player who forfeits has lost (no seat placed first)."""
    placings = tuple(2 if players == 1 else (players if s == seat else 1) for s in range(players))
    return Result(scores=tuple(0 for _seat in range(players)), placings=placings, reason="forfeit",
                  detail={"forfeited": seat, "why": reason}, outcome="lost" if players == 1 else "won")


#: The server-made event for a game the operator abandoned (``PBEM_ADMIN_TOKEN``):
#: like ``SEAT_FORFEITED`` rules modules pass it by, and the game's result is
#: ``abandoned_result``: nobody won.
GAME_ABANDONED = "GameAbandoned"


def abandoned_result(players: int, why: str = "") -> Result:
    """Every seat placed alike, no winner, ``reason`` "abandoned"."""
    return Result(scores=tuple(0 for _seat in range(players)), placings=tuple(1 for _seat in range(players)),
                  reason="abandoned", detail={"why": why}, outcome="no_winner")


def placings_from_keys(keys: list) -> tuple:
    """Placings from one sort key per seat (higher is better; equal keys tie)."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


# --------------------------------------------------------------------------
# Naming seats: the one place every game's texts get a seat's name from


# A name that reads like a seat number, in either language: "2", "seat 1",
# "p3", "#2", "座位 1", "座位2", "2號", "玩家 3" (a text's own label for a
# seat with no name is one of these, so it parses back).
_SEAT_LIKE = re.compile(r"^\s*(?:seat|player|p|座位|玩家|第)?\s*[#＃]?\s*\d+\s*(?:號位|號座位|號|位)?\s*$",
                        re.IGNORECASE)
#: How a move line names a seat with no name, by the notation's language
#: (a notation's word, like its verbs, not a message: it must paste back).
SEAT_IN_NOTATION = {"en": "seat {n}", CHINESE: "座位{n}"}


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def seat_label(seat: int, capital: bool = False) -> str:
    """A seat with no usable name, as a sentence names it ("seat 2",
    "座位2"); ``capital`` at the start of a sentence ("Seat 2 drew")."""
    return _seat_label(language(), seat, capital)


@functools.lru_cache(maxsize=1024)
def _seat_label(lang: str, seat: int, capital: bool) -> str:
    # kept per language: a Carcassonne board names its seats hundreds of times
    return _("Seat {n}", n=seat) if capital else _("seat {n}", n=seat)


def seat_names(players: int, names: Sequence | None = None) -> list:
    """How texts name each seat: the player's name (spaces tidied), or
    "seat N" (``seat_label``, in the reader's language) where the name is
    missing or blank, reads like a seat number ("2", "seat 1") or is the
    name of another seat too (compared without case): a text must never
    leave two seats looking alike, nor one seat looking like another's
    number. ``numbered`` tells which seats are named so."""
    return [seat_label(s) if n is None else n for s, n in enumerate(_names_or_none(players, names))]


def numbered(players: int, names: Sequence | None = None) -> list[bool]:
    """For each seat, whether texts name it by its number (``seat_names``)."""
    return [n is None for n in _names_or_none(players, names)]


def _names_or_none(players: int, names: Sequence | None) -> tuple:
    try:
        return _seat_names(players, None if names is None else tuple(names))
    except TypeError:  # a name that cannot be a key: worked out afresh
        return _seat_names.__wrapped__(players, names)


@functools.lru_cache(maxsize=256)
def _seat_names(players: int, names: Sequence | None) -> tuple:
    """Each seat's usable name, or None (named by number), kept for the next
    text (a board names its seats many times over)."""
    given = [names[s] if names is not None and s < len(names) else None for s in range(players)]
    tidy = [" ".join(n.split()) if isinstance(n, str) else "" for n in given]
    counts: dict = {}
    for n in tidy:
        if n:
            counts[_name_key(n)] = counts.get(_name_key(n), 0) + 1
    return tuple(n if n and counts[_name_key(n)] == 1 and not _SEAT_LIKE.match(n) else None for n in tidy)


def name_seat(seat: Any, names: Sequence | None = None, capital: bool = False, in_move: bool = False) -> str:
    """One seat as a text names it (see ``seat_names``); ``capital`` for
    the start of a sentence ("Seat 2 drew", where "Ann drew" stays as
    written). A seat that is not a seat number reads "nobody" (None) or as
    it is. ``in_move``: as a move line names it, in the notation's words
    ("seat 2", "座位2"; a name as it is), so that it parses back."""
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        if seat is not None:
            return str(seat)
        return _("Nobody") if capital else _("nobody")
    players = max(seat + 1, len(names) if names is not None else 0)
    name = _names_or_none(players, names)[seat]
    if name is not None:
        return name
    if in_move:
        return SEAT_IN_NOTATION[notation_language()].format(n=seat)
    return seat_label(seat, capital)


_SEAT_WORD = re.compile(r"\b([Ss])eat (\d+)\b|座位 ?(\d+)")


def name_seats(text: str, names, in_move: bool = False) -> str:
    """A text with "seat N" as the seat's name (``name_seat``): the texts that
    write "seat N" (Carcassonne's expansions, a game's setup in words) get
    their names here. In a move the word stays, "seat Ann", so the parse
    finds the name where the number was (Carcassonne's ``seats_by_name``)."""
    if not names:
        return text

    def named(m) -> str:
        seat = int(m.group(2) or m.group(3))
        players = max(seat + 1, len(names))
        name = _names_or_none(players, names)[seat]
        if in_move:
            return m.group(0) if name is None or m.group(1) is None else f"{m.group(1)}eat {name}"
        return seat_label(seat, capital=m.group(1) == "S") if name is None else name

    return _SEAT_WORD.sub(named, text)


def seat_from_text(text: str, players: int, names: Sequence | None = None) -> int | None:
    """The seat a word or phrase of a move names: a number ("2", "seat 2",
    "p2", "#2", "座位2", "2號") or a seat's name as texts show it
    (``seat_names``, in either language, without case). None when it names
    no seat of the game."""
    if not isinstance(text, str):
        return None
    if _SEAT_LIKE.match(text):
        seat = int(re.sub(r"\D", "", text))
        return seat if 0 <= seat < players else None
    key = _name_key(text)
    for seat, name in enumerate(_names_or_none(players, names)):
        if name is not None and _name_key(name) == key:
            return seat
    return None


# --------------------------------------------------------------------------
# Randomness


#: Marks a Chinese input method types where the notation has ASCII ones and
#: that NFKC leaves as they are (the ideographic comma).
_WIDE_MARKS = str.maketrans({"\u3001": ","})


def plain_width(text: str) -> str:
    """``text`` as the notation reads it: full-width letters, digits and
    punctuation (``ｐｌａｃｅ　－１，－１　ｒ０``, as a phone's Chinese
    keyboard types them) and the ideographic space and comma become their
    ASCII forms (NFKC, the Unicode compatibility mapping, plus ``、`` as a
    comma). Every game's ``parse`` reads its text, and the names it matches,
    through this, so ``place -1，-1 r0`` is ``place -1,-1 r0``."""
    return unicodedata.normalize("NFKC", text).translate(_WIDE_MARKS) if isinstance(text, str) else text


def plain_names(names):
    """The players' names as ``plain_width`` reads a text naming them."""
    return [plain_width(n) for n in names] if names else names


def rng_for(seed: bytes, version: int) -> random.Random:
    """The generator for the step that starts at ``version`` of a game's log.

    Derived from the secret seed and the version alone, so any worker can
    rebuild it, and the published seed lets anyone re-check every draw.
    """
    return _OnFirstUse(lambda: random.Random(int.from_bytes(
        hashlib.sha256(seed + b":" + str(version).encode()).digest(), "big")))


class _OnFirstUse:
    """A ``random.Random`` made when first used: most steps draw nothing,
    and hashing and seeding one costs more than many a rule does."""

    def __init__(self, make):
        self._make, self._rng = make, None

    def __getattr__(self, name):  # only for what is not set here: the generator's methods
        if self._rng is None:
            self._rng = self._make()
        return getattr(self._rng, name)


class _Spy:
    """A generator that only says whether it was used (``takeback_refusal``:
    a move that draws nothing decides the same whatever the seed)."""

    used = False

    def __getattr__(self, name):
        self.used = True
        return getattr(random.Random(0), name)


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


# --------------------------------------------------------------------------
# The protocol, with defaults a game may keep


#: The fields of an event only the seats of its ``to`` see (``Game.redact``).
_PRIVATE = ("secret", "to")


def canonical(value: Any) -> str:
    """Stable JSON text, for comparing moves and states."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Game:
    """Base class for rules modules. Subclasses set the class attributes and
    implement the abstract methods; the defaults cover the common cases."""

    name: str = ""
    version: int = 1
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()
    #: True when some part of the state is hidden from some viewer; such a game
    #: must implement ``resample`` so the contract suite can check its views.
    hidden_information: bool = False
    #: (players, options) pairs the contract suite and benchmarks run.
    sample_setups: tuple[tuple[int, dict], ...] = ()
    #: Help text for the text notation (email ``help`` and the CLI).
    notation_help: str = ""
    #: The game's own error codes and what each means (the protocol's are in
    #: ``PROTOCOL_ERROR_CODES``); a code with ``<...>`` stands for a family
    #: (``illegal_<move type>``). Documented from here; a test checks the source.
    error_codes: dict[str, str] = {}
    #: What each top-level field of ``view`` holds (docs/views/<game>.md is
    #: generated from it and from sample games; a test fails on a field a view
    #: has that is not described here, or one described that no view has).
    view_fields: dict[str, str] = {}
    #: "strict" (a move stands only at the version it was signed at) or
    #: "window" (see ``window`` and ``concurrent_ok``), and the rule in words.
    concurrency: str = "strict"
    concurrency_doc: str = N_("One seat acts at a time: a move must be signed at the game's current version.")

    # -- identity and options ------------------------------------------------

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"

    def title_text(self) -> str:
        """The game's name as its reader calls it (卡卡頌 for Carcassonne)."""
        return _(self.title) if self.title else self.name

    def check_options(self, players: int, options: dict | None) -> dict:
        """Validate options for a number of players; return them with defaults."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise BadOptions("bad_player_count", _("the number of players is a whole number"))
        if not self.min_players <= players <= self.max_players:
            title = self.title_text()
            raise BadOptions("bad_player_count", _("{game} takes {low} to {high} players, not {n}", game=title,
                                                   low=self.min_players, high=self.max_players, n=players)
                             if self.min_players != self.max_players else
                             _("{game} takes {high} players, not {n}", game=title, high=self.max_players, n=players))
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadOptions("unknown_option", ngettext("this game has no option {names}; its options: {known}",
                                                        "this game has no options {names}; its options: {known}",
                                                        len(unknown), names=_(", ").join(unknown),
                                                        known=_(", ").join(sorted(known)) or _("none")))
        out = {}
        for name, opt in known.items():
            out[name] = opt.check(options[name]) if name in options else copy.deepcopy(opt.default)
        self.check_setup(players, out)
        return out

    def check_setup(self, players: int, options: dict) -> None:
        """Cross-checks between options and the player count (raise BadOptions)."""

    def describe_options(self) -> list[dict]:
        return [o.describe() for o in self.options]

    # -- rules (abstract) ----------------------------------------------------

    def start(self, players: int, options: dict) -> State:
        raise NotImplementedError

    def setup(self, state: State, rng: random.Random) -> list[Event]:
        raise NotImplementedError

    def evolve(self, state: State, event: Event) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> frozenset:
        raise NotImplementedError

    def legal_moves(self, state: State, player: int) -> list[Move]:
        raise NotImplementedError

    def decide(self, state: State, player: int, move: Move, rng: random.Random) -> list[Event]:
        raise NotImplementedError

    def view(self, state: State, viewer: Any) -> dict:
        raise NotImplementedError

    def result(self, state: State) -> Result | None:
        raise NotImplementedError

    def parse(self, text: str, state: State, player: int, names: Sequence | None = None) -> Move:
        """A line of text notation as a move of ``player``; ``names`` (by
        seat) lets a move that names a seat name it by its player's name."""
        raise NotImplementedError

    def describe(self, item: dict, viewer: Any = SPECTATOR, names: Sequence | None = None) -> str:
        """A move (in notation: it parses back, with the same ``names``) or
        an event (a sentence), seats named by ``name_seat``."""
        return canonical(item)

    def render(self, state: State, viewer: Any = SPECTATOR, names: Sequence | None = None,
               whole: bool = False) -> str:
        """The board as plain text for the terminal and email, seats named
        by ``name_seat``. A line that starts with a legal move's text is
        offered as a move and parses, whole, to a legal move. A game whose
        board can outgrow a screen (Carcassonne) shows the part that
        matters now, in at most 80 columns, and says so; ``whole`` asks for
        all of it (other games show all of it anyway)."""
        return json.dumps(self.view(state, viewer), indent=2, sort_keys=True)

    # -- words around the notation (defaults a game may improve on) -----------

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        """The setup in a line or two a person reads: the game, the number
        of players and every option not at its default, in words (default:
        each option's doc)."""
        parts = [self.title_text()]
        if players is not None:
            parts.append(ngettext("{n} player", "{n} players", players))
        for opt in self.options:
            if opt.name in options and options[opt.name] != opt.default:
                parts.append(_("{rule}: {value}", rule=(_(opt.doc) if opt.doc else opt.name).rstrip(".。"),
                               value=_option_value(options[opt.name])))
        return _("{parts}.", parts=_("; ").join(parts))

    def notation_help_for(self, options: dict) -> str:
        """The notation help with only the rules these options put in play
        (default: all of ``notation_help``)."""
        return self.notation_help

    def notation_examples(self, options: dict) -> list[str]:
        """The example moves ``notation_help_for(options)`` shows, each as
        it stands there: every one parses in any position of such a game
        (the contract suite checks both)."""
        return []

    def describe_result(self, result: Result | dict, names: Sequence | None = None) -> str:
        """Who won, in words: "Ann won (17-16)", "Seat 0 lost",
        "No winner". Takes a ``Result`` or its ``as_dict``."""
        data = result.as_dict() if isinstance(result, Result) else dict(result or {})
        scores = data.get("scores") or []
        outcome = data.get("outcome", "won")
        players = len(scores) or len(data.get("placings") or [])
        reason = data.get("reason") or ""
        if outcome == "won":
            winners = data.get("winners") or []
            if players > 1 and len(winners) == players:
                head = _("Draw")
            else:
                head = _("{names} won", names=join_words([name_seat(w, names) for w in winners]))
                head = head[:1].upper() + head[1:]
        elif outcome == "lost":
            head = _("{name} lost", name=name_seat(0, names, capital=True)) if players == 1 else _("Everybody lost")
        else:
            head = _("No winner")
        if scores and reason not in ("forfeit", "abandoned"):  # their zeros are no score
            head = _("{result} ({scores})", result=head, scores="-".join(str(x) for x in scores))
        why = self.describe_reason(reason, data.get("detail") or {}, names)
        return _("{result}: {reason}.", result=head, reason=why) if why else _("{result}.", result=head)

    def describe_reason(self, reason: str, detail: dict, names: Sequence | None = None) -> str:
        """Why a game ended, in words (a result's ``reason``): the server's
        own reasons (a forfeit, the operator's end), else the game's, looked
        up as a message (a game marks its reasons with ``N_``)."""
        if reason == "forfeit":
            return _("{name} forfeited", name=name_seat(detail.get("forfeited"), names))
        if reason == "abandoned":
            return _("the game was abandoned")
        return _(reason) if reason else ""

    # -- defaults ------------------------------------------------------------

    def turn_of(self, state: State) -> frozenset:
        """The seats whose turn it is: those the game waits for, always among
        ``to_act``. By default every seat to act. A game in which some seats
        may also act out of turn, without the game waiting for them (a
        reaction the turn goes on without), leaves those out: they are told
        once that they may, not "your turn" after every turn."""
        return self.to_act(state)

    def active_seat(self, state: State) -> int | None:
        """The seat whose turn of the round it is, where other seats may owe
        a decision during it (a dragon step, a bid, a reaction the turn waits
        for): they are told it is that seat's turn and the game waits for
        their decision, not "your turn". None (the default) where each seat
        to act is in a turn of its own."""
        return None

    def window(self, state: State) -> Any:
        """The window open in ``state`` when several seats may answer at once
        (an id equal for every state of that window), else None."""
        return None

    def concurrent_ok(self, state_then: State, state_now: State, player: int) -> bool:
        """Whether a move ``player`` signed at ``state_then`` still stands at
        the later ``state_now``: the seat still answers the same window. The
        server then checks the move on ``state_now`` as any other."""
        window = self.window(state_then)
        return (window is not None and self.window(state_now) == window
                and player in self.to_act(state_then) and player in self.to_act(state_now))

    def redact(self, event: Event, viewer: Any) -> Event:
        """An event as ``viewer`` may see it: whole for the seats its ``to``
        lists (and ``OMNISCIENT``); for everyone else without ``secret`` and
        without ``to``, since who is let into a secret is part of it (a
        secret theft's ``to`` is the thief). A recipient the rules make
        public is named in a public field (``player``)."""
        if viewer == OMNISCIENT or ("secret" not in event and "to" not in event) or viewer in event.get("to", ()):
            return event
        return {k: v for k, v in event.items() if k not in _PRIVATE}

    def redact_move(self, move: Move, mover: int, viewer: Any, events: list[Event] | None = None) -> Move | None:
        """A submitted move as ``viewer`` may see it: the move itself, or None
        (withheld, with its envelope and who sent it). ``events`` are the
        events the move made, or None while it is queued or once it is
        refused. The mover and ``OMNISCIENT`` always see it (the service
        does not ask). Moves are public by default; a game whose moves can
        hold a secret overrides this, never returning a part of a move."""
        return move

    def takeback_refusal(self, before: State, players: int, player: int, move: Move,
                         events: list[Event]) -> tuple[str, str] | None:
        """Why ``player``'s move (made at state ``before``, making ``events``)
        cannot be taken back, as (code, message); None when it can. Pure.

        A takeback must never let anyone unsee something: refused when the
        move drew by chance (``decide`` touched its generator: a tile, a
        card, who starts), when its events hold a secret (someone saw it),
        or when it showed another seat something hidden from them (checked
        as the contract suite checks views: the hidden part of ``before``
        re-dealt from that seat's side, the same move must still be legal
        and look the same to them). A game may refuse more, never less."""
        spy = _Spy()
        try:
            again = self.decide(before, player, move, spy)
        except GameError:
            again = None
        if spy.used or again is None or canonical(again) != canonical(events):
            return "takeback_chance", _("your last move drew by chance: it cannot be taken back")
        if any(isinstance(e, dict) and ("secret" in e or "to" in e) for e in events):
            return "takeback_secret", _("your last move made a secret: it cannot be taken back")
        if self.hidden_information:
            for seat in range(players):
                if seat == player:
                    continue
                seen = canonical([self.redact(e, seat) for e in events])
                for trial in range(8):
                    dealt = self.resample(before, seat, random.Random(f"takeback:{seat}:{trial}"))
                    try:
                        same = canonical([self.redact(e, seat) for e in self.decide(dealt, player, move, _Spy())])
                    except GameError:
                        same = None
                    if same != seen:
                        return "takeback_revealed", _("your last move showed the other players something hidden: "
                                                      "it cannot be taken back")
        return None

    def default_move(self, state: State, player: int) -> Move | None:
        """The move made for a player who lets a deadline pass (None: forfeit)."""
        moves = self.legal_moves(state, player)
        return moves[0] if moves else None

    def resample(self, state: State, viewer: Any, rng: random.Random) -> State:
        """A state the viewer cannot tell from ``state``: everything hidden from
        them re-dealt at random. Used by the contract suite to prove that
        ``view`` leaks nothing. Games without hidden information keep this."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.key} has hidden information but no resample()")
        return state

    def dump(self, state: State) -> Any:
        """JSON-able form of a state (snapshots, equality in tests). The
        store sorts object keys, so an order the rules read (a list built
        by iterating a dict, say) must be kept in lists, not in an object's
        keys: ``load(dump(s))`` must answer every call exactly as ``s``."""
        return state

    def load(self, data: Any) -> State:
        """The state ``dump`` gave ``data`` for (raise ``SnapshotOutdated``
        for a dump from an older format that cannot be restored exactly)."""
        return data

    # -- conveniences built on the protocol ----------------------------------

    @property
    def filters_moves(self) -> bool:
        """Whether this game may withhold a move (it overrides ``redact_move``):
        only then does a reader need the move's events to show it."""
        return type(self).redact_move is not Game.redact_move

    def replay(self, players: int, options: dict, events: Iterable[Event]) -> State:
        state = self.start(players, options)
        for event in events:
            state = self.evolve(state, event)
        return state

    def apply(self, state: State, events: Iterable[Event]) -> State:
        for event in events:
            state = self.evolve(state, event)
        return state

    def check_turn(self, state: State, player: int) -> None:
        if self.result(state) is not None:
            raise IllegalMove("game_over", _("the game is over"))
        if player not in self.to_act(state):
            raise IllegalMove("not_your_turn", _("it is not your turn now"))


def check_in_legal(move: Any, legal: list[Move]) -> Move:
    """The simplest complete validation: a move is legal if it is one of the
    enumerated legal moves (compared canonically)."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove("malformed_move", _("a move is an object with a type and the fields of that type"))
    wanted = canonical(move)
    for candidate in legal:
        if canonical(candidate) == wanted:
            return candidate
    raise IllegalMove("illegal_move", _("this move is not legal now"), move=move)
