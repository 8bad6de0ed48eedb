/* A game's page: who the browser is (a seat whose bearer token it holds,
   one of several it holds in this game, a play link, or a spectator), the replay slider, playing a move (signed here
   with the browser's key, or sent through the play link), and keeping the
   page current as the game moves on. Everything it shows comes from the
   server as the caller may see it: the parts (/g/{id}/live) and each
   version's picture (/g/{id}/v/{n}.svg) are filtered there. */
(function () {
  "use strict";
  var main = document.querySelector("main.game");
  if (!main) return;
  var _ = PbemI18n._, ngettext = PbemI18n.ngettext;
  var G = { id: main.dataset.game, kind: main.dataset.kind, base: main.dataset.base, mode: main.dataset.mode,
            version: +main.dataset.version, status: main.dataset.status, stream: main.dataset.stream || null,
            lang: main.dataset.lang || "en" };
  var $ = function (sel) { return document.querySelector(sel); };
  var me = G.mode === "page" ? PbemKeys.seatOf(G.id) : null;   // {seat, token, name, key}: the seat played here
  var held = G.mode === "page" ? PbemKeys.seatsOf(G.id) : [];   // every seat of this game the browser holds
  // While the player is saving a new key's copy the page must not reload (the copy would be lost).
  var holdReload = false, reloadWanted = false;
  var livePicture = null, lastLive = null, replay = null;

  function authHeaders() {
    return me ? { Authorization: "Bearer " + me.token } : {};
  }

  /* The page's own parts (the live parts, a version's picture) in the page's language. */
  function inLanguage(url) {
    return url + (url.indexOf("?") < 0 ? "?" : "&") + "lang=" + encodeURIComponent(G.lang);
  }

  function fetchJson(url, init) {
    // The API's messages (a refusal, say) in the page's language too.
    init = Object.assign({}, init);
    init.headers = Object.assign({ "Accept-Language": G.lang }, init.headers || {});
    return fetch(url, init).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (body) {
        if (!resp.ok) {
          var err = new Error((body.error && body.error.message) || _("the server answered {status}", { status: resp.status }));
          err.code = body.error && body.error.code;
          err.status = resp.status;
          err.body = body;
          throw err;
        }
        return body;
      });
    });
  }

  function said(text, kind) {
    var p = $("#sent");
    p.textContent = text;
    p.classList.toggle("bad", kind === "bad");
    p.classList.toggle("good", kind === "good");
  }

  // -- the log -------------------------------------------------------------------------

  function addLog(entries, fresh) {
    var log = $("#log");
    entries.forEach(function (e) {
      if (log.querySelector('li[data-v="' + e.version + '"]')) return;
      var li = document.createElement("li");
      li.dataset.v = e.version;
      if (fresh) li.className = "new";
      var a = document.createElement("a");
      a.href = G.base + "/v/" + e.version;
      a.textContent = e.version;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" " + e.text));
      log.insertBefore(li, log.firstChild);   // newest first
    });
  }

  function setLog(entries) {
    $("#log").textContent = "";
    addLog(entries, false);
  }

  // -- the page's parts ------------------------------------------------------------------

  /* Parts of the page (status, players, play) from an answer of /live. */
  function putParts(parts, names) {
    names.forEach(function (k) {
      var box = $("#" + k);
      if (!box || parts[k] === undefined) return;
      // The list of moves the reader unfolded stays unfolded when the part comes anew.
      var unfolded = box.querySelector("details.all-moves[open]");
      box.innerHTML = parts[k];
      if (unfolded) box.querySelectorAll("details.all-moves").forEach(function (d) { d.open = true; });
    });
  }

  function apply(live, withLog) {
    lastLive = live;
    if (withLog && live.log) setLog(live.log);
    else if (live.log) addLog(live.log, true);
    livePicture = live.picture || null;
    var grew = live.version !== G.version;
    G.version = live.version;
    if (live.version > seen) seen = live.version;
    G.status = live.status;
    // A reader at a past version keeps that moment's banner and players (and picture).
    var atNow = true;
    if (replay) {
      replay.grow(live.version);
      atNow = replay.shown === replay.max;
    }
    putParts(live.parts, atNow ? ["status", "players", "play"] : ["play"]);
    if (atNow && livePicture) $("#picture").innerHTML = livePicture;
    if (replay) past();
    if (grew && !replay && live.status !== "open") {   // the game was dealt: the slider appears
      if (holdReload) reloadWanted = true;
      else location.reload();
    }
    markHeld();
    attachPlay();
    document.documentElement.classList.remove("seat-pending");
  }

  function refresh(withLog) {
    var url = inLanguage(G.base + "/live" + (withLog ? "?log=1" : "?after=" + G.version));
    return fetchJson(url, { headers: authHeaders(), cache: "no-store" }).then(function (live) {
      if (withLog || live.version !== G.version || !lastLive) apply(live, withLog);
      return live;
    }, function (err) {
      document.documentElement.classList.remove("seat-pending");
      if (err.code === "bad_token" && me) {   // the server no longer knows this seat's token
        PbemKeys.forgetSeat(G.id, me.seat);
        if (PbemKeys.seatOf(G.id)) location.reload();   // another seat held here: the page as that one
        me = null;
        held = [];
        identity();
      }
      throw err;
    });
  }

  // -- keeping current ------------------------------------------------------------------

  // Over the event stream (GET /games/{id}/events/stream, server-sent events,
  // each event redacted for whoever the ticket names): no polling.
  var seen = G.version, backoff = 1000, pendingRefresh = null;

  function soon() {
    if (pendingRefresh) return;
    pendingRefresh = setTimeout(function () {
      pendingRefresh = null;
      refresh(false).catch(function () { /* the next event tries again */ });
    }, 120);
  }

  function ticket() {
    // EventSource sends no headers: a seat's stream is opened with a short-lived ticket.
    if (G.mode === "link") {
      return fetchJson(G.base + "/ticket", { method: "POST", headers: { Accept: "application/json" } })
        .then(function (t) { return t.ticket; });
    }
    if (!me) return Promise.resolve(null);
    return fetchJson("/games/" + G.id + "/seats/" + me.seat + "/ticket", {
      method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, authHeaders()), body: "{}"
    }).then(function (t) { return t.ticket; });
  }

  // The chat (chat.js) rides this stream: ?chat= the last message shown; each
  // `chat` event goes to the box. The frames' ids then name both cursors, so
  // EventSource's own reconnect (Last-Event-ID) resumes both (docs/chat.md).
  var chatBox = document.getElementById("chat");

  function chatLive(on) {
    if (chatBox) chatBox.dispatchEvent(new CustomEvent("pbem:chat-live", { detail: on }));
  }

  function stream() {
    ticket().then(function (t) {
      var url = G.stream + "?after=" + seen + (t ? "&ticket=" + encodeURIComponent(t) : "")
        + (chatBox ? "&chat=" + (window.PbemChat ? PbemChat.last() : 0) : "");
      var source = new EventSource(url);
      source.addEventListener("open", function () { backoff = 1000; chatLive(true); });
      source.addEventListener("chat", function (msg) {
        chatBox.dispatchEvent(new CustomEvent("pbem:chat", { detail: JSON.parse(msg.data) }));
      });
      source.addEventListener("event", function (msg) {
        // The event's words come with the page's parts (in the page's language
        // and naming the seats as the page does): the stream only says when.
        var item = JSON.parse(msg.data);
        if (item.version <= seen) return;
        seen = item.version;
        soon();
      });
      source.addEventListener("end", function () {
        source.close();   // the game is over: no more events
        chatLive(false);
        soon();
      });
      source.addEventListener("error", function () {
        chatLive(false);
        // A dropped connection is retried by EventSource itself (with Last-Event-ID);
        // a refused one (an expired ticket) closes it: open anew with a new ticket.
        if (source.readyState === EventSource.CLOSED) {
          setTimeout(stream, backoff);
          backoff = Math.min(backoff * 2, 30000);
        }
      });
    }, function () {
      chatLive(false);
      setTimeout(stream, backoff);
      backoff = Math.min(backoff * 2, 30000);
    });
  }

  function updates() {
    if (G.status !== "finished" && G.stream && window.EventSource) stream();
  }

  // -- the replay slider -------------------------------------------------------------------

  function past() {
    var p = $("#past");
    if (!p || !replay) return;
    p.hidden = replay.shown === replay.max;
    if (!p.hidden) {
      p.querySelector("span").textContent = _("You are looking at version {shown}; the game is at version {now}.",
                                              { shown: replay.shown, now: replay.max });
    }
    var play = $("#play");
    if (play) play.hidden = !p.hidden;
    // (the touch chooser's panel goes with the moves: a past version cannot be played)
    document.documentElement.classList.toggle("showing-past", !p.hidden);
  }

  function attachReplay() {
    var nav = document.querySelector("nav.replay");
    if (!nav) return;
    var cache = {};
    replay = PbemReplay.attach({
      nav: nav, picture: $("#picture"), log: $("#log"), max: G.version, shown: +main.dataset.shown,
      href: function (n, max) { return n === max ? G.base : G.base + "/v/" + n; },
      // A version's moment (picture, banner, players) as this reader may see it.
      svgAt: function (n) {
        var key = n + ":" + (me ? me.seat : "-");
        if (cache[key] && G.status === "finished") return Promise.resolve(cache[key]);
        return fetchJson(inLanguage(G.base + "/live?at=" + n), { headers: authHeaders() }).then(function (t) {
          cache[key] = t;
          return t;
        });
      },
      onAt: function (at) { putParts(at.parts, ["status", "players"]); },
      now: function () { return livePicture; },
      onShown: function (n, max) {
        history.replaceState(null, "", n === max ? G.base : G.base + "/v/" + n);
        if (n === max && lastLive) putParts(lastLive.parts, ["status", "players"]);   // back to now
        past();
      }
    });
  }

  // -- who is looking ---------------------------------------------------------------------

  function identity() {
    var who = $("#who"), keys = $("#keys");
    if (!who) return;   // a play link: the server said who
    keys.hidden = false;
    keys.className = "keys";
    keys.textContent = "";
    if (me) {
      who.textContent = _("You play {seat} from this browser.", { seat: seatName(me) });
      if (held.length > 1) {
        keys.appendChild(para(ngettext("This browser holds {n} seat of this game. Play as:",
                                       "This browser holds {n} seats of this game. Play as:", held.length)));
        keys.appendChild(row(held.map(function (s) {
          var b = button(seatName(s), function () { if (s.seat !== me.seat) playAs(s.seat); }, "seat-choice");
          b.dataset.seat = s.seat;
          b.setAttribute("aria-pressed", String(s.seat === me.seat));
          return b;
        })));
      }
      var forget = button(held.length > 1 ? _("Forget {seat} here", { seat: seatName(me) }) : _("Forget this seat here"), function () {
        if (!confirm(_("Forget {seat} in this browser? Without its token this browser cannot play it.",
                       { seat: seatName(me) }))) return;
        PbemKeys.forgetSeat(G.id, me.seat);
        location.reload();
      });
      keys.appendChild(row([forget]));
    } else {
      who.textContent = _("You are watching as a spectator.");
      if (G.status === "open") {
        keys.appendChild(para(_("Take a free seat with the Join button: this browser makes (or imports) your key " +
                                "and keeps it.")));
      }
      keys.appendChild(elsewhere());
    }
    (me ? PbemKeys.loadFor(me.key) : PbemKeys.load()).then(function (pair) {
      if (!pair) return;
      // A key an older page kept readable was locked just now: its last chance to be saved.
      if (pair.backup) PbemBackup.offer(keys, pair, { go: _("Done") });
      return PbemKeys.publicKey(pair).then(function (pub) {
        var p = para(_("Your key: {key}\u2026, kept locked in this browser: it signs your moves and no page " +
                       "can read it back.", { key: pub.slice(0, 10) }));
        p.className = "key";
        keys.appendChild(p);
      });
    }).catch(function (err) {
      keys.appendChild(para(_("This browser's key cannot be read: {reason}", { reason: err.message })));
    });
  }

  function seatName(s) {
    return s.name ? _("{name} (seat {n})", { name: s.name, n: s.seat }) : _("seat {n}", { n: s.seat });
  }

  /* The tab plays another seat this browser holds: the page anew, as that
     seat (its parts, pictures and event stream are its own). */
  function playAs(seat) {
    PbemKeys.chooseSeat(G.id, seat);
    location.reload();
  }

  /* The players' table, as the server drew it for the seat played here:
     the other seats this browser holds are marked, with a way to play them. */
  function markHeld() {
    if (!me) return;
    held.forEach(function (s) {
      if (s.seat === me.seat) return;
      var tr = document.querySelector('#players tr.seat[data-seat="' + s.seat + '"]');
      if (!tr || tr.classList.contains("held")) return;
      tr.classList.add("held");
      var name = tr.querySelector("td.name");
      if (name) name.appendChild(document.createTextNode(" "));
      if (name) name.appendChild(Object.assign(document.createElement("em"), { textContent: _("(yours here)") }));
      var cell = tr.querySelector("td.join");
      if (cell && !cell.querySelector("button")) {
        var b = button(_("Play"), function () { playAs(s.seat); }, "switch-seat");
        b.dataset.seat = s.seat;
        b.setAttribute("aria-label", _("Play {seat} from this page", { seat: seatName(s) }));
        cell.appendChild(b);
      }
    });
  }

  /* A seat taken elsewhere (`pbem join` keeps its token in ~/.pbem/seats.json,
     its key in key.json): its token says which seat it is, the key signs. */
  function elsewhere() {
    var box = document.createElement("details");
    box.className = "elsewhere";
    box.innerHTML = "<summary></summary>" +
      '<form><label for="seat-token"></label>' +
      '<input type="text" id="seat-token" autocomplete="off" spellcheck="false" required>' +
      '<label for="seat-key"></label>' +
      '<input type="text" id="seat-key" autocomplete="off" spellcheck="false">' +
      '<div class="row"><button type="submit"></button></div></form>';
    box.querySelector("summary").textContent = _("Play a seat you took elsewhere");
    box.querySelector("label[for=seat-token]").textContent = _("The seat's bearer token");
    box.querySelector("label[for=seat-key]").textContent = _("Your private key (empty: this browser's key)");
    box.querySelector("button").textContent = _("Use this seat here");
    box.querySelector("form").addEventListener("submit", function (e) {
      e.preventDefault();
      var token = box.querySelector("#seat-token").value.trim(), key = box.querySelector("#seat-key").value.trim();
      fetchJson(inLanguage(G.base + "/live"), { headers: { Authorization: "Bearer " + token } }).then(function (live) {
        if (live.viewer === null) throw new Error(_("this token names no seat"));
        return (key ? PbemKeys.importPrivate(key) : PbemKeys.load()).then(function (pair) {
          if (!pair) throw new Error(_("this browser has no key yet: paste the seat's private key"));
          return PbemKeys.publicKey(pair);
        }).then(function (pub) {
          PbemKeys.rememberSeat(G.id, live.viewer, token, live.names[live.viewer], pub);
          location.reload();
        });
      }).catch(function (err) {
        said(_("Not this seat: {reason}", { reason: reason(err) }), "bad");
      });
    });
    return box;
  }

  /* Why something failed, with the API's code when it gave one. */
  function reason(err) {
    return err.code ? _("{message} ({code})", { message: err.message, code: err.code }) : err.message;
  }

  function button(text, fn, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", fn);
    return b;
  }
  function para(text) { var p = document.createElement("p"); p.textContent = text; return p; }
  function row(items) {
    var d = document.createElement("div");
    d.className = "row";
    items.forEach(function (i) { d.appendChild(i); });
    return d;
  }

  function joinForm(seat) {
    var keys = $("#keys");
    keys.hidden = false;
    keys.className = "keys";
    keys.textContent = "";
    var form = document.createElement("form");
    form.className = "join";
    form.innerHTML = '<h2></h2>' +
      '<label for="join-name"></label><input type="text" id="join-name" maxlength="40" required>' +
      '<label for="join-key"></label>' +
      '<input type="text" id="join-key" autocomplete="off" spellcheck="false">' +
      '<div class="row"><button type="submit" class="primary"></button></div>';
    form.querySelector("h2").textContent = _("Join seat {n}", { n: seat });
    form.querySelector("label[for=join-name]").textContent = _("Your name");
    form.querySelector("label[for=join-key]").textContent =
      _("Your private key (optional: leave empty and this browser makes one)");
    form.querySelector("#join-key").placeholder = _("43 characters of base64url");
    form.querySelector("button").textContent = _("Join seat {n}", { n: seat });
    keys.appendChild(form);
    PbemKeys.load().then(function (pair) {
      if (pair) form.querySelector("#join-key").placeholder = _("empty: use this browser's key");
    });
    form.querySelector("#join-name").focus();
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var name = form.querySelector("#join-name").value.trim();
      var imported = form.querySelector("#join-key").value.trim();
      if (!name) return;
      var key = imported ? PbemKeys.importPrivate(imported) : PbemKeys.load().then(function (pair) {
        return pair || PbemKeys.generate().then(saveCopy);
      });
      var pub;
      said(_("Joining\u2026"));
      key.then(function (pair) {
        return PbemKeys.publicKey(pair).then(function (p) {
          pub = p;
          // Signed (purpose "pbem-join"): sent again after a lost answer, the
          // join answers again with a new token instead of "seat taken".
          var issued = Math.floor(Date.now() / 1000);
          var signed = { purpose: "pbem-join", game: G.id, seat: seat, public_key: pub, issued_at: issued };
          return PbemKeys.sign(pair, PbemCanon.utf8(PbemCanon.canonical(signed))).then(function (signature) {
            return fetchJson("/games/" + G.id + "/seats/" + seat, {
              method: "POST", headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ public_key: pub, name: name, proof: { issued_at: issued, signature: signature } })
            });
          });
        });
      }).then(function (joined) {
        var before = me;
        PbemKeys.rememberSeat(G.id, seat, joined.token, name, pub);
        if (before || reloadWanted) { location.reload(); return; }   // another seat here, or the game dealt: anew
        me = PbemKeys.seatOf(G.id);
        held = PbemKeys.seatsOf(G.id);
        identity();
        said(_("You sit at seat {n}.", { n: seat }), "good");
        return refresh(true);
      }).catch(function (err) {
        form.hidden = false;
        said(_("Not joined: {reason}", { reason: reason(err) }), "bad");
        if (reloadWanted) location.reload();
      });
    });

    /* A key made just now: the player saves its one copy (or says not to)
       before the seat is taken with it. */
    function saveCopy(made) {
      said("");
      form.hidden = true;
      holdReload = true;
      return PbemBackup.offer(keys, made, { go: _("Go on: join seat {n}", { n: seat }), focus: true }).then(function () {
        holdReload = false;
        said(_("Joining\u2026"));
        return made;
      });
    }
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest("button.join-seat");
    if (b && !holdReload) joinForm(+b.dataset.seat);   // (not while a new key's copy is being saved)
  });

  // -- playing ------------------------------------------------------------------------------

  function send(move, text, version) {
    said(_("Sending: {move}\u2026", { move: text }));
    document.querySelectorAll("#play button").forEach(function (b) { b.disabled = true; });
    var sent;
    if (G.mode === "link") {
      sent = fetchJson(G.base, {
        method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ move: move, expected_version: version, nonce: PbemKeys.nonce() })
      });
    } else {
      sent = PbemKeys.loadFor(me.key).then(function (pair) {
        if (!pair) throw new Error(_("this browser has no key for this seat"));
        return PbemKeys.signEnvelope(pair, { game: G.id, player: me.seat, expected_version: version, move: move,
                                             nonce: PbemKeys.nonce() });
      }).then(function (envelope) {
        return fetchJson("/games/" + G.id + "/moves", {
          method: "POST", headers: { "Content-Type": "application/json", Prefer: "wait=8" },
          body: JSON.stringify(envelope)
        });
      });
    }
    function told(record) {
      if (record.status === "applied") said(_("Played: {move}.", { move: text }), "good");
      else if (record.status === "rejected") said(_("Refused: {reason}", { reason: reason(record.error) }), "bad");
      else return false;
      return true;
    }
    return sent.then(function (record) {
      if (!told(record)) said(_("Sent: {move}; it is queued.", { move: text }));
      return refresh(false).catch(function () {}).then(function () { told(record); });
    }, function (err) {
      said(_("Refused: {reason}", { reason: reason(err) }), "bad");
      document.querySelectorAll("#play button").forEach(function (b) { b.disabled = false; });
    });
  }

  /* Takebacks (parts/takeback.html): asked and answered as moves, sent as every move is. */
  function attachTakeback() {
    if (G.mode === "page" && !me) return;
    // and a handover's (parts/handover.html): the same kind of form
    document.querySelectorAll("#play form.takeback-form").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var b = e.submitter;
        if (b) send(JSON.parse(b.value), b.dataset.text, +form.dataset.version);
      });
    });
  }

  function attachPlay() {
    attachTakeback();
    var form = document.querySelector("#play form.moves");
    if (!form || (G.mode === "page" && !me)) {
      if (window.PbemTouch) PbemTouch.reset();
      return;
    }
    var legal = JSON.parse(form.querySelector(".legal-data").textContent);
    var version = +form.dataset.version;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var b = e.submitter;
      if (!b || b.dataset.i === undefined) return;
      var m = legal[+b.dataset.i];
      send(m.move, m.text, version);
    });
    var touch = form.querySelector(".touch-data");
    if (touch && window.PbemTouch) {
      PbemTouch.attach({ picture: $("#picture"), legal: legal, touch: JSON.parse(touch.textContent),
                         send: function (move, text) { return send(move, text, version); } });
    } else if (window.PbemTouch) {
      PbemTouch.reset();
    }
    var chooser = document.querySelector("#chooser");
    if (chooser && window.PbemCarcassonne) {
      PbemCarcassonne.attach({ picture: $("#picture"), chooser: chooser, legal: legal,
                               send: function (move, text) { send(move, text, version); } });
    }
  }

  // -- start ------------------------------------------------------------------------------

  /* The board in words for screen readers (#board-text): the text board the
     server put in each picture as its description, whichever picture is shown. */
  var boardText = $("#board-text");
  if (boardText && window.MutationObserver) {
    new MutationObserver(function () {
      var desc = $("#picture desc");
      if (desc && desc.textContent !== boardText.textContent) boardText.textContent = desc.textContent;
    }).observe($("#picture"), { childList: true, subtree: true });
  }

  attachReplay();
  identity();
  if (G.mode === "link" || !me) {
    attachPlay();
    refresh(false).catch(function () {});
  } else {
    var shown = +main.dataset.shown;
    refresh(true).then(function () {
      if (replay && shown !== G.version) replay.show(shown);   // a version page, as this seat sees it
    }).catch(function () {});
  }
  updates();
})();
