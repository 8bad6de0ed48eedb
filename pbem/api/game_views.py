"""The game views: health, game types, games, seats, views, the log, moves.
Thin: read the request, call the service, answer (see ``common`` for what
views share; ``app`` assembles them)."""
from __future__ import annotations

from flask import Response, current_app, g, request
from flask.views import MethodView

from .. import games
from ..telemetry import metrics
from ..errors import ServiceError, Unprocessable
from ..games.base import GameError
from ..mail_in import invites, subscriptions
from ..service.common import chosen_language, preferences
from ..service import bots as bot_seats
from . import limits, record_schemas
from . import schemas as s
from . import security as sec
from .common import (bearer, check_deadline, check_webhook_url, count_invitations, links, register_webhook,
                     save_deadline_settings, secret, service, settings, take_invitation_slots, without_texts)
from .parsing import Blueprint
from ..games.i18n import _


def create_game(body: dict) -> dict:
    """A new game with, optionally, its deadline settings and email
    invitations; everything is checked before anything is stored."""
    invitations = body["invitations"]
    if body["bots_after_s"] is not None:
        bot_seats.check_fill(body["game"], body["bots_level"])
    chosen_language(body["lang"])  # every choice checked before anything is counted or stored
    for item in invitations:
        preferences(item.get("lang"), item.get("tz"))
    invited = [i["seat"] for i in invitations if i.get("seat") is not None]
    if any(not 0 <= seat < body["players"] for seat in invited) or len(set(invited)) != len(invited):
        raise Unprocessable("bad_invite", _("invited seats must be distinct seats of the game"))
    if len(invitations) > body["players"]:
        raise Unprocessable("bad_invite", _("more invitations than seats"))
    for item in invitations:
        invites.check_email(item["email"])
    if body["deadline"]:
        check_deadline(body["deadline"])
    bots = bot_seats.check_bots(body["game"], body["players"], body["bots"], invited)
    if bots:
        service().check_new_game(body["game"], body["players"], body["options"])
    if invitations:
        # The caller is the creator: no credential, but the client address's
        # hourly allowance (counted last, when nothing else can refuse).
        service().check_new_game(body["game"], body["players"], body["options"])
        take_invitation_slots(None, len(invitations))
    game = service().create_game(body["game"], body["players"], body["options"], body["title"], lang=body["lang"],
                                 listed=body["open"])
    if body["deadline"]:
        save_deadline_settings(game["id"], body["deadline"], "creator")
    if body["open"]:
        subscriptions.enqueue_announcement(service().store.redis, game["id"])  # to its type's subscribers
    if invitations:
        count_invitations(game["id"], len(invitations))
        invites.invite(service(), game["id"], invitations)
        game = {**game, "seats": service().seat_rows(game["id"], game["players"], "open", {}, game)}
    if body["bots_after_s"] is not None:
        bot_seats.fill_later(service().store.redis, game["id"], body["bots_after_s"],
                             bot_seats.check_fill(body["game"], body["bots_level"]))
    if bots:
        bot_seats.seat_bots(service(), game["id"], bots, game["lang"])
        game = {**game, **{k: v for k, v in service().get_game(game["id"], None, board=False).items()
                           if k in ("seats", "status", "version")}}
    return game


def prefer_wait() -> float:
    """Seconds asked for by ``Prefer: wait=N`` (RFC 7240), capped."""
    for part in request.headers.get("Prefer", "").split(","):
        name, _eq, value = part.strip().partition("=")
        if name.strip().lower() == "wait":
            try:
                return max(0.0, min(float(value), float(current_app.config["PBEM_MAX_WAIT"])))
            except ValueError:
                return 0.0
    return 0.0


ops = Blueprint("ops", __name__, description="Health, game types and the benchmark's no-op")
games_bp = Blueprint("games", __name__, url_prefix="/games", description="Games, seats, views and the log")
moves_bp = Blueprint("moves", __name__, url_prefix="/games", description="Signed moves and their outcomes")


@ops.route("/health")
class HealthView(MethodView):
    @sec.declare(ops, sec.NONE)
    @ops.response(200, s.Health)
    def get(self):
        return {"status": "ok", "redis": bool(service().store.redis.ping())}


@ops.route("/noop")
class NoopView(MethodView):
    @sec.declare(ops, sec.NONE)
    @ops.response(200, s.Noop)
    def post(self):
        """Does nothing: the baseline the pipeline benchmark compares against."""
        return {"ok": True}


@ops.route("/game-types")
class GameTypesView(MethodView):
    @sec.declare(ops, sec.NONE)
    @ops.response(200, s.GameTypes)
    def get(self):
        """Every registered game, with its options and text notation help
        (titles, docs and help in the reader's language)."""
        return {"games": [{"name": g.name, "version": g.version, "title": _(g.title) if g.title else g.name,
                           "min_players": g.min_players, "max_players": g.max_players,
                           "options": g.describe_options(),
                           "notation_help": _(g.notation_help) if g.notation_help else "",
                           "concurrency": g.concurrency, "concurrency_doc": _(g.concurrency_doc)}
                          for g in games.all_games()]}


@games_bp.route("")
class GamesView(MethodView):
    @sec.declare(games_bp, sec.NONE)
    @games_bp.arguments(s.ListGamesQuery(), location="query")
    @games_bp.response(200, s.GameList)
    def get(self, query):
        """List games, newest first (a player's: last joined first).

        Without `player`, only the games their creators opened to anyone
        (`open: true` at creation): a game not opened is never listed to
        strangers. `?status=open` lists those of them whose seats are still
        free (the game starts when every seat is taken). With `player` (an
        Ed25519 public key), the games where that key holds a seat, opened
        or not."""
        if query.get("player") is None:
            return {"games": service().public_games(query.get("status"), query["offset"], query["limit"])}
        return {"games": service().list_games(query.get("status"), query["offset"], query["limit"],
                                              player=query.get("player"))}

    @sec.declare(games_bp, sec.NONE)
    @limits.limited(games_bp, "create")
    @games_bp.arguments(s.CreateGame())
    @games_bp.response(201, s.CreatedGame)
    def post(self, body):
        """Create a game. Its seed stays secret; sha256(seed) is published now.
        The answer's `creator_token` (shown once) is the creator's credential:
        invitations, pausing the clock."""
        game = create_game(body)
        game["links"] = links(game["id"])
        return game, 201, {"Location": f"/games/{game['id']}"}


@games_bp.route("/<game_id>")
class GameView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.arguments(s.BoardQuery(), location="query")
    @games_bp.response(200, s.GameSummary)
    def get(self, query, game_id):
        """Status, version, whose turn, and the caller's own view (bearer token
        optional: without one, the spectator's view)."""
        out = service().get_game(game_id, bearer(), whole=query["board"] == "whole")
        out["links"] = links(game_id)
        return out, 200, {"ETag": f'"{out["version"]}"'}


@games_bp.route("/<game_id>/seats/<int:seat>")
class SeatView(MethodView):
    @sec.declare(games_bp, sec.NONE)
    @limits.limited(games_bp, "join")
    @games_bp.arguments(s.JoinSeat())
    @games_bp.response(201, s.Joined)
    def post(self, body, game_id, seat):
        """Take a seat with an Ed25519 public key. The game starts when every
        seat is taken. The bearer token (and, with a webhook_url, the
        webhook's signing secret) is shown once.

        A seat kept for an invitation (`seats[].invited` in GET /games/{id})
        is taken only with that invitation's token in `invitation`; anyone
        else gets `409 seat_invited`. A token of an invitation withdrawn or
        replaced is `401 bad_invitation`; one past `PBEM_INVITATION_TTL_S`,
        `401 invitation_expired`.

        **A join whose answer was lost**: send it signed (`proof`, see
        JoinProof). The same signed join sent again by the key that holds
        the seat answers 201 again with a new token (the seat's earlier
        token stops working; a webhook_url sent again gets a new secret); an
        unsigned one, or one by another key, is `409 seat_taken`. A key that
        lost its token later asks POST /games/{id}/seats/{seat}/token."""
        url = body["webhook_url"]
        if url:
            check_webhook_url(url)  # refused before anything is stored
        invitation = None
        if body["invitation"] is not None:
            invitation = invites.read_token(secret(), body["invitation"], game_id, seat)[2]
        joined = service().join(game_id, seat, body["public_key"], body["name"], body["email"], url,
                                invitation=invitation, proof=body["proof"],
                                window_s=settings().signed_request_window_s, lang=body["lang"], tz=body["tz"])
        if url:
            joined["webhook"] = register_webhook(game_id, seat, url)
        return joined

    @sec.declare(games_bp, sec.SEAT)
    @games_bp.arguments(s.SeatLanguage())
    @games_bp.response(200, s.SeatLanguageSet)
    def patch(self, body, game_id, seat):
        """Change the seat's language and/or time zone (only that seat's
        bearer token: `403 not_your_seat` for another's). What the seat
        reads from then on is in that language: its mails, its pages, and
        the texts of every answer to its token. A join or a new token at
        the same moment is not lost, nor is this change. `422
        unknown_language` / `unknown_time_zone` store nothing. (By mail: a
        reply with the line `lang zh` or `lang en`.)"""
        service().seat_viewer(game_id, seat, bearer())
        return service().set_seat_language(game_id, seat, lang=body.get("lang"), tz=body.get("tz"))


@games_bp.route("/<game_id>/seats/<int:seat>/token")
class SeatTokenView(MethodView):
    @sec.declare(games_bp, sec.NONE)
    @limits.limited(games_bp, "join")
    @games_bp.arguments(s.TokenRequest())
    @games_bp.response(200, s.SeatToken)
    def post(self, body, game_id, seat):
        """A new bearer token for a seat, asked by the key that holds it
        (signed: see TokenRequest; its signature is the credential). The
        seat's old token stops working. A nonce is answered once (`409
        nonce_reused` after): to ask again, sign a new request. `401
        bad_signature` (not this seat's key, or signed for something else,
        a move say), `401 request_expired` (`issued_at` too far from the
        server's clock), `409 seat_free` (nobody holds the seat), `403
        mail_only_seat` (joined by mail: it has no key)."""
        return service().seat_token(game_id, seat, body, window_s=settings().signed_request_window_s)


@games_bp.route("/<game_id>/seats/<int:seat>/view")
class SeatPrivateView(MethodView):
    @sec.declare(games_bp, sec.SEAT)
    @games_bp.arguments(s.BoardQuery(), location="query")
    @games_bp.response(200, s.GameSummary)
    def get(self, query, game_id, seat):
        """A seat's private view: only that seat's bearer token opens it."""
        return {**service().seat_view(game_id, seat, bearer(), whole=query["board"] == "whole"),
                "links": links(game_id)}


@games_bp.route("/<game_id>/legal-moves")
class LegalMovesView(MethodView):
    @sec.declare(games_bp, sec.SEAT)
    @games_bp.response(200, s.LegalMoves)
    def get(self, game_id):
        """The caller's legal moves now, as JSON and in text notation."""
        return service().legal_moves(game_id, bearer())


@games_bp.route("/<game_id>/parse")
class ParseView(MethodView):
    @sec.declare(games_bp, sec.SEAT)
    @limits.limited(games_bp, "parse", per_token=True)
    @games_bp.arguments(s.ParseRequest())
    @games_bp.response(200, s.Parsed)
    def post(self, body, game_id):
        """Read a move in the game's text notation, for the caller's seat."""
        return service().parse(game_id, bearer(), body["text"])


@games_bp.route("/<game_id>/events")
class EventsView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.arguments(s.EventsQuery(), location="query")
    @games_bp.response(200, s.EventPage)
    def get(self, query, game_id):
        """Events after a version, redacted for the caller (public once the game is over)."""
        return service().events(game_id, bearer(), query["after"], query["limit"])


@games_bp.route("/<game_id>/states/<int:version>")
class StateAtView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.response(200, s.StateAt)
    def get(self, game_id, version):
        """The state at any version (replay), redacted for the caller."""
        return service().state_at(game_id, bearer(), version)


@games_bp.route("/<game_id>/record")
class RecordView(MethodView):
    @sec.declare(games_bp, sec.OPTIONAL_SEAT)
    @games_bp.response(200, content_type="application/x-ndjson",
                       description="JSON lines: a header (RecordHeader), one line per step (RecordStep), and "
                                   "once the game is finished the end (RecordEnd)")
    @games_bp.doc(responses={"200": {"content": {"application/x-ndjson": {"schema": record_schemas.RECORD_LINE}}}})
    def get(self, game_id):
        """The whole signed log as JSON lines, verifiable offline (`pbem verify`).

        Each line is one JSON object: first the header (`"record": "pbem-game"`:
        the game, its options, the seats' public keys, `seed_sha256`, who asked),
        then one step per move in log order (`move_id`, `version_before`,
        `version_after`, `auth`, the `events`, and the `envelope` as signed), and,
        once the game is over, the end (`"end": true`, the revealed `seed`, the
        `result`). While the game runs, what the caller may not see is withheld
        (events' `secret`, some envelopes). docs/record.md has every field and
        how to verify a record offline: each signature, the seed, every draw."""
        lines = list(service().record_lines(game_id, bearer()))
        return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")


@moves_bp.route("/<game_id>/moves")
class MovesView(MethodView):
    @sec.declare(moves_bp, sec.NONE)
    @moves_bp.arguments(s.Envelope())
    @moves_bp.response(202, s.MoveRecord)
    @moves_bp.alt_response(200, schema=s.MoveRecord, description="settled within Prefer: wait=N")
    def post(self, envelope, game_id):
        """Submit a signed move. Answers 202 with the move's URL once it is
        queued; with `Prefer: wait=N` waits up to N seconds for the outcome.

        What can be told at once is answered at once: the schema (422
        `invalid_request`), the signature (401 `bad_signature`), the nonce (409
        `nonce_reused`), whose turn it is and whether the move is legal on the
        current state (422, the game's code). The move's id is known before
        sending (see the Envelope schema), and the answer's `Location` names it.

        **A stale move** (its `expected_version` is not the game's version) is
        refused in one of two ways, depending on timing:

        * at once, 409 `stale_version` (`details.version` is the game's
          version), when the server already sees the game has moved on;
        * after a 202, when another move was appended between this move's
          check and its turn in the queue (two seats racing, or a seat's
          moves sent back to back without waiting): the move's status then
          turns `rejected` with `error.code` `stale_version` (GET
          /games/{id}/moves/{move_id}, or this answer with `Prefer: wait=N`).

        Either way nothing was applied: read the game, and sign the move again
        at the new version with a new nonce. (A game whose `concurrency` is
        `window`, see GET /game-types, lets a move signed at an older version
        stand while its seat still answers the window open since then:
        several seats answering one reaction window, or Kachina's redraw.)

        **Retrying** after a timeout or a 503: send the same envelope (the
        same nonce), never a newly signed one. A `503 store_unavailable` or a
        timeout can come back for a move that was recorded just before the
        store went away, and is applied when it returns. A resent envelope
        whose move is known is `409 nonce_reused` with its `move_id` in
        `details`, whatever the game's status (even if that move ended the
        game): the first try was recorded, and its outcome is at
        `GET /games/{id}/moves/{move_id}`."""
        wait = prefer_wait()
        try:
            record = service().submit(game_id, envelope, wait=wait)
        except (ServiceError, GameError) as err:
            if metrics.on():
                metrics.count_refused(err.code, "submit")
            raise
        g.move_id = record["id"]
        without_texts()  # the record holds no text of this request's: its reader's language is not looked for
        if metrics.on():
            metrics.SUBMITTED.inc()
        headers = {"Location": f"/games/{game_id}/moves/{record['id']}"}
        if wait:
            headers["Preference-Applied"] = f"wait={int(wait)}"
            if record["status"] != "queued":
                return record, 200, headers
        return record, 202, headers


@moves_bp.route("/<game_id>/moves/<move_id>")
class MoveView(MethodView):
    @sec.declare(moves_bp, sec.OPTIONAL_SEAT)
    @moves_bp.arguments(s.MoveStatusQuery(), location="query")
    @moves_bp.response(200, s.MoveRecord)
    def get(self, query, game_id, move_id):
        """A move's status: queued, applied (with the new version) or rejected (code and message).

        Anyone may ask (a spectator without a token); the envelope is shown as
        the caller may see it. `?wait=N` waits up to N seconds for a queued
        move to settle. A move accepted with 202 can still be `rejected`:
        `stale_version` when another move got in first, or any of the game's
        codes when the state it was checked against changed."""
        return service().move_status(game_id, move_id, bearer(), min(query["wait"], current_app.config["PBEM_MAX_WAIT"]))
