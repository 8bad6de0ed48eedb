"""Recipient addresses: ``move+TOKEN@MAIL_DOMAIN``.

Two kinds of token, both HMACs under the server secret:

* a reply token (``pbem.notify.tokens``): ``GAME.SEAT.MAC``, a seat's moves;
* an invitation token (here): ``GAME.jSEAT.MAC``, made with another HMAC
  purpose, so one can never stand for the other: it lets its holder take a
  free seat (reply ``join``).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from email.utils import parseaddr

from ..notify.tokens import read_reply_token

_INVITE = re.compile(r"^([a-z0-9]{1,64})\.j(\d{1,2})\.([a-z2-7]{26})$")
LOCAL_PREFIX = "move+"


@dataclass(frozen=True)
class Recipient:
    kind: str          # "reply" or "invite"
    game_id: str
    seat: int
    token: str
    address: str


def _invite_mac(secret: bytes, game_id: str, seat: int) -> str:
    digest = hmac.new(secret, f"invite\x00{game_id}\x00{seat}".encode(), hashlib.sha256).digest()[:16]
    return base64.b32encode(digest).decode().rstrip("=").lower()


def invite_token(secret: bytes, game_id: str, seat: int) -> str:
    return f"{game_id}.j{seat}.{_invite_mac(secret, game_id, seat)}"


def invite_address(secret: bytes, domain: str, game_id: str, seat: int) -> str:
    return f"{LOCAL_PREFIX}{invite_token(secret, game_id, seat)}@{domain}"


def read_invite_token(secret: bytes, token: str) -> tuple[str, int] | None:
    match = _INVITE.match(token.strip().lower())
    if not match:
        return None
    game_id, seat, mac = match.group(1), int(match.group(2)), match.group(3)
    if not hmac.compare_digest(mac, _invite_mac(secret, game_id, seat)):
        return None
    return game_id, seat


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
        return Recipient("invite", found[0], found[1], token, addr)
    return None
