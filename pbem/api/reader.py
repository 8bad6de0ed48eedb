"""Who reads an answer of the API, in which language: the one place a
request's reading context is set (``pbem.games.i18n.reading``), so that
every text built while answering (a board, an event in words, the legal
moves' lines, an error's ``message``) is in the reader's language; codes
never change.

The language, first found first: ``?lang=`` (any tag pbem reads), the
language of the seat whose bearer token is sent (where it chose one),
``Accept-Language`` (``zh-TW``, ``zh-HK``, ``zh-Hant`` read as
Traditional Chinese), the game's (a path with a game id), English.

The seat's and the game's are read from the store only when a text first
needs them, or when the answer says its language: ``Content-Language``
on every answer but an accepted move's (``without_texts``: its record
holds no text of this request, so the one round trip of a move stays one:
``common.without_texts``).
"""
from __future__ import annotations

from flask import Flask, g, request

from ..errors import ServiceError
from ..games.i18n import ENGLISH, best_language, language, language_if_known, language_of, reading
from ..service.common import seat_of_token
from ..service.common import game_language
from .common import service


def _token() -> str | None:
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _game_id() -> str | None:
    game_id = (request.view_args or {}).get("game_id")
    return game_id if isinstance(game_id, str) else None


def _seat_choice(game_id: str, token: str) -> str | None:
    """The language the seat of ``token`` chose, if it is a seat's and it chose."""
    seats = service().store.seats(game_id)
    try:
        seat = seat_of_token(seats, token)
    except ServiceError:  # the creator's or the operator's token, or a wrong one (the view says so)
        return None
    return language_of((seats.get(seat) or {}).get("lang"))


def find_language(asked: str | None = None, token: str | None = None, game_id: str | None = None,
                  accept: str | None = None) -> str:
    """The reader's language from what the request says (see the module's doc)."""
    lang = language_of(asked)
    if lang:
        return lang
    if game_id and token:
        lang = _seat_choice(game_id, token)
        if lang:
            return lang
    lang = best_language(accept)
    if lang:
        return lang
    if game_id:
        return game_language(service().store.meta(game_id))
    return ENGLISH


#: The pages' blueprints: a page decides its reader itself (its ``?lang=``
#: remembered, a play link's seat: pbem/web), the API's hooks leave it be.
PAGES = frozenset({"web", "icons"})


def start_reading() -> None:
    """``before_request``: the request's reading context, decided now when
    the request says it (``?lang=``, or ``Accept-Language`` with no seat to
    ask), else when a text first needs it."""
    if request.blueprint in PAGES:
        return
    asked, token, game_id = request.args.get("lang"), _token(), _game_id()
    accept = request.headers.get("Accept-Language")
    if language_of(asked) or (best_language(accept) and not (token and game_id)) or not game_id:
        context = reading(find_language(asked, token, game_id, accept))
    else:
        context = reading(lambda: find_language(asked, token, game_id, accept))
    context.__enter__()
    g.pbem_reading = context


def say_language(response):
    """``after_request``: ``Content-Language``, the language the answer's
    texts are in (a page may have said it already)."""
    if getattr(g, "pbem_reading", None) is None:
        return response
    lang = language_if_known() if g.get("pbem_no_texts") else language()
    if lang:
        response.headers.setdefault("Content-Language", lang)
    return response


def stop_reading(_error=None) -> None:
    context = g.pop("pbem_reading", None)
    if context is not None:
        try:
            context.__exit__(None, None, None)
        except ValueError:  # ended in another context than it began (never on Flask's own path)
            pass


def register(app: Flask) -> None:
    """Before every other ``before_request``: a refusal there reads the language too."""
    app.before_request_funcs.setdefault(None, []).insert(0, start_reading)
    app.after_request(say_language)
    app.teardown_request(stop_reading)
