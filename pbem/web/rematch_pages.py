"""The rematch box's side of a turn mail's play link (``/play/LINK/rematch``):
the link proves the seat, as it does for a move and the chat, so a player
who came from a mail offers, accepts or declines a rematch from the page
without a key in the browser (the same service calls as the API's
``/games/{id}/rematch``, pbem/api/rematch_views.py). Once the rematch has
begun, ``/play/LINK/rematch/seat`` answers with a play link of the seat this
one plays in the new game (the rematch keeps each player's address), valid
no longer than the link that asked: the link's holder gains no time.
Answers are JSON, errors in the API's one format (``JSON_ENDPOINTS``)."""
from __future__ import annotations

import json

from flask import Response

from ..errors import NotFound
from ..games.i18n import _
from ..service.rematch import rotated
from ..trust import play_links as links
from .views import JSON_ENDPOINTS, link_caller, secret, service, web

JSON_ENDPOINTS.update({"web.play_rematch", "web.play_rematch_decline", "web.play_rematch_seat"})


def _json(body) -> Response:
    resp = Response(json.dumps(body), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@web.post("/play/<link>/rematch")
def play_rematch(link):
    """Offer a rematch of the finished game, or accept the one offered."""
    game_id, caller = link_caller(link)
    return _json(service().answer_rematch(game_id, service().viewer(game_id, caller.token), accept=True))


@web.post("/play/<link>/rematch/decline")
def play_rematch_decline(link):
    game_id, caller = link_caller(link)
    return _json(service().answer_rematch(game_id, service().viewer(game_id, caller.token), accept=False))


@web.post("/play/<link>/rematch/seat")
def play_rematch_seat(link):
    """The play link of this seat's seat in the rematch begun (404
    ``unknown_seat`` while none has begun, or for a seat that did not accept)."""
    game_id, caller = link_caller(link)
    seat = service().viewer(game_id, caller.token)
    out = service().rematch_of(game_id)
    accepted = sorted(int(s) for s, a in out["answers"].items() if a == "accepted")
    order = rotated(accepted)
    if out["status"] != "started" or not out["new_game"] or seat not in order:
        raise NotFound("unknown_seat", _("this seat plays in no rematch of this game: none has begun, or it did "
                                         "not accept it"))
    new_seat = order.index(seat)
    token = links.make_token(secret(), out["new_game"], new_seat, caller.link_expires)
    return _json({"game": out["new_game"], "seat": new_seat, "url": f"/play/{token}"})
