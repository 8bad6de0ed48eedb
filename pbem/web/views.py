"""The web pages, served by the API's Flask application: the lobby, a game's
page (as a spectator, as a seat whose bearer token the browser holds, or
through a turn mail's play link), its versions, and their pictures.

Views are thin: find out who asks, call one function of ``model``, render.
The HTML pages answer errors as a page; the parts the pages' script fetches
(``live``, a move through a play link) answer them in the API's one JSON
format.
"""
from __future__ import annotations

import json
import secrets
import time
from datetime import datetime, timezone
from urllib.parse import urlsplit

import marshmallow as ma
import redis
from flask import Blueprint, Response, current_app, g, redirect, render_template, request
from marshmallow import fields, validate
from werkzeug.exceptions import HTTPException

from ..errors import ServiceError, Unavailable, Unprocessable
from ..games.base import GameError
from ..games.i18n import _, language_of, reading
from ..service import SeatProof, Service
from ..api import schemas as s
from ..api.parsing import surrogate_at, too_deep
from ..api.common import bearer, stream_url
from ..api.error_format import error_response
from ..mail_in import invites
from ..trust.tickets import make_ticket
from ..pictures import palette
from ..trust import play_links as links
from ..settings.registry import env
from ..when import valid_zone, when
from ..trust import address_links
from . import languages, model, my_games_page, ratings_model

web = Blueprint("web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/_web")

#: Endpoints whose answers are JSON (for the pages' script): errors too.
JSON_ENDPOINTS = {"web.live", "web.play_live", "web.play_ticket", "web.my_games"}
#: How long a move through a play link may wait for its outcome, seconds.
MOVE_WAIT_S = 8.0


def service() -> Service:
    return current_app.extensions["pbem"]


def secret() -> bytes:
    ext = current_app.extensions
    if "pbem_secret" not in ext:  # read once: NotifySettings.secret reads the data dir
        ext["pbem_secret"] = ext["pbem_notify_settings"].secret()
    return ext["pbem_secret"]


def bearer_caller(game_id: str) -> model.Caller:
    # the API's reading of Authorization (pbem/api/common.py): one rule for both
    return model.Caller(bearer(), f"/g/{game_id}")


def link_caller(link: str) -> tuple[str, model.Caller]:
    game_id, seat, expires = links.read_token(secret(), link)
    return game_id, model.Caller(SeatProof(seat), f"/play/{link}", link=link, link_expires=expires)


def html(template: str, status: int = 200, private: bool = False, **context) -> Response:
    resp = Response(render_template(template, **context), status=status, mimetype="text/html")
    if private:
        # A play link is a credential in the URL: keep it out of caches and
        # out of the Referer header of anything the page links to.
        resp.headers["Cache-Control"] = "no-store"
        resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@web.before_request
def started() -> None:
    g.web_started = time.perf_counter()
    # What the reader asked for, else what the browser says; a page for a
    # seat or a game settles it (``settle_language``) once it knows them.
    read_in(page_language())


@web.teardown_request
def done_reading(exc=None) -> None:
    for context in reversed(g.pop("pbem_reading", [])):
        context.__exit__(None, None, None)


def read_in(lang: str) -> None:
    """The rest of this request reads ``lang`` (the page, the games' texts on it, its errors)."""
    context = reading(lang)
    context.__enter__()
    g.setdefault("pbem_reading", []).append(context)
    g.pbem_lang = lang


def page_language(seat_lang=None, game_lang=None) -> str:
    return languages.page_language(languages.asked_language(request.args, request.cookies), seat_lang,
                                   request.headers.get("Accept-Language"), game_lang)


def settle_language(seat_lang, game_lang) -> None:
    """The page's language, now that its seat's and game's are known."""
    lang = page_language(seat_lang, game_lang)
    if lang != g.get("pbem_lang"):
        read_in(lang)


@web.after_request
def page_headers(resp: Response) -> Response:
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    began = g.get("web_started")
    if began is not None:  # the server's own time, for bench/pages.py and a browser's network panel
        resp.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - began) * 1000:.2f}"
    if resp.mimetype == "text/html":
        resp.headers.setdefault("Content-Security-Policy", csp())
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        remember_language(resp)
    if request.endpoint != "web.static":  # the same address reads another language for another reader
        resp.headers.add("Vary", "Accept-Language, Cookie")
    return resp


def remember_language(resp: Response) -> None:
    """A language chosen with ``?lang=`` (the switch) is kept for the next pages."""
    chosen = language_of(request.args.get("lang"))
    if chosen and chosen != request.cookies.get(languages.COOKIE):
        resp.set_cookie(languages.COOKIE, chosen, max_age=languages.COOKIE_MAX_AGE_S, path="/",
                        samesite="Lax", secure=request.is_secure, httponly=True)


def stream_origin() -> str:
    parts = urlsplit(current_app.extensions["pbem_settings"].stream_base_url())
    return f"{parts.scheme}://{parts.netloc}"


def csp() -> str:
    """Scripts from this origin only (no inline script); pictures are inline
    SVG with presentation attributes; the pages fetch from here and listen
    to the event stream's origin."""
    connect = f"'self' {stream_origin()}"
    return ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            f"connect-src {connect}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


# -- the lobby and a game's page ---------------------------------------------------------------


@web.get("/")
def lobby():
    return html("lobby.html", lobby=model.lobby(service()), tz=reader_zone())


@web.get("/my-games")
def my_games():
    """The player's page (a browser's navigation), or its list as a part
    for the scripts (the lobby's "my games", the page's own): the games of
    the seats and keys the browser names (``?seat=GAME.SEAT``, ``?key=``,
    repeated; its tokens stay in the browser) and of the address it is
    signed in for by a ``games`` mail's link (pbem/web/my_games_page.py).
    Only public rows: naming a seat or a key proves nothing and shows
    nothing private."""
    address = my_games_page.session_address(request.cookies, secret())
    held = my_games_page.held(service(), request.args, address)
    mine = model.my_games(service(), held)
    ratings = ratings_model.my_ratings(service(), held)
    if my_games_page.wants_page(request):
        return html("my_games.html", private=True, mine=mine, address=address, tz=reader_zone(), ratings=ratings)
    body = {"count": sum(len(rows) for rows in mine.values()), "waiting": len(mine["waiting"]),
            "html": render_template("parts/my_games.html", mine=mine, tz=reader_zone(), address=address,
                                    ratings=ratings)}
    resp = Response(json.dumps(body), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@web.get("/my-games/signin/<link>")
def my_games_signin(link):
    """A ``games`` mail's link: the address it names becomes this browser's
    session (an HttpOnly cookie), and the page opens."""
    address = address_links.read(secret(), "link", link)
    resp = redirect("/my-games", 303)
    resp.set_cookie(my_games_page.COOKIE, address_links.make(secret(), "session", address,
                                                             address_links.SESSION_TTL_S),
                    max_age=int(address_links.SESSION_TTL_S), httponly=True, samesite="Lax",
                    secure=request.is_secure, path="/")
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@web.post("/my-games/signout")
def my_games_signout():
    resp = redirect("/my-games", 303)
    resp.delete_cookie(my_games_page.COOKIE, path="/")
    return resp


#: The cookie the lobby's script keeps the browser's time zone in (IANA).
ZONE_COOKIE = "pbem_tz"


def reader_zone() -> str | None:
    """The reader's time zone as their browser names it (the lobby's script
    keeps it in a cookie), else None: their language's usual one."""
    zone = request.cookies.get(ZONE_COOKIE, "")
    return zone if 0 < len(zone) <= 64 and valid_zone(zone) else None


@web.get("/r/<game>")
def ratings(game):
    """A game type's ratings table (pbem/ratings)."""
    return html("ratings.html", page=ratings_model.ratings_page(service(), game))


@web.get("/g/<game_id>")
def game(game_id):
    caller = model.Caller(None, f"/g/{game_id}")  # a browser's navigation sends no token: the script upgrades
    return html("game.html", page=model.game_page(service(), game_id, caller, settle=settle_language))


@web.get("/g/<game_id>/v/<int:version>")
def game_version(game_id, version):
    caller = model.Caller(None, f"/g/{game_id}")
    return html("game.html", page=model.game_page(service(), game_id, caller, version=version,
                                                  settle=settle_language))


@web.get("/g/<game_id>/v/<int:version>.svg")
def version_svg(game_id, version):
    return svg_response(model.version_svg(service(), game_id, bearer_caller(game_id), version))


@web.get("/g/<game_id>/live")
def live(game_id):
    """The page's parts for the caller (a seat's bearer token, or nobody):
    what the script puts in place when the game moves or a seat signs in."""
    return live_answer(game_id, bearer_caller(game_id))


@web.get("/g/<game_id>/rules")
def rules(game_id):
    """The rules in play and their notation: what an invitation links to."""
    return html("rules.html", page=model.rules_page(service(), game_id, settle=settle_language))


# -- an invitation's link -------------------------------------------------------------------


@web.get("/join/<token>")
def invitation(token):
    """The link in an invitation mail: the game and the seat kept for its
    holder, who takes it from here with a key the browser makes or holds
    (the script signs the join and sends the token: ``POST
    /games/{id}/seats/{seat}``). The token is a credential in the URL."""
    game_id, seat, nonce = invites.read_token(secret(), token)
    page = model.invitation_page(service(), game_id, seat, nonce, token, settle=settle_language)
    return html("invitation.html", private=True, page=page)


# -- a turn mail's play link ----------------------------------------------------------------


@web.get("/play/<link>")
def play(link):
    game_id, caller = link_caller(link)
    said = request.args.get("move")
    page = model.game_page(service(), game_id, caller, said=said if said and len(said) <= 64 else None,
                           settle=settle_language)
    return html("game.html", private=True, page=page)


@web.get("/play/<link>/v/<int:version>")
def play_version(link, version):
    game_id, caller = link_caller(link)
    page = model.game_page(service(), game_id, caller, version=version, settle=settle_language)
    return html("game.html", private=True, page=page)


@web.get("/play/<link>/v/<int:version>.svg")
def play_svg(link, version):
    game_id, caller = link_caller(link)
    resp = svg_response(model.version_svg(service(), game_id, caller, version))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@web.get("/play/<link>/live")
def play_live(link):
    game_id, caller = link_caller(link)
    return live_answer(game_id, caller)


#: How long the ticket a play link's page opens its stream with lives, seconds.
LINK_TICKET_S = 300


@web.post("/play/<link>/ticket")
def play_ticket(link):
    """A stream ticket for the seat a play link proves (an EventSource sends
    no header): short-lived, like the API's, asked for again on reconnecting."""
    game_id, caller = link_caller(link)
    ticket, expires = make_ticket(secret(), game_id, caller.proved_seat, LINK_TICKET_S)
    resp = Response(json.dumps({"ticket": ticket, "expires": expires}), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-store"
    return resp


class LinkMove(s.Strict):
    """A move made through a play link: the page's form, or its script."""
    move = fields.Dict(keys=fields.String(), required=True)
    expected_version = s.Int(required=True, validate=validate.Range(0, 10**9))
    nonce = s.Line(required=True, validate=validate.Length(8, 128))


@web.post("/play/<link>")
def play_move(link):
    """A move through a play link, authenticated by the link and recorded as
    ``auth: mail-link``. From a form (no script): answered by a redirect to
    the page, which tells the outcome; from the script (JSON): the move's
    record, once settled (or still queued after a few seconds)."""
    game_id, caller = link_caller(link)
    wants_json = request.is_json
    body = read_move_body(wants_json)
    try:
        record = model.play(service(), game_id, caller, body["move"], body["expected_version"], body["nonce"],
                            wait=MOVE_WAIT_S)
    except ServiceError as err:
        if wants_json:
            raise
        # Refused at once (stale, illegal, sent twice): the page again, saying why.
        page = model.game_page(service(), game_id, caller, settle=settle_language)
        page["refusal"] = {"code": err.code, "message": err.message}
        return html("game.html", status=err.status, private=True, page=page)
    if wants_json:
        return Response(json.dumps(record), mimetype="application/json")
    return redirect(f"/play/{link}?move={record['id']}", code=303)


def _json_body():
    """The request's JSON body, parsed as the API parses one (any JSON value)."""
    raw = request.get_data(cache=True)
    if too_deep(raw):
        raise ServiceError("malformed_json", _("the body nests too deeply"))
    try:
        return json.loads(raw)
    except ValueError:
        raise ServiceError("malformed_json", _("the body is not valid JSON")) from None


def read_json_body() -> dict:
    """A JSON object body (a play link's move, its chat), read as the API reads one."""
    data = _json_body()
    if not isinstance(data, dict) or surrogate_at(data) is not None:
        raise Unprocessable("invalid_request", _("the body is not one JSON object of valid text"))
    return data


def read_move_body(is_json: bool) -> dict:
    if is_json:
        data = _json_body()
    else:
        form = request.form
        try:
            data = {"move": json.loads(form.get("move", "")), "expected_version": int(form.get("expected_version", "")),
                    "nonce": form.get("nonce", "")}
        except ValueError:
            raise Unprocessable("invalid_request", _("the form does not hold a move")) from None
    if surrogate_at(data) is not None:
        raise Unprocessable("invalid_request", _("the move holds a lone surrogate"))
    try:
        return LinkMove().load(data)
    except ma.ValidationError as err:
        raise Unprocessable("invalid_request", _("the move does not match the schema"),
                            fields=err.messages) from None


# -- answers -------------------------------------------------------------------------------------


def svg_response(text: str) -> Response:
    resp = Response(text, mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "private, no-cache"
    resp.headers["Vary"] = "Authorization"
    return resp


def version_arg(name: str) -> int | None:
    value = request.args.get(name)
    if value is not None and not (value.isascii() and value.isdigit() and len(value) < 10):
        raise Unprocessable("invalid_request", _("{name} is a version: digits only", name=name),
                            fields={name: [_("not a version")]})
    return int(value) if value is not None else None


def live_answer(game_id: str, caller: model.Caller) -> Response:
    """The page's parts now (``?after=N``: with the log's entries after N),
    or, for the replay slider, at a version (``?at=N``): that version's
    picture, banner and players, as the caller may see them then."""
    after, at = version_arg("after"), version_arg("at")
    page = model.game_page(service(), game_id, caller, version=at, log=request.args.get("log") == "1" and at is None,
                           after=after if at is None else None, settle=settle_language)
    names = ("status", "players") if at is not None else ("status", "players", "play")
    parts = {name: render_template(f"parts/{name}.html", page=page) for name in names}
    picture = page["picture"]["svg"] or ""
    if at is not None and not picture:  # a game without a picture module: its text board, drawn
        picture = model.text_svg(page["picture"]["text"] or "")
    body = {"version": page["version"], "shown": page["shown_version"], "status": page["status"],
            "viewer": page["viewer"], "to_act": page["to_act"], "names": page["names"], "parts": parts,
            "lang": g.pbem_lang, "picture": picture, "legal": page["legal"], "log": page["log"]}
    resp = Response(json.dumps(body), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _error(err):
    """A page for the pages, the API's JSON for the script's fetches."""
    if isinstance(err, HTTPException):   # the API's own reading of it (status, code, message)
        body, status, headers = current_app.extensions["pbem_api"].handle_http_exception(err)
    else:
        err = _service_error(err)
        body, status, headers = error_response(err.status, err.code, err.message, err.details)
    if request.endpoint in JSON_ENDPOINTS or request.is_json:
        return Response(json.dumps(body), status=status, headers=headers, mimetype="application/json")
    error = body["error"]
    return html("error.html", status=status, private=request.path.startswith(("/play/", "/join/")),
                error={**error, "details": error.get("details") or {}})


def _service_error(err) -> ServiceError:
    if isinstance(err, ServiceError):
        return err
    if isinstance(err, GameError):
        return Unprocessable(err.code, err.message, **err.details)
    return Unavailable("store_unavailable", _("the game store is unreachable; try again shortly"))


for _kind in (ServiceError, GameError, HTTPException, redis.ConnectionError, redis.TimeoutError,
              redis.BusyLoadingError):
    web.register_error_handler(_kind, _error)


def new_nonce() -> str:
    """A form's nonce, made when the page is: sending the same form twice is
    then ``nonce_reused``, never a second move."""
    return "web-" + secrets.token_urlsafe(12)


@web.app_template_filter("isotime")
def isotime(ts) -> str:
    """A moment for a ``<time datetime>``: ISO 8601, in UTC."""
    return datetime.fromtimestamp(float(ts), tz=timezone.utc).strftime("%Y-%m-%dT%H:%MZ")


@web.app_template_filter("when")
def when_filter(ts, zone: str | None = None) -> str:
    """A moment as the reader reads it: their language, their zone (a seat's
    ``tz``, else the language's usual one), the zone named."""
    return when(float(ts), zone)


@web.app_context_processor
def page_globals() -> dict:
    lang = g.get("pbem_lang") or languages.ENGLISH
    return {"nonce": new_nonce, "chip_style": chip_style, "stream_url": stream_url, "log_items": model.log_items,
            "lang": lang, "switch": languages.switch_links(lang), "js_catalog": languages.js_catalog,
            "game_title": languages.game_title, "sentence": languages.sentence,
            "chat_max_chars": lambda: env("PBEM_CHAT_MAX_CHARS")}


def chip_style(seat: int) -> str:
    """A seat's colour as the pictures draw it (pbem/pictures/palette.py)."""
    return f"background:{palette.seat_fill(seat)};color:{palette.seat_ink(seat)}"


def register(app) -> None:
    app.register_blueprint(web)
    app.jinja_env.globals.update(languages.template_functions())
