"""Stream tickets: a short-lived credential for one seat of one game that
fits in a URL's query string.

A browser's ``EventSource`` cannot send an ``Authorization`` header, so a page
(or a link in a turn mail) opens ``/games/{id}/events/stream?ticket=...``
instead. A ticket is ``GAME.SEAT.EXPIRES.MAC``: ``EXPIRES`` in Unix seconds,
``MAC`` an HMAC-SHA256 (first 16 bytes, unpadded base64url) with the server's
secret (``PBEM_SECRET``, the one that signs reply tokens) over the three
fields, prefixed ``ticket`` so that no reply token's MAC is ever a ticket's.
Nothing is stored: any process with the secret checks a ticket alone.

Tickets are short-lived because URLs end up in logs and browser history;
a ticket is checked when a stream opens, not while it stays open.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time

from ..errors import Unauthorized
from ..games.i18n import _

_TICKET = re.compile(r"^([a-z0-9]{1,64})\.(\d{1,2})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$")


def _mac(secret: bytes, game_id: str, seat: int, expires: int) -> str:
    digest = hmac.new(secret, f"ticket\x00{game_id}\x00{seat}\x00{expires}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def make_ticket(secret: bytes, game_id: str, seat: int, ttl_s: float, now: float | None = None) -> tuple[str, int]:
    """A ticket for ``seat`` of ``game_id`` valid for ``ttl_s`` seconds, and
    when it expires (Unix seconds)."""
    expires = int((time.time() if now is None else now) + ttl_s)
    return f"{game_id}.{seat}.{expires}.{_mac(secret, game_id, seat, expires)}", expires


def check_ticket(secret: bytes, ticket: str, game_id: str, now: float | None = None) -> int:
    """The seat a genuine, unexpired ticket for ``game_id`` names; else 401
    (``bad_ticket``, or ``ticket_expired`` for a genuine one out of date)."""
    match = _TICKET.match(ticket)
    if not match or match.group(1) != game_id:
        raise Unauthorized("bad_ticket", _("this ticket is not a ticket for this game"))
    seat, expires = int(match.group(2)), int(match.group(3))
    # The MAC first: a forged ticket is told it is bad, never that it expired.
    if not hmac.compare_digest(match.group(4), _mac(secret, game_id, seat, expires)):
        raise Unauthorized("bad_ticket", _("this ticket is not a ticket for this game"))
    if expires <= (time.time() if now is None else now):
        raise Unauthorized("ticket_expired", _("this ticket has expired: ask for a new one (POST "
                                             "/games/{id}/seats/{seat}/ticket)"), expired=expires)
    return seat
