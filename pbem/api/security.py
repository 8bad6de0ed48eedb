"""What each operation asks of its caller, as OpenAPI ``security``
requirements, declared on every view (tests/test_security.py walks the spec
and checks each declaration against what the server does).

* ``NONE``: no credential (a signed move carries its own: the signature).
* ``OPTIONAL_SEAT``: anonymous allowed (the spectator's view); a seat's
  bearer token shows that seat's view. A token that belongs to no seat is 401.
* ``SEAT``: a seat's bearer token (from the join), else 401 ``missing_token``.
* ``SEAT_OR_OPERATOR``: a seat's token or the operator's ``PBEM_ADMIN_TOKEN``.
* ``INBOUND``: the operator's ``PBEM_INBOUND_SECRET``.
"""
from __future__ import annotations

SCHEMES = {
    "seatToken": {"type": "http", "scheme": "bearer",
                  "description": "the bearer token a join answers with (shown once), one per seat and game"},
    "operatorToken": {"type": "http", "scheme": "bearer",
                      "description": "the operator's PBEM_ADMIN_TOKEN"},
    "inboundSecret": {"type": "http", "scheme": "bearer",
                      "description": "the operator's PBEM_INBOUND_SECRET, for a mail provider's forwarder"},
}

NONE: list = []
OPTIONAL_SEAT = [{}, {"seatToken": []}]
SEAT = [{"seatToken": []}]
SEAT_OR_OPERATOR = [{"seatToken": []}, {"operatorToken": []}]
INBOUND = [{"inboundSecret": []}]
