"""The players' chat over the API (pbem/service/chat.py says who reads what).
Thin: who is asking, one call to the service, the answer."""
from __future__ import annotations

from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from ..service import chat
from . import schemas as s
from . import security as sec
from .common import bearer, service
from .parsing import Blueprint

chat_bp = Blueprint("chat", __name__, url_prefix="/games", description="The players' chat")


class ChatSay(s.Strict):
    text = fields.String(required=True, metadata={
        "description": "one line of text, at most `PBEM_CHAT_MAX_CHARS` characters (its ends trimmed)"})
    to = s.Int(load_default=None, allow_none=True, metadata={
        "description": "a seat: the message is private, read by that seat and the sender only (no seat of "
                       "the game: `404 unknown_seat`); absent or null: everyone reads it, spectators too"})


class ChatQuery(s.ReaderQuery):
    after = s.QueryInt(load_default=0, validate=validate.Range(0, 10**9), metadata={
        "description": "only messages numbered after this one"})


class ChatMessage(s.Strict):
    n = s.Int(metadata={"description": "the message's number in the game's chat, from 1"})
    seat = s.Int(metadata={"description": "who said it"})
    name = fields.String(metadata={"description": "that seat's name"})
    to = s.Int(allow_none=True, metadata={"description": "the seat it was said to (private); null: everyone"})
    text = fields.String(metadata={"description": "as the player wrote it: show it as text, never as markup"})
    time = fields.Float(metadata={"description": "when it was said, Unix seconds"})
    version = s.Int(metadata={"description": "the game's version when it was said (a message never changes it)"})


class ChatList(s.Strict):
    messages = fields.List(fields.Nested(ChatMessage))
    last = s.Int(metadata={"description": "the number of the last message of the game's chat the caller may "
                                          "read (0: none); ask again with `after` set to it"})


def limits() -> chat.ChatLimits:
    ext = current_app.extensions
    if "pbem_chat_limits" not in ext:
        ext["pbem_chat_limits"] = chat.ChatLimits.from_env()
    return ext["pbem_chat_limits"]


def named(game_id: str, messages: list[dict]) -> list[dict]:
    names = service().seat_names(game_id, int(service()._meta(game_id)["players"]))
    return [{**m, "name": names[m["seat"]] if m["seat"] < len(names) else str(m["seat"])} for m in messages]


@chat_bp.route("/<game_id>/chat")
class ChatView(MethodView):
    @sec.declare(chat_bp, sec.OPTIONAL_SEAT)
    @chat_bp.arguments(ChatQuery(), location="query")
    @chat_bp.response(200, ChatList)
    def get(self, query, game_id):
        """The game's chat as the caller may read it: a seat (its bearer
        token) reads the public messages and the private ones to or from
        it; a spectator (no token) the public ones. A finished game's chat
        stays as it was: private messages stay private."""
        viewer = service().viewer(game_id, bearer(), service()._meta(game_id))
        messages = chat.read(service(), game_id, viewer, query["after"])
        return {"messages": named(game_id, messages), "last": messages[-1]["n"] if messages else query["after"]}

    @sec.declare(chat_bp, sec.SEAT)
    @chat_bp.arguments(ChatSay())
    @chat_bp.response(201, ChatMessage)
    def post(self, body, game_id):
        """Say something to the game's players (or, with `to`, to one seat).
        Only a seat's bearer token: a spectator reads, and cannot write. A
        message is not a move: the game's version does not change.

        Refused, nothing is stored: `422 chat_empty`, `chat_too_long`
        (`PBEM_CHAT_MAX_CHARS`), `chat_control_character` (line breaks,
        control or invisible format characters), `chat_to_self`; `404
        unknown_seat` (`to` is no seat of the game); `429 chat_too_fast`
        (`PBEM_CHAT_PER_MINUTE` a seat, with `Retry-After`); `409
        chat_closed` (the game is over). By mail: a line `say ...`
        (docs/email.md)."""
        seat = service().viewer(game_id, bearer(), service()._meta(game_id))
        said = chat.say(service(), game_id, seat, body["text"], body["to"], limits())
        return named(game_id, [said])[0], 201


def register(api) -> None:
    api.register_blueprint(chat_bp)
