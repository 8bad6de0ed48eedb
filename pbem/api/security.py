"""What each operation asks of its caller, as OpenAPI ``security``
requirements, declared on every view (tests/test_security.py walks the spec
and checks each declaration against what the server does).

* ``NONE``: no credential (a signed move carries its own: the signature).
* ``OPTIONAL_SEAT``: anonymous allowed (the spectator's view); a seat's
  bearer token shows that seat's view. A token that belongs to no seat is 401.
* ``SEAT``: a seat's bearer token (from the join), else 401 ``missing_token``.
* ``SEAT_OR_OPERATOR``: a seat's token or the operator's ``PBEM_ADMIN_TOKEN``.
* ``CREATOR``: the game's creator token only (a seat's token is 403).
* ``CREATOR_OR_SEAT``: the game's creator token (``POST /games`` answers it) or
  a seat's token.
* ``CREATOR_SEAT_OR_OPERATOR``: any of the three.
* ``OPERATOR``: the operator's ``PBEM_ADMIN_TOKEN`` only (``/admin``).
* ``INBOUND``: the operator's ``PBEM_INBOUND_SECRET``.
"""
from __future__ import annotations

from flask import current_app, request

from ..errors import Unauthorized
from ..games.i18n import N_, _

SCHEMES = {
    "seatToken": {"type": "http", "scheme": "bearer",
                  "description": "the bearer token a join answers with (shown once), one per seat and game"},
    "creatorToken": {"type": "http", "scheme": "bearer",
                     "description": "the creator_token POST /games answers with (shown once), one per game"},
    "operatorToken": {"type": "http", "scheme": "bearer",
                      "description": "the operator's PBEM_ADMIN_TOKEN"},
    "inboundSecret": {"type": "http", "scheme": "bearer",
                      "description": "the operator's PBEM_INBOUND_SECRET, for a mail provider's forwarder"},
}

NONE: list = []
OPTIONAL_SEAT = [{}, {"seatToken": []}]
SEAT = [{"seatToken": []}]
SEAT_OR_OPERATOR = [{"seatToken": []}, {"operatorToken": []}]
CREATOR = [{"creatorToken": []}]
CREATOR_OR_SEAT = [{"creatorToken": []}, {"seatToken": []}]
CREATOR_SEAT_OR_OPERATOR = [{"creatorToken": []}, {"seatToken": []}, {"operatorToken": []}]
OPERATOR = [{"operatorToken": []}]
INBOUND = [{"inboundSecret": []}]
#: What needs some bearer token, checked before the body (``check_first``).
NEEDS_TOKEN = (SEAT, SEAT_OR_OPERATOR, CREATOR, CREATOR_OR_SEAT, CREATOR_SEAT_OR_OPERATOR, OPERATOR)


def declare(bp, security: list):
    """``@bp.doc(security=...)`` that the server also enforces first: an
    operation that needs a token answers 401 ``missing_token`` without an
    Authorization header before its body or query is read (``check_first``),
    so what the document declares is what a client meets."""
    def decorate(fn):
        fn = bp.doc(security=security)(fn)
        fn._pbem_security = security
        return fn
    return decorate


def view_method():
    """The view method that will answer this request (None: no such route)."""
    view = current_app.view_functions.get(request.endpoint)
    return getattr(getattr(view, "view_class", None), request.method.lower(), None)


def check_first(method=None) -> None:
    """A ``before_request`` check: the declared credential's presence."""
    method = method if method is not None else view_method()
    security = getattr(method, "_pbem_security", None)
    if security in NEEDS_TOKEN and not request.headers.get("Authorization"):
        raise Unauthorized("missing_token", _("this operation needs {what}", what=_needed(security)))


def _needed(security: list) -> str:
    names = {"seatToken": N_("a seat's bearer token"), "creatorToken": N_("the game's creator token"),
             "operatorToken": N_("the operator's token (PBEM_ADMIN_TOKEN)")}
    wanted = [_(names[next(iter(alternative))]) for alternative in security]
    return wanted[0] if len(wanted) == 1 else _("{items} or {last}", items=_(", ").join(wanted[:-1]),
                                                 last=wanted[-1])
