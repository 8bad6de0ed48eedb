/* The game page's vacation control (parts/vacation.html): for the seat this
   browser plays, the player's vacation (GET/POST/DELETE
   /games/{id}/seats/{seat}/vacation with its token), which pauses the
   deadlines of all their games. */
(function () {
  "use strict";
  var main = document.querySelector("main.game"), box = document.getElementById("vacation");
  if (!main || !box || main.dataset.mode !== "page" || main.dataset.status !== "active") return;
  var _ = PbemI18n._, ngettext = PbemI18n.ngettext;
  var me = PbemKeys.seatOf(main.dataset.game);
  if (!me) return;
  var lang = main.dataset.lang || "en";
  var url = "/games/" + encodeURIComponent(main.dataset.game) + "/seats/" + me.seat + "/vacation";
  var $ = function (id) { return document.getElementById(id); };

  function call(method, body) {
    return PbemKeys.seatCall(me.token, lang, method, url, body);
  }

  function when(ts) {
    return new Date(ts * 1000).toLocaleString(lang === "zh-Hant" ? "zh-TW" : "en", { dateStyle: "medium", timeStyle: "short" });
  }

  function show(status) {
    var away = status.vacation;
    var left = ngettext("{n} vacation day left this year.", "{n} vacation days left this year.", status.left_days,
                        { n: status.left_days });
    $("vacation-state").textContent = away ? _("You are on vacation until {end}.", { end: when(away.end) }) + " " + left : left;
    $("vacation-go").hidden = !!away || status.left_days < 1;
    $("vacation-back").hidden = !away;
    $("vacation-days").max = String(Math.max(1, status.left_days));
    box.hidden = false;
  }

  function said(text, good) {
    $("vacation-said").textContent = text;
    $("vacation-said").className = "sent " + (good ? "good" : "bad");
  }

  $("vacation-go").addEventListener("submit", function (e) {
    e.preventDefault();
    call("POST", { days: +$("vacation-days").value }).then(function (status) {
      show(status);
      said(_("Your games' deadlines are paused, and the other players are told."), true);
    }).catch(function (err) { said(err.message, false); });
  });
  $("vacation-back").addEventListener("click", function () {
    call("DELETE").then(function (status) {
      show(status);
      said(_("Welcome back: your games' deadlines run again."), true);
    }).catch(function (err) { said(err.message, false); });
  });
  call("GET").then(show).catch(function () { /* a token the server no longer knows: game.js says so */ });
})();
