"""The link a ``games`` mail carries, and the session it opens: both prove
that their holder reads a mail address's mail.

A link is ``{PBEM_PUBLIC_URL}/my-games/signin/ADDRESS.EXPIRES.MAC``, and the
session cookie it is traded for (``pbem_me``) the same shape:
``ADDRESS`` the address (lower case, unpadded base64url), ``EXPIRES`` in
Unix seconds, ``MAC`` an HMAC-SHA256 (first 16 bytes, unpadded base64url)
with the server's secret (``PBEM_SECRET``) over both, prefixed ``mine-link``
or ``mine-session``, so that neither is ever the other, a play link, a
stream ticket or a reply token. Nothing is stored: any process with the
secret checks one alone.

The link is short-lived (an hour: URLs end up in logs and histories) and
sent only to the address itself (the answer to a mail goes to the seat's
own address, never to the mail's From); the session lasts longer
(``SESSION_TTL_S``), in an HttpOnly cookie no script reads."""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time

from ..errors import Unauthorized
from ..games.i18n import _

LINK_TTL_S = 3600
SESSION_TTL_S = 30 * 86400
_SHAPE = re.compile(r"^([A-Za-z0-9_-]{1,400})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _mac(secret: bytes, kind: str, address: str, expires: int) -> str:
    return _b64(hmac.new(secret, f"mine-{kind}\x00{address}\x00{expires}".encode(), hashlib.sha256).digest()[:16])


def make(secret: bytes, kind: str, address: str, ttl_s: float, now: float | None = None) -> str:
    """A ``link`` or ``session`` value for ``address``, valid ``ttl_s`` seconds."""
    address = address.strip().lower()
    expires = int((time.time() if now is None else now) + ttl_s)
    return f"{_b64(address.encode())}.{expires}.{_mac(secret, kind, address, expires)}"


def read(secret: bytes, kind: str, value: str | None, now: float | None = None) -> str:
    """The address a genuine, unexpired value names; else 401 ``bad_signin_link``
    or ``signin_link_expired``."""
    match = _SHAPE.match(value or "")
    address = None
    if match:
        try:
            address = base64.urlsafe_b64decode(match.group(1) + "=" * (-len(match.group(1)) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            address = None
    # The MAC first: a forged value is told it is bad, never that it expired.
    if address is None or not hmac.compare_digest(match.group(3), _mac(secret, kind, address, int(match.group(2)))):
        raise Unauthorized("bad_signin_link", _("this link is not a link of this server: it may have been cut "
                                                "short or changed; use the link in your latest mail"))
    if int(match.group(2)) <= (time.time() if now is None else now):
        raise Unauthorized("signin_link_expired", _("this link has expired: reply “games” to any mail of a game "
                                                    "of yours for a new one"))
    return address
