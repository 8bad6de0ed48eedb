/* RFC 8785 canonical JSON (JCS) for the values a move envelope holds:
   objects (keys sorted by UTF-16 code units, as JCS sorts them), arrays,
   strings, numbers, booleans and null. Strings and numbers are written as
   ECMAScript's JSON.stringify writes them, which is what JCS prescribes;
   a lone surrogate, a non-finite number or any other type is refused, as
   JCS refuses them. The server checks signatures over the same bytes
   (pbem/trust/signing.py, the rfc8785 package); tests/test_pages_canon.py
   compares the two over every game's legal moves. */
(function (root) {
  "use strict";
  var LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  function canonical(value) {
    if (value === null) return "null";
    switch (typeof value) {
      case "boolean":
        return value ? "true" : "false";
      case "number":
        if (!isFinite(value)) throw new TypeError("JCS: a number must be finite");
        return JSON.stringify(value);
      case "string":
        if (LONE.test(value)) throw new TypeError("JCS: a string holds a lone surrogate");
        return JSON.stringify(value);
      case "object":
        if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
        var keys = Object.keys(value).sort();
        return "{" + keys.map(function (k) {
          if (LONE.test(k)) throw new TypeError("JCS: a key holds a lone surrogate");
          return JSON.stringify(k) + ":" + canonical(value[k]);
        }).join(",") + "}";
      default:
        throw new TypeError("JCS: cannot encode a " + typeof value);
    }
  }

  function utf8(text) { return new TextEncoder().encode(text); }

  root.PbemCanon = { canonical: canonical, utf8: utf8 };
})(window);
