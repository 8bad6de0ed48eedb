"""The links a mail carries: the game's page and its record, under
``PBEM_PUBLIC_URL`` (the address players reach the server by; without it,
``http://HOST:PORT``, which only works on the server's own machine); and in
a turn mail the seat's play link (``pbem.web.links.play_link``: a signed,
expiring link that plays that seat from the game's page), where the web
pages are part of the server."""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def links(conf, game_id: str, seat: int | None = None, play: bool = False,
          expires: float | None = None) -> dict:
    """``conf`` is the notifications' settings (``NotifySettings``);
    ``play``: add the seat's play link, expiring at ``expires`` (the turn's
    deadline) or after the link's own default lifetime."""
    base = str(conf.public_url).rstrip("/")
    out = {"game": f"{base}/games/{game_id}", "record": f"{base}/games/{game_id}/record"}
    if play and seat is not None:
        link = _play_link(conf, game_id, seat, expires)
        if link:
            out["play"] = link
    return out


def _play_link(conf, game_id: str, seat: int, expires: float | None) -> str | None:
    try:
        from ..web.links import play_link  # noqa: PLC0415 - the pages may not be installed
    except ImportError:
        return None
    try:
        return play_link(conf, game_id, seat, expires=expires) if expires else play_link(conf, game_id, seat)
    except Exception:  # a mail goes without its link rather than not at all
        log.exception("no play link for seat %s of %s", seat, game_id)
        return None
