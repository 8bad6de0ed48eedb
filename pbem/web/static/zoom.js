/* The board picture on any screen: fitted to the width, panned and zoomed.

   A picture marks its parts (pbem/pictures/markup.py `part`): the board
   (`<g data-part="board" data-box="x y w h">`) and panels (players, scores,
   tiles in hand). On a phone (below 700 px) the picture is laid out anew in
   place, inside the same SVG: the board first, in a nested <svg class="port">
   as wide as the screen, and the panels below it, each scaled to the width.
   On a wide screen the picture stays as drawn and the whole of it is the port.
   The port is panned (drag: pointer events, so mouse, pen and touch alike)
   and zoomed (pinch with two fingers, the buttons +, -, fit, the keys + - 0
   and the arrows on the focused picture, ctrl+wheel) by changing its viewBox:
   nothing is redrawn, the page's own handlers (Carcassonne's pointing, the
   touch picks) keep their elements, and getScreenCTM still maps a tap to the
   board. The same SVG stays one document, so its ids and references hold.
   A picture may draw its panels twice (data-layout "wide" and "narrow": the
   narrow twin laid out near a phone's width, so that its text and touch spots
   are not shrunk): only one of the two is in the document at a time, the
   other kept aside in its place's stead (no spot is there twice).
   The view (centre and zoom) is kept when the game moves on or the replay
   shows another version; fitted stays fitted. */
(function () {
  "use strict";
  var picture = document.getElementById("picture");
  var bar = document.getElementById("zoom");
  if (!picture || !bar) return;
  var NS = "http://www.w3.org/2000/svg";
  var phone = window.matchMedia("(max-width: 699.98px)");   // mobile first: style.css's breakpoint
  var MAX = 8, STEP = 1.5, DRAG = 6;
  // the port now: {svg, box: {x,y,w,h} to fit, pw, ph (CSS px), fw, fh (the viewBox at zoom 1)}
  var port = null;
  var view = { z: 1, cx: null, cy: null };   // zoom over the fitted size, the centre in board units

  function numbers(s) { return String(s || "").trim().split(/[\s,]+/).map(Number); }
  function boxOf(el) {
    var d = el.getAttribute("data-box");
    if (d) { var n = numbers(d); if (n.length === 4 && n[2] > 0 && n[3] > 0) return { x: n[0], y: n[1], w: n[2], h: n[3] }; }
    var b = el.getBBox();
    return { x: b.x, y: b.y, w: b.width, h: b.height };
  }
  function setAttrs(el, a) { for (var k in a) el.setAttribute(k, a[k]); }

  /* The picture as its server drew it, whatever was done to it before (a
     resize from phone to wide undoes the phone's layout). */
  function undo(root) {
    var inner = root.querySelector(":scope > svg.port");
    if (inner) {
      while (inner.firstChild) root.insertBefore(inner.firstChild, inner);
      root.removeChild(inner);
    }
    root.querySelectorAll(":scope > [data-part]").forEach(function (g) { g.removeAttribute("transform"); });
    var drawn = JSON.parse(root.dataset.drawn);
    setAttrs(root, drawn.attrs);
    if (drawn.ground) setAttrs(root.querySelector(":scope > rect"), { width: drawn.ground[0], height: drawn.ground[1] });
  }

  /* The panels for this screen in the document (the narrow twins on a phone),
     the others set aside, a comment marking where each goes back. */
  function choose(root, narrow) {
    var aside = root.pbemAside || (root.pbemAside = { wide: [], narrow: [] });
    var want = narrow ? "narrow" : "wide", drop = narrow ? "wide" : "narrow";
    aside[want].forEach(function (p) { if (p.mark.parentNode) p.mark.parentNode.replaceChild(p.node, p.mark); });
    aside[want] = [];
    root.querySelectorAll(":scope > [data-layout=" + drop + "]").forEach(function (g) {
      var mark = document.createComment(drop);
      root.replaceChild(mark, g);
      aside[drop].push({ node: g, mark: mark });
    });
    root.querySelectorAll(":scope > [data-layout=narrow]").forEach(function (g) { g.removeAttribute("display"); });
  }

  function layout() {
    var root = picture.querySelector(":scope > svg");
    port = null;
    bar.hidden = !root;
    if (!root) return;
    if (!root.dataset.drawn) {
      var ground = root.querySelector(":scope > rect");
      root.dataset.drawn = JSON.stringify({
        attrs: { viewBox: root.getAttribute("viewBox"), width: root.getAttribute("width"), height: root.getAttribute("height") },
        ground: ground && +ground.getAttribute("x") === 0 && +ground.getAttribute("y") === 0
          ? [ground.getAttribute("width"), ground.getAttribute("height")] : null });
    } else {
      undo(root);
    }
    var drawn = numbers(root.getAttribute("viewBox"));
    var whole = { x: drawn[0], y: drawn[1], w: drawn[2], h: drawn[3] };
    var board = root.querySelector(":scope > [data-part=board]");
    var wide = !phone.matches || !board;
    choose(root, !wide);
    picture.classList.toggle("stacked", !wide);
    if (wide) {
      // As drawn: the whole picture is the port, shown as wide as it may be.
      port = { svg: root, box: whole, fw: whole.w, fh: whole.h };
      measure();
      return apply();
    }
    var W = Math.max(200, Math.floor(picture.clientWidth));
    var box = boxOf(board);
    var ratio = Math.min(1.3, Math.max(0.25, box.h / box.w));
    var ph = Math.round(Math.min(W * ratio, window.innerHeight * 0.75));
    var inner = document.createElementNS(NS, "svg");
    setAttrs(inner, { "class": "port", x: 0, y: 0, width: W, height: ph, preserveAspectRatio: "xMidYMid meet",
                      role: "none" });   // one picture for a screen reader, as drawn
    root.insertBefore(inner, board);
    inner.appendChild(board);
    var y = ph + 10;
    root.querySelectorAll(":scope > [data-part=panel]").forEach(function (g) {
      var b = boxOf(g);
      if (!(b.w > 0 && b.h > 0)) return;
      var k = Math.min(W / b.w, 1.3);
      g.setAttribute("transform", "translate(" + ((W - b.w * k) / 2).toFixed(1) + " " + y.toFixed(1) + ") scale(" +
                     k.toFixed(4) + ") translate(" + (-b.x) + " " + (-b.y) + ")");
      y += b.h * k + 8;
    });
    var H = Math.ceil(y);
    setAttrs(root, { viewBox: "0 0 " + W + " " + H, width: W, height: H });
    var ground = JSON.parse(root.dataset.drawn).ground;
    if (ground) setAttrs(root.querySelector(":scope > rect"), { width: W, height: H });
    var s = Math.min(W / box.w, ph / box.h);
    port = { svg: inner, box: box, pw: W, ph: ph, fw: W / s, fh: ph / s };
    apply();
  }

  /* The port's size on the screen (CSS px): on a wide screen the root's box. */
  function measure() {
    if (port.svg === picture.querySelector(":scope > svg")) {
      var r = port.svg.getBoundingClientRect();
      port.pw = r.width || port.box.w;
      port.ph = r.height || port.box.h;
    }
  }

  /* Where the port is on the screen (a nested svg's own box is its content's, not its viewport). */
  function screenRect() {
    measure();
    var root = picture.querySelector(":scope > svg"), r = root.getBoundingClientRect();
    if (port.svg === root) return r;
    var k = r.width / (+root.getAttribute("width") || r.width || 1);
    return { left: r.left, top: r.top, width: port.pw * k, height: port.ph * k };
  }

  function clamp() {
    var b = port.box;
    view.z = Math.min(MAX, Math.max(1, view.z));
    var w = port.fw / view.z, h = port.fh / view.z;
    if (view.cx === null || view.z === 1) { view.cx = b.x + b.w / 2; view.cy = b.y + b.h / 2; }
    view.cx = w >= b.w ? b.x + b.w / 2 : Math.min(b.x + b.w - w / 2, Math.max(b.x + w / 2, view.cx));
    view.cy = h >= b.h ? b.y + b.h / 2 : Math.min(b.y + b.h - h / 2, Math.max(b.y + h / 2, view.cy));
  }

  function apply() {
    if (!port) return;
    clamp();
    var w = port.fw / view.z, h = port.fh / view.z;
    port.svg.setAttribute("viewBox", [view.cx - w / 2, view.cy - h / 2, w, h].map(function (v) {
      return +v.toFixed(2);
    }).join(" "));
    picture.classList.toggle("zoomed", view.z > 1);
    picture.dataset.zoom = view.z.toFixed(3);
    bar.querySelector("[data-zoom=out]").disabled = view.z <= 1;
    bar.querySelector("[data-zoom=fit]").disabled = view.z <= 1;
    bar.querySelector("[data-zoom=in]").disabled = view.z >= MAX;
  }

  /* Board units per CSS pixel, now. */
  function unit() { return (port.fw / view.z) / port.pw; }

  /* Zoom by `factor`, keeping the board point under (clientX, clientY) in place (the port's centre without one). */
  function zoom(factor, clientX, clientY) {
    if (!port) return;
    var r = screenRect();
    var px = clientX === undefined ? 0 : clientX - (r.left + r.width / 2);
    var py = clientY === undefined ? 0 : clientY - (r.top + r.height / 2);
    var u = unit(), qx = view.cx + px * u, qy = view.cy + py * u;
    view.z = Math.min(MAX, Math.max(1, view.z * factor));
    u = unit();
    view.cx = qx - px * u;
    view.cy = qy - py * u;
    apply();
  }

  function pan(dx, dy) {
    if (!port) return;
    var u = unit();
    view.cx -= dx * u;
    view.cy -= dy * u;
    apply();
  }

  // -- the buttons and the keys -----------------------------------------------------------

  bar.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-zoom]");
    if (!b) return;
    var what = b.dataset.zoom;
    if (what === "in") zoom(STEP);
    else if (what === "out") zoom(1 / STEP);
    else { view.z = 1; apply(); }
  });

  picture.addEventListener("keydown", function (e) {
    if (e.target !== picture || e.altKey || e.ctrlKey || e.metaKey) return;
    var step = 40, k = e.key;
    if (k === "+" || k === "=") zoom(STEP);
    else if (k === "-" || k === "_") zoom(1 / STEP);
    else if (k === "0") { view.z = 1; apply(); }
    else if (view.z > 1 && k === "ArrowLeft") pan(step, 0);
    else if (view.z > 1 && k === "ArrowRight") pan(-step, 0);
    else if (view.z > 1 && k === "ArrowUp") pan(0, step);
    else if (view.z > 1 && k === "ArrowDown") pan(0, -step);
    else return;
    e.preventDefault();
  });

  picture.addEventListener("wheel", function (e) {
    if (!e.ctrlKey || !inPort(e.target)) return;   // a trackpad's pinch; a plain wheel scrolls the page
    e.preventDefault();
    zoom(Math.exp(-e.deltaY / 200), e.clientX, e.clientY);
  }, { passive: false });

  // -- dragging and pinching (pointer events: mouse, pen and touch) ---------------------------

  var pointers = {}, dragged = false, start = null;

  function inPort(el) {
    return !!(port && el && el.closest && (el === port.svg || port.svg.contains(el)));
  }
  function ids() { return Object.keys(pointers); }
  function spread() {
    var p = ids().map(function (k) { return pointers[k]; });
    return { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y), x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 };
  }

  function down(e) {
    if (!inPort(e.target) || (e.pointerType === "mouse" && e.button !== 0)) return;
    pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    dragged = false;
    measure();
    start = ids().length === 2 ? spread() : { x: e.clientX, y: e.clientY };
  }

  function move(e) {
    var p = pointers[e.pointerId];
    if (!p) return;
    var last = { x: p.x, y: p.y };
    p.x = e.clientX;
    p.y = e.clientY;
    if (ids().length === 2) {
      var now = spread();
      if (!dragged) { dragged = true; capture(); }
      if (start && start.d > 0) zoom(now.d / start.d, now.x, now.y);
      pan(now.x - start.x, now.y - start.y);
      start = now;
      e.preventDefault();
      return;
    }
    if (!dragged && Math.hypot(p.x - start.x, p.y - start.y) < DRAG) return;
    if (view.z <= 1) return;   // nothing to pan on a fitted board (the page scrolls)
    if (!dragged) { dragged = true; capture(); }
    pan(p.x - last.x, p.y - last.y);
    e.preventDefault();
  }

  /* Once a drag is a drag, its pointers stay with the picture (not before:
     a plain tap's click must reach what was tapped). */
  function capture() {
    ids().forEach(function (id) { try { picture.setPointerCapture(+id); } catch (err) { /* gone */ } });
  }

  function up(e) {
    delete pointers[e.pointerId];
    var left = ids();
    start = left.length === 1 ? { x: pointers[left[0]].x, y: pointers[left[0]].y } : null;
  }
  if (window.PointerEvent) {
    picture.addEventListener("pointerdown", down);
    picture.addEventListener("pointermove", move);
    picture.addEventListener("pointerup", up);
    picture.addEventListener("pointercancel", up);
  } else {
    // A browser without pointer events (an old iPhone's): its touches, one by one, as pointers.
    var each = function (fn) {
      return function (e) {
        Array.prototype.forEach.call(e.changedTouches, function (t) {
          fn({ pointerId: t.identifier, pointerType: "touch", button: 0, clientX: t.clientX, clientY: t.clientY,
               target: e.target, preventDefault: function () { e.preventDefault(); } });
        });
      };
    };
    picture.addEventListener("touchstart", each(down), { passive: true });
    picture.addEventListener("touchmove", each(move), { passive: false });
    picture.addEventListener("touchend", each(up));
    picture.addEventListener("touchcancel", each(up));
  }

  // A drag or a pinch is no tap: the click it ends in goes nowhere.
  picture.addEventListener("click", function (e) {
    if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; }
  }, true);

  // -- new pictures, new sizes ---------------------------------------------------------------

  var queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; layout(); });
  }
  // The page puts a new picture in place (the game moved on, the replay): laid out
  // as soon as it is there, in the same task, before it is painted.
  new MutationObserver(function (records) {
    if (records.some(function (r) {
      return Array.prototype.some.call(r.addedNodes, function (n) { return n.nodeName.toLowerCase() === "svg"; });
    })) layout();
  }).observe(picture, { childList: true });
  var lastWidth = picture.clientWidth;
  window.addEventListener("resize", function () {
    if (picture.clientWidth !== lastWidth) { lastWidth = picture.clientWidth; soon(); }
    else if (port) { measure(); }
  });
  if (phone.addEventListener) phone.addEventListener("change", soon);
  layout();
  window.PbemZoom = { layout: layout, view: function () { return { z: view.z, cx: view.cx, cy: view.cy }; } };
})();
