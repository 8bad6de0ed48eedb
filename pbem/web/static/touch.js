/* Every decision by touching the board: one generic chooser for every game.

   The server sends, beside the seat's legal moves (.legal-data), how each is
   made by touching (.touch-data, from the game's pictures module `touch`):
     {paths: [[key, ...] per legal move], labels: {key: words}, offboard: [keys]}
   A key is a thing the player touches: drawn in the picture as an element
   with data-pick="KEY", or (offboard) a button in the step panel beside the
   board. At each step the candidates are the next keys of the paths that
   start with what was touched so far; they are marked (class "pickable"),
   take the focus (tabindex, role button, the key's label) and answer a tap,
   a click, Enter and Space. Back (or Escape) undoes a step, Cancel all of them. When a
   path is whole the move is asked for once more ("Play: ...?"), since a
   move is taken back only by the others' consent (and never one that drew
   or revealed something: pbem/games/takeback.py), and Play sends it
   through the page's own send.
   Carcassonne's tile placement keeps its own chooser (carcassonne.js): its
   pictures module sends no touch data for a decision placing a tile, so
   this one stays away (Cartoona's tiles, also "place_tile", are touched here). */
(function (root) {
  "use strict";
  var _ = root.PbemI18n._;
  var MARKS = ["pickable", "picked"];
  var at = null;   // {picture, panel, legal, touch, send, live: [move index], chosen: [key], sending, focused}
  var watched = null;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) e.textContent = text;
    return e;
  }

  function label(key) { return (at.touch.labels && at.touch.labels[key]) || key; }
  function offboard(key) { return (at.touch.offboard || []).indexOf(key) >= 0; }

  /* The moves whose path starts with the keys chosen so far. */
  function matching() {
    return at.live.filter(function (i) {
      var path = at.touch.paths[i];
      for (var k = 0; k < at.chosen.length; k++) if (path[k] !== at.chosen[k]) return false;
      return path.length >= at.chosen.length;
    });
  }

  /* The move whose whole path was touched (paths are prefix-free: then it is the only one). */
  function complete() {
    var found = matching().filter(function (i) { return at.touch.paths[i].length === at.chosen.length; });
    return found.length ? found[0] : null;
  }

  function candidates() {
    var out = [];
    matching().forEach(function (i) {
      var key = at.touch.paths[i][at.chosen.length];
      if (key !== undefined && out.indexOf(key) < 0) out.push(key);
    });
    return out;
  }

  function spots(key) {
    var found = [];
    at.picture.querySelectorAll("[data-pick]").forEach(function (e) {
      if (e.getAttribute("data-pick") === key) found.push(e);
    });
    return found;
  }

  function unmark(root) {
    root.querySelectorAll("[data-pick]").forEach(function (e) {
      MARKS.forEach(function (c) { e.classList.remove(c); });
      ["tabindex", "role", "aria-label", "aria-hidden", "aria-pressed"].forEach(function (a) { e.removeAttribute(a); });
    });
  }

  /* The picture's spots as this step has them (again after the picture is drawn anew). */
  function mark() {
    unmark(at.picture);
    if (at.sending || complete() !== null) {
      at.chosen.forEach(function (key) { spots(key).forEach(function (e) { e.classList.add("picked"); }); });
      return;
    }
    at.chosen.forEach(function (key) { spots(key).forEach(function (e) { e.classList.add("picked"); }); });
    candidates().forEach(function (key) {
      spots(key).forEach(function (e, n) {
        e.classList.add("pickable");
        if (n === 0) {   // one stop per key for the keyboard and the screen reader
          e.setAttribute("tabindex", "0");
          e.setAttribute("role", "button");
          e.setAttribute("aria-label", label(key));
        } else {
          e.setAttribute("aria-hidden", "true");
        }
      });
    });
  }

  function button(text, cls, fn) {
    var b = el("button", { type: "button", "class": cls }, text);
    b.addEventListener("click", fn);
    return b;
  }

  function render() {
    var panel = at.panel, move = complete();
    panel.textContent = "";
    panel.hidden = false;
    mark();
    var row = el("div", { "class": "row" });
    if (move !== null) {
      panel.className = "touch-panel confirm";
      panel.appendChild(el("p", { "class": "ask" }, _("Play: {move}?", { move: at.legal[move].text })));
      var play = button(_("Play this move"), "primary play-it", function () { go(move); });
      row.appendChild(play);
      row.appendChild(button(_("Cancel"), "cancel", function () { cancel(); }));
      panel.appendChild(row);
      panel.appendChild(el("p", { "class": "note" }, _("Once sent, a move can be taken back only if every other player agrees before anyone moves " +
        "again, and only if it drew or revealed nothing.")));
      if (at.sending) row.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      return play;
    }
    panel.className = "touch-panel step";
    var next = candidates(), on = next.filter(function (k) { return !offboard(k); }),
        off = next.filter(offboard);
    var how;
    if (at.chosen.length) {
      how = _("Chosen: {what}.", { what: at.chosen.map(label).join(" \u2192 ") }) + " " +
        (off.length && on.length ? _("Now touch a marked spot on the board, or choose here.")
          : on.length ? _("Now touch a marked spot on the board.") : _("Now choose here."));
    } else {
      how = off.length && on.length ? _("Your move: touch a marked spot on the board, or choose here.")
        : on.length ? _("Your move: touch a marked spot on the board.") : _("Your move: choose here.");
    }
    panel.appendChild(el("p", { "class": "how" }, how));
    off.forEach(function (key) {
      var b = button(label(key), "offboard", function () { pick(key); });
      b.dataset.key = key;
      row.appendChild(b);
    });
    if (at.chosen.length) {
      row.appendChild(button(_("Back"), "back", function () { back(); }));
      row.appendChild(button(_("Cancel"), "cancel", function () { cancel(); }));
    }
    if (row.childNodes.length) panel.appendChild(row);
    return null;
  }

  /* Where the focus goes after a step: the Play button, else the first spot to touch, else the panel's first button. */
  function focusNext(play) {
    var target = play;
    if (!target) {
      var first = at.picture.querySelector("[data-pick].pickable[tabindex]");
      target = first || at.panel.querySelector("button");
    }
    if (target) target.focus({ preventScroll: !play });
    if (play) {
      // On a phone the panel may sit below the fold: bring the question into sight.
      var box = at.panel.getBoundingClientRect();
      if (box.bottom > window.innerHeight || box.top < 0) at.panel.scrollIntoView({ block: "nearest" });
    }
  }

  /* Where the keyboard's focus is among the spots and the panel's buttons ({key} or {cls}), kept so that
     it is given back when a live update draws them anew (the focused element is gone, the focus with it). */
  function noteFocus(evt) {
    if (!at) return;
    var t = evt.target, spot = t.closest ? t.closest("[data-pick]") : null;
    if (spot && at.picture.contains(spot)) at.focused = { key: spot.getAttribute("data-pick") };
    else if (t.tagName === "BUTTON" && at.panel.contains(t)) at.focused = t.dataset.key ? { key: t.dataset.key }
      : { cls: t.className.split(" ").pop() };
  }

  function forgetFocus(evt) {
    // Focus moved on to something else on the page: nothing to give back. (A removed element's
    // focus goes nowhere: relatedTarget null, kept.)
    var to = evt.relatedTarget;
    if (at && to && !at.picture.contains(to) && !at.panel.contains(to)) at.focused = null;
  }

  function giveFocusBack() {
    var f = at && at.focused, now = document.activeElement;
    if (!f || (now && now !== document.body)) return;
    var target = null;
    if (f.key) {
      target = spots(f.key).filter(function (e) { return e.hasAttribute("tabindex"); })[0] ||
        at.panel.querySelector("button[data-key='" + (window.CSS && CSS.escape ? CSS.escape(f.key) : f.key) + "']");
    } else if (f.cls) {
      target = at.panel.querySelector("button." + f.cls);
    }
    if (target) target.focus({ preventScroll: true }); else focusNext(null);
  }

  function pick(key) {
    if (!at || at.sending || candidates().indexOf(key) < 0) return;
    at.chosen.push(key);
    focusNext(render());
  }

  function back() {
    at.chosen.pop();
    render();
    focusNext(null);
  }

  function cancel() {
    at.chosen = [];
    render();
    focusNext(null);
  }

  function go(i) {
    if (at.sending) return;
    at.sending = true;
    render();
    var mine = at, picture = at.picture;
    Promise.resolve(at.send(at.legal[i].move, at.legal[i].text)).then(function () {
      // The move went (or was refused): the picture was drawn anew; the focus goes back to the board.
      if (mine === at) { at.sending = false; at.chosen = []; render(); }
      picture.focus({ preventScroll: true });
    });
  }

  function spotOf(evt) {
    var e = evt.target.closest ? evt.target.closest("[data-pick]") : null;
    return e && at && at.picture.contains(e) && e.classList.contains("pickable") ? e : null;
  }

  function listen(picture) {
    if (picture.pbemTouch) return;
    picture.pbemTouch = true;
    picture.addEventListener("click", function (evt) {
      var e = spotOf(evt);
      if (e) { evt.preventDefault(); pick(e.getAttribute("data-pick")); }
    });
    picture.addEventListener("keydown", function (evt) {
      if (evt.key === "Escape" && at && at.chosen.length && !at.sending) { evt.preventDefault(); back(); return; }
      if (evt.key !== "Enter" && evt.key !== " " && evt.key !== "Spacebar") return;
      var e = spotOf(evt);
      if (e) { evt.preventDefault(); pick(e.getAttribute("data-pick")); }
    });
    picture.addEventListener("focusin", noteFocus);
    picture.addEventListener("focusout", forgetFocus);
    // The picture is drawn anew (a live update, the replay coming back to now): mark it again,
    // and the keyboard's focus goes back where it was.
    watched = new MutationObserver(function () {
      if (at && at.picture === picture) { mark(); giveFocusBack(); }
    });
    watched.observe(picture, { childList: true, subtree: true });
  }

  function panelFor(picture) {
    var panel = document.getElementById("touch-panel");
    if (!panel) {
      panel = el("div", { id: "touch-panel", "class": "touch-panel", "aria-live": "polite" });
      panel.hidden = true;
      // Escape in the panel: a step back (from the question: back to the last spot)
      panel.addEventListener("keydown", function (evt) {
        if (evt.key === "Escape" && at && at.chosen.length && !at.sending) { evt.preventDefault(); back(); }
      });
      panel.addEventListener("focusin", noteFocus);
      panel.addEventListener("focusout", forgetFocus);
      picture.parentNode.insertBefore(panel, picture.nextSibling);
    }
    return panel;
  }

  /* o: {picture, legal: [{move, text}], touch: {paths, labels, offboard}, send(move, text) -> Promise} */
  function attach(o) {
    var live = [];
    (o.legal || []).forEach(function (m, i) {
      if (m.move && o.touch.paths[i]) live.push(i);
    });
    if (!o.picture || !live.length) { reset(); return null; }
    var same = at && at.picture === o.picture && JSON.stringify(at.touch) === JSON.stringify(o.touch);
    at = { picture: o.picture, panel: panelFor(o.picture), legal: o.legal, touch: o.touch, send: o.send,
           live: live, chosen: same ? at.chosen : [], sending: false, focused: at ? at.focused : null };
    listen(o.picture);
    o.picture.classList.add("touching");
    render();
    giveFocusBack();
    return at;
  }

  /* Nothing to choose (not this seat's turn, a past version shown): no marks, no panel. */
  function reset() {
    if (at) {
      unmark(at.picture);
      at.picture.classList.remove("touching");
    }
    at = null;
    var panel = document.getElementById("touch-panel");
    if (panel) { panel.textContent = ""; panel.hidden = true; }
  }

  root.PbemTouch = { attach: attach, reset: reset };
})(window);
