"""The ratings: one table per game type (pbem/ratings), read-only and public."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from ..ratings import projection
from . import schemas as s
from . import security as sec
from .common import service
from .parsing import Blueprint

ratings_bp = Blueprint("ratings", __name__, url_prefix="/ratings",
                       description="Ratings per game type, from finished games' records")


class RatingRow(s.Strict):
    player = fields.String(metadata={"description": "who: `key:<public key>`, `mail:<digest of the address>` or "
                                                    "`bot:<level>`"})
    kind = fields.String(metadata={"description": "`key`, `mail` or `bot`"})
    name = fields.String(metadata={"description": "the name last played under"})
    bot = fields.String(allow_none=True, metadata={"description": "a bot's level, null for a person"})
    rating = fields.Float(metadata={"description": "mu - 3 sigma (openskill's ordinal): what the table sorts by"})
    mu = fields.Float()
    sigma = fields.Float()
    games = fields.Integer(metadata={"description": "rated games played"})
    wins = fields.Integer(metadata={"description": "rated games placed first in"})


class Anchor(s.Strict):
    player = fields.String()
    mu = fields.Float()
    sigma = fields.Float()


class RatingTable(s.Strict):
    game = fields.String()
    anchor = fields.Nested(Anchor, metadata={"description": "the fixed rating the scale hangs on: the `random` bot"})
    games_rated = fields.Integer()
    ratings = fields.List(fields.Nested(RatingRow), metadata={"description": "best first"})


@ratings_bp.route("/<game>")
class RatingsView(MethodView):
    @sec.declare(ratings_bp, sec.NONE)
    @ratings_bp.response(200, RatingTable)
    def get(self, game):
        """A game type's ratings, best first (openskill, Plackett-Luce; docs/bots.md says which games count:
        finished, not abandoned, every seat someone different). `404 unknown_game_type` for a name that is no
        game type."""
        return projection.table(service(), game)


def register(api) -> None:
    api.register_blueprint(ratings_bp)
