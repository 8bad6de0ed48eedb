"""Schemas of what the API hands out as free-form JSON: the game record's
three kinds of line (GET /games/{id}/record, ``application/x-ndjson``), the
common frame of every event, a move's envelope as stored, a game's result.

They are documentation first (components of the OpenAPI document, see
``register``) and checks second: tests load real records and events with
them, and these schemas refuse unknown fields (except an event's own, which
are the game's: docs/views/ and docs/rules/). The answers themselves are
not dumped through them, so that nothing a game adds is ever dropped; the
response schemas point here with ``ref`` instead.

docs/record.md says how to verify a record offline with these fields.
"""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from .schemas import Int, Strict


class Event(ma.Schema):
    """The frame every game's events share; the other fields are the game's."""

    class Meta:
        unknown = ma.INCLUDE  # the game's own fields: see the game's docs

    type = fields.String(required=True, metadata={
        "description": "what happened, a past participle: `TilePlaced`, `HandDealt`, `SeatForfeited` "
                       "(the server's own, when a seat forfeits at its deadline)"})
    v = Int(metadata={"description": "the event's shape version, for a game that has changed an event's "
                                     "fields; absent: the first shape"})
    secret = fields.Dict(metadata={
        "description": "the hidden part of the event (cards drawn, a hand dealt): present only for the seats "
                       "in `to`, for everyone once the game is finished, never for a spectator while it runs. "
                       "The rest of the event is public"})
    to = fields.List(Int(), metadata={"description": "the seats allowed to see `secret`: shown, like `secret`, "
                                                     "only to those seats while the game runs (whom a secret is "
                                                     "for is part of it: a secret theft's `to` is the thief); a "
                                                     "seat the rules make public is named in `player` as well"})
    player = Int(metadata={"description": "the seat the event is about, where there is one"})


class StoredEnvelope(Strict):
    """A move as it was submitted. Signed (``auth: ed25519``) it has
    ``signature``; a move the server authenticated otherwise (a mail reply's
    token, a deadline's default) has none."""

    game = fields.String(required=True, metadata={"description": "the game id; part of what is signed"})
    player = Int(required=True, metadata={"description": "the seat that moves"})
    expected_version = Int(required=True, metadata={
        "description": "the game's version the move was made at (GET /games/{id} `version`)"})
    move = fields.Dict(required=True, metadata={
        "description": "the move, as in GET /games/{id}/legal-moves `moves[].move` (an object with `type`)"})
    nonce = fields.String(required=True, metadata={
        "description": "any 8-128 characters, once per seat and game. The move's id is derived from it: "
                       "the first 24 hex digits of sha256 of the UTF-8 text `game + \"\\0\" + "
                       "str(player) + \"\\0\" + nonce` (docs/record.md)"})
    signature = fields.String(metadata={
        "description": "Ed25519 by the seat's key over the RFC 8785 canonical JSON of the other five fields, "
                       "unpadded base64url (64 bytes). Absent on moves the server authenticated otherwise"})


class RecordSeat(Strict):
    seat = Int(required=True)
    name = fields.String(required=True, allow_none=True)
    public_key = fields.String(required=True, allow_none=True, metadata={
        "description": "the seat's Ed25519 key, unpadded base64url; null for a seat that joined by mail "
                       "(it moves only by mail, `auth: mail-token`)"})
    bot = fields.String(metadata={"description": "a bot seat's level (`random`, `greedy`, `search`); absent for "
                                                 "a person"})
    rated_as = fields.String(metadata={"description": "who the ratings count the seat's result for: `key:<public "
                                                      "key>`, `mail:<sha256 of the address, 24 hex digits>` or "
                                                      "`bot:<level>` (docs/bots.md)"})


class RecordHeader(Strict):
    """The first line."""

    record = fields.String(required=True, metadata={"description": "always `pbem-game`", "enum": ["pbem-game"]})
    format = Int(required=True, metadata={"description": "the record format's version: 1"})
    id = fields.String(required=True, metadata={"description": "the game id"})
    game = fields.String(required=True, metadata={"description": "the game type (GET /game-types `name`)"})
    rules_version = Int(required=True, metadata={"description": "the rules' version the game is played under"})
    players = Int(required=True)
    options = fields.Dict(required=True, metadata={"description": "every option, defaults filled in"})
    title = fields.String(allow_none=True)
    created = fields.Float(allow_none=True, metadata={"description": "unix time"})
    seed_sha256 = fields.String(required=True, metadata={
        "description": "hex sha256 of the 32 secret seed bytes (the decoded bytes, not the 64-character hex "
                       "text), published at creation; the seed itself is in the end line once the game is over"})
    seats = fields.List(fields.Nested(RecordSeat), required=True, metadata={
        "description": "the seats joined so far, with the keys their signatures are checked against"})
    viewer = Int(required=True, allow_none=True, metadata={
        "description": "who asked for the record: the seat whose bearer token was sent, or null (a spectator)"})
    sees_all = fields.Boolean(required=True, metadata={
        "description": "true once the game is finished: nothing in the record is withheld from anyone"})
    withheld = fields.List(fields.String(), required=True, metadata={
        "description": "the move ids of the steps whose envelope is withheld from this viewer "
                       "(`envelope_withheld`); empty once the game is finished"})


class RecordStep(Strict):
    """One line per step of the log: the move (or the server's action) and
    the events it produced."""

    move_id = fields.String(required=True, metadata={
        "description": "the move's id (derived from game, seat and nonce: see StoredEnvelope.nonce); `setup` "
                       "for the deal when the last seat was taken"})
    version_before = Int(required=True, metadata={"description": "the game's version before this step"})
    version_after = Int(required=True, metadata={
        "description": "the version after it: `version_before` + the number of events"})
    auth = fields.String(allow_none=True, metadata={
        "description": "how the step was authorised (absent when the envelope is withheld): `ed25519` (a signed envelope), `mail-token` (a reply to "
                       "a turn mail; an envelope without signature), `mail-link` (a move made on the game's "
                       "page through the play link of a turn mail; an envelope without signature), `deadline` (the server's default move at a "
                       "deadline; an envelope without signature), `setup` (the deal: no envelope), `forfeit` "
                       "(a seat forfeited at its deadline: no envelope, one `SeatForfeited` event)"})
    events = fields.List(fields.Nested(Event), required=True, metadata={
        "description": "the events, as the record's viewer may see them (an event's `secret` only for the "
                       "seats in its `to`, until the game is finished)"})
    envelope = fields.Nested(StoredEnvelope, metadata={
        "description": "the move as submitted; absent for `setup` and `forfeit`, and while the game runs "
                       "when the game withholds it from the viewer (see `envelope_withheld`)"})
    envelope_withheld = fields.Boolean(metadata={
        "description": "true instead of `envelope` and `auth` when the game withholds this move from the "
                       "viewer while it runs (a face-down discard, a secret theft...): its signature can be "
                       "checked once the game is finished, when the record shows it whole"})


class RecordEnd(Strict):
    """The last line, once the game is finished."""

    end = fields.Boolean(required=True, metadata={"description": "always true", "enum": [True]})
    seed = fields.String(required=True, metadata={
        "description": "the secret seed revealed: 64 hex digits encoding 32 bytes; sha256 of those bytes is "
                       "the header's `seed_sha256`"})
    result = fields.Nested(lambda: Result(), required=True, allow_none=True, metadata={
        "description": "the result (null only for a game that ended without one)"})
    version = Int(required=True, metadata={"description": "the game's final version"})


class RecordChat(Strict):
    """A chat message the record's reader may read (the public ones, and the
    private ones to or from the reader's seat), after the step that brought
    the game to the version it was said at. Not signed: the players' words
    as the server kept them; ``pbem verify`` checks only where they sit."""

    chat = Int(required=True, metadata={"description": "the message's number in the game's chat, from 1"})
    seat = Int(required=True, metadata={"description": "who said it"})
    to = Int(required=True, allow_none=True, metadata={"description": "the seat it was said to; null: everyone"})
    text = fields.String(required=True, metadata={"description": "as written (text, never markup)"})
    time = fields.Float(required=True, metadata={"description": "when, Unix seconds"})
    version = Int(required=True, metadata={"description": "the game's version when it was said"})


class Result(Strict):
    scores = fields.List(fields.Raw(), metadata={"description": "one score per seat"})
    placings = fields.List(Int(), metadata={"description": "one placing per seat, 1 = first; tied seats share"})
    outcome = fields.String(metadata={"description": "`won` (somebody won: `winners`), `lost` (a solo game lost, "
                                                     "or a solo forfeit) or `no_winner` (a kids' game out of time); "
                                                     "absent in results stored before it existed, which read as `won`",
                                      "enum": ["won", "lost", "no_winner"]})
    winners = fields.List(Int(), metadata={"description": "the seats placed first, when the outcome is `won` "
                                                          "(else empty)"})
    reason = fields.String(metadata={"description": "why the game ended (`forfeit`, or the game's own)"})
    detail = fields.Dict(metadata={"description": "the game's breakdown of the scores"})


COMPONENTS = {"Event": Event, "StoredEnvelope": StoredEnvelope, "Result": Result, "RecordSeat": RecordSeat,
              "RecordHeader": RecordHeader, "RecordStep": RecordStep, "RecordEnd": RecordEnd, "RecordChat": RecordChat}

RECORD_LINE = {"oneOf": [{"$ref": "#/components/schemas/RecordHeader"},
                         {"$ref": "#/components/schemas/RecordStep"},
                         {"$ref": "#/components/schemas/RecordEnd"},
                         {"$ref": "#/components/schemas/RecordChat"}]}


def register(api) -> None:
    for name, schema in COMPONENTS.items():
        api.spec.components.schema(name, schema=schema)
