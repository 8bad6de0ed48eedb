/* Before the page paints: a browser that holds a seat of this game hides the
   spectator's picture until its own view has come (game.js shows it). Its
   seats are kept as pbem.token.GAME.SEAT (keys.js), or, by an older page,
   in the pbem.seats map. */
(function () {
  try {
    var game = document.querySelector('meta[name="pbem-game"]').content, prefix = "pbem.token." + game + ".";
    var held = !!JSON.parse(localStorage.getItem("pbem.seats") || "{}")[game];
    for (var i = 0; !held && i < localStorage.length; i++) held = localStorage.key(i).indexOf(prefix) === 0;
    if (held && location.pathname.indexOf("/play/") !== 0) {
      document.documentElement.classList.add("seat-pending");
      setTimeout(function () { document.documentElement.classList.remove("seat-pending"); }, 4000);
    }
  } catch (e) { /* no storage: a spectator */ }
})();
