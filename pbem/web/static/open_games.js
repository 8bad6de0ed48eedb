/* The lobby's open games (parts/open_games.html): join a free seat of a
   game its creator opened to anyone, with this browser's key (made now if
   it has none, its one copy offered first: PbemBackup), by a signed join
   (purpose "pbem-join", as the invitation's page signs it: sent again
   after a lost answer, it answers again with a new token). Then the
   game's page; the game starts once its last seat is taken. */
(function () {
  "use strict";
  var main = document.querySelector("main.lobby");
  if (!main) return;
  var _ = PbemI18n._, lang = main.dataset.lang || "en";

  function join(form) {
    var game = form.dataset.game, seat = +form.dataset.seat;
    var said = form.querySelector(".sent"), button = form.querySelector("button[type=submit]");
    function tell(text, kind) {
      said.textContent = text;
      said.classList.toggle("bad", kind === "bad");
      said.classList.toggle("good", kind === "good");
    }
    var name = form.querySelector(".join-name").value.trim();
    if (!name) {
      tell(_("Not joined: give your name (the other players see it)."), "bad");
      form.querySelector(".join-name").focus();
      return;
    }
    button.disabled = true;
    tell(_("Taking the seat\u2026"));
    PbemKeys.load().then(function (pair) {
      if (pair) return pair;
      return PbemKeys.generate().then(function (made) {
        tell("");
        form.hidden = true;
        return PbemBackup.offer(form.parentNode, made, { go: _("Go on: take seat {n}", { n: seat }), focus: true })
          .then(function () {
            form.hidden = false;
            tell(_("Taking the seat\u2026"));
            return made;
          });
      });
    }).then(function (pair) {
      return PbemKeys.takeSeat(pair, game, seat, name, {}, lang);
    }).then(function () {
      tell(_("You sit at seat {n}.", { n: seat }), "good");
      location.assign("/g/" + encodeURIComponent(game));
    }).catch(function (err) {
      button.disabled = false;
      tell(_("Not joined: {reason}", { reason: err.message }), "bad");
    });
  }

  main.querySelectorAll("form.join-open").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      join(form);
    });
  });
})();
