"""Headers every answer of the API process carries, whoever made it (the
API, the pages, the docs, an error): ``nosniff``, no framing, and a
Content-Security-Policy fitting what the answer is.

The pages share this origin with the API and the docs, so anything here
that a browser could be made to render as a document (a JSON answer opened
directly, an SVG picture, the docs page) is kept from running script or
loading anything, unless it is the docs page, which gets exactly what
Swagger UI needs. The pages (pbem/web/views.py) set their own policy
first; ``setdefault`` keeps it.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import re

from flask import Flask, Response, request

#: JSON, text, anything that is not a page: nothing to load, run or frame.
NOTHING = "default-src 'none'; frame-ancestors 'none'"
#: A picture opened as a document: its inline styles, nothing else.
PICTURE = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
#: The docs (the Swagger UI page, pbem/api/templates/swagger_ui.html): its
#: assets from this server (/_swagger-ui/, /_web/api_docs.js; an inline
#: script, should the page hold one again, by its hash), the spec fetched from here
#: (and "Try it out"), inline styles and data: images as Swagger UI draws them.
DOCS = ("default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'")
DOCS_ENDPOINT = "api-docs.openapi_swagger_ui"

_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


@functools.lru_cache(maxsize=4)
def docs_policy(body: bytes) -> str:
    """The docs page's policy, naming the sha256 of each of its inline
    scripts (flask-smorest's template configures Swagger UI inline): worked
    out once, the page being the same for every request."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(m.encode()).digest()).decode()}'"
                      for m in _INLINE_SCRIPT.findall(body.decode()))
    return DOCS.format(hashes=hashes)


def secure(resp: Response) -> Response:
    h = resp.headers
    h.setdefault("X-Content-Type-Options", "nosniff")
    h.setdefault("X-Frame-Options", "DENY")
    if "Content-Security-Policy" in h:
        return resp
    mimetype = resp.mimetype
    if mimetype == "image/svg+xml":
        h["Content-Security-Policy"] = PICTURE
    elif mimetype == "text/html" and request.endpoint == DOCS_ENDPOINT and not resp.direct_passthrough:
        h["Content-Security-Policy"] = docs_policy(resp.get_data())
        h.setdefault("Referrer-Policy", "same-origin")
    else:
        h["Content-Security-Policy"] = NOTHING
        if mimetype == "text/html":
            h.setdefault("Referrer-Policy", "same-origin")
    return resp


def register(app: Flask) -> None:
    app.after_request(secure)
