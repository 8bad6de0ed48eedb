/* Before the page paints: a browser that holds a seat of this game hides the
   spectator's picture until its own view has come (game.js shows it). */
(function () {
  try {
    var game = document.querySelector('meta[name="pbem-game"]').content;
    var seats = JSON.parse(localStorage.getItem("pbem.seats") || "{}");
    if (seats[game] && location.pathname.indexOf("/play/") !== 0) {
      document.documentElement.classList.add("seat-pending");
      setTimeout(function () { document.documentElement.classList.remove("seat-pending"); }, 4000);
    }
  } catch (e) { /* no storage: a spectator */ }
})();
