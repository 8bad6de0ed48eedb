"""A game's life: created, joined (dealt once every seat is taken), listed,
and the operator's end of it: abandoned, deleted, compacted once finished,
expired while open and nobody joined (the sweeps, pbem/service/maintenance.py)."""
from __future__ import annotations

import json
import secrets
import time

from .. import failpoint, games
from ..trust import signing
from ..errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from ..store.addresses import Addresses
from ..store.failures import Failures
from ..games.base import GAME_ABANDONED, SPECTATOR, GameError, abandoned_result, rng_for, seed_commitment
from ..trust.signing import move_id_for
from ..store import FINISHED_INDEX, OPEN_INDEX, STARTING_INDEX
from .common import SETUP_MOVE, Loaded, Part, token_hash, unknown_seat
from .common import chosen_language, preferences
from ..games.i18n import ENGLISH, _, reading


#: How long after the claim of a game's last seat the sweep may deal it: its
#: joiner, alive, deals it itself at once (both at once is harmless: the
#: deal is idempotent, only wasted work).
DEAL_GRACE_S = 5.0


class Lifecycle(Part):
    def create_game(self, name: str, players: int, options: dict | None = None, title: str = "",
                    *, seed: bytes | None = None, lang: str | None = None, listed: bool = False,
                    game_id: str | None = None) -> dict:
        """Open a game. ``seed`` is for tests and scripted scenarios that need
        the same deal every time; the API never passes one, so a player can't
        choose (or learn) the seed before the game ends. ``lang``: the
        game's language (any tag ``language_of`` knows; English by default),
        which its seats read unless they choose their own. ``listed``: opened
        to anyone (``open: true``): listed to strangers (pbem/service/open_games.py).
        ``game_id``: an id chosen before (``store.new_game_id``) by a rematch,
        whose decision names its new game before making it (pbem/service/rematch.py)."""
        lang = chosen_language(lang, ENGLISH)
        game, options = self.check_new_game(name, players, options)
        game_id = game_id or self.store.new_game_id()  # on a cluster, born in a shard (pbem/store/shards.py)
        seed = secrets.token_bytes(32) if seed is None else seed
        # The creator's credential (invitations, the clock): shown once in the
        # answer, stored hashed like a seat's token.
        creator_token = secrets.token_urlsafe(32)
        meta = {
            "id": game_id,
            "game": game.name,
            "rules_version": str(game.version),
            "players": players,
            "options": options,
            "title": title or default_title(game, game_id, lang),
            "lang": lang,
            "status": "open",
            "version": 0,
            "created": time.time(),
            "seed_sha256": seed_commitment(seed),
            "creator_token_sha256": token_hash(creator_token),
        }
        if listed:
            meta["listed"] = "1"
        self.store.create_game(game_id, meta, seed.hex())
        return {**self.summary(self.load(game_id), SPECTATOR), "creator_token": creator_token}

    @staticmethod
    def check_new_game(name: str, players: int, options: dict | None) -> tuple[games.Game, dict]:
        """The game and its options with defaults, or 422 (nothing stored)."""
        try:
            game = games.get(name)
            return game, game.check_options(players, options)
        except GameError as err:
            raise Unprocessable(err.code, err.message, **err.details) from None

    def list_games(self, status: str | None = None, offset: int = 0, limit: int = 50,
                   player: str | None = None) -> list[dict]:
        """Games newest first, from the indexes (pbem/store/indexes.py): all, those
        with ``status``, or those where the public key ``player`` holds a
        seat (last joined first; a player has few games: read whole, then
        filtered by status)."""
        if player is not None:
            ids = self.store.indexes.of_player(player, 0, 10_000) if status else \
                self.store.indexes.of_player(player, offset, limit)
        else:
            ids = self.store.list_games(offset, limit, status)
        out = []
        for meta in self.store.metas(ids):
            if meta is None or (status and meta.get("status") != status):
                continue  # gone, or its status changed since the index was read
            out.append(self._public_meta(meta))
        return out[offset:offset + limit] if player is not None and status else out

    def join(self, game_id: str, seat: int, public_key: str | None, name: str,
             email: str | None = None, webhook_url: str | None = None, *, invitation: str | None = None,
             proof: dict | None = None, window_s: float = signing.REQUEST_WINDOW_S, lang: str | None = None,
             tz: str | None = None, bot: str | None = None) -> dict:
        """Take a seat. ``public_key=None`` makes a mail-only seat (joined by
        an invitation mail): no Ed25519 key, so it moves only by mail reply
        token and signed moves for it are refused.

        A seat reserved for a live invitation is taken only with
        ``invitation``, the nonce of that invitation (read from its token,
        whose MAC the caller checked: pbem/mail_in/invites.py); anyone else
        gets 409 ``seat_invited``. The claim checks it in its own script.

        ``proof`` (``{"issued_at", "signature"}``, pbem/trust/signing.py ``JOIN``)
        signs the join with the key: a signed join repeated by the key that
        holds the seat answers again, with a new token (the seat's old one
        stops working), so a join whose answer was lost is not lost.

        ``lang`` and ``tz``: the seat's language and time zone, else its
        invitation's (chosen by the inviter), else none: the seat reads its
        game's language (pbem/service/languages.py)."""
        chosen = preferences(lang, tz)  # 422 before anything is stored
        meta = self._meta(game_id)
        if not 0 <= seat < meta["players"]:
            raise unknown_seat(game_id, meta)
        try:
            public_key = signing.check_public_key(public_key) if public_key is not None else None
        except signing.SignatureError as err:
            raise Unprocessable(err.code, err.message) from None
        now = time.time()
        if proof is not None:
            if public_key is None:
                raise Unprocessable("invalid_request", _("a signed join needs the public key it is signed with"))
            self._check_signed(signing.JOIN, {"game": game_id, "seat": seat, "public_key": public_key}, proof,
                               public_key, window_s, now)
        token = secrets.token_urlsafe(32)
        data = {"seat": seat, "name": name, "public_key": public_key, "token_sha256": token_hash(token),
                "email": email, "webhook_url": webhook_url, "joined": now}
        if public_key is None:
            data["mail_only"] = True
            if email:  # who the record and the ratings name this player (never the address)
                data["rating_id"] = Addresses(self.store.redis).rating_id(email)
        if bot:
            data["bot"] = bot  # a bot seat (pbem/service/bots.py): its level
        data.update(self._invited_preferences(game_id, seat, invitation), **chosen)
        claimed = self.store.claim(game_id, seat, data, invitation, now)
        if claimed.kind == "taken":
            return self._join_again(meta, seat, public_key, proof, claimed, token, now)
        if claimed.kind != "ok":
            raise self._refused(meta, seat, claimed)
        if email:  # "my games" of the address (pbem/store/addresses.py)
            Addresses(self.store.redis).add(email, game_id, now)
        if claimed.last:
            # The seat and the starting index are stored; a process dying
            # here leaves the deal to the next read, join or sweep (``deal``).
            failpoint.hit("join_after_claim")
            self._start(game_id)
        return {"game": game_id, "seat": seat, "token": token}

    def _join_again(self, meta: dict, seat: int, public_key: str | None, proof: dict | None, claimed,
                    token: str, now: float) -> dict:
        """A join for a seat that is held: the holder's key, signed, gets a
        new token (its first answer may have been lost: so may the deal
        that join was to make); anyone else 409."""
        game_id, held = meta["id"], claimed.held
        if proof is None or public_key is None or held.get("public_key") != public_key:
            if meta["status"] != "open":
                raise Conflict("game_started", _("the game has started: its seats are taken"))
            if public_key is not None and held.get("public_key") == public_key:
                raise Conflict("seat_taken", _("seat {seat} is held by this public key already: to get a token "
                                               "again, send the join signed (`proof`), or POST "
                                               "/games/{game}/seats/{seat}/token", seat=seat, game=game_id))
            raise Conflict("seat_taken", _("seat {seat} is taken", seat=seat))
        again = {**held, "token_sha256": token_hash(token), "token_issued": now}
        if self.store.reissue(game_id, seat, claimed.held_raw, again) != "ok":
            raise Conflict("busy", _("the seat changed while its token was made; try again"))
        self.deal(game_id)
        return {"game": game_id, "seat": seat, "token": token}

    def _invited_preferences(self, game_id: str, seat: int, nonce: str | None) -> dict:
        """The language and zone the seat's invitation chose, carried to the
        seat that takes it (the claim checks the invitation is still that one)."""
        if nonce is None:
            return {}
        invitation = self.store.invitation(game_id, seat) or {}
        if invitation.get("nonce", "") != nonce:
            return {}
        return {k: invitation[k] for k in ("lang", "tz") if invitation.get(k)}

    @staticmethod
    def _refused(meta: dict, seat: int, claimed) -> Exception:
        """The error for a claim that did not take the seat (nothing stored)."""
        invitation = claimed.invitation or {}
        if claimed.kind == "invited":
            name = invitation.get("public_name")
            return Conflict("seat_invited", _("seat {seat} is kept for {name}, who was invited to it: only the "
                                              "invitation's link, reply or token takes it, until the game's creator "
                                              "withdraws it or it expires", seat=seat, name=name) if name else
                            _("seat {seat} is kept for the player invited to it: only the invitation's link, reply "
                              "or token takes it, until the game's creator withdraws it or it expires", seat=seat),
                            invited=name, expires=invitation.get("expires"))
        if claimed.kind == "withdrawn":
            return Unauthorized("bad_invitation", _("this invitation is no longer seat {seat}'s: it was withdrawn "
                                                    "or replaced by another", seat=seat))
        if claimed.kind == "expired":
            return Unauthorized("invitation_expired", _("the invitation to seat {seat} has expired: ask the game's "
                                                        "creator for another", seat=seat))
        if claimed.kind == "started":
            return Conflict("game_started", _("the game has started: its seats are taken"))
        return NotFound("unknown_game", _("no game {game}", game=repr(meta["id"])))

    @staticmethod
    def _check_signed(purpose: str, fields: dict, signed: dict, public_key: str, window_s: float,
                      now: float) -> None:
        """A signed request (pbem/trust/signing.py): genuine, then fresh; 401 else."""
        issued_at = signed["issued_at"]
        try:
            signing.verify_request(purpose, {**fields, "issued_at": issued_at}, signed["signature"], public_key)
        except signing.SignatureError as err:
            raise Unauthorized(err.code, err.message) from None
        if abs(now - issued_at) > window_s:
            raise Unauthorized("request_expired", _("the request was signed at {issued_at}, more than {window} s "
                                                    "from the server's clock ({now}): sign it again",
                                                    issued_at=issued_at, window=format(window_s, "g"), now=int(now)),
                               issued_at=issued_at, now=int(now), window_s=window_s)

    def seat_token(self, game_id: str, seat: int, request: dict, window_s: float = signing.REQUEST_WINDOW_S) -> dict:
        """A new bearer token for a held seat, by a request signed with the
        seat's key (pbem/trust/signing.py ``SEAT_TOKEN``), each nonce once: the
        seat's old token stops working."""
        meta = self._meta(game_id)
        if not 0 <= seat < meta["players"]:
            raise unknown_seat(game_id, meta)
        if meta.get("archived"):
            raise Conflict("game_over", _("the game is over and archived: everything in it is public"))
        for _attempt in range(8):  # read again when the seat changed meanwhile (its language, say)
            raw = self.store.seat_raw(game_id, seat)
            if raw is None:
                raise Conflict("seat_free", _("nobody holds seat {seat}: join it", seat=seat))
            held = json.loads(raw)
            if not held.get("public_key"):
                raise Forbidden("mail_only_seat", _("the seat joined by mail and has no signing key: it needs no "
                                                    "token"))
            now = time.time()
            self._check_signed(signing.SEAT_TOKEN, {"game": game_id, "seat": seat, "nonce": request["nonce"]},
                               request, held["public_key"], window_s, now)
            token = secrets.token_urlsafe(32)
            again = {**held, "token_sha256": token_hash(token), "token_issued": now}
            # The nonce is taken only with the write: a seat that moved leaves it unused.
            done = self.store.reissue(game_id, seat, raw, again, nonce=request["nonce"],
                                      nonce_ttl_s=2 * window_s + 60)
            if done == "reused":
                raise Conflict("nonce_reused", _("this token request was answered already: sign a new one, with a "
                                                 "new nonce"))
            if done == "ok":
                break
        else:
            raise Conflict("busy", _("the seat changed while its token was made; try again"))
        return {"game": game_id, "seat": seat, "token": token}

    def deal(self, game_id: str, meta: dict | None = None, seats: dict | None = None) -> bool:
        """Deal a game whose every seat is taken but which is still open:
        its last joiner died between the claim and the deal (a lost
        process, Redis restarted). Any read, join or sweep may call it;
        ``_start`` is idempotent. True when it dealt (or found it dealt
        just now by another)."""
        meta = meta or self.store.meta(game_id)
        if meta is None or meta.get("status") != "open":
            return False
        seats = self.store.seats(game_id) if seats is None else seats
        if len(seats) < int(meta["players"]):
            return False
        self._start(game_id)
        return True

    def _start(self, game_id: str) -> None:
        """Deal the game once every seat is filled. Idempotent: the append
        names version 0 and the move id ``setup``, so only one joiner wins.
        Whoever wins (or finds it dealt) takes the game off the starting
        index."""
        loaded = self.load(game_id)
        if loaded.meta.get("status") == "open":
            events = loaded.game.setup(loaded.state, rng_for(self._seed(game_id), 0))
            state = loaded.game.apply(loaded.state, events)
            record = {"id": SETUP_MOVE, "status": "applied", "auth": "setup", "version_before": 0,
                      "version": len(events), "settled": time.time()}
            done = self.store.append(game_id, 0, SETUP_MOVE, events, record, status="active",
                                     meta={"started": time.time()})
            if done.kind == "ok":
                self.store.reindex(OPEN_INDEX, game_id, None)  # started: it can no longer expire
                self.cache.put(game_id, done.version, state)
                after = Loaded({**loaded.meta, "status": "active", "version": done.version}, loaded.game, state,
                               done.version)
                self.announce(loaded, after, events, record)
        self.store.reindex(STARTING_INDEX, game_id, None)

    def deal_waiting(self, now: float | None = None, grace_s: float = DEAL_GRACE_S, limit: int = 100) -> list[str]:
        """The sweep's part of starting games: deal each game of the starting
        index whose last seat was taken ``grace_s`` ago or more and that is
        still open (its joiner died before the deal). Entries of games dealt
        or gone leave the index."""
        now = time.time() if now is None else now
        dealt = []
        for game_id, _due in self.store.due(STARTING_INDEX, now - grace_s, limit):
            if self.deal(game_id):
                dealt.append(game_id)
            self.store.reindex(STARTING_INDEX, game_id, None)
        return dealt

    def abandon(self, game_id: str, why: str = "", by: str = "operator") -> dict:
        """End a game in play as abandoned: one server-made ``GameAbandoned``
        event in the log (like a forfeit's ``SeatForfeited``), the game
        finished with ``abandoned_result`` (nobody won). Idempotent for a
        game already abandoned; 409 for one not in play."""
        for _attempt in range(5):
            loaded = self.load(game_id)
            status = loaded.meta.get("status")
            if status == "finished":
                if (loaded.meta.get("result") or {}).get("reason") == "abandoned":
                    return self.summary(loaded, SPECTATOR)
                raise Conflict("game_over", _("the game is over"))
            if status != "active":
                raise Conflict("game_not_started", _("the game waits for players: delete it instead"))
            event = {"type": GAME_ABANDONED, "by": by, "why": why}
            try:
                state = loaded.game.evolve(loaded.state, event)
            except (GameError, KeyError, ValueError, TypeError):
                state = loaded.state  # a rules module that refuses the event: the state stays as it was
            now = time.time()
            result = abandoned_result(int(loaded.meta["players"]), why).as_dict()
            move_id = move_id_for(game_id, -1, f"abandon-{loaded.version}")
            record = {"id": move_id, "status": "applied", "auth": "abandon", "version_before": loaded.version,
                      "version": loaded.version + 1, "settled": now, "abandoned_by": by}
            done = self.store.append(game_id, loaded.version, move_id, [event], record, status="finished",
                                     meta={"result": result, "finished": now})
            if done.kind == "ok":
                meta = {**loaded.meta, "version": done.version, "status": "finished", "result": result,
                        "finished": now}
                after = Loaded(meta, loaded.game, state, done.version)
                self.cache.put(game_id, done.version, state)
                self.announce(loaded, after, [event], record)
                return self.summary(self.load(game_id), SPECTATOR)
            # stale: a move got in first; try again on the new state
        raise Conflict("busy", _("the game kept changing; try again"))

    def delete_game(self, game_id: str) -> dict:
        """Remove every key of a game and its index entries (the operator's),
        and forget its failed deliveries."""
        self._meta(game_id)
        forgotten = Failures(self.store.redis).forget_game(game_id)
        return {"keys": self.store.delete_game(game_id), "failures_forgotten": forgotten}

    def compact(self, game_id: str, grace_s: float = 0.0, now: float | None = None) -> str:
        """Compact a finished game into one archive once ``grace_s`` has
        passed since it ended (``Store.build_archive``, ``Store.compact``):
        'ok', 'done' (already), 'not_finished', 'too_soon', 'queued' (a move
        still waits to be settled) or 'moved'. Every read answers the same
        before and after (the store reads the archive where the keys were)."""
        now = time.time() if now is None else now
        meta = self._meta(game_id)
        if meta.get("archived"):
            return "done"
        if meta.get("status") != "finished":
            return "not_finished"
        if float(meta.get("finished") or 0) + grace_s > now:
            return "too_soon"
        built = self.store.build_archive(game_id)
        if built is None:
            return "done"
        version, count, archive, queued = built
        if queued:
            return "queued"
        return self.store.compact(game_id, version, count, archive)

    def expire_open_games(self, ttl_s: float, now: float | None = None, limit: int = 100) -> list[str]:
        """Delete the games created more than ``ttl_s`` ago that are still
        open with no seat taken (``Store.expire_open``); those that started,
        or that somebody joined, leave the index (they never expire)."""
        now = time.time() if now is None else now
        expired = []
        for game_id, _due in self.store.due(OPEN_INDEX, now - ttl_s, limit):
            failures = Failures(self.store.redis).failures_of(game_id)  # before its keys go
            outcome = self.store.expire_open(game_id)
            if outcome == "expired":
                expired.append(game_id)
                for failure_id in failures:  # an invitation that never went, say
                    Failures(self.store.redis).forget(failure_id)
            else:
                self.store.reindex(OPEN_INDEX, game_id, None)
        return expired

    def compact_finished(self, grace_s: float, now: float | None = None, limit: int = 50) -> list[str]:
        """Compact the games of the finished index whose grace has passed;
        an entry for a game not (yet) finished is looked at again later."""
        now = time.time() if now is None else now
        compacted = []
        for game_id, _due in self.store.due(FINISHED_INDEX, now - grace_s, limit):
            meta = self.store.meta(game_id)
            if meta is None or meta.get("archived"):
                self.store.reindex(FINISHED_INDEX, game_id, None)
                continue
            if meta.get("status") != "finished":
                self.store.reindex(FINISHED_INDEX, game_id, now)  # a stale append's entry: look again later
                continue
            outcome = self.compact(game_id, grace_s, now)
            if outcome in ("ok", "done"):
                compacted.append(game_id)
                self.store.reindex(FINISHED_INDEX, game_id, None)
            elif outcome == "too_soon":
                self.store.reindex(FINISHED_INDEX, game_id, float(meta.get("finished") or now))
            else:
                self.store.reindex(FINISHED_INDEX, game_id, now)
        return compacted


def default_title(game, game_id: str, lang: str) -> str:
    """A game's title when its creator gives none: its name and id, in the
    game's language (a title is stored once and read by every seat, like a name)."""
    with reading(lang):
        return f"{game.title_text()} {game_id}"
