"""Announcements of open games (pbem/mail_in/subscriptions.py) asked for by
the API: the same double opt-in as by mail. Thin: read, call, answer."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from ..mail_in import subscriptions
from ..service.common import chosen_language
from ..games.i18n import ENGLISH, language
from . import limits, security as sec
from .common import mail_conf, service
from .parsing import Blueprint
from .schemas import Lang, Line, Strict

subscriptions_bp = Blueprint("subscriptions", __name__, description="Announcements of open games by mail")


class Subscribe(Strict):
    email = Line(required=True, metadata={"description": "the address to announce new open games to"})
    game = Line(required=True, metadata={"description": "a game type (GET /game-types), by its name or title"})
    lang = Lang("the announcements' language (default: the reader's)", load_default=None, allow_none=True)


class SubscribeAsked(Strict):
    email = fields.String()
    game = fields.String(metadata={"description": "the game type, by its name"})
    status = fields.String(metadata={"description": "`confirmation_sent`: nothing is subscribed until the "
                                                    "confirmation mail is answered"})
    expires_in_s = fields.Integer(metadata={"description": "how long the confirmation waits for its reply"})


@subscriptions_bp.route("/subscriptions")
class SubscriptionsView(MethodView):
    @sec.declare(subscriptions_bp, sec.NONE)
    @limits.limited(subscriptions_bp, "invite")
    @subscriptions_bp.arguments(Subscribe())
    @subscriptions_bp.response(202, SubscribeAsked)
    def post(self, body):
        """Ask for a mail each time a new open game of a type waits for
        players. The address is mailed a confirmation; only a reply to it
        subscribes the address (double opt-in), within two days. By mail:
        `subscribe carcassonne` to `move+games@MAIL_DOMAIN`. Each
        announcement has a one-click unsubscribe link (RFC 8058).

        `422 bad_email`, `422 unknown_game` (nothing stored); `429
        too_many_requests` past `PBEM_SUBSCRIBE_MAILS_PER_HOUR` mails to the
        address; `422 subscription_unconfirmable` when the confirmation
        cannot be mailed (the address is never subscribed)."""
        mconf, nconf = mail_conf()
        lang = chosen_language(body["lang"], language() or ENGLISH)
        return subscriptions.ask(service().store.redis, nconf, mconf.subscribe_mails_per_hour, body["email"],
                                 body["game"], lang), 202


def register(api) -> None:
    api.register_blueprint(subscriptions_bp)
