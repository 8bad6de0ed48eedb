/* The player's page (/my-games): the server lists the games of the address
   this browser is signed in for; this script adds those of the seats and
   keys the browser holds (GAME.SEAT and public keys, never a token: GET
   /my-games?seat=...&key=..., whose answer is the whole list again, in
   order), and keeps the browser's time zone in a cookie so that the dates
   read in it. */
(function () {
  "use strict";
  var main = document.querySelector("main.my-games");
  if (!main || typeof PbemKeys === "undefined") return;
  var lang = main.dataset.lang || "en", box = main.querySelector(".mine-list");

  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && /^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) {
      document.cookie = "pbem_tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* no zone: the language's usual one */ }

  var held = PbemKeys.heldSeats(), keys = {};
  held.forEach(function (h) {
    PbemKeys.seatsOf(h.game).forEach(function (s) { if (s.key) keys[s.key] = true; });
  });
  PbemKeys.load().then(function (pair) {
    return pair ? PbemKeys.publicKey(pair) : null;
  }).catch(function () { return null; }).then(function (own) {
    if (own) keys[own] = true;
    var query = held.map(function (h) { return "seat=" + encodeURIComponent(h.game + "." + h.seat); })
      .concat(Object.keys(keys).map(function (k) { return "key=" + encodeURIComponent(k); }));
    if (!query.length) return;
    return fetch("/my-games?" + query.join("&"), {
      headers: { Accept: "application/json", "Accept-Language": lang }, credentials: "same-origin"
    }).then(function (resp) { return resp.ok ? resp.json() : null; }).then(function (answer) {
      if (answer) box.innerHTML = answer.html;   // the server's own part, its texts escaped
    });
  }).catch(function () { /* the server's list stands */ });
})();
