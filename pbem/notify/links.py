"""The links a mail carries: the game's page and its record, under
``PBEM_PUBLIC_URL`` (the address players reach the server by; without it,
``http://HOST:PORT``, which only works on the server's own machine); and in
a turn mail the seat's play link (``pbem.trust.play_links.play_link``: a signed,
expiring link that plays that seat from the game's page), which stays out
of webhooks."""
from __future__ import annotations

import logging

from ..trust.play_links import play_link

log = logging.getLogger(__name__)


def links(conf, game_id: str, seat: int | None = None, play: bool = False,
          expires: float | None = None) -> dict:
    """``conf`` is the notifications' settings (``NotifySettings``);
    ``play``: add the seat's play link, expiring at ``expires`` (the turn's
    deadline) or after the link's own default lifetime."""
    base = str(conf.public_url).rstrip("/")
    out = {"page": f"{base}/g/{game_id}", "game": f"{base}/games/{game_id}",
           "record": f"{base}/games/{game_id}/record"}
    if play and seat is not None:
        link = _play_link(conf, game_id, seat, expires)
        if link:
            out["play"] = link
    return out


def rules_url(conf, game_id: str) -> str:
    """The game's rules page: the rules in play and their notation (pbem/web)."""
    return f"{str(conf.public_url).rstrip('/')}/g/{game_id}/rules"


#: What a person is shown, in this order: the game's page (not the API's
#: JSON, which is for programs), the play link, the record.
FOR_PEOPLE = ("page", "play", "record")


def for_people(links: dict) -> dict:
    """The links a mail shows a person."""
    return {k: links[k] for k in FOR_PEOPLE if k in links}


def for_programs(links: dict) -> dict:
    """The links a webhook carries: not the play link, which plays the seat
    for whoever holds it and belongs in the seat's own mailbox only."""
    return {k: v for k, v in links.items() if k != "play"}


def _play_link(conf, game_id: str, seat: int, expires: float | None) -> str | None:
    try:
        return play_link(conf, game_id, seat, expires=expires) if expires else play_link(conf, game_id, seat)
    except Exception:  # a mail goes without its link rather than not at all
        log.exception("no play link for seat %s of %s", seat, game_id)
        return None
