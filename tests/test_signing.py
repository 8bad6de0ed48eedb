"""The signature check's two canonical forms: the quick standard-library JSON
must agree with RFC 8785 wherever it is used, and an envelope whose RFC 8785
form differs (floats, non-BMP keys) must still verify through the fallback."""
from __future__ import annotations

import pytest
import rfc8785
from hypothesis import given, settings, strategies as st

from pbem.trust import signing

KEY, PUBLIC = signing.generate_key()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 53) + 1, 2 ** 53 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(move=st.dictionaries(st.text(max_size=8), json_values, max_size=5), nonce=st.text(min_size=1, max_size=20),
       player=st.integers(0, 9), version=st.integers(0, 10 ** 6))
def test_quick_bytes_are_rfc8785_or_absent(move, nonce, player, version):
    envelope = {"game": "g1", "player": player, "expected_version": version, "move": move, "nonce": nonce}
    quick = signing._quick_bytes(envelope)
    try:
        canonical = signing.signed_bytes(envelope)
    except rfc8785.CanonicalizationError:
        canonical = None
    if quick is not None and canonical is not None and quick != canonical:
        # Only key order may differ (UTF-16 order against code points), never the parsed value.
        assert any(ord(c) > 0xFFFF for c in quick.decode())
    signed = signing.sign(envelope, KEY) if canonical is not None else None
    if signed is not None:
        signing.verify(signed, PUBLIC)  # whichever path, a good signature verifies


def test_envelopes_whose_forms_differ_verify_through_rfc8785():
    for move in ({"x": 1.0, "y": 1e-7}, {"\U0001F600": 1, "\uffff": 2}, {"n": 2.0}):
        envelope = signing.make_envelope("g1", 0, 3, move, KEY)
        assert signing._quick_bytes(envelope) != signing.signed_bytes(envelope)
        signing.verify(envelope, PUBLIC)
        with pytest.raises(signing.SignatureError) as err:
            signing.verify({**envelope, "move": {**move, "extra": 0}}, PUBLIC)
        assert err.value.code == "bad_signature"


def test_a_signature_by_another_key_fails_both_ways():
    other, _ = signing.generate_key()
    envelope = signing.make_envelope("g1", 0, 3, {"type": "claim", "village": 2}, other)
    with pytest.raises(signing.SignatureError) as err:
        signing.verify(envelope, PUBLIC)
    assert err.value.code == "bad_signature"
