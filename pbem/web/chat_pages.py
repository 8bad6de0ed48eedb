"""The chat box's side of a turn mail's play link (``/play/LINK/chat``):
the link proves the seat, as it does for a move, so a player who came from
a mail reads and writes its game's chat without a key in the browser. A
page with a key (or a spectator) uses the API's ``/games/{id}/chat``.
Answers are JSON, errors in the API's one format (``JSON_ENDPOINTS``)."""
from __future__ import annotations

import json

from flask import Response, request

from ..errors import Unprocessable
from ..games.i18n import _
from ..service import chat
from .views import JSON_ENDPOINTS, link_caller, read_json_body, service, web

JSON_ENDPOINTS.update({"web.play_chat", "web.play_chat_say"})


def _named(game_id: str, messages: list[dict]) -> list[dict]:
    names = service().seat_names(game_id, int(service()._meta(game_id)["players"]))
    return [{**m, "name": names[m["seat"]] if m["seat"] < len(names) else str(m["seat"])} for m in messages]


def _json(body, status: int = 200) -> Response:
    resp = Response(json.dumps(body), status=status, mimetype="application/json")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@web.get("/play/<link>/chat")
def play_chat(link):
    game_id, caller = link_caller(link)
    raw = request.args.get("after", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise Unprocessable("invalid_request", _("after is a message's number: digits only"))
    after = int(raw)
    messages = chat.read(service(), game_id, service().viewer(game_id, caller.token), after)
    return _json({"messages": _named(game_id, messages), "last": messages[-1]["n"] if messages else after})


@web.post("/play/<link>/chat")
def play_chat_say(link):
    game_id, caller = link_caller(link)
    body = read_json_body()
    to = body.get("to")
    if not isinstance(body.get("text"), str) or not (to is None or (isinstance(to, int) and not isinstance(to, bool))):
        raise Unprocessable("invalid_request", _("a chat message is an object with text and, for one seat only, to"))
    seat = service().viewer(game_id, caller.token)
    said = chat.say(service(), game_id, seat, body["text"], to, chat.ChatLimits.from_env())
    return _json(_named(game_id, [said])[0], 201)
