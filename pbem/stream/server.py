"""The event-stream process: ``GET /games/{id}/events/stream`` (server-sent
events) on aiohttp's own server, one asyncio process for many idle
connections. ``make run`` starts it (``python -m pbem.stream``) on
``PBEM_STREAM_PORT`` (default PORT + 1).

A stream: who is asking (no credential: a spectator; ``Authorization: Bearer
<seat token>``; or ``?ticket=``, see pbem/trust/tickets.py), where to start
(``Last-Event-ID``, else ``?after=``, else 0), then every event after it,
caught up from the log and then live from the hub, each shown as ``GET
/games/{id}/events`` shows it to the same caller; ``end`` once the game is
over. Errors before the stream starts are the API's one error format.

With ``?chat=<n>`` the stream also carries the game's chat after message
``n`` (``event: chat``, each message as ``GET /games/{id}/chat`` shows it to
the same caller), and every frame's id is ``<version>:<n>`` (both cursors),
so ``Last-Event-ID`` resumes both; see docs/chat.md.
"""
from __future__ import annotations

import asyncio
import logging
import re
import sys

import redis.asyncio as aredis
from aiohttp import web
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

from ..telemetry import logs
from ..settings.config import Settings, check_environment, settings as load_settings
from ..errors import NotFound, ServiceError, Unauthorized, Unavailable, Unprocessable
from ..games.i18n import _, best_language, language_of, reading
from ..service.common import game_language, readable_chat
from ..store import chat as chat_store
from ..notify.config import NotifySettings
from ..service import game_of, names_of, seat_of_token, shown_events
from ..store import Archive, decode_archive, decode_extra, decode_log, decode_meta, decode_seats, dumps, key
from ..trust.tickets import check_ticket
from . import sse
from .hub import CLOSE, KEEPALIVE, ChatBatch, Hub

log = logging.getLogger(__name__)

HUB = web.AppKey("hub", Hub)
REDIS = web.AppKey("redis", aredis.Redis)
CONF = web.AppKey("conf", Settings)
SECRET = web.AppKey("secret", bytes)
ORIGINS = web.AppKey("origins", frozenset)

_VERSION = re.compile(r"^\d{1,10}$")
# A Last-Event-ID of a stream with chat: "<version>:<n>" (not a dot: "1.5" reads
# as a fraction of a version, and stays refused).
_BOTH = re.compile(r"^(\d{1,10}):(\d{1,10})$")
MAX_VERSION = 10**9  # as GET /games/{id}/events?after= allows
QUERY = {"after", "ticket", "lang", "chat"}
#: Rows per catch-up read.
PAGE = 500


#: On every answer, as the API's (pbem/api/headers.py): it shares the pages'
#: origin behind a proxy, and none of its answers is a page.
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'"}


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def error(err: ServiceError, headers: dict | None = None) -> web.Response:
    body = {"error": {"code": err.code, "message": err.message, "status": err.status}}
    if err.details:
        body["error"]["details"] = err.details
    return web.Response(status=err.status, text=dumps(body), content_type="application/json", headers=headers)


def cors(request: web.Request) -> dict:
    """CORS for a page on an allowed origin (``PBEM_STREAM_ORIGINS``, by
    default the API's own): tickets in the URL, not cookies, carry the
    credential, so no ``Allow-Credentials``."""
    origin = request.headers.get("Origin")
    if not origin:
        return {}
    allowed = request.app[ORIGINS]
    if "*" in allowed:
        return {"Access-Control-Allow-Origin": "*"}
    if origin.rstrip("/") in allowed:
        return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
    return {"Vary": "Origin"}


def where_from(request: web.Request) -> tuple[int, int | None, str | None, str | None]:
    """(after, chat after (None: no chat), bearer token, ticket) from the
    request, or a 4xx."""
    unknown = sorted(set(request.query) - QUERY)
    repeated = sorted(k for k in QUERY if len(request.query.getall(k, [])) > 1)
    if unknown or repeated:
        raise Unprocessable("invalid_request", _("the request does not match the schema"),
                            fields={"query": {k: ["Unknown field."] for k in unknown}
                                    | {k: ["Given more than once."] for k in repeated}})
    # A browser's EventSource reconnects to the URL it opened (``?after=`` and
    # all) with Last-Event-ID: that is where the stream really left off.
    last = request.headers.get("Last-Event-ID", "").strip()
    chat = request.query.get("chat")
    if chat is not None and (not _VERSION.match(chat) or int(chat) > MAX_VERSION):
        raise Unprocessable("invalid_request", _("the request does not match the schema"),
                            fields={"chat": ["Must be a chat message number: a whole number, 0 or more."]})
    both = _BOTH.match(last)
    if both:  # a stream with chat left off here: both cursors
        last, chat = both.group(1), both.group(2)
    given, name = (last, "Last-Event-ID") if last else (request.query.get("after", "0"), "after")
    if not _VERSION.match(given) or int(given) > MAX_VERSION:
        raise Unprocessable("invalid_request", _("the request does not match the schema"),
                            fields={name: ["Must be a game version: a whole number, 0 or more."]})
    header = request.headers.get("Authorization", "")
    token = None
    if header:
        scheme, _space, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized("bad_token", _("send the header as 'Authorization: Bearer <token>'"))
    ticket = request.query.get("ticket")
    return int(given), None if chat is None else int(chat), token, ticket


def asked_language(request: web.Request) -> str | None:
    """The language the request asks for itself: ``?lang=``, else ``Accept-Language``."""
    return language_of(request.query.get("lang")) or best_language(request.headers.get("Accept-Language"))


async def identify(request: web.Request, game_id: str) -> tuple[dict, object, int, Archive | None, list, str,
                                                                 tuple[int, int] | None]:
    """The game's meta, who the caller is, where to start, the game's
    archive if it was compacted (``Store.compact``), the players' names
    by seat and the language the texts are read in (as the API decides
    it, pbem/api/reader.py: the request's ``?lang=``, the seat's, the
    request's ``Accept-Language``, the game's), and for a stream with chat
    (chat after, the number of messages said); else a 4xx."""
    after, chat_after, token, ticket = where_from(request)
    ticket_seat = check_ticket(request.app[SECRET], ticket, game_id) if ticket is not None else None
    pipe = request.app[REDIS].pipeline(transaction=True)  # one step: the keys, or the archive that replaced them
    pipe.hgetall(key(game_id, "meta"))
    pipe.hgetall(key(game_id, "seats"))
    pipe.get(key(game_id, "archive"))
    pipe.get(key(game_id, "extra"))
    if chat_after is not None:
        pipe.xlen(key(game_id, chat_store.CHAT))  # message n is entry n of the chat's stream
    raw_meta, raw_seats, raw_archive, raw_extra, *said = await pipe.execute()
    if not raw_meta:
        raise NotFound("unknown_game", _("no game {game}", game=repr(game_id)))
    archive = decode_archive(raw_archive) if raw_archive else None
    seats = archive.decoded_seats() if archive is not None else decode_seats(raw_seats)
    viewer = seat_of_token(seats, token) if token is not None else ticket_seat
    if token is not None and ticket is not None and viewer != ticket_seat:
        # Clients that keep Authorization on the API's 307 send both: fine
        # when they name one seat.
        raise Unauthorized("bad_ticket", _("the ticket and the bearer token are for different seats"))
    if raw_extra:  # a compacted game's long meta fields
        raw_meta = {**raw_meta, **decode_extra(raw_extra)}
    meta = decode_meta(raw_meta)
    lang = (language_of(request.query.get("lang")) or language_of((seats.get(viewer) or {}).get("lang"))
            or best_language(request.headers.get("Accept-Language")) or game_language(meta))
    chat = None if chat_after is None else (chat_after, int(said[0]))
    return meta, viewer, after, archive, names_of(seats, int(meta["players"])), lang, chat


async def options(request: web.Request) -> web.Response:
    """CORS preflight (a page that sends Authorization or Last-Event-ID itself)."""
    headers = cors(request)
    if "Access-Control-Allow-Origin" in headers:
        headers.update({"Access-Control-Allow-Methods": "GET, OPTIONS",
                        "Access-Control-Allow-Headers": "Authorization, Last-Event-ID, Cache-Control",
                        "Access-Control-Max-Age": "600"})
    return web.Response(status=204, headers=headers)


async def stream(request: web.Request) -> web.StreamResponse:
    game_id = request.match_info["game_id"]
    headers = cors(request)
    with reading(asked_language(request)):  # its errors read the language the request asks for
        try:
            meta, viewer, after, archive, names, lang, chat = await identify(request, game_id)
        except ServiceError as err:
            return error(err, headers)
        except (RedisConnectionError, RedisTimeoutError, OSError) as err:
            log.warning("redis unavailable: %s", err)
            return error(Unavailable("store_unavailable", _("the game store is unreachable; try again shortly")),
                         {**headers, "Retry-After": "2"})
    with reading(lang):  # every event's text, caught up or live, for this reader
        return await _send(request, game_id, headers, meta, viewer, after, archive, names, lang, chat)


async def _send(request: web.Request, game_id: str, headers: dict, meta: dict, viewer, after: int,
                archive: Archive | None, names: list, lang: str, chat=None) -> web.StreamResponse:
    resp = web.StreamResponse(headers={**headers, "Content-Type": "text/event-stream; charset=utf-8",
                                       "Cache-Control": "no-cache", "X-Accel-Buffering": "no",
                                       "Content-Language": lang})
    await resp.prepare(request)
    await resp.write(sse.RETRY)
    game = game_of(meta)
    if meta.get("status") == "finished":
        # Public now: everything missed, then the end.
        try:
            await catch_up(request, resp, game_id, game, viewer, True, after, int(meta["version"]), archive, names)
            await resp.write(sse.end_frame(int(meta["version"]), meta.get("result")))
        except (ConnectionResetError, RedisConnectionError, RedisTimeoutError) as err:
            log.info("stream of %s ended: %s", game_id, err)
        return resp
    hub = request.app[HUB]
    chat_after, said = chat if chat is not None else (None, 0)
    sub = hub.subscribe(game_id, meta, viewer, after, names, chat_after, said)
    try:
        sub.sent = await catch_up(request, resp, game_id, game, viewer, False, after, sub.upto, names=names,
                                  chat=chat_after)
        if chat_after is not None:
            sub.chat = await catch_up_chat(request, resp, game_id, viewer, sub.sent, chat_after, sub.chat_upto, names)
        while True:
            item = await sub.queue.get()
            if item is CLOSE:
                break
            if item is KEEPALIVE:
                await resp.write(sse.KEEPALIVE)
                continue
            data = sub.take_chat(item) if isinstance(item, ChatBatch) else sub.take(item)
            if data:
                await resp.write(data)
            if item.end:
                await resp.write(sse.end_frame(item.last, item.result))
                break
    except (ConnectionResetError, RedisConnectionError, RedisTimeoutError) as err:
        log.info("stream of %s ended: %s", game_id, err)  # the client reconnects with Last-Event-ID
    finally:
        hub.unsubscribe(game_id, sub)
    return resp


async def catch_up(request, resp, game_id: str, game, viewer, finished: bool, after: int, upto: int,
                   archive: Archive | None = None, names=None, chat: int | None = None) -> int:
    """Send the log's events in ``(after, upto]`` (read in pages, from the
    archive for a compacted game) as ``viewer`` may see them (on a stream
    with chat, their ids name ``chat`` too); returns the last version sent
    (or ``after``)."""
    client = request.app[REDIS]
    sent = after
    while sent < upto:
        if archive is not None:
            rows = archive.rows(sent, upto, PAGE)
        else:
            rows = decode_log(await client.xrange(key(game_id, "log"), f"{sent + 1}-0", f"{upto}-1", count=PAGE))
        if not rows and archive is None and finished:
            # Compacted since the meta was read: the archive has the rest.
            raw = await client.get(key(game_id, "archive"))
            if raw:
                archive = decode_archive(raw)
                continue
        if not rows:
            break
        frames = (sse.event_frame(item) for item in shown_events(game, viewer, finished, rows, names))
        if chat is not None:
            frames = (sse.with_id(frame, item_version(frame), chat) for frame in frames)
        await resp.write(b"".join(frames))
        sent = rows[-1][0]
    return sent


def item_version(frame: bytes) -> int:
    """The version an event frame's id line names (``id: <version>``)."""
    return int(frame[4:frame.index(b"\n")])


async def catch_up_chat(request, resp, game_id: str, viewer, version: int, after: int, upto: int, names) -> int:
    """Send the chat's messages in ``(after, upto]`` that ``viewer`` may
    read (filtered as ``GET /chat`` filters them), each frame's id the game
    version sent and its number; returns the last number passed (or ``after``)."""
    sent = after
    while sent < upto:
        raw = await request.app[REDIS].xrange(key(game_id, chat_store.CHAT), f"{sent + 1}-0", f"{upto}-1", count=PAGE)
        if not raw:
            break
        out = []
        for rid, fields in raw:
            m = chat_store.message(int(rid.split(b"-")[0]), fields)
            if readable_chat(m, viewer):
                m["name"] = names[m["seat"]] if m["seat"] < len(names) else None
                out.append(sse.chat_frame(version, m["n"], sse.chat_body(m)))
            sent = m["n"]
        await resp.write(b"".join(out))
    return sent


async def health(request: web.Request) -> web.Response:
    hub = request.app[HUB]
    try:
        up = bool(await request.app[REDIS].ping())
    except Exception:
        up = False
    return web.json_response({"status": "ok", "redis": up, "streams": hub.subscribers, "games": len(hub.games)})


def create_app(conf: Settings | None = None, secret: bytes | None = None) -> web.Application:
    conf = conf or load_settings()
    if not conf.redis_url:
        raise RuntimeError("REDIS_URL is not set")
    app = web.Application()
    app[CONF] = conf
    app[SECRET] = secret if secret is not None else NotifySettings().secret()
    app[ORIGINS] = frozenset(conf.allowed_origins())
    app.on_response_prepare.append(secure)

    async def redis_and_hub(app):
        app[HUB] = hub = Hub.for_url(conf.redis_url, keepalive_s=conf.stream_keepalive_s)
        app[REDIS] = hub.client  # the stream handlers' short reads share the hub's pool
        await hub.start()
        yield
        await hub.close()

    async def end_streams(app):
        # On shutdown every stream ends now rather than at the shutdown
        # timeout; clients reconnect (with Last-Event-ID) to the next process.
        for w in list(app[HUB].games.values()):
            for sub in list(w.subs):
                sub.close()
        await asyncio.sleep(0)

    app.cleanup_ctx.append(redis_and_hub)
    app.on_shutdown.append(end_streams)
    app.router.add_get("/games/{game_id}/events/stream", stream, allow_head=False)  # HEAD would hold a stream
    app.router.add_route("OPTIONS", "/games/{game_id}/events/stream", options)
    app.router.add_get("/health", health)
    return app


def main() -> None:
    check_environment("pbem-stream")
    logs.setup("stream", logging.WARNING)
    conf = load_settings()
    app = create_app(conf)
    port = conf.stream_bind_port()
    print(f"pbem: event streams on http://{conf.host}:{port} (public URL {conf.stream_base_url()})", flush=True)
    # handler_cancellation: a client that goes away cancels its handler at
    # once, so its subscription ends with it (not at the next keep-alive).
    web.run_app(app, host=conf.host, port=port, handler_cancellation=True, shutdown_timeout=2,
                backlog=2048, access_log=None, print=None)
    sys.exit(0)
