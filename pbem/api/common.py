"""What the API's views share: the service, who is asking, the settings, and
the few steps one view module's operation takes in another's domain (a
game's creation sets deadline settings and sends invitations; a join
registers a webhook; every summary links to the event stream).

Views depend on this module and on the service, never on each other, nor on
``app``, which only assembles them (``create_app``)."""
from __future__ import annotations

import secrets
import time
from urllib.parse import urlencode

from flask import current_app, g, request

from ..settings.config import Settings
from ..errors import TooManyRequests, Unauthorized, Unprocessable
from ..mail_in.config import MailInSettings
from ..mail_in.store import MailStore
from ..notify.config import NotifySettings
from ..notify.notifier import Notifier
from ..notify.webhooks import UrlRefused, check_url, new_secret
from ..service import Service
from ..games.i18n import _

# -- the service, the settings, the caller --------------------------------


def service() -> Service:
    return current_app.extensions["pbem"]


def settings() -> Settings:
    return current_app.extensions["pbem_settings"]


def notify_settings() -> NotifySettings:
    return current_app.extensions["pbem_notify_settings"]


def mail_conf() -> tuple[MailInSettings, NotifySettings]:
    """The mail settings, read when the first mail operation comes."""
    ext = current_app.extensions
    if "pbem_mail_in" not in ext:
        ext["pbem_mail_in"] = (MailInSettings(), NotifySettings())
    return ext["pbem_mail_in"]


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _space, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("bad_token", _("send the header as 'Authorization: Bearer <token>'"))
    return token.strip()


def without_texts() -> None:
    """Said by a view whose answer holds no text built for its reader (an
    accepted move): it says no language, and none is looked for
    (pbem/api/reader.py)."""
    g.pbem_no_texts = True


def is_operator(token: str | None) -> bool:
    """Whether ``token`` is the operator's ``PBEM_ADMIN_TOKEN`` (never, when it is unset)."""
    admin = settings().admin_token
    return bool(token and admin and secrets.compare_digest(token.encode(), admin.encode()))


# -- the event stream's links ---------------------------------------------


def secret() -> bytes:
    """The server secret (tickets), read once."""
    ext = current_app.extensions
    if "pbem_secret" not in ext:  # NotifySettings.secret reads the data dir
        ext["pbem_secret"] = notify_settings().secret()
    return ext["pbem_secret"]


def stream_url(game_id: str, query: dict | None = None) -> str:
    url = f"{settings().stream_base_url()}/games/{game_id}/events/stream"
    return f"{url}?{urlencode(query)}" if query else url


def links(game_id: str) -> dict:
    return {"events_stream": stream_url(game_id)}


# -- notifications: webhooks and deadline settings -------------------------


def notifier() -> Notifier:
    return Notifier(service(), notify_settings())


def public_channels(ch: dict) -> dict:
    out = dict(ch)
    if out.get("webhook"):
        out["webhook"] = {k: v for k, v in out["webhook"].items() if k != "secret"}
    return out


def check_webhook_url(url: str) -> None:
    """422 for a URL webhooks may not call (checked before anything is stored)."""
    try:
        check_url(url, notify_settings().webhook_allow_private)
    except UrlRefused as err:
        raise Unprocessable(err.code, err.message, url=url) from None


def register_webhook(game_id: str, seat: int, url: str, n: Notifier | None = None, ch: dict | None = None) -> dict:
    """Store a checked webhook URL for a seat with a new signing secret; the
    answer holds the secret, shown this once."""
    n = n or notifier()
    ch = ch if ch is not None else n.channels(game_id, seat)
    secret_ = new_secret()
    ch["webhook"] = {"id": secrets.token_hex(8), "url": url, "secret": secret_, "enabled": True,
                     "registered": time.time(), "disabled_reason": None}
    ch["pending_webhook_url"] = None
    n.store.save_channels(game_id, seat, ch)
    return {**public_channels(ch)["webhook"], "secret": secret_}


def check_deadline(body: dict) -> None:
    if body["turn_seconds"] and body["reminder_seconds"] >= body["turn_seconds"]:
        raise Unprocessable("bad_reminder", _("the reminder must come before the deadline"))


def save_deadline_settings(game_id: str, body: dict, by: str, n: Notifier | None = None) -> None:
    (n or notifier()).store.save_game_settings(game_id, {**body, "set_by": by, "set_at": time.time()})


# -- invitations: how many a game and a client address may send -------------


def take_invitation_slots(game_id: str | None, count: int) -> None:
    """Count invitations against the game's and the client address's hourly
    allowance (``PBEM_INVITES_PER_HOUR``), or 429 too_many_requests."""
    per_hour = mail_conf()[0].invites_per_hour
    wait = MailStore(service().store.redis).take_invitations(game_id, request.remote_addr or "unknown", count,
                                                             per_hour)
    if wait is not None:
        raise TooManyRequests(_("at most {n} invitations an hour for a game and from an address; try again in "
                                "{wait} s", n=per_hour, wait=wait), retry_after=wait)


def count_invitations(game_id: str, count: int) -> None:
    """Count invitations sent at a game's creation (its client was counted)."""
    MailStore(service().store.redis).count_invitations(game_id, count)
