/* A finished game's rematch on its page (parts/rematch.html): the buttons a
   browser holding one of the game's seats may use. Offer or accept is one
   call (POST /games/{id}/rematch), decline another (.../decline), both with
   the seat's bearer token; the page is then read again. Once the rematch has
   begun, "Play your seat in the rematch" takes this seat's place in the new
   game with the same key (a signed join of the seat the server seated it at:
   the answer is that seat's token) and opens the new game's page. A turn
   mail's play link is a seat too (data-link-seat): it answers through its
   link (/play/LINK/rematch, .../decline, no token), and its "play your
   seat" asks the link for its seat's play link in the new game
   (/play/LINK/rematch/seat, pbem/web/rematch_pages.py). */
(function () {
  "use strict";
  var box = document.getElementById("rematch");
  if (!box || typeof PbemKeys === "undefined") return;
  var _ = PbemI18n._, lang = document.documentElement.lang || "en";
  var game = box.dataset.game, status = box.dataset.status, said = box.querySelector(".rematch-said");
  var main = document.querySelector("main.game");
  var linked = !!main && main.dataset.mode === "link" && box.dataset.linkSeat !== "";
  var base = linked ? main.dataset.base + "/rematch" : "/games/" + encodeURIComponent(game) + "/rematch";
  var me = linked ? { seat: +box.dataset.linkSeat } : PbemKeys.seatOf(game);
  if (!me) return;   // a spectator: no buttons
  var waiting = JSON.parse(box.dataset.waiting || "[]"), plan = JSON.parse(box.dataset.plan || "{}");

  function tell(text, kind) {
    said.textContent = text;
    said.classList.toggle("bad", kind === "bad");
  }

  function answered(resp) {
    return resp.json().catch(function () { return {}; }).then(function (body) {
      if (!resp.ok) {
        var err = body.error || {};
        var message = err.message || _("the server answered {status}", { status: resp.status });
        throw new Error(err.code ? _("{message} ({code})", { message: message, code: err.code }) : message);
      }
      return body;
    });
  }

  function answer(path) {
    box.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    var headers = { "Accept-Language": lang };
    if (!linked) headers.Authorization = "Bearer " + me.token;
    fetch(base + path, { method: "POST", headers: headers }).then(answered).then(function () {
      location.reload();
    }).catch(function (err) {
      box.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
      tell(_("Not done: {reason}", { reason: err.message }), "bad");
    });
  }

  function show(cls, onClick) {
    var b = box.querySelector(cls);
    b.hidden = false;
    b.addEventListener("click", onClick);
  }

  function goByLink() {
    tell(_("Taking your seat in the rematch\u2026"));
    fetch(base + "/seat", { method: "POST", headers: { "Accept-Language": lang } }).then(answered).then(function (seat) {
      location.assign(seat.url);
    }).catch(function (err) {
      tell(_("Not done: {reason}", { reason: err.message }), "bad");
    });
  }

  function goToRematch() {
    if (linked) return goByLink();
    var to = box.dataset.newGame, mine = plan[String(me.seat)];
    tell(_("Taking your seat in the rematch\u2026"));
    PbemKeys.loadFor(me.key).then(function (pair) {
      if (!pair) throw new Error(_("this browser does not hold the key of this seat"));
      return PbemKeys.publicKey(pair).then(function (pub) {
        var issued = Math.floor(Date.now() / 1000);
        var signed = { purpose: "pbem-join", game: to, seat: mine.seat, public_key: pub, issued_at: issued };
        return PbemKeys.sign(pair, PbemCanon.utf8(PbemCanon.canonical(signed))).then(function (signature) {
          return fetch("/games/" + encodeURIComponent(to) + "/seats/" + mine.seat, {
            method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": lang },
            body: JSON.stringify({ public_key: pub, name: mine.name || me.name || "",
                                   proof: { issued_at: issued, signature: signature } })
          }).then(answered).then(function (joined) {
            PbemKeys.rememberSeat(to, mine.seat, joined.token, mine.name || me.name, pub);
            location.assign("/g/" + encodeURIComponent(to));
          });
        });
      });
    }).catch(function (err) {
      tell(_("Not done: {reason}", { reason: err.message }), "bad");
    });
  }

  if (status === "none") show(".rematch-offer", function () { answer(""); });
  if (status === "offered" && waiting.indexOf(me.seat) >= 0) {
    show(".rematch-accept", function () { answer(""); });
    show(".rematch-decline", function () { answer("/decline"); });
  }
  if (status === "started" && plan[String(me.seat)]) show(".rematch-go", goToRematch);
})();
