/* The chat box of a game's page (parts/chat.html): the messages the reader
   may read, and, for a seat, a line to write to everyone or to one other
   seat. They come live over the page's event stream (game.js opens it with
   ?chat=<the last one shown> and hands each `chat` event here as a
   "pbem:chat" event on the box; docs/chat.md). Only while that stream is
   not open (a finished game, no stream, a dropped connection) are they
   asked for after the last one every few seconds while the page is shown
   (and at once after sending). Who reads what is
   the server's (pbem/service/chat.py): a key's seat asks the API with its
   token, a play link through the link, a spectator without either. Every
   message is shown with textContent: the players' text is never markup. */
(function () {
  "use strict";
  var main = document.querySelector("main.game"), box = document.getElementById("chat");
  if (!main || !box) return;
  var _ = PbemI18n._;
  var id = main.dataset.game, mode = main.dataset.mode, lang = main.dataset.lang || "en";
  var finished = main.dataset.status === "finished";
  var me = mode === "page" && window.PbemKeys ? PbemKeys.seatOf(id) : null;
  var seat = me ? me.seat : (mode === "link" && box.dataset.seat !== "" ? +box.dataset.seat : null);
  var url = mode === "link" ? main.dataset.base + "/chat" : "/games/" + encodeURIComponent(id) + "/chat";
  var list = document.getElementById("chat-list"), form = document.getElementById("chat-form");
  var input = document.getElementById("chat-text"), to = document.getElementById("chat-to");
  var note = document.getElementById("chat-note");
  var last = 0, names = {}, timer = null, busy = false;
  var EVERY_MS = 2000;
  // Whether game.js will carry the chat over its stream (as it decides to open one).
  var streamed = !finished && !!main.dataset.stream && !!window.EventSource, live = false;
  var loaded = Date.now();

  function headers(json) {
    var h = json ? { "Content-Type": "application/json" } : {};
    if (me) h.Authorization = "Bearer " + me.token;
    return h;
  }

  function withLang(u) { return u + (u.indexOf("?") < 0 ? "?" : "&") + "lang=" + encodeURIComponent(lang); }

  function answer(resp) {
    return resp.json().catch(function () { return {}; }).then(function (body) {
      if (!resp.ok) throw (body && body.error) || { message: String(resp.status) };
      return body;
    });
  }

  /* The time of day in the page's language (the browser's own, for a tag it does not know). */
  function clock(at) {
    try { return at.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" }); }
    catch (e) { return at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
  }

  function nameOf(s) {
    if (names[s]) return names[s];
    var option = to.querySelector('option[value="' + s + '"]');
    return option ? option.dataset.name : _("seat {n}", { n: s });
  }

  function span(cls, text) { var e = document.createElement("span"); e.className = cls; e.textContent = text; return e; }

  function show(m, fresh) {
    names[m.seat] = m.name;
    var li = document.createElement("li");
    li.dataset.n = m.n;
    if (m.to !== null && m.to !== undefined) li.className = "private";
    li.appendChild(span("who", m.name));
    if (m.to !== null && m.to !== undefined) {
      li.appendChild(span("to", " " + (m.to === seat ? _("(to you only)") :
                                       _("(to {name} only)", { name: nameOf(m.to) }))));
    }
    var t = document.createElement("time");
    var at = new Date(m.time * 1000);
    t.dateTime = at.toISOString();
    t.textContent = clock(at);
    li.appendChild(t);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(span("text", m.text));
    if (fresh) li.classList.add("new");
    var atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.appendChild(li);
    if (atBottom || fresh) list.scrollTop = list.scrollHeight;
  }

  function fetchNew(fresh) {
    if (busy) return Promise.resolve();
    busy = true;
    return fetch(withLang(url + "?after=" + last), { headers: headers(false), cache: "no-store" }).then(answer)
      .then(function (body) {
        body.messages.forEach(function (m) { if (m.n > last) { show(m, fresh); last = m.n; } });
        last = Math.max(last, body.last || 0);
      }).catch(function (err) {
        if (err.code === "bad_token" && me) { me = null; seat = null; setUp(); }  // the token is no longer the seat's
      }).then(function () { busy = false; });
  }

  function schedule() {
    clearTimeout(timer);
    if (!document.hidden && !live) timer = setTimeout(function () { fetchNew(true).then(schedule); }, EVERY_MS);
  }

  // The stream's messages: its catch-up after `last`, then each one as it is said.
  box.addEventListener("pbem:chat", function (e) {
    var m = e.detail;
    // Said before the page was loaded: caught up, not news (a lenient clock).
    if (m.n > last) { show(m, m.time * 1000 > loaded - 5000); last = m.n; }
  });
  box.addEventListener("pbem:chat-live", function (e) {
    live = !!e.detail;
    if (live) clearTimeout(timer);
    else fetchNew(true).then(schedule);  // the stream is down: poll until it is back
  });
  // What the page has shown, for game.js's ?chat= when it (re)opens its stream.
  window.PbemChat = { last: function () { return last; } };

  function setUp() {
    var writes = seat !== null && !finished;
    form.hidden = !writes;
    document.getElementById("chat-spectator").hidden = seat !== null || finished;
    Array.prototype.forEach.call(to.options, function (o) { o.hidden = o.disabled = o.value !== "" && +o.value === seat; });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    var body = { text: text };
    if (to.value !== "") body.to = +to.value;
    var button = form.querySelector("button");
    button.disabled = true;
    note.textContent = "";
    note.className = "sent";
    fetch(withLang(url), { method: "POST", headers: headers(true), body: JSON.stringify(body) }).then(answer)
      .then(function () {
        input.value = "";
        if (!live) return fetchNew(true);  // else it comes back over the stream
      }).catch(function (err) {
        note.className = "sent bad";
        note.textContent = _("Not sent: {reason}", { reason: err.message || "" });
      }).then(function () { button.disabled = false; input.focus(); });
  });

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !live) fetchNew(true).then(schedule);
  });
  setUp();
  if (streamed) {
    // The stream brings every message; poll only if it has not opened soon.
    timer = setTimeout(function () { if (!live) fetchNew(false).then(schedule); }, 4000);
  } else {
    fetchNew(false).then(schedule);
  }
})();
