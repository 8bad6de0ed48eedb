"""Signature and token tampering: every single-bit flip is refused.

Exhaustive at the service level:
  * every bit of the raw 64-byte signature, and every bit of every character
    of its base64url text (so no second spelling of a signature is accepted);
  * every bit of the signed bytes (the RFC 8785 JSON of game, player,
    expected_version, move and nonce): a flip that still parses as an
    envelope is sent with the original signature and refused;
  * every bit of every signed field in its own form (strings' UTF-8 bytes,
    integers' low 32 bits, the move's canonical JSON);
  * every bit of a seat's bearer token.
Nothing refused leaves a trace (no move record, no new version). Then a few
of each over HTTP on loopback.
"""
from __future__ import annotations

import json

import pytest
import rfc8785

from pbem.trust import signing
from pbem.errors import ServiceError, Unauthorized
from pbem.service import move_id_for

ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def flips(raw: bytes):
    for i in range(len(raw) * 8):
        out = bytearray(raw)
        out[i // 8] ^= 1 << (i % 8)
        yield bytes(out)


def text_flips(text: str):
    """Every single-bit flip of an ASCII text, as text (a flip of the high bit
    is not UTF-8: it is read as Latin-1, a non-ASCII character)."""
    assert text.isascii()
    for raw in flips(text.encode()):
        try:
            yield raw.decode()
        except UnicodeDecodeError:
            yield raw.decode("latin-1")


@pytest.fixture
def table(service):
    game = service.create_game("wakanda", 2, {})
    game_id = game["id"]
    keys, tokens = [], []
    for seat in range(2):
        private, public = signing.generate_key()
        tokens.append(service.join(game_id, seat, public, f"p{seat}")["token"])
        keys.append(private)
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    move = loaded.game.legal_moves(loaded.state, seat)[0]
    envelope = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
    return {"game": game_id, "seat": seat, "keys": keys, "tokens": tokens, "envelope": envelope,
            "version": loaded.version}


def refused(service, table, envelope) -> str:
    """Submit a tampered envelope: it must be refused, leaving no trace."""
    game_id = table["game"]
    with pytest.raises(ServiceError) as err:
        service.submit(game_id, envelope)
    assert 400 <= err.value.status < 500
    assert service.store.version(game_id) == table["version"]
    if isinstance(envelope.get("player"), int) and isinstance(envelope.get("nonce"), str):
        assert service.store.move(game_id, move_id_for(game_id, envelope["player"], envelope["nonce"])) is None
    return err.value.code


def test_every_signature_bit_flip_is_refused(service, table):
    envelope = table["envelope"]
    raw = signing.b64d(envelope["signature"])
    assert len(raw) == 64
    codes = set()
    for bad in flips(raw):
        codes.add(refused(service, table, {**envelope, "signature": signing.b64e(bad)}))
    assert codes == {"bad_signature"}
    # Every bit of the base64url text too: no other spelling decodes to an
    # accepted signature (the decoder refuses non-canonical text).
    text = envelope["signature"]
    count = 0
    for bad in text_flips(text):
        count += 1
        with pytest.raises(signing.SignatureError):
            signing.verify({**envelope, "signature": bad}, service.store.seats(table["game"])[table["seat"]]["public_key"])
    assert count == len(text) * 8
    # The untouched envelope is accepted (the flips were refused for their flip).
    assert service.submit(table["game"], envelope)["status"] == "queued"


def test_every_bit_flip_of_the_signed_bytes_is_refused(service, table):
    envelope = table["envelope"]
    public = service.store.seats(table["game"])[table["seat"]]["public_key"]
    signed = signing.signed_bytes(envelope)
    parsed_ok = same = 0
    for bad in flips(signed):
        try:
            fields = json.loads(bad.decode())
        except (UnicodeDecodeError, ValueError):
            continue  # not JSON: cannot even be sent as an envelope
        if not isinstance(fields, dict) or set(fields) != set(signing.SIGNED_FIELDS):
            continue  # a renamed field: the schema refuses it (unknown / missing field)
        if rfc8785.dumps(fields) == signed:
            same += 1  # the same envelope spelled otherwise: not a tamper
            continue
        parsed_ok += 1
        tampered = {**fields, "signature": envelope["signature"]}
        with pytest.raises(signing.SignatureError):
            signing.verify(tampered, public)
        if (isinstance(fields["player"], int) and not isinstance(fields["player"], bool)
                and isinstance(fields["game"], str) and isinstance(fields["nonce"], str)
                and isinstance(fields["expected_version"], int) and isinstance(fields["move"], dict)):
            if fields["game"] == table["game"] and fields["player"] in (0, 1):
                assert refused(service, table, tampered) == "bad_signature"
    assert parsed_ok > 100, parsed_ok  # most flips of values still parse: they were really tried
    assert same == 0


def test_every_bit_flip_of_each_signed_field_is_refused(service, table):
    envelope = table["envelope"]
    public = service.store.seats(table["game"])[table["seat"]]["public_key"]
    tried = 0
    for name in ("game", "nonce"):
        for bad in text_flips(envelope[name]):
            tried += 1
            with pytest.raises(signing.SignatureError):
                signing.verify({**envelope, name: bad}, public)
    for name in ("player", "expected_version"):
        for bit in range(32):
            tried += 1
            bad = envelope[name] ^ (1 << bit)
            with pytest.raises(signing.SignatureError):
                signing.verify({**envelope, name: bad}, public)
            if name == "expected_version" or bad in (0, 1):
                refused(service, table, {**envelope, name: bad})
    for bad in text_flips(json.dumps(envelope["move"], sort_keys=True)):
        try:
            move = json.loads(bad)
        except ValueError:
            continue
        if move == envelope["move"]:
            continue
        tried += 1
        with pytest.raises(signing.SignatureError):
            signing.verify({**envelope, "move": move}, public)
        if isinstance(move, dict):
            refused(service, table, {**envelope, "move": move})
    # Nonce flips over the service: refused although each is a fresh move id.
    for bad in list(text_flips(envelope["nonce"]))[:64]:
        assert refused(service, table, {**envelope, "nonce": bad}) == "bad_signature"
    assert tried > 300


def test_every_bit_flip_of_a_bearer_token_is_refused(service, table):
    game_id, seat, token = table["game"], table["seat"], table["tokens"][table["seat"]]
    assert service.seat_view(game_id, seat, token)["viewer"] == seat
    count = 0
    for bad in text_flips(token):
        count += 1
        with pytest.raises(Unauthorized):
            service.viewer(game_id, bad)
        with pytest.raises(Unauthorized):
            service.seat_view(game_id, seat, bad)
    assert count == len(token) * 8
    # The other seat's token opens its own view only.
    other = 1 - seat
    with pytest.raises(ServiceError) as err:
        service.seat_view(game_id, seat, table["tokens"][other])
    assert err.value.status == 403


def test_tampering_over_http(api_server, http, service, table):
    url, game_id, envelope = api_server.url, table["game"], table["envelope"]
    raw = signing.b64d(envelope["signature"])
    for i in (0, 7, 100, 255, 511):
        bad = bytearray(raw)
        bad[i // 8] ^= 1 << (i % 8)
        answer = http.post(f"{url}/games/{game_id}/moves", json={**envelope, "signature": signing.b64e(bytes(bad))})
        assert answer.status_code == 401, answer.text
        assert answer.json()["error"]["code"] == "bad_signature"
    for name, value in (("nonce", envelope["nonce"][:-1] + ("A" if envelope["nonce"][-1] != "A" else "B")),
                        ("expected_version", envelope["expected_version"] ^ 1),
                        ("game", game_id[:-1] + ("a" if game_id[-1] != "a" else "b"))):
        answer = http.post(f"{url}/games/{game_id}/moves", json={**envelope, name: value})
        assert answer.status_code in (401, 404, 409, 422), answer.text
        assert answer.status_code != 202
    token = table["tokens"][table["seat"]]
    seat_url = f"{url}/games/{game_id}/seats/{table['seat']}/view"
    assert http.get(seat_url, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    printable = [t for t in text_flips(token) if set(t) <= ALPHABET]
    assert len(printable) > 20
    for bad in printable[::7]:
        answer = http.get(seat_url, headers={"Authorization": f"Bearer {bad}"})
        assert answer.status_code == 401, (bad, answer.text)
        assert answer.json()["error"]["code"] == "bad_token"
    assert http.post(f"{url}/games/{game_id}/moves", json=envelope).status_code == 202
    assert service.store.version(game_id) == table["version"]
