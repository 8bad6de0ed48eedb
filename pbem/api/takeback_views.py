"""Takebacks by consent (pbem/games/takeback.py). They are asked and
answered as moves of a reserved shape, through ``POST /games/{id}/moves``
(signed, exactly once, like any move); here is only what waits for answers."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from . import security as sec
from .common import service
from .parsing import Blueprint
from .schemas import Strict

takeback_bp = Blueprint("takebacks", __name__, url_prefix="/games", description="Takebacks by consent")

TAKEBACK_DOC = """\
A player asks to take back their last move by submitting the move `{"takeback": "request"}`
through `POST /games/{id}/moves`, signed at the current version like any move; every other seat
answers with `{"takeback": "accept"}` or `{"takeback": "refuse"}` (signed at the request's version
or later). Once all have accepted, the log gains `TakebackApplied` and the game goes on from the
version before that move (the version keeps growing). The request, the answers and the takeback
are events of the log (`TakebackRequested`, `TakebackAnswered`, `TakebackApplied`), public to
everyone. Refused with `422`: `takeback_no_move`, `takeback_moved_on` (only the last move, by
its own seat, with nobody having moved since), `takeback_chance`, `takeback_secret`,
`takeback_revealed` (the move drew by chance, made a secret, or showed someone something hidden),
`takeback_pending` (asked already), `takeback_not_pending`, `takeback_not_asked`. A refusal ends
the request; so does any move of the game made meanwhile. In a game of one player the takeback is
made at once."""


class TakebackPending(Strict):
    by = fields.Int(required=True, metadata={"description": "the seat that asked"})
    to_version = fields.Int(required=True, metadata={"description": "the version the game goes back to"})
    asked = fields.List(fields.Int(), required=True, metadata={"description": "the seats asked to answer"})
    accepted = fields.List(fields.Int(), required=True, metadata={"description": "the seats that accepted"})
    waiting_for = fields.List(fields.Int(), required=True, metadata={"description": "the seats yet to answer"})
    since = fields.Int(required=True, metadata={"description": "the version the request made: answers are "
                                                              "signed at it or later"})


class TakebackStatus(Strict):
    pending = fields.Nested(TakebackPending, allow_none=True, required=True,
                            metadata={"description": "the request waiting for answers, or null"})


@takeback_bp.route("/<game_id>/takeback")
class TakebackView(MethodView):
    @sec.declare(takeback_bp, sec.NONE)
    @takeback_bp.response(200, TakebackStatus)
    @takeback_bp.doc(description=TAKEBACK_DOC)
    def get(self, game_id):
        """The takeback waiting for answers, if any (public)."""
        return {"pending": service().takeback_pending(game_id)}


def register(api) -> None:
    api.register_blueprint(takeback_bp)
