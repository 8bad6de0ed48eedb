"""Play links: the link in a turn mail that opens the game's page as that
seat and lets it move from there, without a key or a bearer token.

A link is ``{PBEM_PUBLIC_URL}/play/GAME.SEAT.EXPIRES.MAC``: ``EXPIRES`` in
Unix seconds, ``MAC`` an HMAC-SHA256 (first 16 bytes, unpadded base64url)
with the server's secret (``PBEM_SECRET``, the one that signs reply tokens)
over the three fields, prefixed ``play`` so that neither a reply token's MAC
nor a stream ticket's is ever a play link's. Nothing is stored: any process
with the secret checks a link alone.

It is not the seat's long-lived bearer token: it names one game and seat,
expires (by default after a week, or at the turn's deadline), and the moves
made through it are recorded as ``auth: mail-link`` (``Service.submit_trusted``),
as a reply to the mail would be ``mail-token``. A mail is as private as the
mailbox it lands in, so whoever holds the link may play that seat until then,
which is what a reply to the same mail could do.

    play_link(settings, game_id, seat) -> str      # for the turn mails
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time

from ..errors import Unauthorized
from ..games.i18n import _

#: How long a link lives when the caller names no expiry.
DEFAULT_TTL_S = 7 * 86400
_LINK = re.compile(r"^([a-z0-9]{1,64})\.(\d{1,2})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$")


def _mac(secret: bytes, game_id: str, seat: int, expires: int) -> str:
    digest = hmac.new(secret, f"play\x00{game_id}\x00{seat}\x00{expires}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def make_token(secret: bytes, game_id: str, seat: int, expires: float) -> str:
    """The path part of a play link for ``seat`` of ``game_id`` until ``expires`` (Unix seconds)."""
    expires = int(expires)
    return f"{game_id}.{seat}.{expires}.{_mac(secret, game_id, seat, expires)}"


def read_token(secret: bytes, token: str, now: float | None = None) -> tuple[str, int, int]:
    """(game id, seat, expiry) of a genuine, unexpired link; else 401
    ``bad_link`` (not a link this server made) or ``link_expired``."""
    match = _LINK.match(token or "")
    if not match:
        raise Unauthorized("bad_link", _("this link is not a play link of this server: it may have been cut "
                                         "short or changed; use the link in your latest turn mail"))
    game_id, seat, expires = match.group(1), int(match.group(2)), int(match.group(3))
    # The MAC first: a forged link is told it is bad, never that it expired.
    if not hmac.compare_digest(match.group(4), _mac(secret, game_id, seat, expires)):
        raise Unauthorized("bad_link", _("this link is not a play link of this server: it may have been cut "
                                         "short or changed; use the link in your latest turn mail"))
    if expires <= (time.time() if now is None else now):
        raise Unauthorized("link_expired", _("this play link has expired: use the link in your latest turn "
                                             "mail, or reply to that mail with your move"), expired=expires,
                           game=game_id)
    return game_id, seat, expires


def play_link(settings, game_id: str, seat: int, *, expires: float | None = None,
              ttl_s: float = DEFAULT_TTL_S, now: float | None = None) -> str:
    """The link to put in a turn mail for ``seat`` of ``game_id``.

    ``settings`` is the notifications' ``NotifySettings`` (its ``public_url``,
    from ``PBEM_PUBLIC_URL``, and ``secret()``). The link expires at
    ``expires`` (say, the turn's deadline) if given, else ``ttl_s`` seconds
    from now (a week)."""
    if expires is None:
        expires = (time.time() if now is None else now) + ttl_s
    base = str(settings.public_url).rstrip("/")
    return f"{base}/play/{make_token(settings.secret(), game_id, seat, expires)}"
