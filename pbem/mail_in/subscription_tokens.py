"""The addresses and links of announcement mails (pbem/mail_in/subscriptions.py),
HMACs under the server secret like every other token, each with its own
purpose, so that none can stand for another:

* ``move+games@MAIL_DOMAIN``: the lobby's address, where ``subscribe
  carcassonne`` and ``unsubscribe`` are sent (no token: anyone may write);
* ``move+s.NONCE.MAC``: the reply address of a confirmation mail; a reply
  to it proves the address receives mail (double opt-in);
* ``move+a.GAME.HASH.MAC``: the reply address of one game's announcement
  to one subscriber (HASH: their address's, ``address_hash``), where
  ``join`` takes a free seat;
* ``u.GAME_TYPE.HASH.MAC``: the one-click unsubscribe link's token.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

#: The lobby's address's local part (after ``move+``).
LOBBY = "games"
#: What a lobby or confirmation recipient names as its game: no game's id
#: can be it (ids are letters and digits).
NO_GAME = "-subscriptions"
_CONFIRM = re.compile(r"^s\.([a-z2-7]{16})\.([a-z2-7]{16})$")
_ANNOUNCE = re.compile(r"^a\.([a-z0-9]{1,32})\.([0-9a-f]{12})\.([a-z2-7]{16})$")
_UNSUBSCRIBE = re.compile(r"^u\.([a-z0-9_]{1,32})\.([0-9a-f]{12})\.([a-z2-7]{16})$")


def address_hash(email: str) -> str:
    """A subscriber's address as tokens and keys name it (never the address)."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()[:12]


def new_nonce() -> str:
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def _mac(secret: bytes, purpose: str, *fields: str) -> str:
    message = "\x00".join((purpose, *fields)).encode()
    return base64.b32encode(hmac.new(secret, message, hashlib.sha256).digest()[:10]).decode().lower()


def confirm_token(secret: bytes, nonce: str) -> str:
    return f"s.{nonce}.{_mac(secret, 'subscribe', nonce)}"


def announce_token(secret: bytes, game_id: str, hashed: str) -> str:
    return f"a.{game_id}.{hashed}.{_mac(secret, 'announce', game_id, hashed)}"


def unsubscribe_token(secret: bytes, game_type: str, hashed: str) -> str:
    return f"u.{game_type}.{hashed}.{_mac(secret, 'unsubscribe', game_type, hashed)}"


def read_token(secret: bytes, token: str) -> tuple[str, str, str] | None:
    """(kind, game id, detail) of a genuine lobby, confirmation or
    announcement token: ("lobby", NO_GAME, ""), ("confirm", NO_GAME, nonce),
    ("announce", game id, address hash); None for anything else."""
    if token == LOBBY:
        return "lobby", NO_GAME, ""
    found = _CONFIRM.match(token)
    if found and hmac.compare_digest(found.group(2), _mac(secret, "subscribe", found.group(1))):
        return "confirm", NO_GAME, found.group(1)
    found = _ANNOUNCE.match(token)
    if found and hmac.compare_digest(found.group(3), _mac(secret, "announce", found.group(1), found.group(2))):
        return "announce", found.group(1), found.group(2)
    return None


def read_unsubscribe(secret: bytes, token: str) -> tuple[str, str] | None:
    """(game type, address hash) of a genuine unsubscribe token, else None."""
    found = _UNSUBSCRIBE.match(str(token or "").strip().lower())
    if not found or not hmac.compare_digest(found.group(3), _mac(secret, "unsubscribe", found.group(1),
                                                                   found.group(2))):
        return None
    return found.group(1), found.group(2)
