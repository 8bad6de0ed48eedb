/* The replay slider: every version of the game, one picture each, with step
   buttons (first, previous, next, last) and the log's entries as links.
   Used by the game page (pictures fetched from the server, as the caller
   may see them) and by the self-contained file of `pbem replay --html`
   (pictures carried in the file). Without script the buttons and the log
   are plain links to /g/{id}/v/{n}. */
(function (root) {
  "use strict";

  function attach(o) {
    // o: {nav, picture, log, max, shown, href(n), svgAt(n) -> Promise<string | {picture, ...}>,
    //     now() -> the live picture or null, onShown(n, max), onAt(answer)}; href(n, max) is a
    //     version's link. svgAt may answer the version's picture with more of that moment
    //     (the game page's banner and players): onAt puts that in place, with the picture.
    var nav = o.nav, slider = nav.querySelector("input[type=range]"), out = nav.querySelector("output");
    var steps = {};
    nav.querySelectorAll("[data-step]").forEach(function (a) { steps[a.dataset.step] = a; });
    var max = o.max, shown = o.shown, seq = 0, pending = null;

    function clamp(n) { return Math.max(0, Math.min(max, n | 0)); }

    function label() {
      // (numbers only fill the message: it is the page's own markup)
      out.innerHTML = PbemI18n._("version <b>{shown}</b> of {last}", { shown: shown, last: max });
      steps.first.href = o.href(0, max);
      steps.prev.href = o.href(Math.max(0, shown - 1), max);
      steps.next.href = o.href(Math.min(max, shown + 1), max);
      steps.last.href = o.href(max, max);
      slider.max = String(max);
      slider.value = String(shown);
      if (o.log) {
        o.log.querySelectorAll("li.shown").forEach(function (li) { li.classList.remove("shown"); });
        var li = o.log.querySelector('li[data-v="' + shown + '"]');
        if (li) {
          li.classList.add("shown");
          // Bring it into the log's own view (the log scrolls; the page stays put).
          var top = li.offsetTop - o.log.offsetTop, box = o.log;
          if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) {
            box.scrollTop = Math.max(0, top - box.clientHeight / 2);
          }
        }
      }
    }

    function put(got) {
      if (typeof got === "string") {
        o.picture.innerHTML = got;
      } else {
        o.picture.innerHTML = got.picture;
        if (o.onAt) o.onAt(got);
      }
    }

    function show(n) {
      shown = clamp(n);
      label();
      var mine = ++seq;
      var live = shown === max && o.now ? o.now() : null;
      if (live) {
        put(live);
      } else {
        o.svgAt(shown).then(function (svg) { if (mine === seq) put(svg); }, function () {
          if (mine === seq) {
            o.picture.textContent = "";
            var p = document.createElement("p");
            p.className = "empty";
            p.textContent = PbemI18n._("This version cannot be shown now.");
            o.picture.appendChild(p);
          }
        });
      }
      if (o.onShown) o.onShown(shown, max);
    }

    // While the slider is dragged, ask for one picture per animation frame at most.
    slider.addEventListener("input", function () {
      if (pending) return;
      pending = requestAnimationFrame(function () { pending = null; show(+slider.value); });
    });
    var moves = { first: function () { return 0; }, prev: function () { return shown - 1; },
                  next: function () { return shown + 1; }, last: function () { return max; } };
    Object.keys(steps).forEach(function (k) {
      steps[k].addEventListener("click", function (e) { e.preventDefault(); show(moves[k]()); });
    });
    if (o.log) {
      o.log.addEventListener("click", function (e) {
        var a = e.target.closest("li[data-v] > a");
        if (!a) return;
        e.preventDefault();
        show(+a.parentNode.dataset.v);
      });
    }
    label();
    return {
      show: show,
      get shown() { return shown; },
      get max() { return max; },
      /* The game moved on: a viewer at the end follows it, one in the past stays there. */
      grow: function (newMax) {
        var follow = shown === max;
        max = Math.max(max, newMax);
        if (follow) shown = max;
        label();
        return follow;
      }
    };
  }

  root.PbemReplay = { attach: attach };
})(window);
