/* The lobby (/): "my games", the games whose seats this browser holds
   (PbemKeys keeps their tokens), and the form that creates a game.

   My games: the server is told which seats (GAME.SEAT, never a token) and
   answers the part to show, the games waiting for one of those seats
   first (GET /my-games). The browser's time zone is kept in a cookie so
   that the dates there and on the next lobby read in it.

   Creating: the form is built by the server from the game registry (each
   game's options as GET /game-types describes them); this script shows the
   chosen game's options and the invitation rows of its seats, then, on
   submit: the browser's key (made now if it has none, its one copy offered
   as on the join page: PbemBackup), POST /games with the options that
   differ from their defaults and the invitations by address, a signed
   join of the creator's seat, and the new game's page. Whatever the API
   refuses is shown as it says it (its message and code, the fields). */
(function () {
  "use strict";
  var main = document.querySelector("main.lobby");
  if (!main) return;
  var _ = PbemI18n._, lang = main.dataset.lang || "en";

  // -- my games ---------------------------------------------------------------------------

  function keepZone() {
    try {
      var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone && /^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) {
        document.cookie = "pbem_tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
      }
    } catch (e) { /* no zone: the language's usual one */ }
  }

  function showMine() {
    var box = document.getElementById("mine");
    var held = PbemKeys.heldSeats();
    if (!box) return Promise.resolve();
    // With no seat held, the answer may still list an address's games (its
    // session cookie, from a "games" mail's link: pbem/web/my_games_page.py).
    var query = held.map(function (h) { return "seat=" + encodeURIComponent(h.game + "." + h.seat); }).join("&");
    return fetch("/my-games?" + query, { headers: { "Accept-Language": lang }, credentials: "same-origin" })
      .then(function (resp) { return resp.ok ? resp.json() : null; })
      .then(function (answer) {
        if (!answer || (!held.length && !answer.count)) return;
        box.querySelector(".mine-list").innerHTML = answer.html;  // the server's own part, its texts escaped
        box.hidden = false;
      })
      .catch(function () { /* the lobby still shows every game */ });
  }

  keepZone();
  showMine();

  // -- the form -----------------------------------------------------------------------------

  var form = document.getElementById("create-form");
  if (!form) return;
  var gameSel = form.querySelector("#create-game"), playersSel = form.querySelector("#create-players");
  var seatSel = form.querySelector("#create-seat"), said = document.getElementById("create-said");

  function tell(text, kind) {
    said.textContent = text;
    said.classList.toggle("bad", kind === "bad");
    said.classList.toggle("good", kind === "good");
  }

  function chosenType() { return gameSel.options[gameSel.selectedIndex]; }

  /* The seats and options the chosen game allows: the players' count
     within its bounds, the creator's seat among them, an invitation row
     for each other seat, and this game's options only. */
  function fit() {
    var type = chosenType(), min = +type.dataset.min, max = +type.dataset.max;
    Array.prototype.forEach.call(playersSel.options, function (o) { o.hidden = o.disabled = +o.value < min || +o.value > max; });
    var players = +playersSel.value;
    if (players < min || players > max) playersSel.value = String(Math.max(min, Math.min(max, 2)));
    players = +playersSel.value;
    Array.prototype.forEach.call(seatSel.options, function (o) { o.hidden = o.disabled = +o.value >= players; });
    if (+seatSel.value >= players) seatSel.value = "0";
    var mine = +seatSel.value;
    form.querySelectorAll(".invite").forEach(function (row) {
      var seat = +row.dataset.seat;
      row.hidden = seat >= players || seat === mine;
    });
    form.querySelectorAll(".game-options").forEach(function (set) { set.hidden = set.dataset.game !== gameSel.value; });
  }

  [gameSel, playersSel, seatSel].forEach(function (el) { el.addEventListener("change", fit); });
  fit();

  /* One option's value as the API takes it, read from its control: a
     number that does not read as one is sent as written, for the API to
     say what it takes. */
  function optionValue(box) {
    var type = box.dataset.type, control = box.querySelector(".value");
    if (type === "list") {
      var items = box.querySelectorAll("input.item");
      if (items.length) return Array.prototype.filter.call(items, function (i) { return i.checked; })
        .map(function (i) { return i.value; });
      return control.value.split(",").map(function (s) { return s.trim(); }).filter(function (s) { return s; });
    }
    if (type === "bool") return control.checked;
    if (type === "int") {
      var text = control.value.trim();
      return /^-?\d+$/.test(text) ? parseInt(text, 10) : text;
    }
    return control.value;
  }

  function options() {
    var out = {};
    var set = form.querySelector('.game-options[data-game="' + gameSel.value + '"]');
    if (!set) return out;
    set.querySelectorAll(".option").forEach(function (box) {
      var value = optionValue(box), dflt = JSON.parse(box.dataset["default"]);
      if (JSON.stringify(value) !== JSON.stringify(dflt)) out[box.dataset.option] = value;
    });
    return out;
  }

  function invitations() {
    var out = [];
    form.querySelectorAll(".invite").forEach(function (row) {
      if (row.hidden) return;
      var email = row.querySelector(".invite-email").value.trim(), name = row.querySelector(".invite-name").value.trim();
      if (!email) return;
      var item = { seat: +row.dataset.seat, email: email };
      if (name) item.name = name;
      out.push(item);
    });
    return out;
  }

  /* The seats given to the server's bots: {"seat": level}. */
  function bots() {
    var out = {};
    form.querySelectorAll(".invite").forEach(function (row) {
      var level = row.querySelector(".invite-bot");
      if (!row.hidden && level && level.value) out[row.dataset.seat] = level.value;
    });
    return out;
  }

  /* An API refusal in words: its message and code, and each field's complaint. */
  function refusal(resp, answer) {
    var err = (answer && answer.error) || {};
    var message = err.message || _("the server answered {status}", { status: resp.status });
    var text = err.code ? _("{message} ({code})", { message: message, code: err.code }) : message;
    var fields = (err.details && err.details.fields) || null;
    if (fields) {
      var parts = [];
      (function walk(prefix, value) {
        if (Array.isArray(value) && value.every(function (v) { return typeof v === "string"; })) {
          parts.push(_("{field}: {problem}", { field: prefix, problem: value.join(" ") }));
        } else if (value && typeof value === "object") {
          Object.keys(value).forEach(function (k) { walk(prefix ? prefix + "." + k : k, value[k]); });
        }
      })("", fields);
      if (parts.length) text += " " + parts.join("; ");
    }
    var error = new Error(text);
    error.details = err.details || {};
    return error;
  }

  /* The option the API named in its refusal (`details.option`): marked,
     shown (its list opened), told why beside it and focused, so the player
     sees what to fix. */
  function markOption(details, why) {
    form.querySelectorAll(".option .why").forEach(function (p) { p.remove(); });
    form.querySelectorAll(".option.bad").forEach(function (box) {
      box.classList.remove("bad");
      box.querySelectorAll("[aria-invalid]").forEach(function (c) { c.removeAttribute("aria-invalid"); });
    });
    var name = details && details.option;
    if (typeof name !== "string") return false;
    var set = form.querySelector('.game-options[data-game="' + gameSel.value + '"]');
    var box = set && Array.prototype.filter.call(set.querySelectorAll(".option"), function (b) {
      return b.dataset.option === name;
    })[0];
    if (!box) return false;
    box.classList.add("bad");
    var said_here = document.createElement("p");
    said_here.className = "why refusal";
    said_here.setAttribute("role", "alert");
    said_here.textContent = why;
    box.appendChild(said_here);
    form.querySelector("details.options").open = true;
    var control = box.querySelector(".value, input.item");
    if (control) {
      control.setAttribute("aria-invalid", "true");
      control.focus();
    }
    return true;
  }

  function call(url, body) {
    return fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": lang },
      body: JSON.stringify(body)
    }).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (answer) {
        if (!resp.ok) throw refusal(resp, answer);
        return answer;
      });
    });
  }

  function signedJoin(pair, game, seat, name) {
    return PbemKeys.publicKey(pair).then(function (pub) {
      var issued = Math.floor(Date.now() / 1000);
      var signed = { purpose: "pbem-join", game: game, seat: seat, public_key: pub, issued_at: issued };
      return PbemKeys.sign(pair, PbemCanon.utf8(PbemCanon.canonical(signed))).then(function (signature) {
        return { public_key: pub, name: name, proof: { issued_at: issued, signature: signature } };
      });
    });
  }

  /* A key made just now: its one copy is offered before it is used. */
  function saveCopy(made) {
    tell("");
    form.hidden = true;
    return PbemBackup.offer(form.parentNode, made, { go: _("Go on: create the game"), focus: true })
      .then(function () {
        form.hidden = false;
        return made;
      });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var name = form.querySelector("#create-name").value.trim();
    if (!name) {
      tell(_("Not created: give your name (the other players see it)."), "bad");
      form.querySelector("#create-name").focus();
      said.scrollIntoView({ block: "nearest" });
      return;
    }
    var button = form.querySelector("button[type=submit]");
    var seat = +seatSel.value, body = {
      game: gameSel.value, players: +playersSel.value, title: form.querySelector("#create-title").value.trim(),
      lang: form.querySelector("#create-lang").value, options: options(), invitations: invitations(),
      open: form.querySelector("#create-open").checked, bots: bots()
    };
    var fillAfter = form.querySelector("#create-bots-after");
    if (fillAfter && fillAfter.value) {  // bots for the seats still free after that wait, at the level chosen
      body.bots_after_s = +fillAfter.value;
      body.bots_level = form.querySelector("#create-bots-level").value;
    }
    button.disabled = true;
    markOption(null);
    tell(_("Creating the game\u2026"));
    var pair, created = null;
    PbemKeys.load().then(function (found) {
      return found || PbemKeys.generate().then(saveCopy);
    }).then(function (found) {
      pair = found;
      tell(_("Creating the game\u2026"));
      return call("/games", body);
    }).then(function (game) {
      created = game;
      PbemKeys.rememberCreator(game.id, game.creator_token);
      return signedJoin(pair, game.id, seat, name);
    }).then(function (join) {
      return call("/games/" + encodeURIComponent(created.id) + "/seats/" + seat, join).then(function (joined) {
        PbemKeys.rememberSeat(created.id, seat, joined.token, name, join.public_key);
      });
    }).then(function () {
      tell(_("Game created: opening its page\u2026"), "good");
      location.assign("/g/" + encodeURIComponent(created.id));
    }).catch(function (err) {
      button.disabled = false;
      var why = err && err.message ? err.message : String(err);
      // Made, but the seat was not taken: the game exists; its page lets the creator join.
      tell(created ? _("The game {id} was made, but your seat was not taken: {reason}", { id: created.id, reason: why })
                   : _("Not created: {reason}", { reason: why }), "bad");
      if (!(created === null && markOption(err && err.details, why))) said.scrollIntoView({ block: "nearest" });
    });
  });
})();
