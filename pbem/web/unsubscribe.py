"""The one-click unsubscribe link of announcement mails (pbem/mail_in/subscriptions.py):
``GET /unsubscribe/TOKEN`` asks (a link opened by a mail scanner ends
nothing), ``POST`` ends the announcements: the page's one button, or a mail
client's one-click unsubscribe (RFC 8058: ``List-Unsubscribe=One-Click`` in
the body). Thin: read the token, call one function, render."""
from __future__ import annotations

from flask import request

from ..mail_in import subscriptions
from ..mail_in.subscription_tokens import read_unsubscribe
from .languages import game_title
from .views import html, secret, service, web


@web.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token):
    found = read_unsubscribe(secret(), token)
    if found is None:
        return html("unsubscribe.html", status=404, private=True, state="bad")
    game_type, hashed = found
    if request.method == "POST":
        subscriptions.unsubscribe(service().store.redis, game_type, hashed)
        return html("unsubscribe.html", private=True, state="done", game=game_title(game_type))
    return html("unsubscribe.html", private=True, state="ask", game=game_title(game_type), token=token)
