"""Request and response schemas. Strict: unknown fields are refused and
numbers are never coerced (``2.5`` is not an integer, ``"2"`` is not either);
every string field of a request is one line (``one_line``)."""
from __future__ import annotations

import re

import marshmallow as ma
from marshmallow import fields, validate

from ..invisible import first_invisible_format
from ..notify.store import DEFAULT_ACTIONS


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


def Int(**kw):
    return fields.Integer(strict=True, **kw)


def ref(name: str, **metadata) -> dict:
    """Metadata for a free-form field documented by a component schema
    (pbem/api/record_schemas.py): the answer is passed through as it is, the
    document points at the schema."""
    return {"allOf": [{"$ref": f"#/components/schemas/{name}"}], **metadata}


class QueryInteger(fields.Integer):
    """An integer in a query string, which is always text: "12" is read as
    12; "2.5", "1e3", " 12" and non-ASCII digits are refused. (JSON bodies
    use ``Int``: strict, a JSON number that is an integer.)"""

    _DIGITS = re.compile(r"-?[0-9]{1,15}")

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not self._DIGITS.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def QueryInt(**kw):
    """Every integer of a query schema (never ``Int``, which would refuse "12")."""
    return QueryInteger(**kw)


#: What a one-line field may not hold: C0 and C1 controls (CR, LF, NUL, TAB,
#: ESC...), Unicode's line and paragraph separators, and lone surrogates.
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def one_line(value: str) -> None:
    """A validator for names, titles, addresses, nonces: text that may end
    up in a mail header (a Subject, a From display name) or a log line, so a
    line break there could start a header or a line of its own, and an
    invisible format character (Unicode Cf but ZWJ/ZWNJ, pbem/invisible.py)
    could reorder or hide what is shown."""
    if not isinstance(value, str):
        return
    bad = _NOT_ONE_LINE.search(value)
    if bad:
        raise ma.ValidationError(f"U+{ord(bad.group()):04X} (a control character, line break or lone "
                                 "surrogate) is not allowed in this field")
    invisible = first_invisible_format(value)
    if invisible:  # a bidirectional control would reorder what follows it in a mail's subject
        raise ma.ValidationError(f"U+{ord(invisible):04X} (an invisible format character, such as a "
                                 "bidirectional control) is not allowed in this field")


def Line(*, validate=(), **kw):
    """A one-line string field (``one_line`` and the given validators)."""
    return fields.String(validate=[one_line, *_listed(validate)], **kw)


def _listed(validators) -> list:
    return list(validators) if isinstance(validators, (list, tuple)) else [validators]


# -- languages ---------------------------------------------------------------

_LANG_DOC = ("`en` (English) or `zh-Hant` (Traditional Chinese); other tags for them are read too "
             "(`zh`, `zh-TW`, `zh-HK`, `en-GB`, `中文`...) and stored as one of the two; another is `422 "
             "unknown_language`")
_TZ_DOC = ("an IANA time zone (`Asia/Taipei`, `Europe/London`) times are shown in; else the language's usual "
           "one (`zh-Hant`: Asia/Taipei, `en`: UTC); another is `422 unknown_time_zone`")


def Lang(description: str, **kw):
    return Line(validate=validate.Length(1, 35), metadata={"description": f"{description}: {_LANG_DOC}"}, **kw)


def Zone(description: str, **kw):
    return Line(validate=validate.Length(1, 64), metadata={"description": f"{description}: {_TZ_DOC}"}, **kw)


class ReaderQuery(Strict):
    """What every query of a read takes besides its own: the reader's language."""
    lang = fields.String(validate=validate.Length(1, 35), metadata={
        "description": "the language of the answer's texts (`en`, `zh-Hant`, or any tag for them); it wins over "
                       "the seat's own language and `Accept-Language`. An unknown one is ignored"})


# -- errors ----------------------------------------------------------------


class ErrorBody(Strict):
    code = fields.String(required=True, metadata={
        "description": "stable machine-readable code: every one is listed in the API description and, with "
                       "the games' own codes, in `x-error-codes` at the top of this document"})
    message = fields.String(required=True, metadata={"description": "what went wrong, for a person"})
    status = Int(required=True)
    details = fields.Dict(metadata={"description": "code-specific details (field errors, legal moves...)"})


class ErrorSchema(Strict):
    error = fields.Nested(ErrorBody, required=True)


# -- games -----------------------------------------------------------------


class DeadlineSettings(Strict):
    turn_seconds = Int(required=True, allow_none=True, validate=validate.Range(1, 90 * 86400),
                       metadata={"description": "time for each turn; null: no deadline"})
    reminder_seconds = Int(load_default=0, validate=validate.Range(0, 90 * 86400),
                           metadata={"description": "remind this long before the deadline (0: no reminder)"})
    default_action = Line(load_default="pass", validate=validate.OneOf(DEFAULT_ACTIONS),
                                   metadata={"description": "what happens at the deadline"})


class Invite(Strict):
    email = Line(required=True, validate=validate.Length(3, 254))
    seat = Int(load_default=None, allow_none=True, validate=validate.Range(0, 99), metadata={
        "description": "the seat to keep for the invitee (default: the first seat neither taken nor invited)"})
    name = Line(load_default=None, allow_none=True, validate=validate.Length(1, 64), metadata={
        "description": "the invitee's name: the seats list shows the seat as invited with this name (never the "
                       "address)"})
    lang = Lang("the language the invitation is written in and the seat reads once taken (default: the "
                "game's)", load_default=None, allow_none=True)
    tz = Zone("the invitee's time zone, kept with the seat", load_default=None, allow_none=True)


def invitation_list(deprecated: bool = False):
    """The list of invitations of a request body: ``invitations`` on both
    operations that take one; each also reads the name it had before
    (deprecated: ``merge_invitations``)."""
    if deprecated:
        return fields.List(fields.Nested(Invite), load_default=None, validate=validate.Length(0, 16),
                           metadata={"deprecated": True,
                                     "description": "deprecated: the old name of `invitations` (send one of the two)"})
    return fields.List(fields.Nested(Invite), load_default=None, validate=validate.Length(0, 16),
                       metadata={"description": "seats to invite by email: each is kept for its invitee (others "
                                                "get `409 seat_invited`) until it is taken, withdrawn or expires "
                                                "(`PBEM_INVITATION_TTL_S`)"})


def merge_invitations(data: dict, alias: str, required: bool = False) -> dict:
    """``invitations`` from either name; both at once is ambiguous."""
    new, old = data.pop("invitations", None), data.pop(alias, None)
    if new is not None and old is not None:
        raise ma.ValidationError(f"send `invitations` or its deprecated name `{alias}`, not both", "invitations")
    merged = new if new is not None else old
    if merged is None and required:
        raise ma.ValidationError("Missing data for required field.", "invitations")
    data["invitations"] = merged or []
    return data


class CreateGame(Strict):
    game = Line(required=True, validate=validate.Length(1, 64),
                metadata={"description": "a name from GET /game-types"})
    players = Int(required=True, validate=validate.Range(1, 16), metadata={"description": "number of seats"})
    options = fields.Dict(keys=Line(), load_default=dict)
    title = Line(load_default="", validate=validate.Length(0, 120),
                 metadata={"description": "one line, no control or invisible format characters"})
    deadline = fields.Nested(DeadlineSettings, load_default=None, allow_none=True,
                             metadata={"description": "turn deadline, reminder and default action"})
    lang = Lang("the game's language, which its seats read unless they choose their own (default `en`)",
                load_default=None, allow_none=True)
    invitations = invitation_list()
    invite = invitation_list(deprecated=True)
    open = fields.Boolean(load_default=False, metadata={
        "description": "open the game to anyone: it is listed by GET /games (`?status=open` while seats are "
                       "free) and on the lobby page, where anyone joins a free seat. A game not opened is never "
                       "listed to strangers: only its link, its invitations or a key that holds a seat reach it"})
    bots_after_s = Int(load_default=None, allow_none=True, validate=validate.Range(60, 30 * 86400), metadata={
        "description": "fill the seats still empty (not invited) with bots after this many seconds (at "
                       "`bots_level`; docs/bots.md); `422 no_bots` for a game type without bots"})
    bots_level = Line(load_default=None, allow_none=True, validate=validate.Length(1, 32), metadata={
        "description": "the level of the bots that fill the empty seats after `bots_after_s`: `random`, "
                       "`greedy` (the default) or `search`; `422 unknown_bot_level` for another"})
    bots = fields.Dict(keys=fields.String(validate=validate.Length(1, 3)), values=Line(validate=validate.Length(1, 32)),
                       load_default=dict, metadata={
                           "description": "seats played by the server's bots and their levels, e.g. "
                                          "`{\"1\": \"search\"}` (levels: `random`, `greedy`, `search`); a bot "
                                          "seat is taken at once, named \"Bot (level)\" and marked `bot`"})

    @ma.post_load
    def _invitations(self, data, **kwargs):
        return merge_invitations(data, "invite")


class ListGamesQuery(ReaderQuery):
    status = fields.String(validate=validate.OneOf(["open", "active", "finished"]), metadata={
        "description": "only the games with this status: `open` (seats free: nobody dealt yet), `active`, "
                       "`finished`"})
    player = fields.String(validate=validate.Length(1, 100), metadata={
        "description": "only the games where this Ed25519 public key (unpadded base64url, as joined with) "
                       "holds a seat, last joined first"})
    offset = QueryInt(load_default=0, validate=validate.Range(0, 100_000))
    limit = QueryInt(load_default=50, validate=validate.Range(1, 200))


class SeatInvitation(Strict):
    name = fields.String(allow_none=True, metadata={"description": "the name the inviter gave (null: none)"})
    expires = fields.Float(allow_none=True, metadata={"description": "Unix time the reservation ends (null: never)"})


class SeatSummary(Strict):
    seat = Int()
    name = fields.String(allow_none=True)
    joined = fields.Boolean()
    lang = fields.String(metadata={"description": "the language the seat reads: its own, else the game's "
                                                 "(`en` or `zh-Hant`)"})
    tz = fields.String(allow_none=True, metadata={"description": "the seat's time zone (IANA), null when it chose "
                                                                 "none (its language's usual one)"})
    bot = fields.String(allow_none=True, metadata={"description": "a bot seat's level (`random`, `greedy`, "
                                                                  "`search`), null for a person"})
    handed_over = fields.String(allow_none=True, metadata={
        "description": "while its player has handed the seat to a bot for a while (`{\"handover\": ...}` moves, "
                       "docs/bots.md): that bot's level, and it plays for them; else null"})
    invited = fields.Nested(SeatInvitation, allow_none=True, metadata={
        "description": "while the game is open: the seat is kept for an invitation (only its invitee may take it), "
                       "else null"})


class GameMeta(Strict):
    id = fields.String()
    game = fields.String()
    rules_version = Int()
    title = fields.String()
    players = Int()
    options = fields.Dict()
    status = fields.String(metadata={"description": "open (seats free), active or finished"})
    lang = fields.String(metadata={"description": "the game's language (`en` or `zh-Hant`): a seat that chose "
                                                 "none reads it"})
    open = fields.Boolean(metadata={"description": "opened to anyone by its creator (`open: true`): listed to "
                                                   "strangers"})
    version = Int(metadata={"description": "number of events in the log; what a move names as expected_version"})
    created = fields.Float()
    seed_sha256 = fields.String(metadata={
        "description": "hex sha256 of the secret seed's 32 bytes (the decoded bytes, not its 64-character hex "
                       "text), published at creation; the seed is revealed once the game is over"})
    # Described, not referenced: a nullable field with a $ref loses its null in the generated schema.
    result = fields.Dict(allow_none=True, metadata={"description": "once the game is finished: a Result (see "
                                                                   "components), else null"})


class GameList(Strict):
    games = fields.List(fields.Nested(GameMeta))


class Links(Strict):
    events_stream = fields.String(metadata={"description": "the game's live event stream (server-sent events, "
                                                           "GET /games/{id}/events/stream), on the stream process"})


class GameSummary(GameMeta):
    links = fields.Nested(Links)
    seats = fields.List(fields.Nested(SeatSummary))
    viewer = Int(allow_none=True, metadata={"description": "who the caller is: the seat whose bearer token was "
                                                           "sent, or null (a spectator, no token)"})
    sees_all = fields.Boolean(metadata={"description": "true once the game is finished: everything is public, so "
                                                        "`view`, `board`, events and the record hide nothing from "
                                                        "anyone, and `seed` is revealed"})
    to_act = fields.List(Int())
    active = Int(allow_none=True, metadata={
        "description": "the seat whose turn of the round it is, where seats in `to_act` may owe a decision in "
                       "it (Carcassonne's dragon steps and bids, Cartoona's reactions); null where each seat to "
                       "act is in a turn of its own, or the game is not in play"})
    view = fields.Dict(allow_none=True, metadata={
        "description": "the game's state as the caller may see it (null while seats are open); each game's "
                       "fields, with an example, are in docs/views/<game>.md"})
    board = fields.String(allow_none=True, metadata={"description": "the same view as plain text"})
    seed = fields.String(metadata={"description": "the secret seed (64 hex digits for 32 bytes), revealed once "
                                                  "the game is over: sha256 of its bytes is `seed_sha256`"})


class CreatedGame(GameSummary):
    creator_token = fields.String(metadata={
        "description": "the creator's bearer token (invitations, the clock): shown once, keep it"})


class SignedRequest(Strict):
    """What a signed join and a token request share: when it was signed, and
    the signature (each over its own purpose string)."""
    issued_at = Int(required=True, validate=validate.Range(0, 10**11), metadata={
        "description": "Unix seconds; within `PBEM_SIGNED_REQUEST_WINDOW_S` of the server's clock"})
    signature = Line(required=True, validate=validate.Length(1, 200))


class JoinProof(SignedRequest):
    class Meta(Strict.Meta):
        description = (
            "A signed join: Ed25519, by the key joining, over the RFC 8785 JSON of `{game, seat, public_key, "
            "issued_at, purpose: \"pbem-join\"}` (unpadded base64url). With it a join repeated by the key that "
            "holds the seat (its first answer was lost) answers again with a new token.")


class JoinSeat(Strict):
    public_key = Line(required=True, validate=validate.Length(40, 48),
                      metadata={"description": "Ed25519 public key, unpadded base64url"})
    name = Line(required=True, validate=validate.Length(1, 64),
                metadata={"description": "one line, no control or invisible format characters"})
    email = fields.Email(load_default=None, allow_none=True, validate=one_line)
    webhook_url = fields.Url(load_default=None, allow_none=True, schemes={"http", "https"}, validate=one_line)
    invitation = Line(load_default=None, allow_none=True, validate=validate.Length(20, 140), metadata={
        "description": "the invitation's token (its link's last part, `/join/TOKEN`): takes a seat kept for it"})
    proof = fields.Nested(JoinProof, load_default=None, allow_none=True)
    lang = Lang("the seat's language: its mails, pages and texts through its token (default: its invitation's, "
                "else the game's)", load_default=None, allow_none=True)
    tz = Zone("the seat's time zone (default: its invitation's)", load_default=None, allow_none=True)


class SeatLanguage(Strict):
    class Meta(Strict.Meta):
        description = "A seat's language and/or time zone; what is not sent stays as it is."

    lang = Lang("the seat's language")
    tz = Zone("the seat's time zone")

    @ma.validates_schema
    def _something(self, data, **kwargs):
        if not data:
            raise ma.ValidationError("send lang, tz or both", "_schema")


class SeatLanguageSet(Strict):
    game = fields.String()
    seat = Int()
    lang = fields.String(metadata={"description": "the language the seat reads now"})
    tz = fields.String(allow_none=True, metadata={"description": "the seat's time zone, null: its language's usual "
                                                                 "one"})


class TokenRequest(SignedRequest):
    class Meta(Strict.Meta):
        description = (
            "A request for a new bearer token, signed by the seat's key: Ed25519 over the RFC 8785 JSON of "
            "`{game, seat, nonce, issued_at, purpose: \"pbem-seat-token\"}` (unpadded base64url). Each nonce "
            "is answered once; to ask again, sign a new request.")

    nonce = Line(required=True, validate=validate.Length(8, 128))


class SeatToken(Strict):
    game = fields.String()
    seat = Int()
    token = fields.String(metadata={"description": "the seat's new bearer token (shown once); the old one no longer "
                                                   "works"})


class Joined(Strict):
    game = fields.String()
    seat = Int()
    token = fields.String(metadata={"description": "bearer token for this seat's reads; shown once"})
    webhook = fields.Dict(metadata={"description": "the webhook registered from webhook_url, with its "
                                                   "whsec_ signing secret (shown once)"})


class GameType(Strict):
    name = fields.String()
    version = Int()
    title = fields.String()
    min_players = Int()
    max_players = Int()
    options = fields.List(fields.Dict())
    notation_help = fields.String()
    concurrency = fields.String(
        metadata={"description": "strict: a move stands only at the version it was signed at; window: while "
                                 "several seats answer one window, a move signed at any version since it opened"})
    concurrency_doc = fields.String(metadata={"description": "the game's concurrency rule in words"})


class GameTypes(Strict):
    games = fields.List(fields.Nested(GameType))


# -- moves -----------------------------------------------------------------


class Envelope(Strict):
    class Meta(Strict.Meta):
        description = (
            "A signed move. `signature` is Ed25519, by the key the seat joined with, over the RFC 8785 "
            "canonical JSON (JCS) of the other five fields, as unpadded base64url (64 bytes). The move's id "
            "is known before it is sent: the first 24 hex digits of sha256 of the UTF-8 text "
            "`game + \"\\0\" + str(player) + \"\\0\" + nonce` (a NUL between the three), e.g. game "
            "`abc`, player 1, nonce `n0nce-123` give sha256 of `abc\\x001\\x00n0nce-123`, whose first 24 "
            "hex digits are `3e107641d2088259b31a0e0b`. "
            "A nonce is used once per seat and game: after a network error or a 503 (the move may have "
            "been recorded just before the store went away, and is applied when it returns), read GET "
            "/games/{id}/moves/{move_id} with the id computed so (sending the envelope again answers 409 "
            "`nonce_reused`, naming the move in `details.move_id`). docs/record.md has more.")

    game = Line(required=True, validate=validate.Length(1, 64), metadata={
        "description": "the game id of the URL; signed, so a move cannot be replayed into another game"})
    player = Int(required=True, validate=validate.Range(0, 15), metadata={"description": "the seat that moves"})
    expected_version = Int(required=True, validate=validate.Range(0, 10**9), metadata={
        "description": "the game's version this move was made at (GET /games/{id} `version`)"})
    move = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "the move: one of GET /games/{id}/legal-moves `moves[].move`, or POST .../parse's, or a "
                       "takeback's `{\"takeback\": \"request\" | \"accept\" | \"refuse\"}` (GET /games/{id}/takeback)"})
    nonce = Line(required=True, validate=validate.Length(8, 128), metadata={
        "description": "unique per seat and game; names the move (see the schema's description); to retry "
                       "after a timeout or a 503, resend the same envelope"})
    signature = Line(required=True, validate=validate.Length(1, 200), metadata={
        "description": "Ed25519 over the RFC 8785 JSON of the other fields, unpadded base64url"})


class MoveError(Strict):
    code = fields.String()
    message = fields.String()
    details = fields.Dict()


class MoveRecord(Strict):
    """A move's status. What each caller gets: the mover (with the seat's
    token) and, once the game is finished, everyone get the whole record. A
    move the game withholds from the caller while it runs (Cartoona's
    face-down discards, blocks, secret thefts; Kachina's redraw answers) is
    shown as exactly ``id``, ``status``, ``submitted``, ``settled``,
    ``version_before``, ``version`` (when applied) and ``envelope_withheld``:
    no ``auth``, ``envelope`` nor ``error``, so a withheld rejected move says
    that it was rejected, not why (the reason could tell what it was)."""
    id = fields.String()
    status = fields.String(metadata={"description": "queued, applied or rejected, the same for every caller "
                                                    "(when rejected, `error` says why to whoever may see the move: "
                                                    "`stale_version` when another move got in first)"})
    auth = fields.String(metadata={"description": "how the move was authenticated: ed25519, mail-token, mail-link, "
                                                  "deadline, setup, ... (absent when the move is withheld)"})
    envelope = fields.Dict(metadata=ref("StoredEnvelope", description=(
        "the move as submitted; absent when withheld from the caller (then `envelope_withheld`)")))
    envelope_withheld = fields.Boolean(metadata={
        "description": "true when the game withholds this move from the caller while it runs (a face-down "
                       "discard, a secret theft, a redraw answer...): the record then holds only id, status, "
                       "submitted, settled, version_before, version (when applied) and this; never sent to the "
                       "mover (with the seat's token) nor once the game is finished"})
    submitted = fields.Float()
    settled = fields.Float()
    version_before = Int(metadata={"description": "the game's version when the move was decided (once settled)"})
    version = Int(metadata={"description": "the game's version once applied"})
    error = fields.Nested(MoveError, metadata={
        "description": "why a rejected move was rejected: sent to the mover (with the seat's token) always, to "
                       "other callers only when the move is not withheld from them (`envelope_withheld`), as "
                       "the reason could tell what a withheld move was"})


class BoardQuery(ReaderQuery):
    board = fields.String(load_default="part", validate=validate.OneOf(["part", "whole"]), metadata={
        "description": "`part` (default): `board` shows what matters now in at most 80 columns (Carcassonne: the "
                       "window around the last tile); `whole`: all of the board"})


class MoveStatusQuery(ReaderQuery):
    wait = QueryInt(load_default=0, validate=validate.Range(0, 60),
               metadata={"description": "seconds to wait for the move to settle"})


class LegalMove(Strict):
    move = fields.Dict()
    text = fields.String(metadata={"description": "the move in the game's text notation"})


class LegalMoves(Strict):
    version = Int()
    seat = Int()
    to_act = fields.Boolean()
    moves = fields.List(fields.Nested(LegalMove))


class ParseRequest(Strict):
    text = Line(required=True, validate=validate.Length(1, 500), metadata={"description": "one move, one line"})


class Parsed(Strict):
    move = fields.Dict()
    text = fields.String()
    version = Int()


class EventsQuery(ReaderQuery):
    after = QueryInt(load_default=0, validate=validate.Range(0, 10**9))
    limit = QueryInt(load_default=100, validate=validate.Range(1, 1000))


class EventItem(Strict):
    version = Int()
    move_id = fields.String()
    event = fields.Dict(metadata=ref("Event", description=(
        "the event as the caller may see it: the common frame, plus the game's own fields")))
    text = fields.String(metadata={"description": "the event in words, for the caller"})


class EventPage(Strict):
    version = Int()
    events = fields.List(fields.Nested(EventItem))
    next_after = Int(allow_none=True)


class StreamQuery(ReaderQuery):
    after = QueryInt(validate=validate.Range(0, 10**9),
                     metadata={"description": "start after this version (default 0); a Last-Event-ID header wins"})
    ticket = fields.String(validate=validate.Length(1, 200),
                           metadata={"description": "a seat's stream ticket (POST /games/{id}/seats/{seat}/ticket), "
                                                    "for clients that cannot send a header (a browser's EventSource)"})
    chat = QueryInt(validate=validate.Range(0, 10**9),
                    metadata={"description": "also carry the game's chat after this message number (`event: chat`, "
                                             "ids `<version>:<n>`; docs/chat.md)"})


class TicketRequest(Strict):
    ttl_s = Int(load_default=300, validate=validate.Range(10, 3600),
                metadata={"description": "how long the ticket opens streams, in seconds (default 300)"})


class Ticket(Strict):
    game = fields.String()
    seat = Int()
    ticket = fields.String(metadata={"description": "opens this seat's event stream as ?ticket= until it expires"})
    expires = Int(metadata={"description": "Unix time (seconds) after which the ticket opens no stream"})
    stream_url = fields.String(metadata={"description": "the seat's event stream URL, ticket included"})


class StateAt(Strict):
    version = Int()
    to_act = fields.List(Int())
    view = fields.Dict()
    text = fields.String()


class Health(Strict):
    status = fields.String()
    redis = fields.Boolean()


class Noop(Strict):
    ok = fields.Boolean()


class Ready(Strict):
    status = fields.String(metadata={"description": "`ready` or `not_ready`"})
    checks = fields.Dict(keys=fields.String(), values=fields.Dict(), metadata={"description": (
        "each check (`redis`, `workers`: the move workers reporting within 30 s, `queue`: the oldest "
        "queued move's age against `PBEM_READY_MAX_QUEUE_AGE_S`) with `ok` and what it saw")})
