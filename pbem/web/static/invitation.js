/* An invitation's page (/join/TOKEN): take the seat kept for the holder of
   the link, with this browser's key (made now if it has none: PbemKeys),
   by a signed join that carries the invitation's token. The join is
   signed (purpose "pbem-join"), so sending it again after a lost answer
   answers again with a new token instead of "seat taken". */
(function () {
  "use strict";
  var main = document.querySelector("main.invitation");
  var form = main && main.querySelector("form.invitation-join");
  if (!form) return;
  var _ = PbemI18n._, lang = main.dataset.lang || "en";
  var game = main.dataset.game, seat = +main.dataset.seat, token = main.dataset.token;
  var said = document.getElementById("sent");

  function tell(text, kind) {
    said.textContent = text;
    said.classList.toggle("bad", kind === "bad");
    said.classList.toggle("good", kind === "good");
  }

  /* A key made just now: the player saves its one copy (or says not to)
     before the seat is taken with it (PbemBackup, as on the game's page). */
  function saveCopy(made) {
    tell("");
    form.hidden = true;
    return PbemBackup.offer(form.parentNode, made, { go: _("Go on: take seat {n}", { n: seat }), focus: true })
      .then(function () {
        form.hidden = false;
        tell(_("Taking the seat\u2026"));
        return made;
      });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var name = form.querySelector("#join-name").value.trim();
    if (!name) return;
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    tell(_("Taking the seat\u2026"));
    PbemKeys.load().then(function (pair) {
      return pair || PbemKeys.generate().then(saveCopy);
    }).then(function (pair) {
      return PbemKeys.takeSeat(pair, game, seat, name, { invitation: token }, lang);
    }).then(function () {
      tell(_("You sit at seat {n}.", { n: seat }), "good");
      location.assign("/g/" + encodeURIComponent(game));
    }).catch(function (err) {
      button.disabled = false;
      tell(_("Not joined: {reason}", { reason: err.message }), "bad");
    });
  });
})();
