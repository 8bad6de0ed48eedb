/* The game page's digest choice (parts/digest.html): for the seat this
   browser plays, a mail per turn or one mail a day (an hour) listing every
   game waiting for its address (PATCH /games/{id}/seats/{seat}/notifications
   {digest}). Shown only to a seat whose mails go somewhere. */
(function () {
  "use strict";
  var main = document.querySelector("main.game"), box = document.getElementById("digest");
  if (!main || !box || main.dataset.mode !== "page" || main.dataset.status !== "active") return;
  var _ = PbemI18n._;
  var me = PbemKeys.seatOf(main.dataset.game);
  if (!me) return;
  var lang = main.dataset.lang || "en";
  var url = "/games/" + encodeURIComponent(main.dataset.game) + "/seats/" + me.seat + "/notifications";
  var choice = document.getElementById("digest-choice"), said = document.getElementById("digest-said");

  function call(method, body) {
    return PbemKeys.seatCall(me.token, lang, method, url, body);
  }

  document.getElementById("digest-form").addEventListener("submit", function (e) {
    e.preventDefault();
    call("PATCH", { digest: choice.value }).then(function (channels) {
      choice.value = channels.digest || "off";
      said.textContent = _("Saved.");
      said.className = "sent good";
    }).catch(function (err) { said.textContent = err.message; said.className = "sent bad"; });
  });
  call("GET").then(function (channels) {
    if (!channels.email) return;   // no mail: nothing to gather
    choice.value = channels.digest || "off";
    box.hidden = false;
  }).catch(function () { /* a token the server no longer knows: game.js says so */ });
})();
