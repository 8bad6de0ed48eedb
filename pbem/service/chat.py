"""The players' chat: who may say what to whom, and who reads which message.

A seat says a message to everyone, or to one other seat (private). A seat
reads the public messages and the private ones to or from it; a spectator
(no token) reads the public ones only, and says nothing. A finished game
keeps its chat as it was (no message after the end: its archive is final).

Chat is the players' own text, never the game's: nothing here reads a state
or an event, so no secret of the game can pass through it. It is not in the
game's log (pbem/store/chat.py): a message never changes the game's version.

Bounds (settings): ``PBEM_CHAT_MAX_CHARS`` characters per message and
``PBEM_CHAT_PER_MINUTE`` messages per seat and minute. A message is one line
of text: control characters (newlines too) are refused. Refused, nothing is
stored."""
from __future__ import annotations

import math
import time
import unicodedata
from dataclasses import dataclass

from ..errors import Conflict, ServiceError, Unprocessable
from ..games.i18n import _
from ..invisible import first_invisible_format
from ..settings.registry import env
from ..store import chat as chat_store
from .common import readable_chat as readable, unknown_seat

#: The window the per-seat allowance counts in.
WINDOW_MS = 60_000


class ChatTooFast(ServiceError):
    """429 ``chat_too_fast``, with when to try again."""
    status, code = 429, "chat_too_fast"

    def __init__(self, message: str, retry_after: int):
        super().__init__(self.code, message, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after)}


@dataclass(frozen=True)
class ChatLimits:
    max_chars: int = 500
    per_minute: int = 10

    @classmethod
    def from_env(cls) -> "ChatLimits":
        return cls(max_chars=env("PBEM_CHAT_MAX_CHARS"), per_minute=env("PBEM_CHAT_PER_MINUTE"))


def checked_text(text, limits: ChatLimits) -> str:
    """The message as stored (its ends trimmed), or 422 with why not."""
    text = str(text or "").strip()
    if not text:
        raise Unprocessable("chat_empty", _("a chat message needs some text"))
    if len(text) > limits.max_chars:
        raise Unprocessable("chat_too_long", _("a chat message has at most {n} characters (this one has {m})",
                                               n=limits.max_chars, m=len(text)), max_chars=limits.max_chars)
    if any(unicodedata.category(ch) == "Cc" for ch in text) or first_invisible_format(text):
        raise Unprocessable("chat_control_character",
                            _("a chat message is one line of text: no line breaks, control or invisible format characters"))
    return text


def say(service, game_id: str, seat: int, text, to: int | None, limits: ChatLimits,
        now: float | None = None) -> dict:
    """Store what ``seat`` says (to everyone, or to seat ``to``): the
    message as readers get it. Everything is checked before anything is
    stored; the allowance is counted in the same atomic step as the store."""
    meta = service._meta(game_id)
    players = int(meta["players"])
    if to is not None:
        if not 0 <= to < players:
            raise unknown_seat(game_id, meta)
        if to == seat:
            raise Unprocessable("chat_to_self", _("a private message goes to another seat than yours"))
    text = checked_text(text, limits)
    at = time.time() if now is None else now
    outcome, n, version = chat_store.say(service.store, game_id, seat, to, text, at, limits.per_minute, WINDOW_MS)
    if outcome == "finished":
        raise Conflict("chat_closed", _("the game is over: its chat is closed"))
    if outcome == "too_fast":
        wait = max(1, math.ceil(n / 1000))
        raise ChatTooFast(_("at most {n} chat messages a minute; try again in {wait} s", n=limits.per_minute,
                            wait=wait), retry_after=wait)
    if outcome == "unknown":
        service._meta(game_id)  # gone meanwhile: 404 unknown_game
    return {"n": n, "seat": seat, "to": to, "text": text, "time": at, "version": version}


def read(service, game_id: str, viewer, after: int = 0) -> list[dict]:
    """The messages after number ``after`` that ``viewer`` may read, in order."""
    return [m for m in chat_store.said(service.store, game_id) if m["n"] > after and readable(m, viewer)]


def since_version(service, game_id: str, viewer, version: int, most: int = 20) -> list[dict]:
    """What ``viewer`` may read of what was said from game version
    ``version`` on (a turn mail's: since the seat's last move), the latest
    ``most``."""
    return [m for m in read(service, game_id, viewer) if m["version"] >= version][-most:]
