"""The pages' canonical JSON (pbem/web/static/canon.js) against the Python
rfc8785 package, in a real browser: the envelope of every distinct legal
move seen in seeded random games of every game and sample setup, and
strings, keys and numbers chosen to differ between careless encoders; then
an envelope signed in the browser by an imported key (WebCrypto Ed25519)
verifies in Python."""
from __future__ import annotations

import random

import pytest
import rfc8785

from pbem import games
from pbem.trust import signing
from pbem.games.playout import play_random

from .pages_support import pages_app, pages_server, stream_port  # noqa: F401

pytestmark = pytest.mark.timeout(300)

TRICKY = [
    "", "plain", 'quote " and backslash \\', "tab\tnewline\ncr\r", "\u0000\u0001\u001f\u007f\u0080\u009f",
    "\u2028\u2029", "é ñ ü ß", "日本語", "🎲 emoji 👩‍👩‍👧", "\uffff", "</script><!--", "&amp;", "\U0001F600",
]
KEYS = {"z": 1, "é": 2, "A": 3, "a": 4, "\U0001F600": 5, "\uffff": 6, "\u00e9\u0301": 7, "10": 8, "9": 9, "": 10}
NUMBERS = [0, -0, 1, -1, 2**53 - 1, -(2**53 - 1), 10**15, 1.5, -0.25, 1e21, 1e-7, 0.1, 123456789.125, 5e-324]


def legal_envelopes(per_position: int = 25, seeds: int = 2) -> list:
    rng = random.Random(13)
    out, seen = [], set()
    for game in games.all_games():
        for players, options in game.sample_setups:
            for seed in range(seeds):
                played = play_random(game, players, options, seed=seed)
                positions = played.moves[::max(1, len(played.moves) // 8)]
                # The state at each position: replay's, from the one before (versions ascend).
                at, upto = game.replay(players, played.options, []), 0
                for version, player, _ in positions:
                    at, upto = game.apply(at, played.events[upto:version]), version
                    legal = game.legal_moves(at, player)
                    for move in rng.sample(legal, min(per_position, len(legal))):
                        key = rfc8785.dumps(move)
                        if key in seen:
                            continue
                        seen.add(key)
                        out.append({"game": "g" + game.key, "player": player, "expected_version": version,
                                    "move": move, "nonce": f"n-{len(out):06d}"})
    return out


def test_canonical_json_matches_rfc8785_for_every_games_moves(browser, pages_server):
    values = legal_envelopes()
    assert len(values) > 1000
    names = {v["game"] for v in values}
    assert len(names) == len(games.all_games())
    values += [{"game": "x", "player": 0, "expected_version": 1, "move": {"type": t, "text": t}, "nonce": t}
               for t in TRICKY]
    values += [KEYS, {"nested": [KEYS, [[], {}], None, True, False]}, NUMBERS]
    page = browser.new_context().new_page()
    page.goto(pages_server.url + "/")
    page.add_script_tag(url="/_web/canon.js")
    got = page.evaluate("values => values.map(v => PbemCanon.canonical(v))", values)
    for value, text in zip(values, got):
        assert text.encode() == rfc8785.dumps(value), value
    # What the API verifies is the UTF-8 of that text: the bytes too.
    encoded = page.evaluate("values => values.map(v => Array.from(PbemCanon.utf8(PbemCanon.canonical(v))))",
                            values[-20:])
    assert [bytes(b) for b in encoded] == [rfc8785.dumps(v) for v in values[-20:]]
    refused = page.evaluate("""() => ["\\ud800", {"\\udc00": 1}, NaN, Infinity, undefined, () => 1].map(v => {
        try { PbemCanon.canonical(v); return "accepted"; } catch (e) { return "refused"; } })""")
    assert refused == ["refused"] * 6


def test_an_envelope_signed_in_the_browser_verifies_on_the_server(browser, pages_server):
    private, public = signing.generate_key()
    page = browser.new_context().new_page()
    page.goto(pages_server.url + "/")
    page.add_script_tag(url="/_web/canon.js")
    page.add_script_tag(url="/_web/keys.js")
    envelopes = [{"game": "abc", "player": 1, "expected_version": 7, "move": {"type": "claim", "village": 2},
                  "nonce": "web-nonce-1"},
                 {"game": "abc", "player": 0, "expected_version": 12,
                  "move": {"type": "place_tile", "x": -1, "y": 2, "rotation": 270, "figure": "follower",
                           "on": "city N"}, "nonce": "🎲-ñ-\u2028"}]
    signed = page.evaluate("""async ([key, envelopes]) => {
        const pair = await PbemKeys.importPrivate(key);
        const pub = await PbemKeys.publicKey(pair);
        const out = [];
        for (const e of envelopes) out.push(await PbemKeys.signEnvelope(pair, e));
        // Stored locked: neither PbemKeys nor WebCrypto reads it back.
        const stored = await PbemKeys.load();
        const again = await PbemKeys.exportPrivate(stored).then(k => k, e => "refused: " + e.message);
        const raw = await crypto.subtle.exportKey("pkcs8", stored.privateKey).then(() => "read", e => e.name);
        return {pub, out, again, raw, storedPub: await PbemKeys.publicKey(stored)};
    }""", [private, envelopes])
    assert signed["pub"] == public and signed["storedPub"] == public
    assert signed["again"].startswith("refused: this browser keeps its key locked") and private not in signed["again"]
    assert signed["raw"] == "InvalidAccessError"
    for envelope in signed["out"]:
        signing.verify(envelope, public)   # raises if the browser signed other bytes
        flipped = dict(envelope, expected_version=envelope["expected_version"] + 1)
        with pytest.raises(signing.SignatureError):
            signing.verify(flipped, public)
    # A key made here carries its one copy (to offer the player), which is the key itself.
    made = page.evaluate("""async () => {
        const pair = await PbemKeys.generate();
        const copy = await PbemKeys.exportPrivate(pair);
        const stored = await PbemKeys.load();
        return [await PbemKeys.publicKey(pair), copy, pair.privateKey.extractable, await PbemKeys.publicKey(stored)];
    }""")
    assert signing.public_key_of(made[1]) == made[0] == made[3] and made[2] is False
