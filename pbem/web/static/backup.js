/* The one chance to save a copy of a key, offered when the key is made (or
   when a key an older page stored readable is locked): the key file to
   download (pbem's own ~/.pbem/key.json), or the key shown to copy. After
   the player goes on, the copy is dropped from memory: no page can show
   the key again (keys.js keeps it non-extractable).

     PbemBackup.offer(box, pair, {go: "Join seat 1", focus: true}) -> Promise (the player went on)

   `pair` is what PbemKeys.generate() (or a load() that locked an old key,
   `pair.migrated`) answers: it carries `backup`, the private key's text. */
(function (root) {
  "use strict";
  var _ = root.PbemI18n._;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) e.textContent = text;
    return e;
  }

  function keyFile(privateKey, publicKey) {
    return JSON.stringify({ private_key: privateKey, public_key: publicKey }, null, 2) + "\n";
  }

  function offer(box, pair, opts) {
    opts = opts || {};
    if (!pair || !pair.backup) return Promise.resolve(false);
    return PbemKeys.publicKey(pair).then(function (pub) {
      return new Promise(function (resolve) {
        var part = el("section", { "class": "backup", "aria-labelledby": "backup-title" });
        part.appendChild(el("h2", { id: "backup-title" }, pair.migrated ? _("Save a copy of your key: last chance")
                                                                          : _("Save a copy of your new key")));
        part.appendChild(el("p", {}, pair.migrated ?
          _("This browser now keeps your key locked: no page, this one included, can read it back, so this is " +
            "the only time it can be saved. With a copy you can play your seats from another browser or from a " +
            "terminal (pbem), or restore the key here if this browser's data is cleared.") :
          _("This browser made your key and keeps it locked: no page, this one included, can read it back, so " +
            "this is the only time it can be saved. With a copy you can play your seats from another browser or " +
            "from a terminal (pbem), or restore the key here if this browser's data is cleared.")));
        var download = el("button", { type: "button", "class": "primary", id: "backup-download" }, _("Download the key file"));
        var show = el("button", { type: "button", id: "backup-show" }, _("Show the key"));
        var buttons = el("div", { "class": "row" });
        buttons.appendChild(download);
        buttons.appendChild(show);
        part.appendChild(buttons);
        var shown = el("p", { "class": "backup-key", hidden: "" });
        shown.appendChild(document.createTextNode(_("Your private key (keep it secret):") + " "));
        var code = el("code", { id: "backup-text" });
        shown.appendChild(code);
        part.appendChild(shown);
        part.appendChild(el("p", { "class": "hint" }, _("The file is pbem's key.json: put it at ~/.pbem/key.json " +
          "to play from a terminal, or paste its private_key where a page asks for your private key.")));
        var go = el("button", { type: "button", id: "backup-done" }, opts.go || _("Done"));
        var ending = el("div", { "class": "row" });
        ending.appendChild(go);
        part.appendChild(ending);
        var saved = false;

        download.addEventListener("click", function () {
          var url = URL.createObjectURL(new Blob([keyFile(pair.backup, pub)], { type: "application/json" }));
          var a = el("a", { href: url, download: "pbem-key.json" });
          document.body.appendChild(a);
          a.click();
          a.remove();
          setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
          saved = true;
          go.className = "primary";
        });
        show.addEventListener("click", function () {
          code.textContent = pair.backup;
          shown.hidden = false;
          saved = true;
          go.className = "primary";
        });
        go.addEventListener("click", function () {
          if (!saved && !confirm(_("Go on without a copy? The key cannot be shown again: if this browser's data " +
                                   "is cleared, the seats it signs for can no longer move from a browser."))) return;
          delete pair.backup;   // the one copy, gone from memory too
          code.textContent = "";
          part.remove();
          resolve(saved);
        });
        box.insertBefore(part, box.firstChild);
        if (opts.focus) download.focus();
      });
    });
  }

  root.PbemBackup = { offer: offer, keyFile: keyFile };
})(window);
