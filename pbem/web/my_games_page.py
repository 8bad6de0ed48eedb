"""The player's page, "my games" (``/my-games``): every game of the seats and
keys the browser holds (its script names them: ``?seat=GAME.SEAT``,
``?key=PUBLIC_KEY``; no token leaves the browser), and of the mail address
it is signed in for (the ``pbem_me`` cookie, traded for the link of a
``games`` mail: pbem/trust/address_links.py), in the order of
pbem/service/mine.py. The same rows answer the lobby's "my games"."""
from __future__ import annotations

from ..errors import ServiceError
from ..service import Service, mine
from ..trust import address_links

#: The cookie of the session a ``games`` mail's link opens (HttpOnly: no script reads it).
COOKIE = "pbem_me"


def session_address(cookies, secret: bytes) -> str | None:
    """The address the browser is signed in for, else None (none, forged, expired)."""
    value = cookies.get(COOKIE)
    if not value:
        return None
    try:
        return address_links.read(secret, "session", value)
    except ServiceError:
        return None


def held(service: Service, args, address: str | None) -> dict[str, set[int]]:
    """The seats to list: those the browser names, its keys' and the address's."""
    named: dict[str, set[int]] = {}
    for item in args.getlist("seat")[:mine.MAX_GAMES]:
        game_id, _dot, seat = item.rpartition(".")
        if game_id and len(game_id) <= 64 and seat.isascii() and seat.isdigit() and len(seat) <= 2:
            named.setdefault(game_id, set()).add(int(seat))
    keys = [k for k in args.getlist("key")[:mine.MAX_KEYS] if 0 < len(k) <= 64 and k.isascii()]
    return mine.merge(named, mine.seats_of_keys(service, keys), mine.seats_of_address(service, address))


def wants_page(request) -> bool:
    """A browser's navigation (it asks for HTML by name); the scripts' fetch asks for JSON, or anything."""
    return any(v == "text/html" for v in request.accept_mimetypes.values())
