"""Request rate limits on the API's operations (see ``pbem.api.ratelimit``).

An operation declares its limit with ``@limited(bp, "create")`` (per client
address) or ``@limited(bp, "parse", per_token=True)`` (per address, and per
bearer token when one is sent); ``check`` counts the request before its body
is read, after the credential's presence (``security.check_first``; both run
from one ``before_request`` hook, ``app.before_view``), and answers ``429
too_many_requests`` with ``Retry-After`` in the one error format. Only
operations that declare a limit pay for it: others cost one attribute
lookup. The declaration also documents the 429 in the spec.
"""
from __future__ import annotations

from flask import current_app, request

from ..errors import TooManyRequests
from .ratelimit import RateLimits, token_key
from ..games.i18n import N_, _

RESPONSE_429 = {
    "description": "too many requests from this client address (or with this token): "
                   "`too_many_requests`; `Retry-After` (and `details.retry_after`) says when to try again",
    "headers": {"Retry-After": {"description": "seconds until the limit lets this caller again",
                                "schema": {"type": "integer"}}},
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def limited(bp, operation: str, per_token: bool = False):
    """Declare (and document) an operation's rate limit; the setting
    ``PBEM_LIMIT_<OPERATION>`` names its rates."""
    def decorate(fn):
        fn = bp.doc(responses={"429": RESPONSE_429})(fn)
        fn._pbem_limit = (operation, per_token)
        return fn
    return decorate


def client_address() -> str:
    """The caller's address as the server sees it (behind a reverse proxy:
    the proxy's, so every client shares one allowance)."""
    return request.remote_addr or "unknown"


#: Who a limit counts, in words (``details.scope`` says it as a code).
SCOPES = {"address": N_("client address"), "token": N_("token")}


def check(method) -> None:
    """A ``before_request`` check: count the request against its operation's
    limits (``method``: the view method that will answer it)."""
    declared = getattr(method, "_pbem_limit", None)
    if declared is None:
        return
    operation, per_token = declared
    limits: RateLimits = current_app.extensions["pbem_limits"]
    callers = [("address", client_address())]
    if per_token:
        scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            callers.append(("token", token_key(token.strip())))
    refused = limits.hit(operation, callers)
    if refused is not None:
        raise TooManyRequests(_("too many requests for this operation ({operation}) from one {scope}; try again "
                                "in {wait} s", operation=operation, scope=_(SCOPES.get(refused.scope, refused.scope)),
                                wait=refused.retry_after),
                              retry_after=refused.retry_after, limit=refused.limit, scope=refused.scope)
