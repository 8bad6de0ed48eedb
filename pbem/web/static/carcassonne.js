/* Carcassonne's move by pointing: tap a blue frame on the board (the picture
   frames each cell where the drawn tile fits: rect.legal with data-x,
   data-y), turn the tile through the rotations that fit there, then tap the
   segment of the enlarged tile a figure goes on (or none), and play. Where a
   bridge may go with the tile (Bridges, Castles & Bazaars), a row of buttons
   chooses it (none, on this tile, on a tile next to it); a bridge on the new
   tile shows the bridged tile, its bridge one more spot. A move beside the
   placement that names no cell (The Tower's ransom) is a button. Only
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

  // What the seat has chosen so far, kept across the page's attaching again (a live update, the
  // page's first refresh after it loads): the same legal moves get the same choice back.
  var kept = null;   // {legal: canonical moves, x, y, r, figure, bridge}

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
    var legalKey = PbemCanon.canonical(o.legal.map(function (m) { return m.move; }));

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

    function choose(x, y, rect, quiet) {
      var here = movesAt(x, y);
      var places = here.filter(function (m) { return m.move.type === "place_tile"; });
      var rotations = [];
      places.forEach(function (m) { if (rotations.indexOf(m.move.rotation) < 0) rotations.push(m.move.rotation); });
      rotations.sort(function (a, b) { return a - b; });
      pick = { x: x, y: y, rect: rect, here: here, places: places, rotations: rotations, r: 0, figure: null,
               bridge: null };
      if (places.length) turned();
      cells.forEach(function (c) { c.classList.toggle("picked", c === rect); });
      render();
      // On a phone the chooser sits below the board: bring its buttons into sight.
      if (!quiet && controls.getBoundingClientRect().top > window.innerHeight) {
        chooser.scrollIntoView({ block: "start", behavior: "smooth" });
      }
    }

    function rotation() { return pick.rotations[pick.r]; }

    function sameBridge(m) { return same(m.move.bridge || null, pick.bridge); }

    // The bridges a placement at this rotation may carry (null: none), in the listed order.
    function bridgesHere() {
      var out = [];
      pick.places.forEach(function (m) {
        if (m.move.rotation !== rotation()) return;
        var b = m.move.bridge || null;
        if (!out.some(function (o) { return same(o, b); })) out.push(b);
      });
      return out;
    }

    function turned() {      // a new rotation: no figure, and no bridge when one may go without
      pick.figure = null;
      var options = bridgesHere();
      pick.bridge = options.some(function (b) { return b === null; }) ? null : (options[0] || null);
    }

    // The enlarged tile of this rotation, bridged when the chosen bridge is on the new tile.
    function tileChoice() {
      var b = pick.bridge, sel = 'svg.tile-choice[data-rotation="' + rotation() + '"]';
      if (b && b[0] === pick.x && b[1] === pick.y) {
        var t = tiles.querySelector(sel + '[data-bridge="' + b[2] + '"]');
        if (t) return t;
      }
      return tiles.querySelector(sel + ":not([data-bridge])");
    }

    function figuresOn(label) {
      return pick.places.filter(function (m) {
        return m.move.rotation === rotation() && m.move.on === label && m.move.figure && sameBridge(m);
      });
    }

    function chosen() {
      if (!pick || !pick.places.length) return null;
      return pick.places.filter(function (m) {
        if (m.move.rotation !== rotation() || !sameBridge(m)) return false;
        if (!pick.figure) return !m.move.figure && !m.move.on;
        return m.move.figure === pick.figure.figure && m.move.on === pick.figure.on;
      })[0] || null;
    }

    function ghost() {
      var old = svg.querySelector("g.ghost");
      if (old) old.remove();
      if (!pick || !pick.places.length) return;
      var choice = tileChoice(), art = choice && choice.querySelector("g.art");
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
      kept = pick ? { legal: legalKey, x: pick.x, y: pick.y, r: pick.r, figure: pick.figure, bridge: pick.bridge }
        : null;
      controls.textContent = "";
      tiles.querySelectorAll("svg.tile-choice").forEach(function (t) { t.classList.remove("on"); });
      chooser.querySelector(".how").hidden = !!pick;
      ghost();
      if (!pick) { away(); return; }
      controls.appendChild(el("p", { "class": "choice" }, pick.places.length
        ? _("Tile at {x},{y}, turned r{r}", { x: pick.x, y: pick.y, r: rotation() })
        : _("Tile at {x},{y}", { x: pick.x, y: pick.y })));
      var row = el("div", { "class": "row" });
      if (pick.rotations.length > 1) {
        var turn = el("button", { type: "button", "class": "turn" },
                      "\u21bb " + _("Turn ({i} of {n})", { i: pick.r + 1, n: pick.rotations.length }));
        turn.addEventListener("click", function () {
          pick.r = (pick.r + 1) % pick.rotations.length; turned(); render();
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
      if (pick.places.length) { bridges(); figures(); }
      // Other moves at this cell (an abbey, say): a button each.
      pick.here.filter(function (m) { return m.move.type !== "place_tile"; }).forEach(function (m) {
        var b = el("button", { type: "button", "class": "other" }, m.text);
        b.addEventListener("click", function () { o.send(m.move, m.text); });
        controls.appendChild(b);
      });
    }

    // Moves beside the placement that name no cell (The Tower's ransom): a button each.
    function away() {
      o.legal.filter(function (m) { return m.move.type !== "place_tile" && m.move.x === undefined; })
        .forEach(function (m) {
          var b = el("button", { type: "button", "class": "other away" }, m.text);
          b.addEventListener("click", function () { o.send(m.move, m.text); });
          controls.appendChild(b);
        });
    }

    function bridges() {
      var options = bridgesHere();
      if (options.length < 2 && !options[0]) return;
      var row = el("div", { "class": "row bridges" });
      options.forEach(function (b) {
        var text = !b ? _("No bridge")
          : (b[0] === pick.x && b[1] === pick.y) ? _("Bridge on this tile ({axis})", { axis: b[2] })
          : _("Bridge at {x},{y} ({axis})", { x: b[0], y: b[1], axis: b[2] });
        var button = el("button", { type: "button", "class": "bridge" }, text);
        button.setAttribute("aria-pressed", String(same(b, pick.bridge)));
        button.addEventListener("click", function () { pick.bridge = b; pick.figure = null; render(); });
        row.appendChild(button);
      });
      controls.appendChild(row);
    }

    function figures() {
      var tile = tileChoice();
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

    var again = kept && kept.legal === legalKey && cells.filter(function (c) {
      return +c.dataset.x === kept.x && +c.dataset.y === kept.y;
    })[0];
    if (again) {
      var was = kept;
      choose(was.x, was.y, again, true);
      if (pick.places.length) { pick.r = was.r; pick.figure = was.figure; pick.bridge = was.bridge; }
    }
    render();
    return { choose: choose, same: same };
  }

  root.PbemCarcassonne = { attach: attach };
})(window);
