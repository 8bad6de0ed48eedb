"""Ed25519 keys and signed move envelopes.

An envelope is ``{game, player, expected_version, move, nonce, signature}``.
The signature is Ed25519 over the RFC 8785 canonical JSON of the envelope
without ``signature``. ``game`` is inside what is signed, so a move signed for
one game can never be replayed into another one where the same key sits.
Keys and signatures travel as unpadded base64url.

Two other requests are signed by a seat's key the same way (Ed25519 over the
RFC 8785 JSON of what they say), each with its own ``purpose`` inside what
is signed, so that no signature made for one kind is ever good for another
(a move has no ``purpose`` and always ``expected_version`` and ``move``):

* a signed join (``JOIN``: game, seat, public_key, issued_at), which lets
  the key that holds a seat take it "again" and get a new token when the
  answer to its join was lost;
* a token request (``SEAT_TOKEN``: game, seat, nonce, issued_at) for a fresh
  bearer token. Its nonce is used once.

``issued_at`` (Unix seconds) must be within the server's window
(``PBEM_SIGNED_REQUEST_WINDOW_S``) of its clock: a request seen once is
worthless later.
"""
from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time

import rfc8785
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey
from ..games.i18n import _

SIGNED_FIELDS = ("game", "player", "expected_version", "move", "nonce")


class SignatureError(Exception):
    def __init__(self, code: str, message: str):
        self.code, self.message = code, message
        super().__init__(message)


def b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64d(text: str) -> bytes:
    """Strict unpadded base64url: one text per byte string, so no two
    spellings of a key or a signature are accepted."""
    if not isinstance(text, str):
        raise ValueError("not a string")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64e(raw) != text:
        raise ValueError("not canonical unpadded base64url")
    return raw


def move_id_for(game_id: str, player: int, nonce: str) -> str:
    """Moves are named by (game, seat, nonce), so a nonce can be used once and
    a client knows its move's id before it asks: the first 24 hex digits of
    sha256 over the UTF-8 of ``game NUL seat NUL nonce`` (docs/record.md)."""
    return hashlib.sha256(f"{game_id}\x00{player}\x00{nonce}".encode()).hexdigest()[:24]


def generate_key() -> tuple[str, str]:
    """A new (private, public) key pair, base64url."""
    key = SigningKey.generate()
    return b64e(bytes(key)), b64e(bytes(key.verify_key))


def public_key_of(private_key: str) -> str:
    return b64e(bytes(SigningKey(b64d(private_key)).verify_key))


def check_public_key(text: str) -> str:
    try:
        raw = b64d(text)
        VerifyKey(raw)
    except Exception:
        raise SignatureError("bad_public_key", _("public_key must be a 32-byte Ed25519 key in base64url")) from None
    if len(raw) != 32:
        raise SignatureError("bad_public_key", _("public_key must be a 32-byte Ed25519 key in base64url"))
    return b64e(raw)


def signed_bytes(envelope: dict) -> bytes:
    return rfc8785.dumps({k: envelope[k] for k in SIGNED_FIELDS if k in envelope})


def _quick_bytes(envelope: dict) -> bytes | None:
    """The standard library's sorted, compact JSON of the signed fields: the
    same bytes as RFC 8785 for the usual envelope (integers, ASCII keys), and
    ten times cheaper. Where the two differ (floats, keys beyond the BMP)
    these bytes fail to verify and ``verify`` falls back to RFC 8785, so
    accepting them is no weaker: bytes a key signed parse to one value."""
    try:
        return json.dumps({k: envelope[k] for k in SIGNED_FIELDS if k in envelope}, sort_keys=True,
                          separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    except (TypeError, ValueError):
        return None


def sign(envelope: dict, private_key: str) -> dict:
    """The envelope with its signature added."""
    signature = SigningKey(b64d(private_key)).sign(signed_bytes(envelope)).signature
    return {**envelope, "signature": b64e(signature)}


def make_envelope(game: str, player: int, expected_version: int, move: dict, private_key: str,
                  nonce: str | None = None) -> dict:
    return sign({"game": game, "player": player, "expected_version": expected_version,
                 "move": move, "nonce": nonce or secrets.token_urlsafe(16)}, private_key)


def verify(envelope: dict, public_key: str) -> None:
    """Raise SignatureError unless the envelope is signed by ``public_key``."""
    try:
        signature = b64d(envelope.get("signature", ""))
    except Exception:
        raise SignatureError("bad_signature", _("the signature is not base64url")) from None
    if len(signature) != 64:
        raise SignatureError("bad_signature", _("the signature must be 64 bytes of Ed25519 in base64url"))
    try:
        key = VerifyKey(b64d(public_key))
    except ValueError:
        raise SignatureError("bad_public_key", _("this seat's public key is not a valid Ed25519 key")) from None
    quick = _quick_bytes(envelope)
    if quick is not None:
        try:
            key.verify(quick, signature)
            return
        except BadSignatureError:
            pass
    try:
        key.verify(signed_bytes(envelope), signature)
    except (BadSignatureError, ValueError, rfc8785.CanonicalizationError):
        raise SignatureError("bad_signature", _("the signature does not match this seat's key")) from None


#: Purposes of signed requests other than moves (see the module's text).
JOIN = "pbem-join"
SEAT_TOKEN = "pbem-seat-token"
#: How far a signed request's ``issued_at`` may be from the server's clock
#: by default (``PBEM_SIGNED_REQUEST_WINDOW_S``).
REQUEST_WINDOW_S = 300.0


def request_bytes(purpose: str, fields: dict) -> bytes:
    """What a signed request's signature covers: RFC 8785 JSON of its fields
    and its purpose."""
    return rfc8785.dumps({**fields, "purpose": purpose})


def sign_request(purpose: str, fields: dict, private_key: str) -> str:
    return b64e(SigningKey(b64d(private_key)).sign(request_bytes(purpose, fields)).signature)


def verify_request(purpose: str, fields: dict, signature: str, public_key: str) -> None:
    """Raise SignatureError unless ``signature`` is ``public_key``'s over
    ``fields`` for ``purpose``."""
    try:
        raw = b64d(signature)
    except Exception:
        raise SignatureError("bad_signature", _("the signature is not base64url")) from None
    if len(raw) != 64:
        raise SignatureError("bad_signature", _("the signature must be 64 bytes of Ed25519 in base64url"))
    try:
        key = VerifyKey(b64d(public_key))
    except ValueError:
        raise SignatureError("bad_public_key", _("this seat's public key is not a valid Ed25519 key")) from None
    try:
        key.verify(request_bytes(purpose, fields), raw)
    except (BadSignatureError, ValueError, rfc8785.CanonicalizationError):
        raise SignatureError("bad_signature", _("the signature does not match this key over this request "
                                                "(purpose {purpose})", purpose=repr(purpose))) from None


def join_proof(game: str, seat: int, private_key: str, issued_at: int | None = None) -> dict:
    """The ``proof`` of a signed join: ``{"issued_at", "signature"}``."""
    issued_at = int(time.time()) if issued_at is None else issued_at
    fields = {"game": game, "seat": seat, "public_key": public_key_of(private_key), "issued_at": issued_at}
    return {"issued_at": issued_at, "signature": sign_request(JOIN, fields, private_key)}


def token_request(game: str, seat: int, private_key: str, issued_at: int | None = None,
                  nonce: str | None = None) -> dict:
    """The body of ``POST /games/{game}/seats/{seat}/token``."""
    issued_at = int(time.time()) if issued_at is None else issued_at
    nonce = nonce or secrets.token_urlsafe(16)
    fields = {"game": game, "seat": seat, "nonce": nonce, "issued_at": issued_at}
    return {"issued_at": issued_at, "nonce": nonce, "signature": sign_request(SEAT_TOKEN, fields, private_key)}
