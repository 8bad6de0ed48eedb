/* The browser's Ed25519 keys (WebCrypto), kept in IndexedDB, and the seats
   this browser holds (their bearer tokens), kept in localStorage.

   A key is kept non-extractable: a page (this one, or script injected into
   it) can sign with it while it runs, but no script can read it out and
   keep it. Its one copy is made when the key is: `generate()` answers the
   pair with `backup` (the private key's text, in memory only) for the page
   to offer the player once (PbemBackup.offer, backup.js); afterwards it
   cannot be shown again. A key stored extractable by an older page is
   locked when it is first loaded, its text handed out the same one time.

   One key per browser (the "default" record), as `pbem keygen` keeps one
   per home: one backup covers every seat it takes. A key imported for a
   seat taken elsewhere is kept beside it (record "key:" + its public key),
   never in its place, so the seats the browser's own key signs for stay
   playable; each seat remembers the public key that signs for it.

   Seats: one entry per game AND seat, `pbem.token.GAME.SEAT` =
   {token, name, key}, so a browser holding two seats of one game keeps
   both. A game made from the lobby keeps its creator token too,
   `pbem.creator.GAME`. The seat a tab plays is its choice (sessionStorage
   `pbem.playing.GAME`), else the lowest seat it holds. Bearer tokens stay
   in localStorage: any storage is readable by script on the origin, so the
   protection is the pages' Content-Security-Policy (no inline or foreign
   script) and the key being non-extractable; tokens never go into a URL.

   Keys and signatures travel as unpadded base64url, as the API reads them. */
(function (root) {
  "use strict";
  var _ = root.PbemI18n ? root.PbemI18n._ : function (m) { return m; };
  var DB = "pbem", STORE = "keys", ID = "default", OTHER = "key:";
  var OLD_SEATS = "pbem.seats", TOKEN = "pbem.token.", PLAYING = "pbem.playing.", CREATOR = "pbem.creator.";
  // PKCS #8 for an Ed25519 private key is this prefix and the 32-byte seed (RFC 8410).
  var PKCS8 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
  var ALG = { name: "Ed25519" };

  function b64e(bytes) {
    var s = "";
    new Uint8Array(bytes).forEach(function (b) { s += String.fromCharCode(b); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function b64d(text) {
    if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error(_("this is not a key: not unpadded base64url"));
    var s = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    if (b64e(out) !== text) throw new Error(_("this is not a key: not canonical base64url"));
    return out;
  }

  // -- IndexedDB --------------------------------------------------------------------------

  function db() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB, 1);
      req.onupgradeneeded = function () { req.result.createObjectStore(STORE); };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function tx(mode, fn) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(STORE, mode), req = fn(t.objectStore(STORE));
        t.oncomplete = function () { resolve(req && req.result); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }

  function get(id) { return tx("readonly", function (s) { return s.get(id); }).then(function (p) { return p || null; }); }
  // Only the two CryptoKeys are stored: never a backup's text.
  function put(id, pair) {
    return tx("readwrite", function (s) { return s.put({ privateKey: pair.privateKey, publicKey: pair.publicKey }, id); })
      .then(function () { return pair; });
  }

  // -- keys -------------------------------------------------------------------------------

  function seedOf(privateKey) {
    return crypto.subtle.exportKey("pkcs8", privateKey).then(function (der) { return new Uint8Array(der).slice(-32); });
  }

  function lockedPrivate(seed) {
    var der = new Uint8Array(PKCS8.length + 32);
    der.set(PKCS8);
    der.set(seed, PKCS8.length);
    return crypto.subtle.importKey("pkcs8", der, ALG, false, ["sign"]);
  }

  /* A pair stored extractable (by a page before keys were locked): locked
     now, stored again in place of the old record, and its text handed out
     this once (`backup`) so that the page can offer to save it. */
  function locked(id, pair) {
    if (!pair || !pair.privateKey.extractable) return Promise.resolve(pair);
    return seedOf(pair.privateKey).then(function (seed) {
      return lockedPrivate(seed).then(function (priv) {
        return put(id, { privateKey: priv, publicKey: pair.publicKey }).then(function () {
          return { privateKey: priv, publicKey: pair.publicKey, backup: b64e(seed), migrated: true };
        });
      });
    });
  }

  /** The browser's own key (null if it has none). */
  function load() { return get(ID).then(function (pair) { return locked(ID, pair); }); }

  /** The pair whose public key is `pub` (base64url), this browser's own or
      one imported for a seat; the browser's own if `pub` is not given. */
  function loadFor(pub) {
    if (!pub) return load();
    return load().then(function (own) {
      if (!own) return get(OTHER + pub).then(function (pair) { return locked(OTHER + pub, pair); });
      return publicKey(own).then(function (ownPub) {
        if (ownPub === pub) return own;
        return get(OTHER + pub).then(function (pair) { return locked(OTHER + pub, pair); });
      });
    });
  }

  /** A new key for this browser, locked and stored; the answer carries its
      one copy, `backup`, for the player to save now. A key it had before
      is kept beside it (its seats stay playable). */
  function generate() {
    return load().then(function (old) {
      return old ? publicKey(old).then(function (pub) { return put(OTHER + pub, old); }) : null;
    }).then(function () {
      return crypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
    }).then(function (made) {
      return seedOf(made.privateKey).then(function (seed) {
        return lockedPrivate(seed).then(function (priv) {
          var pair = { privateKey: priv, publicKey: made.publicKey };
          return put(ID, pair).then(function () {
            return { privateKey: priv, publicKey: made.publicKey, backup: b64e(seed) };
          });
        });
      });
    });
  }

  /** A key from its text (a backup, or `~/.pbem/key.json`'s private_key: 32
      bytes, unpadded base64url), locked and stored: as this browser's key
      if it has none yet (a backup restored), else beside it. */
  function importPrivate(text) {
    var seed;
    try { seed = b64d(text.trim()); } catch (e) { return Promise.reject(e); }
    if (seed.length !== 32) return Promise.reject(new Error(_("a private key is 32 bytes (43 base64url characters)")));
    var der = new Uint8Array(PKCS8.length + 32);
    der.set(PKCS8);
    der.set(seed, PKCS8.length);
    // Extractable for a moment, in memory only: its JWK names the public key (x).
    return crypto.subtle.importKey("pkcs8", der, ALG, true, ["sign"]).then(function (open) {
      return crypto.subtle.exportKey("jwk", open);
    }).then(function (jwk) {
      return Promise.all([lockedPrivate(seed),
                          crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, ALG, true, ["verify"])]);
    }).then(function (keys) {
      var pair = { privateKey: keys[0], publicKey: keys[1] };
      return load().then(function (own) {
        if (!own) return put(ID, pair);
        return publicKey(own).then(function (ownPub) {
          return publicKey(pair).then(function (pub) { return ownPub === pub ? own : put(OTHER + pub, pair); });
        });
      });
    });
  }

  function publicKey(pair) {
    return crypto.subtle.exportKey("raw", pair.publicKey).then(b64e);
  }

  /** The private key's text: only while the pair carries its one copy
      (just made, or just locked); a stored key cannot be read back. */
  function exportPrivate(pair) {
    if (pair.backup) return Promise.resolve(pair.backup);
    if (!pair.privateKey.extractable) {
      return Promise.reject(new Error(_("this browser keeps its key locked: it cannot be shown again " +
                                        "(its one copy was offered when it was made)")));
    }
    return seedOf(pair.privateKey).then(b64e);
  }

  function sign(pair, bytes) {
    return crypto.subtle.sign(ALG, pair.privateKey, bytes).then(b64e);
  }

  /* An envelope signed as every client signs it: Ed25519 over the RFC 8785
     JSON of {game, player, expected_version, move, nonce}. */
  function signEnvelope(pair, envelope) {
    var bytes = PbemCanon.utf8(PbemCanon.canonical(envelope));
    return sign(pair, bytes).then(function (sig) {
      var out = Object.assign({}, envelope);
      out.signature = sig;
      return out;
    });
  }

  function nonce() {
    var raw = new Uint8Array(16);
    crypto.getRandomValues(raw);
    return "web-" + b64e(raw);
  }

  // -- seats ------------------------------------------------------------------------------

  /* Older pages kept one seat a game in one map ("pbem.seats"): each entry
     moves to its own key, once. */
  function migrateSeats() {
    var old = localStorage.getItem(OLD_SEATS);
    if (old === null) return;
    var all = {};
    try { all = JSON.parse(old) || {}; } catch (e) { /* unreadable: nothing to keep */ }
    Object.keys(all).forEach(function (game) {
      var s = all[game];
      if (!s || typeof s.seat !== "number" || !s.token) return;
      var key = TOKEN + game + "." + s.seat;
      if (localStorage.getItem(key) === null) {
        localStorage.setItem(key, JSON.stringify({ token: s.token, name: s.name || null }));
      }
    });
    localStorage.removeItem(OLD_SEATS);
  }

  /** Every seat of `game` this browser holds: [{seat, token, name, key}], by seat. */
  function seatsOf(game) {
    var prefix = TOKEN + game + ".", out = [];
    try {
      migrateSeats();
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i), v = null;
        if (k.indexOf(prefix) !== 0 || !/^\d{1,2}$/.test(k.slice(prefix.length))) continue;
        try { v = JSON.parse(localStorage.getItem(k)); } catch (e) { /* a broken entry is no seat */ }
        if (v && v.token) out.push({ seat: +k.slice(prefix.length), token: v.token, name: v.name || null, key: v.key || null });
      }
    } catch (e) { /* no storage here: no seat */ }
    return out.sort(function (a, b) { return a.seat - b.seat; });
  }

  function chosen(game) {
    try { var v = sessionStorage.getItem(PLAYING + game); return v === null ? null : +v; } catch (e) { return null; }
  }

  /** The seat this tab plays in `game`: the one chosen here, else the lowest held; null: a spectator. */
  function seatOf(game) {
    var held = seatsOf(game), pick = chosen(game);
    return held.filter(function (s) { return s.seat === pick; })[0] || held[0] || null;
  }

  /** This tab plays `seat` of `game` (one it holds). */
  function chooseSeat(game, seat) {
    try { sessionStorage.setItem(PLAYING + game, String(seat)); } catch (e) { /* no storage: the lowest seat */ }
  }

  /** Keep a seat's token (and the public key that signs for it); this tab plays it from now on. */
  function rememberSeat(game, seat, token, name, key) {
    migrateSeats();
    localStorage.setItem(TOKEN + game + "." + seat, JSON.stringify({ token: token, name: name || null, key: key || null }));
    chooseSeat(game, seat);
  }

  /** Forget one seat of `game`, or (no seat given) every seat of it. */
  function forgetSeat(game, seat) {
    seatsOf(game).forEach(function (s) {
      if (seat === undefined || seat === null || s.seat === seat) localStorage.removeItem(TOKEN + game + "." + s.seat);
    });
    if (seat === undefined || seat === null || chosen(game) === seat) {
      try { sessionStorage.removeItem(PLAYING + game); } catch (e) { /* nothing kept */ }
    }
  }

  /** Every seat this browser holds, of every game: [{game, seat}] (the lobby's "my games"). */
  function heldSeats() {
    var out = [];
    try {
      migrateSeats();
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i), m = k && k.indexOf(TOKEN) === 0 && /^(.+)\.(\d{1,2})$/.exec(k.slice(TOKEN.length));
        if (m) out.push({ game: m[1], seat: +m[2] });
      }
    } catch (e) { /* no storage here: no seat */ }
    return out;
  }

  /** Keep the creator token of a game this browser made (`POST /games`
      answers it once: invitations, the clock). */
  function rememberCreator(game, token) {
    try { localStorage.setItem(CREATOR + game, token); } catch (e) { /* no storage: not kept */ }
  }

  function creatorOf(game) {
    try { return localStorage.getItem(CREATOR + game); } catch (e) { return null; }
  }

  /** Take seat `seat` of `game` with `pair`, by a signed join (purpose
      "pbem-join": sent again after a lost answer, it answers again with a
      new token instead of "seat taken"); `extra` goes into the body too (an
      invitation's token). Resolves to the server's answer once the seat is
      remembered here; rejects with an Error saying why (the server's message
      and code), in the page's language `lang`. The invitation's page and the
      lobby's open games both join so. */
  function takeSeat(pair, game, seat, name, extra, lang) {
    var pub;
    return publicKey(pair).then(function (key) {
      pub = key;
      var issued = Math.floor(Date.now() / 1000);
      var signed = { purpose: "pbem-join", game: game, seat: seat, public_key: pub, issued_at: issued };
      return sign(pair, root.PbemCanon.utf8(root.PbemCanon.canonical(signed))).then(function (signature) {
        var body = { public_key: pub, name: name, proof: { issued_at: issued, signature: signature } };
        Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
        return fetch("/games/" + encodeURIComponent(game) + "/seats/" + seat, {
          method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": lang },
          body: JSON.stringify(body)
        });
      });
    }).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (answer) {
        if (!resp.ok) {
          var err = answer.error || {};
          var message = err.message || _("the server answered {status}", { status: resp.status });
          throw new Error(err.code ? _("{message} ({code})", { message: message, code: err.code }) : message);
        }
        rememberSeat(game, seat, answer.token, name, pub);
        return answer;
      });
    });
  }

  /** Call `url` as the seat whose bearer `token` this browser holds
      (`method`, an optional JSON `body`); resolves to the JSON answer, or
      rejects with an Error carrying the server's message in `lang`. */
  function seatCall(token, lang, method, url, body) {
    var init = { method: method, headers: { Authorization: "Bearer " + token, "Accept-Language": lang } };
    if (body) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (answer) {
        if (!resp.ok) throw new Error((answer.error && answer.error.message) || _("the server answered {status}", { status: resp.status }));
        return answer;
      });
    });
  }

  root.PbemKeys = {
    b64e: b64e, b64d: b64d, load: load, loadFor: loadFor, generate: generate, importPrivate: importPrivate,
    publicKey: publicKey, exportPrivate: exportPrivate, sign: sign, signEnvelope: signEnvelope, nonce: nonce,
    seatOf: seatOf, seatsOf: seatsOf, chooseSeat: chooseSeat, rememberSeat: rememberSeat, forgetSeat: forgetSeat,
    heldSeats: heldSeats, rememberCreator: rememberCreator, creatorOf: creatorOf, takeSeat: takeSeat,
    seatCall: seatCall
  };
})(window);
