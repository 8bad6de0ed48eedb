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
    var start = /^#v(\d+)$/.exec(location.hash);
    var replay = PbemReplay.attach({
      nav: document.querySelector("nav.replay"), picture: document.getElementById("picture"),
      log: document.getElementById("log"), max: last, shown: last,
      href: function (n) { return "#v" + n; }, svgAt: svgAt, now: null,
      onShown: function (n) { history.replaceState(null, "", "#v" + n); }
    });
    if (start) replay.show(+start[1]);
  }, function (err) {
    note.textContent = _("The pictures could not be unpacked ({reason}): only the last version is shown.",
                         { reason: String(err) });
  });
})();
