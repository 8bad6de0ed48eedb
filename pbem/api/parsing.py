"""Reading request bodies: JSON with a bounded depth and valid Unicode.

Python's ``json`` recurses once per level of nesting, so a body of 1,000
``[`` (2 KB, well under the size limit) hits the interpreter's recursion
limit and would be a 500; anything that walks the value later (marshmallow,
canonical JSON for signatures, ``dumps`` into Redis) recurses too. The depth
is bounded here, before parsing, at ``MAX_JSON_DEPTH``.

JSON may also spell a lone UTF-16 surrogate (``"\\udc80"``): Python reads it
into a ``str`` that cannot be encoded, so it would fail later, when stored
or mailed. Every string of a body, keys included, is checked here.

Every blueprint uses ``Blueprint`` from this module, whose parser does both.
"""
from __future__ import annotations

import re
from typing import Any

import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser

from ..errors import BadRequest, Unprocessable
from ..games.i18n import _

#: The deepest nesting of arrays and objects a request body may have. The
#: API's own bodies need 4 (a move is an object in the envelope, a game's
#: move may hold a list of objects); 64 leaves room and is far from Python's
#: recursion limit (1,000).
MAX_JSON_DEPTH = 64

# A JSON string (escapes skipped whole) or a bracket: the brackets outside
# strings are what nest.
_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
# Only a \uD800-\uDFFF escape can make a surrogate (raw UTF-8 cannot encode one).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def too_deep(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the arrays and objects of a JSON text nest deeper than ``limit``."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # the common case, at C speed
    depth = 0
    for match in _TOKENS.finditer(data):
        char = match.group()[0]
        if char in b"[{":
            depth += 1
            if depth > limit:
                return True
        elif char in b"]}":
            depth -= 1
    return False


def surrogate_at(value: Any, path: tuple = ()) -> tuple | None:
    """The path to the first string (or key) holding a lone surrogate, if any.
    Iterative: the depth is bounded already, but a walk need not recurse."""
    stack = [(value, path)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return at
        elif isinstance(item, dict):
            for k, v in item.items():
                if _SURROGATE.search(k):
                    return at + (k.encode("utf-8", "backslashreplace").decode(),)
                stack.append((v, at + (k,)))
        elif isinstance(item, list):
            stack.extend((v, at + (i,)) for i, v in enumerate(item))
    return None


def _nested(path: tuple, message: str) -> dict:
    """``("invite", 0, "name")`` as marshmallow nests its field errors."""
    out: Any = [message]
    for part in reversed(path):
        out = {part: out}
    return out if isinstance(out, dict) else {"_schema": out}


def load_json(data: bytes) -> Any:
    """A request body: refused (400 malformed_json) when nested too deep,
    (422 invalid_request) when a string is not valid Unicode."""
    if too_deep(data):
        raise BadRequest("malformed_json", _("the JSON is nested deeper than {n} levels", n=MAX_JSON_DEPTH),
                         max_depth=MAX_JSON_DEPTH)
    value = core.parse_json(data)
    if _SURROGATE_ESCAPE.search(data):
        path = surrogate_at(value)
        if path is not None:
            message = "a lone surrogate (\\ud800-\\udfff) is not valid Unicode"
            raise Unprocessable("invalid_request", _("{where}: a lone surrogate (\\ud800-\\udfff) is not valid "
                                                     "Unicode", where=".".join(map(str, path)) or _("the body")),
                                fields={"json": _nested(path, message)})
    return value


class PbemParser(FlaskParser):
    def _raw_load_json(self, req):
        if not core.is_json(req.mimetype):
            return core.missing
        return load_json(req.get_data(cache=True))


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, reading bodies with ``PbemParser``."""

    ARGUMENTS_PARSER = PbemParser()
