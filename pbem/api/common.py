"""What the API's views share: the service, who is asking, the settings.
Views depend on this module and on the service, never on each other (nor on
``app``, which only assembles them)."""
from __future__ import annotations

import secrets

from flask import current_app, request

from ..config import Settings
from ..errors import Unauthorized
from ..service import Service


def service() -> Service:
    return current_app.extensions["pbem"]


def settings() -> Settings:
    return current_app.extensions["pbem_settings"]


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("bad_token", "use 'Authorization: Bearer <token>'")
    return token.strip()


def is_operator(token: str | None) -> bool:
    """Whether ``token`` is the operator's ``PBEM_ADMIN_TOKEN`` (never, when it is unset)."""
    admin = settings().admin_token
    return bool(token and admin and secrets.compare_digest(token.encode(), admin.encode()))
