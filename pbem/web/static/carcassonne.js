/* Carcassonne's move by pointing: tap a blue frame on the board (the picture
   frames each cell where the drawn tile fits: rect.legal with data-x,
   data-y), turn the tile through the rotations that fit there, then tap the
   segment of the enlarged tile a figure goes on (or none), and play. Only
   moves of the seat's legal moves can be made: each step offers what they
   allow, and the move sent is one of them, as the server listed it. */
(function (root) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var _ = root.PbemI18n._;
  // The figures a tile's segment may take, by what they are called (their ids are the notation's).
  var FIGURES = { follower: _("follower"), big: _("big follower"), builder: _("builder"), pig: _("pig"),
                  mayor: _("mayor"), wagon: _("wagon"), barn: _("barn") };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) e.textContent = text;
    return e;
  }

  function same(a, b) { return PbemCanon.canonical(a) === PbemCanon.canonical(b); }

  function attach(o) {
    // o: {picture, chooser, legal: [{move, text}], send(move, text)}
    var svg = o.picture.querySelector("svg"), chooser = o.chooser;
    if (!svg || !chooser) return null;
    var cells = Array.prototype.slice.call(svg.querySelectorAll("rect.legal"));
    if (!cells.length) return null;
    var tiles = chooser.querySelector(".tiles");
    var controls = el("div", { "class": "controls" });
    chooser.appendChild(controls);
    chooser.hidden = false;
    o.picture.classList.add("choosing");
    var pick = null;  // {x, y, rects, rotations, r, figure: {figure, on} | null}

    function movesAt(x, y) { return o.legal.filter(function (m) { return m.move.x === x && m.move.y === y; }); }

    function cellAt(evt) {
      var pt = svg.createSVGPoint();
      pt.x = evt.clientX; pt.y = evt.clientY;
      // (the frames' own user space: zoom.js may have put the board in a port of its own)
      var p = pt.matrixTransform(cells[0].getScreenCTM().inverse());
      for (var i = 0; i < cells.length; i++) {
        var c = cells[i], x = +c.getAttribute("x") - 3, y = +c.getAttribute("y") - 3,
            w = +c.getAttribute("width") + 6;
        if (p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + w) return c;
      }
      return null;
    }

    // One handler per picture: the page attaches again whenever its parts come anew.
    if (svg.pbemPick) svg.removeEventListener("click", svg.pbemPick);
    svg.pbemPick = function (evt) {
      var c = cellAt(evt);
      if (c) choose(+c.dataset.x, +c.dataset.y, c);
    };
    svg.addEventListener("click", svg.pbemPick);

    function choose(x, y, rect) {
      var here = movesAt(x, y);
      var places = here.filter(function (m) { return m.move.type === "place_tile"; });
      var rotations = [];
      places.forEach(function (m) { if (rotations.indexOf(m.move.rotation) < 0) rotations.push(m.move.rotation); });
      rotations.sort(function (a, b) { return a - b; });
      pick = { x: x, y: y, rect: rect, here: here, places: places, rotations: rotations, r: 0, figure: null };
      cells.forEach(function (c) { c.classList.toggle("picked", c === rect); });
      render();
      // On a phone the chooser sits below the board: bring its buttons into sight.
      if (controls.getBoundingClientRect().top > window.innerHeight) {
        chooser.scrollIntoView({ block: "start", behavior: "smooth" });
      }
    }

    function rotation() { return pick.rotations[pick.r]; }

    function figuresOn(label) {
      return pick.places.filter(function (m) {
        return m.move.rotation === rotation() && m.move.on === label && m.move.figure;
      });
    }

    function chosen() {
      if (!pick || !pick.places.length) return null;
      return pick.places.filter(function (m) {
        if (m.move.rotation !== rotation()) return false;
        if (!pick.figure) return !m.move.figure && !m.move.on;
        return m.move.figure === pick.figure.figure && m.move.on === pick.figure.on;
      })[0] || null;
    }

    function ghost() {
      var old = svg.querySelector("g.ghost");
      if (old) old.remove();
      if (!pick || !pick.places.length) return;
      var art = tiles.querySelector('svg.tile-choice[data-rotation="' + rotation() + '"] g.art');
      if (!art) return;
      var r = pick.rect, x = +r.getAttribute("x") - 3, y = +r.getAttribute("y") - 3,
          size = +r.getAttribute("width") + 6, big = +art.ownerSVGElement.getAttribute("width");
      var g = document.createElementNS(NS, "g");
      g.setAttribute("class", "ghost");
      g.setAttribute("pointer-events", "none");
      g.setAttribute("transform", "translate(" + x + "," + y + ") scale(" + (size / big) + ")");
      g.appendChild(art.cloneNode(true));
      var frame = document.createElementNS(NS, "rect");
      ["x", "y"].forEach(function (k) { frame.setAttribute(k, "0"); });
      frame.setAttribute("width", String(big));
      frame.setAttribute("height", String(big));
      frame.setAttribute("fill", "none");
      frame.setAttribute("stroke", "#1f4fbf");
      frame.setAttribute("stroke-width", String(4 * big / size));
      g.appendChild(frame);
      r.parentNode.appendChild(g);   // beside its frame, in the board's own coordinates
    }

    function render() {
      controls.textContent = "";
      tiles.querySelectorAll("svg.tile-choice").forEach(function (t) { t.classList.remove("on"); });
      chooser.querySelector(".how").hidden = !!pick;
      ghost();
      if (!pick) return;
      controls.appendChild(el("p", { "class": "choice" }, pick.places.length
        ? _("Tile at {x},{y}, turned r{r}", { x: pick.x, y: pick.y, r: rotation() })
        : _("Tile at {x},{y}", { x: pick.x, y: pick.y })));
      var row = el("div", { "class": "row" });
      if (pick.rotations.length > 1) {
        var turn = el("button", { type: "button", "class": "turn" },
                      "\u21bb " + _("Turn ({i} of {n})", { i: pick.r + 1, n: pick.rotations.length }));
        turn.addEventListener("click", function () {
          pick.r = (pick.r + 1) % pick.rotations.length; pick.figure = null; render();
        });
        row.appendChild(turn);
      }
      var cancel = el("button", { type: "button", "class": "cancel" }, _("Cancel"));
      cancel.addEventListener("click", function () {
        pick = null;
        cells.forEach(function (c) { c.classList.remove("picked"); });
        render();
      });
      row.appendChild(cancel);
      controls.appendChild(row);
      if (pick.places.length) figures();
      // Other moves at this cell (an abbey, say): a button each.
      pick.here.filter(function (m) { return m.move.type !== "place_tile"; }).forEach(function (m) {
        var b = el("button", { type: "button", "class": "other" }, m.text);
        b.addEventListener("click", function () { o.send(m.move, m.text); });
        controls.appendChild(b);
      });
    }

    function figures() {
      var tile = tiles.querySelector('svg.tile-choice[data-rotation="' + rotation() + '"]');
      if (tile) {
        tile.classList.add("on");
        tile.querySelectorAll(".spot").forEach(function (spot) {
          var options = figuresOn(spot.dataset.on);
          spot.classList.toggle("off", !options.length);
          spot.classList.toggle("chosen", !!pick.figure && pick.figure.on === spot.dataset.on);
          spot.onclick = options.length ? function () {
            pick.figure = { figure: options[0].move.figure, on: spot.dataset.on };
            render();
          } : null;
        });
      }
      controls.appendChild(el("p", { "class": "how-figure" },
        _("Tap a spot on the tile to put a figure there (a knight on a city, a thief on a road, a farmer " +
          "in a field, a monk on a monastery), or play it without one.")));
      var row = el("div", { "class": "row figures" });
      var none = el("button", { type: "button", "class": "no-figure" }, _("No figure"));
      none.setAttribute("aria-pressed", String(!pick.figure));
      none.addEventListener("click", function () { pick.figure = null; render(); });
      row.appendChild(none);
      var kinds = pick.figure ? figuresOn(pick.figure.on) : [];
      if (kinds.length > 1) {  // several figures may stand there (a big follower, a builder...)
        kinds.forEach(function (m) {
          var b = el("button", { type: "button", "class": "figure" }, FIGURES[m.move.figure] || m.move.figure);
          b.setAttribute("aria-pressed", String(m.move.figure === pick.figure.figure));
          b.addEventListener("click", function () { pick.figure.figure = m.move.figure; render(); });
          row.appendChild(b);
        });
      }
      controls.appendChild(row);
      var move = chosen();
      var go = el("button", { type: "button", "class": "primary play-it" },
                  move ? _("Play: {move}", { move: move.text }) : _("Choose a spot"));
      go.disabled = !move;
      go.addEventListener("click", function () { if (move) o.send(move.move, move.text); });
      controls.appendChild(go);
    }

    render();
    return { choose: choose, same: same };
  }

  root.PbemCarcassonne = { attach: attach };
})(window);
