"""Recipient addresses: ``move+TOKEN@MAIL_DOMAIN``.

Two kinds of token, both HMACs under the server secret:

* a reply token (``pbem.notify.tokens``): ``GAME.SEAT.MAC``, a seat's moves;
* an invitation token (here): ``GAME.jSEAT.NONCE.MAC``, made with another
  HMAC purpose, so one can never stand for the other: it lets its holder
  take the seat it was invited to (reply ``join``, the link
  ``/join/TOKEN``, or ``invitation`` in ``POST /games/{id}/seats/{seat}``).
  ``NONCE`` is the invitation's own (stored with it): a withdrawn or
  replaced invitation's token names a nonce the seat no longer has, so it
  stops working. (``GAME.jSEAT.MAC``, without a nonce, is the token of an
  invitation made before nonces: it stands for that invitation only.)
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from email.utils import parseaddr

from ..notify.tokens import read_reply_token
from . import subscription_tokens

_INVITE = re.compile(r"^([a-z0-9]{1,64})\.j(\d{1,2})(?:\.([a-z2-7]{8}))?\.([a-z2-7]{26})$")
LOCAL_PREFIX = "move+"


@dataclass(frozen=True)
class Recipient:
    kind: str          # "reply", "invite"; "lobby", "confirm", "announce" (pbem/mail_in/subscriptions.py)
    game_id: str
    seat: int
    token: str
    address: str
    #: An invitation token's nonce ("" for one made before nonces); None for a reply token.
    nonce: str | None = None


def new_invitation_nonce() -> str:
    """An invitation's own nonce: 8 base32 letters (lower case: a mail
    address's local part may come back in any case)."""
    return base64.b32encode(secrets.token_bytes(5)).decode().lower()


def _invite_mac(secret: bytes, game_id: str, seat: int, nonce: str = "") -> str:
    message = f"invite\x00{game_id}\x00{seat}" + (f"\x00{nonce}" if nonce else "")
    digest = hmac.new(secret, message.encode(), hashlib.sha256).digest()[:16]
    return base64.b32encode(digest).decode().rstrip("=").lower()


def invite_token(secret: bytes, game_id: str, seat: int, nonce: str = "") -> str:
    middle = f".{nonce}" if nonce else ""
    return f"{game_id}.j{seat}{middle}.{_invite_mac(secret, game_id, seat, nonce)}"


def invite_address(secret: bytes, domain: str, game_id: str, seat: int, nonce: str = "") -> str:
    return f"{LOCAL_PREFIX}{invite_token(secret, game_id, seat, nonce)}@{domain}"


def read_invite_token(secret: bytes, token: str) -> tuple[str, int, str] | None:
    """(game, seat, nonce) of a genuine invitation token; None for anything
    else. Whether the seat's invitation still has that nonce is the claim's
    to say (``Store.claim``)."""
    match = _INVITE.match(token.strip().lower()) if isinstance(token, str) else None
    if not match:
        return None
    game_id, seat, nonce, mac = match.group(1), int(match.group(2)), match.group(3) or "", match.group(4)
    if not hmac.compare_digest(mac, _invite_mac(secret, game_id, seat, nonce)):
        return None
    return game_id, seat, nonce


def read_recipient(secret: bytes, domain: str, address: str) -> Recipient | None:
    """The game and seat a recipient address stands for, or None when it is
    not ours: another domain, another local part, a made-up or altered token."""
    if not isinstance(address, str) or len(address) > 320:
        return None
    _, addr = parseaddr(address)
    addr = (addr or address).strip().strip("<>").lower()
    local, at, dom = addr.rpartition("@")
    if not at or dom != domain.lower() or not local.startswith(LOCAL_PREFIX):
        return None
    token = local[len(LOCAL_PREFIX):]
    found = read_reply_token(secret, token)
    if found:
        return Recipient("reply", found[0], found[1], token, addr)
    found = read_invite_token(secret, token)
    if found:
        return Recipient("invite", found[0], found[1], token, addr, found[2])
    found = subscription_tokens.read_token(secret, token)  # the lobby's, a confirmation's, an announcement's
    if found:
        return Recipient(found[0], found[1], -1, token, addr, found[2])
    return None
