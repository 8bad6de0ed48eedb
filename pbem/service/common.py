"""What the service's parts share: a loaded game (``Loaded``), the state
cache, and the small functions the API and the event-stream process use too
(who a token is, events as a viewer sees them)."""
from __future__ import annotations

import hashlib
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from .. import games
from ..errors import NotFound, Unauthorized, Unprocessable
from ..games import takeback
from ..games.base import OMNISCIENT, SPECTATOR
from ..store import Store
from ..games.i18n import ENGLISH, LANGUAGES, _, language_of, reader_language
from ..when import valid_zone

log = logging.getLogger("pbem.service")

SETUP_MOVE = "setup"
#: What ``Service.actor`` answers for the game's creator token.
CREATOR = "creator"
#: The first wait for an outcome, in the round trip that queues the move:
#: long enough for a busy server, short enough that a drainer that had just
#: gone costs little (a move then waits again, see ``MoveQueue.push_and_wait``).
FIRST_WAIT_S = 0.5


@dataclass(frozen=True)
class Loaded:
    meta: dict
    game: games.Game
    state: Any
    version: int

    @property
    def id(self) -> str:
        return self.meta["id"]

    @property
    def finished(self) -> bool:
        return self.meta.get("status") == "finished"


class StateCache:
    """Recently used states by game, the last few versions of each. States
    are never mutated (the rules are pure), so sharing them between requests
    is safe; keeping a few versions serves the reads that trail the log by a
    move or two (notifications, replays of recent versions). With the newest
    state goes the meta it was current under, when the caller knew it (the
    API's one-round-trip submit needs both, see ``Service._submit_hot``)."""

    def __init__(self, size: int = 512, versions: int = 4):
        self.size, self.versions = size, versions
        self._items: OrderedDict[str, dict[int, Any]] = OrderedDict()
        self._metas: dict[str, dict] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str, at_most: int | None = None) -> tuple[int, Any] | None:
        """The newest cached (version, state), or the newest not after ``at_most``."""
        with self._lock:
            states = self._items.get(game_id)
            if not states:
                return None
            self._items.move_to_end(game_id)
            fitting = [v for v in states if at_most is None or v <= at_most]
            if not fitting:
                return None
            version = max(fitting)
            return version, states[version]

    def current(self, game_id: str) -> tuple[int, Any, dict] | None:
        """The newest (version, state, meta), if its meta is known."""
        with self._lock:
            states, meta = self._items.get(game_id), self._metas.get(game_id)
            if not states or meta is None or meta["version"] != max(states):
                return None
            return meta["version"], states[meta["version"]], meta

    def put(self, game_id: str, version: int, state: Any, meta: dict | None = None) -> None:
        """Keep ``state``; ``meta``, if given, is the game's meta at ``version``."""
        with self._lock:
            states = self._items.setdefault(game_id, {})
            states[version] = state
            if meta is not None and meta.get("version") == version:
                self._metas[game_id] = meta
            if len(states) > self.versions:
                del states[min(states)]
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                gone, _states = self._items.popitem(last=False)
                self._metas.pop(gone, None)


@dataclass(frozen=True)
class SeatProof:
    """A seat its caller proved otherwise than by the seat's bearer token: a
    turn mail's play link, whose HMAC the web pages checked (pbem/trust/play_links.py).
    Passed where a read function takes a token, it reads as that seat, so a
    link holder sees exactly what the seat's token would show."""
    seat: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_of(meta: dict) -> games.Game:
    """The rules a game is played under (by name and version, from its meta)."""
    return games.get(meta["game"], int(meta["rules_version"]))


def seat_of_token(seats: dict[int, dict], token: str | None):
    """The seat a bearer token belongs to, among a game's ``seats``; None
    (spectator) without one. Shared by the API and the event-stream process."""
    if token is None:
        return SPECTATOR
    wanted = token_hash(token)
    for seat, data in seats.items():
        if secrets.compare_digest(data["token_sha256"], wanted):
            return seat
        if data.get("bot_token_sha256") and secrets.compare_digest(data["bot_token_sha256"], wanted):
            return seat  # the bot of a seat handed over (pbem/service/handovers.py) reads as the seat
    raise Unauthorized("bad_token", _("this token belongs to no seat of this game"))


def unknown_seat(game_id: str, meta: dict) -> NotFound:
    """404 for a seat number the game does not have."""
    return NotFound("unknown_seat", _("game {game} has seats 0 to {last}", game=game_id,
                                      last=int(meta["players"]) - 1))


# -- languages (the Languages part, pbem/service/languages.py, changes a seat's)


def chosen_language(tag, default: str | None = None) -> str | None:
    """The language pbem stores for ``tag`` ("zh-TW" -> "zh-Hant"), or
    ``default`` when none is given; 422 ``unknown_language`` for a tag pbem
    has no language for."""
    if tag is None:
        return default
    lang = language_of(tag)
    if lang not in LANGUAGES:  # the pseudo-locale is for testing, never stored
        raise Unprocessable("unknown_language", _("pbem has no language {tag}: choose en (English) or zh-Hant "
                                                  "(Traditional Chinese)", tag=repr(tag)),
                            lang=tag, languages=list(LANGUAGES))
    return lang


def chosen_zone(name) -> str | None:
    """An IANA time zone name as given ("Asia/Taipei"), None when none is;
    422 ``unknown_time_zone`` for one that is not a zone."""
    if name is None:
        return None
    if not valid_zone(name):
        raise Unprocessable("unknown_time_zone", _("{zone} is not a time zone: give an IANA name such as "
                                                   "Asia/Taipei or Europe/London", zone=repr(name)), tz=name)
    return name


def preferences(lang=None, tz=None) -> dict:
    """The ``lang`` and ``tz`` to store with a seat or an invitation: only
    those chosen, each checked (nothing is stored when one is refused)."""
    out = {"lang": chosen_language(lang), "tz": chosen_zone(tz)}
    return {k: v for k, v in out.items() if v is not None}


def seat_language(seat: dict | None, meta: dict | None) -> str:
    """The language a seat reads: its own, else its game's."""
    return reader_language((seat or {}).get("lang"), (meta or {}).get("lang"))


def game_language(meta: dict | None) -> str:
    return language_of((meta or {}).get("lang")) or ENGLISH


def names_of(seats: dict, players: int) -> list:
    """The players' names by seat (None where a seat is free): what the
    games' texts name seats by, on every read path (API and stream alike)."""
    return [seats[s]["name"] if s in seats else None for s in range(players)]


def shown_events(game: games.Game, viewer, finished: bool, rows, names=None) -> list[dict]:
    """Log rows (version, event, move id) as ``viewer`` may see them, public
    once the game is ``finished``: the items of ``GET /games/{id}/events``.
    The event stream (pbem/stream) sends exactly these, so the game's
    ``redact`` stays the one filter of events on every read path. ``names``
    (by seat) name the players in the texts."""
    seen = OMNISCIENT if finished else viewer
    items = []
    for version, event, move_id in rows:
        shown = takeback.shown(game, event, seen)
        items.append({"version": version, "move_id": move_id, "event": shown,
                      "text": takeback.describe_item(game, shown, seen, names)})
    return items


def new_game_id() -> str:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _i in range(10))


class Part:
    """What every part of the service works with (set by ``Service.__init__``):
    each part is a mixin of the one ``Service`` object, so that callers keep
    one facade and the parts share the caches."""

    store: Store
    cache: StateCache
    past: Any  # PastStates (pbem/service/past.py)
    snapshot_every: int
    enqueue: Callable | None
    enqueue_wait: Callable | None
    enqueue_checked: Callable | None
    after_apply: list
    after_apply_batch: list
    after_reject: list
    _seats: dict
    _seeds: dict
    _memo_lock: threading.Lock


def readable_chat(message: dict, viewer) -> bool:
    """Whether ``viewer`` (a seat, or SPECTATOR) may read a chat message
    (pbem/service/chat.py): a public one, or a private one to or from it."""
    if message["to"] is None:
        return True
    return viewer is not SPECTATOR and viewer in (message["seat"], message["to"])
