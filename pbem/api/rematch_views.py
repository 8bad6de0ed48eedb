"""A finished game's rematch: read it, offer or accept it, decline it
(pbem/service/rematch.py). The seat's bearer token answers for its seat."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from ..errors import Unauthorized
from ..games.i18n import _
from . import security as sec
from .common import bearer, service
from .parsing import Blueprint
from .schemas import Strict

rematch_bp = Blueprint("rematch", __name__, url_prefix="/games",
                       description="A finished game's rematch: the same game and players, the seats rotated")


class Rematch(Strict):
    game = fields.String(metadata={"description": "the finished game"})
    status = fields.String(metadata={"description": "none, offered (waiting for answers), started (`new_game` "
                                                    "is the rematch) or off (not enough players accepted)"})
    offered = fields.Float(allow_none=True, metadata={"description": "when it was offered (Unix seconds); "
                                                                     "`PBEM_REMATCH_WAIT_S` later it is decided "
                                                                     "with those who accepted"})
    by = fields.Integer(allow_none=True, metadata={"description": "the seat that offered it"})
    answers = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "each seat that answered (its number as a string): accepted or declined"})
    waiting = fields.List(fields.Integer(), metadata={"description": "the seats that have not answered yet"})
    new_game = fields.String(allow_none=True, metadata={"description": "the rematch's game, once started"})


def _seat(game_id: str) -> int:
    """The seat whose bearer token asks; 401 for anyone else (a spectator,
    the creator's token: only players answer a rematch)."""
    token = bearer()
    if token is None:
        raise Unauthorized("missing_token", _("send your seat's bearer token"))
    return service().viewer(game_id, token)


@rematch_bp.route("/<game_id>/rematch")
class RematchView(MethodView):
    @sec.declare(rematch_bp, sec.NONE)
    @rematch_bp.response(200, Rematch)
    def get(self, game_id):
        """A finished game's rematch: who offered it, who answered what, the
        new game once it has begun."""
        return service().rematch_of(game_id)

    @sec.declare(rematch_bp, sec.SEAT)
    @rematch_bp.response(200, Rematch)
    def post(self, game_id):
        """Offer a rematch of a finished game, or accept the one offered
        (the same call). Once every seat has answered, or
        `PBEM_REMATCH_WAIT_S` after the offer, the new game begins with the
        players who accepted, the seats rotated, if the game allows that
        many players; every player is told by mail and webhook. 409
        `rematch_game_not_over`, `rematch_answered` (this seat answered
        already), `rematch_closed` (decided already)."""
        return service().answer_rematch(game_id, _seat(game_id), accept=True)


@rematch_bp.route("/<game_id>/rematch/decline")
class DeclineView(MethodView):
    @sec.declare(rematch_bp, sec.SEAT)
    @rematch_bp.response(200, Rematch)
    def post(self, game_id):
        """Decline the rematch offered. 409 `rematch_not_offered` when none
        is, `rematch_answered`, `rematch_closed`."""
        return service().answer_rematch(game_id, _seat(game_id), accept=False)


def register(api) -> None:
    api.register_blueprint(rematch_bp)
