"""A player's vacation (pbem.notify.vacations): declared, read and ended with
the token of any seat the player holds; it pauses the deadlines of all the
player's active games."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from ..notify.vacations import Vacations
from . import security as sec
from .common import bearer, notifier, service
from .parsing import Blueprint
from .schemas import Int, Strict

vacation_bp = Blueprint("vacations", __name__, url_prefix="/games",
                        description="A player's vacation: every deadline of their games pauses")


class VacationDeclare(Strict):
    days = fields.Raw(required=True, metadata={
        "type": "integer", "description": "whole days, 1 or more, within the days left this year "
                                          "(422 bad_vacation_days, vacation_allowance)"})


class RunningVacation(Strict):
    start = fields.Float()
    end = fields.Float(metadata={"description": "unix time the deadlines run again, unless the player is back "
                                                "before"})
    days = Int()
    games = fields.List(fields.String(), metadata={"description": "the player's games it paused or holds"})


class VacationStatus(Strict):
    vacation = fields.Nested(RunningVacation, allow_none=True)
    year = Int()
    allowance_days = Int(metadata={"description": "PBEM_VACATION_DAYS: days a player may take a calendar year"})
    used_days = Int()
    left_days = Int()


def _seat(game_id: str, seat: int) -> dict:
    """The seat's data, once its token is checked: who "the player" is."""
    service().seat_viewer(game_id, seat, bearer())
    return service().store.seats(game_id).get(seat) or {}


@vacation_bp.route("/<game_id>/seats/<int:seat>/vacation")
class VacationView(MethodView):
    @sec.declare(vacation_bp, sec.SEAT)
    @vacation_bp.response(200, VacationStatus)
    def get(self, game_id, seat):
        """The player's running vacation (if any) and their days left this year."""
        return Vacations(notifier()).status(_seat(game_id, seat))

    @sec.declare(vacation_bp, sec.SEAT)
    @vacation_bp.arguments(VacationDeclare)
    @vacation_bp.response(200, VacationStatus)
    def post(self, body, game_id, seat):
        """Go on vacation for some days: the deadlines of every active game of
        the player holding this seat (its key; a mail-only seat: its address)
        pause, and the other players are told. 409 vacation_overlaps while a
        vacation runs."""
        data = _seat(game_id, seat)
        vacations = Vacations(notifier())
        vacations.declare(data, body["days"])
        return vacations.status(data)

    @sec.declare(vacation_bp, sec.SEAT)
    @vacation_bp.response(200, VacationStatus)
    def delete(self, game_id, seat):
        """Back from vacation early: the deadlines run again (each with the
        time it had left), the others are told, the days not begun are given
        back. 409 not_on_vacation."""
        data = _seat(game_id, seat)
        vacations = Vacations(notifier())
        vacations.back(data)
        return vacations.status(data)


def register(api) -> None:
    api.register_blueprint(vacation_bp)
