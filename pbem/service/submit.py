"""Moves at the edge: a signed (or server-authenticated) envelope checked
and queued, in one round trip when this process holds the game at the
signed version (``_submit_hot``), else after one read."""
from __future__ import annotations

import secrets
import time

from .. import games
from ..games import handover, takeback
from ..trust import signing
from ..errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from ..games.base import GameError, rng_for
from ..trust.signing import move_id_for
from ..store import Tail, key
from .common import FIRST_WAIT_S, Loaded, Part
from ..games.i18n import _


class Submitting(Part):
    def submit(self, game_id: str, envelope: dict, wait: float = 0.0) -> dict:
        """Check a signed envelope and queue it. Fast 4xx for what can be told
        now (signature, nonce, turn, legality against the current state); the
        worker decides again against the state it appends to. With ``wait``,
        the outcome if it settles within that many seconds."""
        record = self._submit_hot(game_id, envelope, wait)
        if record is None:
            record = self._submit_read(game_id, envelope, wait)
        if wait and record["status"] == "queued":
            record = self.wait_submitted(game_id, record, wait - (time.time() - record["submitted"]))
        return record

    def _submit_hot(self, game_id: str, envelope: dict, wait: float) -> dict | None:
        """The common case in one round trip: this process holds the game's
        state at the version the move was signed at (its own last move's
        outcome brought it, see ``_learn``) and the seat's key. The move is
        checked against that state and queued only if the game is still at
        that version. None: anything else, or a check failed; the read path
        then answers with what holds now."""
        hot = self.cache.current(game_id) if self.enqueue_checked else None
        if hot is None or envelope["game"] != game_id:
            return None
        version, state, meta = hot
        seat = self._seats.get((game_id, envelope["player"]))
        # A game not in play (or not at the signed version) goes to the read
        # path, which looks for a record of this move id before the status:
        # a resent envelope is nonce_reused, whatever the game's status. At
        # the signed version, queue_if_current finds the record (duplicate).
        if (version != envelope["expected_version"] or meta.get("status") != "active" or seat is None
                or takeback.is_takeback(envelope.get("move"))  # decided on the log: the read path
                or handover.is_handover(envelope.get("move"))
                or seat.get("mail_only") or not seat.get("public_key")):
            return None
        try:
            signing.verify(envelope, seat["public_key"])  # the player's key never changes once set
        except signing.SignatureError:
            return None  # perhaps a bot's, for a seat handed over since this copy: the read path says
        loaded = Loaded(meta, games.get(meta["game"], int(meta["rules_version"])), state, version)
        try:
            self._precheck(loaded, envelope)
        except (Conflict, Unprocessable):
            return None
        move_id = move_id_for(game_id, envelope["player"], envelope["nonce"])
        record = {"id": move_id, "status": "queued", "auth": "ed25519", "envelope": envelope,
                  "submitted": time.time()}
        wake = key(game_id, f"wake:{secrets.token_hex(8)}")
        outcome, settled = self.enqueue_checked(
            game_id, move_id,
            lambda pipe, stream, fields: self.store.queue_if_current(pipe, game_id, version, move_id, record,
                                                                     stream, fields, wake),
            [key(game_id, f"done:{move_id}"), wake] if wait > 0 else None, min(wait, FIRST_WAIT_S))
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == "duplicate":
            raise self._nonce_reused(move_id)
        if outcome != "ok":
            return None  # the game moved on meanwhile
        return self._settled(loaded, record, settled)

    def _settled(self, loaded: Loaded, queued: dict, settled: bytes | None) -> dict:
        """The record to answer with, from what the wait popped, if anything."""
        if not settled:
            return queued
        record, events = self.store.decode_done(settled)
        self._learn(loaded, record, events)
        return record

    def _learn(self, before: Loaded, record: dict, events: list | None) -> None:
        """Hold the state after a move this process queued, from its events:
        the player's next move (or the opponent's, on the same connection)
        can then take ``_submit_hot``."""
        if record.get("status") != "applied" or not events or record.get("version_before") != before.version:
            return
        if any(takeback.is_meta(event) for event in events):
            return  # a takeback's state is an earlier one: the next read loads it
        state = before.state
        for event in events:
            state = before.game.evolve(state, event)
        version = before.version + len(events)
        if record.get("version") != version:
            return
        finished = before.game.result(state) is not None  # its meta changed more than the version: read it
        self.cache.put(before.id, version, state, None if finished else {**before.meta, "version": version})

    def _submit_read(self, game_id: str, envelope: dict, wait: float) -> dict:
        """``submit`` reading the game first (two round trips)."""
        meta, seat, move_id, tail = self._submittable(game_id, envelope)
        if (seat.get("mail_only") or not seat.get("public_key")) and not seat.get("bot_key"):
            raise Forbidden("mail_only_seat", _("this seat has no signing key: it plays by mail only"))
        signer = self._signer(seat, envelope)
        if signer == "bot":
            if handover.is_handover(envelope.get("move")):
                raise Forbidden("handover_by_bot", _("only the seat's player hands it over or takes it back, "
                                                     "with their own key"))
            return self._queue(meta, envelope, move_id, tail, "ed25519", wait=wait, signed_by="bot",
                               bot_key=seat["bot_key"])
        return self._queue(meta, envelope, move_id, tail, "ed25519", wait=wait)

    @staticmethod
    def _signer(seat: dict, envelope: dict) -> str:
        """Who signed: the seat's player ("seat") or, while the seat is handed
        over, its bot ("bot"); 401 for any other key."""
        error = None
        for who, public in seat_keys(seat):
            try:
                signing.verify(envelope, public)
                return who
            except signing.SignatureError as err:
                error = error or err
        if error is None:
            raise Unauthorized("bad_signature", _("the seat has no key to check the signature with"))
        raise Unauthorized(error.code, error.message) from None

    def submit_trusted(self, game_id: str, player: int, move: dict, expected_version: int,
                       auth: str, nonce: str, **extra) -> dict:
        """Queue a move whose author the server authenticated by other means
        than a signature (a mail reply token, say). It takes the same path
        as a signed move; the record says how it was authenticated."""
        envelope = {"game": game_id, "player": player, "expected_version": expected_version,
                    "move": move, "nonce": nonce}
        meta, _seat, move_id, tail = self._submittable(game_id, envelope)
        return self._queue(meta, envelope, move_id, tail, auth, **extra)

    def _submittable(self, game_id: str, envelope: dict) -> tuple[dict, dict, str, Tail | None]:
        """Meta, the seat, the move id, and the log since the cached state
        (read in the same round trip), or a 4xx for what can be told now."""
        if not isinstance(game_id, str):
            raise NotFound("unknown_game", _("no game {game}", game=repr(game_id)))
        player = envelope["player"]
        move_id = move_id_for(game_id, player, envelope["nonce"])
        cached = self.cache.get(game_id)
        read = self.store.read(game_id, move_id, cached[0] if cached else None, seats=True)
        meta, seats, existing, tail = read.meta, read.seats, read.move, read.tail
        if meta is None:
            raise NotFound("unknown_game", _("no game {game}", game=repr(game_id)))
        if seats:
            self._remember(self._seats, {(game_id, seat): data for seat, data in seats.items()}, self.SEATS_KEPT)
        if envelope["game"] != game_id:
            raise Unprocessable("game_mismatch", _("the envelope is signed for game {game}",
                                                   game=repr(envelope["game"])))
        if existing is not None:
            # Before the status checks: a client resending an envelope (after
            # a 503, a timeout) learns that the first try was recorded, even
            # when that move ended the game.
            raise self._nonce_reused(move_id)
        if meta["status"] == "open":
            raise Conflict("game_not_started", _("the game waits for players to join"))
        if meta["status"] == "finished":
            raise Conflict("game_over", _("the game is over"))
        if player not in seats:
            raise NotFound("unknown_seat", _("game {game} has no seat {seat} taken", game=game_id, seat=player))
        return meta, seats[player], move_id, tail

    @staticmethod
    def _nonce_reused(move_id: str) -> Conflict:
        return Conflict("nonce_reused", _("this nonce was used already: sign the move again with a new nonce"),
                        move_id=move_id)

    def _queue(self, meta: dict, envelope: dict, move_id: str, tail: Tail | None, auth: str,
               wait: float = 0.0, **extra) -> dict:
        game_id = meta["id"]
        loaded = self.load(game_id, meta=meta, tail=tail)
        self._precheck(loaded, envelope)
        record = {"id": move_id, "status": "queued", "auth": auth, "envelope": envelope,
                  "submitted": time.time(), **extra}
        if wait > 0 and self.enqueue_wait:
            # Record, queue and start waiting in one round trip.
            created, settled = self.enqueue_wait(
                game_id, move_id, lambda pipe: self.store.record_submission(game_id, move_id, record, pipe),
                key(game_id, f"done:{move_id}"), min(wait, FIRST_WAIT_S), record=record)
            if not created:
                raise self._nonce_reused(move_id)
            return self._settled(loaded, record, settled)
        if self.enqueue:
            # One round trip (and one fsync) records the move and queues it.
            # Should the record lose a race for its id, the queue holds that
            # id twice: harmless, a move id is applied once.
            created = self.enqueue(game_id, move_id, lambda pipe: self.store.record_submission(
                game_id, move_id, record, pipe), record=record)
        else:
            created = self.store.record_submission(game_id, move_id, record)
        if not created:
            raise self._nonce_reused(move_id)
        return record

    def _precheck(self, loaded: Loaded, envelope: dict) -> None:
        expected, player, game = envelope["expected_version"], envelope["player"], loaded.game
        if handover.is_handover(envelope["move"]):
            if self.handover_stale(loaded, expected, envelope["move"]):
                raise Conflict("stale_version", _("the game is at version {version}, not {expected}",
                                                  version=loaded.version, expected=expected),
                               version=loaded.version)
            try:
                self.decide_handover(loaded, player, envelope["move"], trial=True)
            except GameError as err:
                raise Unprocessable(err.code, err.message, **err.details) from None
            return
        if takeback.is_takeback(envelope["move"]):
            if self.takeback_stale(loaded, expected, envelope["move"]):
                raise Conflict("stale_version", _("the game is at version {version}, not {expected}",
                                                  version=loaded.version, expected=expected),
                               version=loaded.version)
            try:
                self.decide_takeback(loaded, player, envelope["move"])  # a trial: the events are thrown away
            except GameError as err:
                raise Unprocessable(err.code, err.message, **err.details) from None
            return
        if expected > loaded.version:
            raise Conflict("stale_version", _("the game is at version {version}, not {expected}",
                                              version=loaded.version, expected=expected),
                           version=loaded.version)
        if expected < loaded.version and self._stale(loaded, expected, player):
            raise Conflict("stale_version", _("the game has moved on to version {version}; your move was signed "
                                              "at {expected}", version=loaded.version, expected=expected),
                           version=loaded.version)
        try:
            game.check_turn(loaded.state, player)
            # A trial decision on the current state: the events are thrown away.
            game.decide(loaded.state, player, envelope["move"], rng_for(b"precheck", loaded.version))
        except GameError as err:
            raise Unprocessable(err.code, err.message, **err.details) from None


def seat_keys(held: dict) -> list[tuple[str, str]]:
    """The keys a seat's envelopes may be signed with, and who holds each:
    its player's, and a bot's while the seat is handed over."""
    keys = [("seat", held["public_key"])] if held.get("public_key") else []
    if held.get("bot_key"):
        keys.append(("bot", held["bot_key"]))
    return keys
