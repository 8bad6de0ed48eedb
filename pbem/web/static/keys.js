/* The browser's Ed25519 key (WebCrypto), kept in IndexedDB, and the seats
   this browser holds (their bearer tokens), kept in localStorage.

   One key per browser, as `pbem keygen` keeps one per home: made here or
   imported from `~/.pbem/key.json`'s private_key (32 bytes, unpadded
   base64url), and it can be shown again to use it from the terminal.
   Keys and signatures travel as unpadded base64url, as the API reads them. */
(function (root) {
  "use strict";
  var DB = "pbem", STORE = "keys", ID = "default", SEATS = "pbem.seats";
  // PKCS #8 for an Ed25519 private key is this prefix and the 32-byte seed (RFC 8410).
  var PKCS8 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
  var ALG = { name: "Ed25519" };

  function b64e(bytes) {
    var s = "";
    new Uint8Array(bytes).forEach(function (b) { s += String.fromCharCode(b); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function b64d(text) {
    if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error("not unpadded base64url");
    var s = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    if (b64e(out) !== text) throw new Error("not canonical base64url");
    return out;
  }

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

  function load() { return tx("readonly", function (s) { return s.get(ID); }); }
  function save(pair) { return tx("readwrite", function (s) { return s.put(pair, ID); }).then(function () { return pair; }); }

  function generate() {
    return crypto.subtle.generateKey(ALG, true, ["sign", "verify"]).then(save);
  }

  function importPrivate(text) {
    var seed = b64d(text.trim());
    if (seed.length !== 32) return Promise.reject(new Error("a private key is 32 bytes (43 base64url characters)"));
    var der = new Uint8Array(PKCS8.length + 32);
    der.set(PKCS8);
    der.set(seed, PKCS8.length);
    return crypto.subtle.importKey("pkcs8", der, ALG, true, ["sign"]).then(function (priv) {
      return crypto.subtle.exportKey("jwk", priv).then(function (jwk) {   // the JWK names the public key (x)
        return crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, ALG, true, ["verify"])
          .then(function (pub) { return save({ privateKey: priv, publicKey: pub }); });
      });
    });
  }

  function publicKey(pair) {
    return crypto.subtle.exportKey("raw", pair.publicKey).then(b64e);
  }

  function exportPrivate(pair) {
    return crypto.subtle.exportKey("pkcs8", pair.privateKey).then(function (der) {
      return b64e(new Uint8Array(der).slice(-32));
    });
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

  function seats() {
    try { return JSON.parse(localStorage.getItem(SEATS) || "{}"); } catch (e) { return {}; }
  }
  function seatOf(game) { return seats()[game] || null; }
  function rememberSeat(game, seat, token, name) {
    var all = seats();
    all[game] = { seat: seat, token: token, name: name };
    localStorage.setItem(SEATS, JSON.stringify(all));
  }
  function forgetSeat(game) {
    var all = seats();
    delete all[game];
    localStorage.setItem(SEATS, JSON.stringify(all));
  }

  root.PbemKeys = {
    b64e: b64e, b64d: b64d, load: load, generate: generate, importPrivate: importPrivate, publicKey: publicKey,
    exportPrivate: exportPrivate, sign: sign, signEnvelope: signEnvelope, nonce: nonce,
    seatOf: seatOf, rememberSeat: rememberSeat, forgetSeat: forgetSeat
  };
})(window);
