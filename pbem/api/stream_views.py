"""The API's side of the live event stream. Streams are served by the
stream process (pbem/stream), never by a gunicorn thread; here are only
the documented path, which answers 307 to that process, the link to it
in a game's summary, and the tickets that open a seat's stream from a
browser (whose EventSource cannot send a bearer token)."""
from __future__ import annotations

from flask import Response
from flask.views import MethodView

from ..errors import Unauthorized
from ..games.base import SPECTATOR
from ..trust.tickets import check_ticket, make_ticket
from . import schemas as s
from . import security as sec
from .common import bearer, secret, service, stream_url
from .parsing import Blueprint
from ..games.i18n import _

stream_bp = Blueprint("streams", __name__, url_prefix="/games", description="The live event stream")

#: How long the ticket put into a 307 for a bearer caller lives: it is used
#: at once, by the redirected request.
REDIRECT_TICKET_S = 60

STREAM_DOC = """\
The game's log as it grows, as server-sent events (`text/event-stream`), from the stream
process (`PBEM_STREAM_URL`; `links.events_stream` in `GET /games/{id}` names it). This path
on the API answers `307` to the same path there, query kept; a bearer token sent here comes
back as a short-lived `ticket` in that URL, since clients drop `Authorization` on a redirect
to another origin. Behind the documented nginx routing the stream process answers directly.

Who is asking: nobody (a spectator), `Authorization: Bearer <seat token>`, or
`?ticket=` (see `POST /games/{id}/seats/{seat}/ticket`). Where to start: the
`Last-Event-ID` header, else `?after=`, else 0.

The stream first sends every event after that point, then each new one as it is
appended, in order, none skipped or repeated:

    id: 12
    event: event
    data: {"event": {...}, "move_id": "...", "text": "...", "version": 12}

`id` is the game version (so a reconnecting EventSource resumes after it) and `data` is an
item of `GET /games/{id}/events` for the same caller: redacted for them while the game runs,
public once it is over. When the game is over: `event: end` with
`data: {"status": "finished", "version": N, "result": {...}}`, and the stream closes (close
the EventSource on `end`, or it reconnects). A comment line (`: keep-alive`) comes every
`PBEM_STREAM_KEEPALIVE_S` (15) seconds on an idle stream. A client that falls far behind is
disconnected and catches up by reconnecting with `Last-Event-ID`.

Errors before the stream starts are in the one error format: `401` (`bad_token`,
`bad_ticket`, `ticket_expired`), `404` (`unknown_game`), `422` (a bad `after`, `chat` or
`Last-Event-ID`, an unknown query parameter).

With `?chat=<n>` the stream also carries the players' chat after message `n`, each message
as `GET /games/{id}/chat` lists it for the same caller (`event: chat`), and every frame's
`id` is then `<version>:<n>` (the last version and the last message sent), so
`Last-Event-ID` resumes both; the events' data and versions are unchanged (docs/chat.md). The stream process sends CORS headers for the
origins in `PBEM_STREAM_ORIGINS` (default: the API's public origin)."""


@stream_bp.route("/<game_id>/events/stream")
class EventStreamView(MethodView):
    @sec.declare(stream_bp, sec.OPTIONAL_SEAT)
    @stream_bp.arguments(s.StreamQuery(), location="query")
    @stream_bp.response(307, description="to the same path on the stream process (`Location`), query kept; "
                                          "a bearer token sent here becomes a `ticket` in that query",
                        headers={"Location": {"description": "the stream's URL", "schema": {"type": "string"}}})
    @stream_bp.alt_response(200, content_type="text/event-stream",
                            description="server-sent events, from the stream process (see above)",
                            success=True)
    @stream_bp.doc(summary="The live event stream (server-sent events)", description=STREAM_DOC)
    def get(self, query, game_id):
        service_ = service()
        service_.meta(game_id)  # 404 for an unknown game, here as there
        token = bearer()
        viewer = service_.viewer(game_id, token) if token is not None else SPECTATOR
        if viewer is not SPECTATOR:
            # Checked as the stream process checks the pair: both may come, for one seat.
            if "ticket" in query and check_ticket(secret(), query["ticket"], game_id) != viewer:
                raise Unauthorized("bad_ticket", _("the ticket and the bearer token are for different seats"))
            query.setdefault("ticket", make_ticket(secret(), game_id, viewer, REDIRECT_TICKET_S)[0])
        return Response(status=307, headers={"Location": stream_url(game_id, query), "Cache-Control": "no-store"})


@stream_bp.route("/<game_id>/seats/<int:seat>/ticket")
class TicketView(MethodView):
    @sec.declare(stream_bp, sec.SEAT)
    @stream_bp.arguments(s.TicketRequest(), required=False)
    @stream_bp.response(200, s.Ticket)
    def post(self, body, game_id, seat):
        """A ticket for this seat's event stream

        The ticket opens the seat's event stream as `?ticket=` (for a browser's
        EventSource, which sends no headers): an HMAC with the server's secret
        over (game, seat, expiry), so nothing is stored. Only that seat's bearer
        token gets one. It is checked when a stream opens; once it has expired,
        ask for another before reconnecting."""
        viewer = service().seat_viewer(game_id, seat, bearer())
        ticket, expires = make_ticket(secret(), game_id, viewer, (body or {}).get("ttl_s", 300))
        return {"game": game_id, "seat": viewer, "ticket": ticket, "expires": expires,
                "stream_url": stream_url(game_id, {"ticket": ticket})}


def register(api) -> None:
    api.register_blueprint(stream_bp)
