/* The pages' messages in the page's language: the page carries the ones its
   scripts use, translated (a JSON block, #pbem-messages, made by
   pbem/web/languages.py), and the scripts look them up by their English as
   Python code does, with named placeholders filled after translation:

     _("Played: {move}.", {move: text})
     ngettext("{n} seat", "{n} seats", n, {...})     // n fills {n}

   `make i18n` finds these calls in the scripts (Babel's JavaScript
   extractor): the message must be a string literal (literals joined with +
   are one message). */
(function (root) {
  "use strict";
  var data = { lang: "en", messages: {}, plurals: {} };
  try {
    var block = document.getElementById("pbem-messages");
    if (block) data = JSON.parse(block.textContent);
  } catch (e) { /* no catalog: the English messages */ }

  function fill(text, args) {
    if (!args) return text;
    return text.replace(/\{\{|\}\}|\{(\w+)\}/g, function (all, name) {
      if (all === "{{") return "{";
      if (all === "}}") return "}";
      return Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : all;
    });
  }

  function gettext(message, args) {
    var found = data.messages[message];
    return fill(typeof found === "string" && found ? found : message, args);
  }

  function ngettext(singular, plural, n, args) {
    var forms = data.plurals[singular], i = n === 1 ? 0 : 1;
    var text = forms && forms[i] ? forms[i] : (i ? plural : singular);
    return fill(text, Object.assign({ n: n }, args || {}));
  }

  root.PbemI18n = { _: gettext, ngettext: ngettext, lang: data.lang || "en" };
})(window);
