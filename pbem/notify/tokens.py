"""Reply tokens: ``move+TOKEN@MAIL_DOMAIN`` names a game and a seat, with an
HMAC (server secret) so a reply address cannot be made up for another seat."""
from __future__ import annotations

import base64
import hashlib
import hmac
import re

_TOKEN = re.compile(r"^([a-z0-9]{1,64})\.(\d{1,2})\.([a-z2-7]{26})$")


def _mac(secret: bytes, game_id: str, seat: int) -> str:
    digest = hmac.new(secret, f"reply\x00{game_id}\x00{seat}".encode(), hashlib.sha256).digest()[:16]
    return base64.b32encode(digest).decode().rstrip("=").lower()


def reply_token(secret: bytes, game_id: str, seat: int) -> str:
    """Lower case only: mail systems may fold the local part's case."""
    return f"{game_id}.{seat}.{_mac(secret, game_id, seat)}"


def read_reply_token(secret: bytes, token: str) -> tuple[str, int] | None:
    """(game id, seat) for a genuine token, else None."""
    match = _TOKEN.match(token.strip().lower())
    if not match:
        return None
    game_id, seat, mac = match.group(1), int(match.group(2)), match.group(3)
    if not hmac.compare_digest(mac, _mac(secret, game_id, seat)):
        return None
    return game_id, seat


def reply_address(secret: bytes, domain: str, game_id: str, seat: int) -> str:
    return f"move+{reply_token(secret, game_id, seat)}@{domain}"
