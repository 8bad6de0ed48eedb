"""Typed errors of the service layer. The API turns each into one JSON error
format (``{"error": {"code", "message", "status", "details"}}``); the codes
are stable and documented.

A ``message`` is for a person: built where the error is raised, in the
reader's language (``pbem.games.i18n``: the edge that knows the reader set
it); an error raised without one reads its code's meaning from the
registry below, looked up in the catalogs."""
from __future__ import annotations

from .games.i18n import N_, _


class ServiceError(Exception):
    status = 400
    code = "bad_request"
    #: HTTP headers to answer with (a 429's Retry-After).
    headers: dict | None = None

    def __init__(self, code: str | None = None, message: str = "", **details):
        self.code = code or self.code
        self.message = message or meaning_of(self.code)
        self.details = details
        super().__init__(f"{self.code}: {self.message}")


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Unprocessable(ServiceError):
    status, code = 422, "unprocessable"


class TooManyRequests(ServiceError):
    status, code = 429, "too_many_requests"

    def __init__(self, message: str, retry_after: int, **details):
        super().__init__(self.code, message, retry_after=retry_after, **details)
        self.headers = {"Retry-After": str(retry_after)}


class Unavailable(ServiceError):
    status, code = 503, "unavailable"


# --------------------------------------------------------------------------
# The registry of error codes. Every code the server can answer with (or put
# in a rejected move's ``error``) is listed here or, for a game's own rules,
# in that game's ``error_codes`` (pbem/games/). docs/api.md's list and the
# OpenAPI document's are generated from these (``make errors``), and
# tests/test_error_codes.py scans the source so that a code raised anywhere
# but listed nowhere fails the suite.


from dataclasses import dataclass  # noqa: E402  (the registry is an appendix to the classes above)


@dataclass(frozen=True)
class Code:
    code: str
    #: HTTP statuses the code is answered with (empty: never an HTTP answer).
    statuses: tuple[int, ...]
    meaning: str
    #: True when it can be a rejected move's ``error.code`` (after a 202).
    rejected: bool = False


def _codes(*items: Code) -> dict[str, Code]:
    return {c.code: c for c in items}


CODES: dict[str, Code] = _codes(
    # -- the request itself
    Code("malformed_json", (400,), N_("the body is not valid JSON, or nests deeper than 64 levels "
         "(`details.max_depth`)")),
    Code("invalid_request", (422,), N_("the request does not match the schema (`details.fields` says where): "
         "a lone surrogate in any string, a control character or an invisible format character (a "
         "bidirectional control, a zero width space...; ZWJ and ZWNJ are allowed) in a one-line field...")),
    Code("body_too_large", (413,), N_("the body is larger than `PBEM_MAX_BODY` bytes")),
    Code("unsupported_media_type", (415,), N_("the body's Content-Type is not one this operation reads")),
    Code("method_not_allowed", (405,), N_("the path exists, the method does not (see the `Allow` header)")),
    Code("not_found", (404,), N_("no such path")),
    Code("bad_request", (400,), N_("a request the server cannot read otherwise (gunicorn's own: a NUL in a "
         "header, a bad HTTP version, conflicting lengths)")),
    Code("request_line_too_long", (414,), N_("(gunicorn) the request line is longer than 4 KB")),
    Code("headers_too_large", (431,), N_("(gunicorn) too many header fields, or one too large")),
    Code("expectation_failed", (417,), N_("(gunicorn) an `Expect` header it cannot meet")),
    Code("not_implemented", (501,), N_("(gunicorn) a transfer coding it does not support")),
    Code("unauthorized", (401,), N_("authentication failed (generic)")),
    Code("forbidden", (403,), N_("not allowed (generic)")),
    Code("conflict", (409,), N_("the request conflicts with the game's state (generic)")),
    Code("unprocessable", (422,), N_("the request is well formed but cannot be done (generic)")),
    Code("too_many_requests", (429,), N_("too many requests: an operation's rate limit for a client address or "
         "a token (`PBEM_LIMIT_*`: `details.limit`, `details.scope`), or invitations (`PBEM_INVITES_PER_HOUR` "
         "a game and a client address); see `Retry-After` and `details.retry_after`")),
    Code("http_error", (), N_("any other HTTP error, with its status")),
    Code("internal_error", (500,), N_("a bug in the server; nothing was changed")),
    Code("unavailable", (503,), N_("the service is unavailable; try again")),
    Code("store_unavailable", (503,), N_("the game store (Redis) is unreachable; try again after `Retry-After`")),
    # -- who is asking
    Code("missing_token", (401,), N_("this operation needs a bearer token: a seat's (or, where it says so, "
         "the game's creator token or the operator's)")),
    Code("bad_token", (401,), N_("the Authorization header is not `Bearer <token>`, or the token belongs to "
         "no seat (nor the creator) of this game; on `/admin`, it is not the operator's")),
    Code("admin_disabled", (403,), N_("the operator's operations are off: `PBEM_ADMIN_TOKEN` is not set")),
    Code("not_your_seat", (403,), N_("the token belongs to another seat of this game")),
    Code("bad_ticket", (401,), N_("the event stream's `ticket` is not one this server signed for this game "
         "(or names another seat than the bearer token sent with it)")),
    Code("ticket_expired", (401,), N_("the event stream's `ticket` is genuine but out of date: ask "
         "`POST /games/{id}/seats/{seat}/ticket` for another")),
    Code("bad_signature", (401,), N_("the envelope's signature (or a signed join's, or a token request's) is not "
         "base64url, not 64 bytes, or does not match the key (each is signed for its own purpose: one is never "
         "good for another)")),
    Code("request_expired", (401,), N_("a signed join's or token request's `issued_at` is more than "
         "`PBEM_SIGNED_REQUEST_WINDOW_S` from the server's clock: sign it again")),
    Code("bad_invitation", (401,), N_("the invitation token is not one this server made (changed, cut short, for "
         "another seat), or its invitation was withdrawn or replaced")),
    Code("invitation_expired", (401,), N_("the invitation is genuine but past `PBEM_INVITATION_TTL_S`: ask the "
         "game's creator for another")),
    Code("creator_only", (403,), N_("only the game's creator (its `creator_token`) may do this: withdraw an "
         "invitation")),
    Code("bad_public_key", (401, 422), N_("the public key is not a 32-byte Ed25519 key in unpadded base64url "
         "(422 at join; 401 when a stored key is unusable)")),
    Code("bad_link", (401,), N_("a play link (`/play/...`, from a turn mail) that this server did not make, "
         "was changed or cut short, or names a seat nobody holds")),
    Code("link_expired", (401,), N_("a genuine play link past its expiry (`details.expired`): use the one in the "
         "latest turn mail")),
    Code("mail_only_seat", (403,), N_("the seat joined by mail and has no signing key: it moves by mail only")),
    # -- games and seats
    Code("unknown_game", (404, 422), N_("no game with this id (404), or no game type with this name (422)")),
    Code("unknown_seat", (404,), N_("the game has no such seat")),
    Code("unknown_version", (404,), N_("the game has no such version yet")),
    Code("unknown_move_id", (404,), N_("no move with this id in this game")),
    Code("game_started", (409,), N_("the game has started: seats, invitations and deadline settings are fixed")),
    Code("seat_taken", (409,), N_("the seat is taken already (inviting: or invited already); a join by the key "
         "that holds it gets a new token only signed (`proof`)")),
    Code("seat_invited", (409,), N_("the seat is kept for an invitation (`details.invited`: the name the inviter "
         "gave, never the address; `details.expires`): only the invitation's token, link or mail reply takes it, "
         "until it is withdrawn or expires")),
    Code("seat_free", (409,), N_("nobody holds this seat: join it (a new token is only for the key that holds it)")),
    Code("no_free_seat", (409,), N_("every seat is taken or invited already")),
    Code("bad_invite", (422,), N_("invited seats must be distinct seats of the game, no more than its seats")),
    Code("subscription_unconfirmable", (422,), N_("the confirmation of a subscription could not be mailed to "
         "the address: it is not subscribed")),
    Code("bad_email", (422,), N_("not a mail address")),
    Code("unknown_language", (422,), N_("pbem has no such language (`lang`): `en` (English) or `zh-Hant` "
         "(Traditional Chinese), or a tag for one of them (`zh-TW`, `zh`, `en-GB`...); `details.languages` lists "
         "them")),
    Code("unknown_time_zone", (422,), N_("not an IANA time zone (`tz`), such as `Asia/Taipei` or `Europe/London`")),
    # -- moves
    Code("game_mismatch", (422,), N_("the envelope's `game` is not the game of the URL (a move is signed for "
         "one game)")),
    Code("game_not_started", (409,), N_("the game waits for players to join"), rejected=True),
    Code("game_over", (409, 422), N_("the game is over"), rejected=True),
    Code("nonce_reused", (409,), N_("this seat used this nonce in this game already (`details.move_id` names "
         "that move), or a token request with this nonce was answered already: sign again with a new nonce")),
    Code("stale_version", (409,), N_("`expected_version` is not the game's version (`details.version` is); "
         "refused at once, or after a 202 when another move got in first"), rejected=True),
    Code("busy", (409,), N_("the game kept changing while the move was decided; sign it again (409: while the "
         "operator abandoned it)"), rejected=True),
    Code("rules_error", (), N_("the rules engine failed on this move (a bug); it was not applied"), rejected=True),
    Code("unknown_delivery", (404,), N_("no failed delivery with this id (retried already?)")),
    # -- notifications and deadlines
    Code("bad_reminder", (422,), N_("the reminder must come before the deadline")),
    Code("missing_url", (422,), N_("no webhook URL was given, now or at join")),
    Code("not_paused", (409,), N_("the game is not paused")),
    Code("bad_signin_link", (401,), N_("a \"my games\" link (`/my-games/signin/...`, from a `games` mail), or its "
         "session cookie, that this server did not make, or changed or cut short")),
    Code("signin_link_expired", (401,), N_("a genuine \"my games\" link or session past its expiry: reply `games` "
         "to a game's mail for a new one")),
    Code("too_many_lists", (), N_("this address asked for its games too often (`PBEM_MY_GAMES_PER_HOUR` an hour)")),
    Code("rematch_game_not_over", (409,), N_("a rematch can be offered only once the game is over")),
    Code("rematch_answered", (409,), N_("this seat has answered this rematch already")),
    Code("rematch_closed", (409,), N_("this rematch has been decided already (`GET /games/{id}/rematch` says how)")),
    Code("rematch_not_offered", (409,), N_("nobody has offered a rematch of this game: there is nothing to decline")),
    Code("webhook_url_invalid", (422,), N_("a webhook URL is http(s) with a host, no credentials, a valid port")),
    Code("webhook_url_unresolvable", (422,), N_("the webhook's host does not resolve")),
    Code("webhook_url_refused", (422,), N_("the webhook's host resolves to a loopback, private, link-local or "
         "metadata address (also one inside an IPv6 form: mapped, NAT64, 6to4, Teredo); link-local and "
         "metadata ones whatever `PBEM_WEBHOOK_ALLOW_PRIVATE` says")),
    # -- vacations
    Code("bad_vacation_days", (422,), N_("a vacation is a whole number of days, 1 or more")),
    Code("vacation_allowance", (422,), N_("the vacation is longer than the days left of the player's allowance "
         "this year (`PBEM_VACATION_DAYS`; `details.left`, `details.used`, `details.allowance`)")),
    Code("vacation_overlaps", (409,), N_("the player is on vacation already (`details.until`): come back first")),
    Code("not_on_vacation", (409,), N_("the player is not on vacation")),
    Code("on_vacation", (409,), N_("a player's vacation holds this game's deadlines: they run again when it ends "
         "(or the operator resumes them)")),
    # -- chat
    Code("chat_empty", (422,), N_("a chat message needs some text")),
    Code("chat_too_long", (422,), N_("a chat message is longer than `PBEM_CHAT_MAX_CHARS` characters "
         "(`details.max_chars`)")),
    Code("chat_control_character", (422,), N_("a chat message is one line of text: no line breaks or other "
         "control characters")),
    Code("chat_to_self", (422,), N_("a private message goes to another seat than the sender's")),
    Code("chat_too_fast", (429,), N_("this seat said `PBEM_CHAT_PER_MINUTE` chat messages in the last minute; "
         "see `Retry-After`")),
    Code("chat_closed", (409,), N_("the game is over: its chat is closed")),
    # -- mail
    Code("inbound_disabled", (403,), N_("inbound mail over HTTP is off (`PBEM_INBOUND_SECRET` is not set)")),
    Code("bad_inbound_secret", (401,), N_("send `Authorization: Bearer <PBEM_INBOUND_SECRET>`")),
    Code("mail_too_large", (413,), N_("the mail is larger than the inbound limit")),
    Code("empty_mail", (422,), N_("the body must be one raw RFC 5322 message")),
    Code("no_token_recipient", (422,), N_("no recipient is a genuine `move+TOKEN@MAIL_DOMAIN` address")),
    Code("too_many_mails", (429,), N_("this reply address took its mails for this hour (`PBEM_MAIL_PER_HOUR`); "
         "see `Retry-After`")),
    Code("not_invited", (404,), N_("the seat has no invitation (withdrawing one); by mail: the invitation replied "
         "to is unknown (withdrawn or replaced)")),
    Code("joined_already", (), N_("(mail only) the invited seat is yours already")),
    # -- bots and ratings
    Code("unknown_bot_level", (422,), N_("no bot level with this name (`details.levels`: the levels there are)")),
    Code("bad_bot_seat", (422,), N_("a bot seat must be a seat of the game, not also invited")),
    Code("no_bots", (422,), N_("this game type has no bots")),
    Code("unknown_game_type", (404,), N_("no game type with this name (ratings)")),
    Code("handover_by_bot", (403,), N_("a handover move signed by the bot's key: only the seat's player hands a "
         "seat over or takes it back")),
)


def meaning_of(code: str) -> str:
    """A code's meaning, the message of an error raised without one, in
    the reader's language (the code in words for a code not listed)."""
    found = CODES.get(code)
    return _(found.meaning) if found else code.replace("_", " ")
