/* The replay file's own start: unpack the pictures carried in the page
   (base64 of gzipped JSON, see pbem/web/standalone.py), then the slider. */
(function () {
  "use strict";
  var _ = PbemI18n._;
  var main = document.querySelector("main.replay-file"), last = +main.dataset.last;
  var note = document.getElementById("unpacking");

  function unpack() {
    var text = document.getElementById("pictures").textContent.trim();
    var raw = atob(text), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  if (!window.DecompressionStream) {
    note.textContent = _("This browser cannot unpack the pictures: only the last version is shown.");
    return;
  }
  unpack().then(function (data) {
    function svgAt(n) {
      var pic = data.pictures[data.at[n]];
      return Promise.resolve(pic[1].replace("<defs/>", data.defs[pic[0]]));
    }
    // Each version's banner and scores; the last version's are the file's own (how the record ended).
    var turn = main.querySelector("section.status p.turn"), rows = main.querySelectorAll("table.seats tr.seat");
    var end = { turn: turn.textContent, rows: Array.prototype.map.call(rows, function (tr) {
      return { cls: tr.className, marker: tr.cells[0].textContent, score: tr.cells[2].textContent };
    }) };
    function moment(n) {
      var m = n === last ? null : (data.moments || [])[n];
      turn.textContent = m ? m[0] : end.turn;
      Array.prototype.forEach.call(rows, function (tr, i) {
        var was = end.rows[i];
        var score = m ? (m[1] && m[1][i] !== undefined && m[1][i] !== null ? String(m[1][i]) : "") : was.score;
        tr.className = m ? "seat" + (m[2].indexOf(i) >= 0 ? " to-act" : "") : was.cls;
        tr.cells[0].textContent = m ? (m[2].indexOf(i) >= 0 ? "\u25B6" : "") : was.marker;
        tr.cells[2].textContent = score;
      });
    }
    var start = /^#v(\d+)$/.exec(location.hash);
    var replay = PbemReplay.attach({
      nav: document.querySelector("nav.replay"), picture: document.getElementById("picture"),
      log: document.getElementById("log"), max: last, shown: last,
      href: function (n) { return "#v" + n; }, svgAt: svgAt, now: null,
      onShown: function (n) { history.replaceState(null, "", "#v" + n); moment(n); }
    });
    if (start) replay.show(+start[1]);
  }, function (err) {
    note.textContent = _("The pictures could not be unpacked ({reason}): only the last version is shown.",
                         { reason: String(err) });
  });
})();
