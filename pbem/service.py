"""The service layer: load a game, call the rules, append, tell the world.

The API views and the worker jobs are thin: each loads, calls one function
here, and returns. Everything that is stored goes through ``Store``; every
rule goes through the game's protocol object.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from . import games, signing
from .signing import move_id_for  # noqa: F401  (re-exported: callers name it from here)
from .errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from .games.base import OMNISCIENT, SPECTATOR, GameError, SnapshotOutdated, rng_for, seed_commitment
from .store import Read, Store, Tail, dumps, key

log = logging.getLogger(__name__)

SETUP_MOVE = "setup"
#: What ``Service.actor`` answers for the game's creator token.
CREATOR = "creator"
#: The first wait for an outcome, in the round trip that queues the move:
#: long enough for a busy server, short enough that a drainer that had just
#: gone costs little (a move then waits again, see ``MoveQueue.push_and_wait``).
FIRST_WAIT_S = 0.5


@dataclass(frozen=True)
class Loaded:
    meta: dict
    game: games.Game
    state: Any
    version: int

    @property
    def id(self) -> str:
        return self.meta["id"]

    @property
    def finished(self) -> bool:
        return self.meta.get("status") == "finished"


class StateCache:
    """Recently used states by game, the last few versions of each. States
    are never mutated (the rules are pure), so sharing them between requests
    is safe; keeping a few versions serves the reads that trail the log by a
    move or two (notifications, replays of recent versions). With the newest
    state goes the meta it was current under, when the caller knew it (the
    API's one-round-trip submit needs both, see ``Service._submit_hot``)."""

    def __init__(self, size: int = 512, versions: int = 4):
        self.size, self.versions = size, versions
        self._items: OrderedDict[str, dict[int, Any]] = OrderedDict()
        self._metas: dict[str, dict] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str, at_most: int | None = None) -> tuple[int, Any] | None:
        """The newest cached (version, state), or the newest not after ``at_most``."""
        with self._lock:
            states = self._items.get(game_id)
            if not states:
                return None
            self._items.move_to_end(game_id)
            fitting = [v for v in states if at_most is None or v <= at_most]
            if not fitting:
                return None
            version = max(fitting)
            return version, states[version]

    def current(self, game_id: str) -> tuple[int, Any, dict] | None:
        """The newest (version, state, meta), if its meta is known."""
        with self._lock:
            states, meta = self._items.get(game_id), self._metas.get(game_id)
            if not states or meta is None or meta["version"] != max(states):
                return None
            return meta["version"], states[meta["version"]], meta

    def put(self, game_id: str, version: int, state: Any, meta: dict | None = None) -> None:
        """Keep ``state``; ``meta``, if given, is the game's meta at ``version``."""
        with self._lock:
            states = self._items.setdefault(game_id, {})
            states[version] = state
            if meta is not None and meta.get("version") == version:
                self._metas[game_id] = meta
            if len(states) > self.versions:
                del states[min(states)]
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                gone, _ = self._items.popitem(last=False)
                self._metas.pop(gone, None)


@dataclass(frozen=True)
class SeatProof:
    """A seat its caller proved otherwise than by the seat's bearer token: a
    turn mail's play link, whose HMAC the web pages checked (pbem/web/links.py).
    Passed where a read function takes a token, it reads as that seat, so a
    link holder sees exactly what the seat's token would show."""
    seat: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_of(meta: dict) -> games.Game:
    """The rules a game is played under (by name and version, from its meta)."""
    return games.get(meta["game"], int(meta["rules_version"]))


def seat_of_token(seats: dict[int, dict], token: str | None):
    """The seat a bearer token belongs to, among a game's ``seats``; None
    (spectator) without one. Shared by the API and the event-stream process."""
    if token is None:
        return SPECTATOR
    wanted = token_hash(token)
    for seat, data in seats.items():
        if secrets.compare_digest(data["token_sha256"], wanted):
            return seat
    raise Unauthorized("bad_token", "this token belongs to no seat of this game")


def shown_events(game: games.Game, viewer, finished: bool, rows, names=None) -> list[dict]:
    """Log rows (version, event, move id) as ``viewer`` may see them, public
    once the game is ``finished``: the items of ``GET /games/{id}/events``.
    The event stream (pbem/stream) sends exactly these, so the game's
    ``redact`` stays the one filter of events on every read path. ``names``
    (by seat) name the players in the texts."""
    seen = OMNISCIENT if finished else viewer
    items = []
    for version, event, move_id in rows:
        shown = game.redact(event, seen)
        items.append({"version": version, "move_id": move_id, "event": shown,
                      "text": game.describe(shown, seen, names)})
    return items


def new_game_id() -> str:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


class Service:
    def __init__(self, store: Store, enqueue: Callable[[str, str], None] | None = None,
                 snapshot_every: int = 50, cache: StateCache | None = None,
                 enqueue_wait: Callable | None = None, enqueue_checked: Callable | None = None):
        self.store = store
        self.enqueue = enqueue
        #: Like ``enqueue``, and starts waiting for the outcome in the same
        #: round trip (``MoveQueue.push_wait``), for ``submit(wait=...)``.
        self.enqueue_wait = enqueue_wait
        #: Queues a move only if the game is still at a given version, waiting
        #: as ``enqueue_wait`` does (``MoveQueue.push_checked``): the one
        #: round trip of ``_submit_hot``.
        self.enqueue_checked = enqueue_checked
        self._seats: dict[tuple[str, int], dict] = {}  # write-once (joining is HSETNX)
        self.snapshot_every = snapshot_every
        self.cache = cache or StateCache()
        self._seeds: dict[str, bytes] = {}
        self._memo_lock = threading.Lock()
        #: Called as hook(service, loaded_before, loaded_after, events, move_record)
        #: after every applied move.
        self.after_apply: list[Callable] = []
        #: Called as hook(service, [(loaded_before, loaded_after, events, move_record)])
        #: once per batch of applied moves (notifications subscribe here: one
        #: round trip for the batch).
        self.after_apply_batch: list[Callable] = []
        #: Called as hook(service, loaded, record) when the worker rejects a
        #: queued move (notifications tell the mover).
        self.after_reject: list[Callable] = []

    # ------------------------------------------------------------------ games

    def create_game(self, name: str, players: int, options: dict | None = None, title: str = "",
                    *, seed: bytes | None = None) -> dict:
        """Open a game. ``seed`` is for tests and scripted scenarios that need
        the same deal every time; the API never passes one, so a player can't
        choose (or learn) the seed before the game ends."""
        game, options = self.check_new_game(name, players, options)
        game_id = new_game_id()
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
            "title": title or f"{game.title or game.name} {game_id}",
            "status": "open",
            "version": 0,
            "created": time.time(),
            "seed_sha256": seed_commitment(seed),
            "creator_token_sha256": token_hash(creator_token),
        }
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

    def list_games(self, status: str | None = None, offset: int = 0, limit: int = 50) -> list[dict]:
        ids = self.store.list_games(0, 10_000) if status else self.store.list_games(offset, limit)
        out = []
        for meta in self.store.metas(ids):
            if meta is None or (status and meta.get("status") != status):
                continue
            out.append(self._public_meta(meta))
        return out[offset:offset + limit] if status else out

    def listing(self, status: str, offset: int = 0, limit: int = 50) -> list[dict]:
        """``list_games`` with what a lobby shows of each: the seats' names
        and, for a game in play, who is to act (its state is loaded for that,
        from the cache as a rule). Nothing private: no view."""
        out = []
        for item in self.list_games(status, offset, limit):
            seats = self.store.seats(item["id"])
            item["seats"] = [{"seat": s, "name": seats[s]["name"] if s in seats else None, "joined": s in seats}
                             for s in range(item["players"])]
            item["to_act"] = []
            if item["status"] == "active":
                loaded = self.load(item["id"])
                item["to_act"] = sorted(loaded.game.to_act(loaded.state))
            out.append(item)
        return out

    def join(self, game_id: str, seat: int, public_key: str | None, name: str,
             email: str | None = None, webhook_url: str | None = None) -> dict:
        """Take a seat. ``public_key=None`` makes a mail-only seat (joined by
        an invitation mail): no Ed25519 key, so it moves only by mail reply
        token and signed moves for it are refused."""
        meta = self._meta(game_id)
        if not 0 <= seat < meta["players"]:
            raise NotFound("unknown_seat", f"game {game_id} has seats 0 to {meta['players'] - 1}")
        if meta["status"] != "open":
            raise Conflict("game_started", "the game has started: its seats are taken")
        try:
            public_key = signing.check_public_key(public_key) if public_key is not None else None
        except signing.SignatureError as err:
            raise Unprocessable(err.code, err.message) from None
        token = secrets.token_urlsafe(32)
        data = {"seat": seat, "name": name, "public_key": public_key, "token_sha256": token_hash(token),
                "email": email, "webhook_url": webhook_url, "joined": time.time()}
        if public_key is None:
            data["mail_only"] = True
        if not self.store.claim_seat(game_id, seat, data):
            raise Conflict("seat_taken", f"seat {seat} is taken")
        if len(self.store.seats(game_id)) == meta["players"]:
            self._start(game_id)
        return {"game": game_id, "seat": seat, "token": token}

    def _start(self, game_id: str) -> None:
        """Deal the game once every seat is filled. Idempotent: the append
        names version 0 and the move id ``setup``, so only one joiner wins."""
        loaded = self.load(game_id)
        events = loaded.game.setup(loaded.state, rng_for(self._seed(game_id), 0))
        state = loaded.game.apply(loaded.state, events)
        record = {"id": SETUP_MOVE, "status": "applied", "auth": "setup", "version_before": 0,
                  "version": len(events), "settled": time.time()}
        done = self.store.append(game_id, 0, SETUP_MOVE, events, record, status="active",
                                 meta={"started": time.time()})
        if done.kind == "ok":
            self.cache.put(game_id, done.version, state)
            after = Loaded({**loaded.meta, "status": "active", "version": done.version}, loaded.game, state, done.version)
            self.announce(loaded, after, events, record)

    # ------------------------------------------------------------------ loading

    def meta(self, game_id: str) -> dict:
        """A game's meta; 404 ``unknown_game`` if there is none."""
        return self._meta(game_id)

    def _meta(self, game_id: str) -> dict:
        meta = self.store.meta(game_id) if isinstance(game_id, str) else None
        if meta is None:
            raise NotFound("unknown_game", f"no game {game_id!r}")
        return meta

    #: Seeds remembered (32 bytes each; the oldest go first).
    SEEDS_KEPT = 65536
    #: Seats remembered for the one-round-trip submit (a few hundred bytes each).
    SEATS_KEPT = 16384

    def _seed(self, game_id: str) -> bytes:
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.seed(game_id)
            self._remember_seed(game_id, seed)
        return seed

    def load(self, game_id: str, version: int | None = None, meta: dict | None = None,
             tail: Tail | None = None) -> Loaded:
        """The game's state at ``version`` (default: now): cache, else the
        snapshot, else the start, plus the tail of the log. ``tail`` is what
        the caller read with the meta (``Store.read``), when it could."""
        meta = meta or self._meta(game_id)
        game = games.get(meta["game"], int(meta["rules_version"]))
        current = int(meta["version"])
        target = current if version is None else version
        if not 0 <= target <= current:
            raise NotFound("unknown_version", f"game {game_id} has versions 0 to {current}")
        base_version, state = 0, None
        cached = self.cache.get(game_id, at_most=target)
        if cached:
            base_version, state = cached
        if tail is not None and tail.snapshot and base_version < tail.snapshot[0] <= target:
            restored = self._restore(game, tail.snapshot[1])
            if restored is not None:
                base_version, state = tail.snapshot[0], restored
        elif (state is None or target - base_version > self.snapshot_every) and not (
                tail is not None and tail.after == base_version):  # the tail read covers it
            snap = self.store.snapshot(game_id)
            if snap and base_version < snap[0] <= target:
                restored = self._restore(game, snap[1])
                if restored is not None:
                    base_version, state = snap[0], restored
        if state is None:
            base_version, state = 0, game.start(meta["players"], meta["options"])
        if target > base_version:
            if tail is not None and tail.after == base_version:
                rows = [row for row in tail.rows if row[0] <= target]
            else:
                rows = self.store.events(game_id, base_version, target)
            for _, event, _ in rows:
                state = game.evolve(state, event)
        if target == current:
            self.cache.put(game_id, target, state, meta)
        return Loaded(meta, game, state, target)

    @staticmethod
    def _restore(game: games.Game, data: Any) -> Any:
        """A snapshot's state, or None for one in a format the game can no
        longer restore exactly: the log is replayed instead (it always is
        exact; the next snapshot is written in the new format)."""
        try:
            return game.load(data)
        except SnapshotOutdated:
            return None

    # ------------------------------------------------------------------ who is asking

    def viewer(self, game_id: str, token: str | None, meta: dict | None = None) -> int | None:
        """The seat a bearer token belongs to; None (spectator) without one."""
        if isinstance(token, SeatProof):
            return self._proved(game_id, token.seat)
        if token is None:
            return SPECTATOR
        return seat_of_token(self.store.seats(game_id), token)

    def _proved(self, game_id: str, seat: int) -> int:
        """A proved seat still names a taken seat of the game (a link outlives nothing)."""
        if seat not in self.store.seats(game_id):  # one read: a taken seat is a seat of the game
            raise Unauthorized("bad_link", f"game {game_id} has no seat {seat} taken")
        return seat

    def actor(self, game_id: str, token: str | None) -> str | int:
        """Whom a bearer token speaks for in a game: ``CREATOR`` (the token
        ``create_game`` gave) or a seat; 401 without a token or with another."""
        meta = self._meta(game_id)
        if token is None:
            raise Unauthorized("missing_token", "send the game's creator token or a seat's bearer token")
        creator = meta.get("creator_token_sha256")
        if creator and secrets.compare_digest(creator, token_hash(token)):
            return CREATOR
        return self.viewer(game_id, token)

    def seat_viewer(self, game_id: str, seat: int, token: str | None) -> int:
        """The viewer for a seat's private view: only that seat's token opens it."""
        meta = self._meta(game_id)
        if not 0 <= seat < meta["players"]:
            raise NotFound("unknown_seat", f"game {game_id} has seats 0 to {meta['players'] - 1}")
        if token is None:
            raise Unauthorized("missing_token", "a seat's private view needs that seat's bearer token")
        viewer = self.viewer(game_id, token)
        if viewer != seat:
            raise Forbidden("not_your_seat", f"this token does not belong to seat {seat}")
        return viewer

    @staticmethod
    def _effective(loaded: Loaded, viewer):
        """A finished game is public: nothing is hidden from anyone."""
        return OMNISCIENT if loaded.finished else viewer

    # ------------------------------------------------------------------ reads

    def _public_meta(self, meta: dict) -> dict:
        out = {k: meta.get(k) for k in ("id", "game", "title", "players", "options", "status",
                                         "version", "created", "seed_sha256")}
        out["rules_version"] = int(meta["rules_version"])
        if meta.get("status") == "finished":
            out["result"] = meta.get("result")
        return out

    def seat_names(self, game_id: str, players: int, seats: dict | None = None) -> list:
        """The players' names by seat (None where a seat is free), for the
        games' texts: they name a seat by its player's name."""
        seats = self.store.seats(game_id) if seats is None else seats
        return [seats[s]["name"] if s in seats else None for s in range(players)]

    def summary(self, loaded: Loaded, viewer, whole: bool = False) -> dict:
        game, state = loaded.game, loaded.state
        out = self._public_meta(loaded.meta)
        seats = self.store.seats(loaded.id)
        names = self.seat_names(loaded.id, loaded.meta["players"], seats)
        out["seats"] = [{"seat": s, "name": names[s], "joined": s in seats}
                        for s in range(loaded.meta["players"])]
        # Who the caller is (a seat, or None for a spectator), always; once the
        # game is over everything is public, which ``sees_all`` says.
        out["viewer"] = viewer
        out["sees_all"] = loaded.finished
        if loaded.meta["status"] in ("active", "finished"):
            out["to_act"] = sorted(game.to_act(state))
            seen = self._effective(loaded, viewer)
            out["view"] = game.view(state, seen)
            out["board"] = game.render(state, seen, names, whole=whole)
            result = game.result(state)
            out["result"] = result.as_dict() if result else loaded.meta.get("result")  # a forfeit: the server's result
        else:
            out["to_act"], out["view"], out["board"], out["result"] = [], None, None, None
        if loaded.finished:
            out["seed"] = self._seed(loaded.id).hex()
        return out

    def roster(self, game_id: str) -> dict:
        """The game's type and its seats' names by seat (None: free): public,
        and cheaper than ``get_game`` for a page that only labels a picture."""
        meta = self._meta(game_id)
        seats = self.store.seats(game_id)
        return {"game": meta["game"], "status": meta["status"],
                "names": [seats[s]["name"] if s in seats else None for s in range(meta["players"])]}

    def get_game(self, game_id: str, token: str | None, whole: bool = False) -> dict:
        loaded = self.load(game_id)
        return self.summary(loaded, self.viewer(game_id, token), whole)

    def seat_view(self, game_id: str, seat: int, token: str | None, whole: bool = False) -> dict:
        viewer = self.seat_viewer(game_id, seat, token)
        return self.summary(self.load(game_id), viewer, whole)

    def legal_moves(self, game_id: str, token: str | None) -> dict:
        viewer = self.viewer(game_id, token)
        if viewer is SPECTATOR:
            raise Unauthorized("missing_token", "legal moves are listed for a seat: send its bearer token")
        loaded = self.load(game_id)
        game = loaded.game
        acting = loaded.meta["status"] == "active" and viewer in game.to_act(loaded.state)
        moves = game.legal_moves(loaded.state, viewer) if acting else []
        names = self.seat_names(game_id, loaded.meta["players"]) if moves else None
        return {"version": loaded.version, "seat": viewer, "to_act": acting,
                "moves": [{"move": m, "text": game.describe(m, viewer, names)} for m in moves]}

    def parse(self, game_id: str, token: str | None, text: str) -> dict:
        viewer = self.viewer(game_id, token)
        if viewer is SPECTATOR:
            raise Unauthorized("missing_token", "moves are parsed for a seat: send its bearer token")
        loaded = self.load(game_id)
        names = self.seat_names(game_id, loaded.meta["players"])
        try:
            move = loaded.game.parse(text, loaded.state, viewer, names)
        except GameError as err:
            raise Unprocessable(err.code, err.message, **err.details) from None
        return {"move": move, "text": loaded.game.describe(move, viewer, names), "version": loaded.version}

    def events(self, game_id: str, token: str | None, after: int = 0, limit: int = 100) -> dict:
        meta = self._meta(game_id)
        viewer = self.viewer(game_id, token)
        rows = self.store.events(game_id, after, None, limit)
        names = self.seat_names(game_id, meta["players"]) if rows else None
        items = shown_events(game_of(meta), viewer, meta.get("status") == "finished", rows, names)
        return {"version": meta["version"], "events": items,
                "next_after": rows[-1][0] if rows and rows[-1][0] < meta["version"] else None}

    def state_at(self, game_id: str, token: str | None, version: int) -> dict:
        viewer = self.viewer(game_id, token)
        meta = self._meta(game_id)
        loaded = self.load(game_id, version, meta)
        seen = OMNISCIENT if meta.get("status") == "finished" else viewer
        game = loaded.game
        names = self.seat_names(game_id, meta["players"])
        return {"version": version, "to_act": sorted(game.to_act(loaded.state)),
                "view": game.view(loaded.state, seen), "text": game.render(loaded.state, seen, names)}

    def move_status(self, game_id: str, move_id: str, token: str | None = None, wait: float = 0) -> dict:
        """A move's outcome (optionally waiting for it to settle), for anyone
        who may see the game; its envelope as the caller may see it."""
        meta = self._meta(game_id)
        viewer = self.viewer(game_id, token)
        record = (self.store.wait_settled(game_id, move_id, wait) if wait > 0
                  else self.store.move(game_id, move_id))
        if record is None:
            raise NotFound("unknown_move_id", f"no move {move_id!r} in game {game_id}")
        return self._shown_record(meta, record, viewer)

    def wait_submitted(self, game_id: str, record: dict, wait: float) -> dict:
        """The outcome of a move just submitted, waiting up to ``wait`` s."""
        # The caller sent this envelope: showing it back to them hides nothing.
        return self.store.wait_settled(game_id, record["id"], wait, queued=record)

    #: What a withheld move's record keeps: that it exists and how it ended,
    #: not who sent it, how, what it was, or why it was refused.
    WITHHELD_KEEPS = ("id", "status", "submitted", "settled", "version_before", "version")

    def _shown_record(self, meta: dict, record: dict, viewer, events: list | None = None) -> dict:
        """A move's record as ``viewer`` may see it: whole, or with its
        envelope withheld, as the game's ``redact_move`` says (from the
        events the move made, read here when the caller has not). The
        mover sees their own move, and a finished game hides nothing."""
        envelope = record.get("envelope")
        if not envelope or meta.get("status") == "finished" or envelope.get("player") == viewer:
            return record
        game = games.get(meta["game"], int(meta["rules_version"]))
        if events is None and record.get("status") == "applied" and game.filters_moves:
            rows = self.store.events(meta["id"], record["version_before"], record["version"])
            events = [event for _, event, move_id in rows if move_id == record["id"]]
        if game.redact_move(envelope["move"], envelope["player"], viewer, events) is not None:
            return record
        return {k: record[k] for k in self.WITHHELD_KEEPS if k in record} | {"envelope_withheld": True}

    # ------------------------------------------------------------------ moves: the edge

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
                or seat.get("mail_only") or not seat.get("public_key")):
            return None
        try:
            signing.verify(envelope, seat["public_key"])  # the key never changes once set
        except signing.SignatureError as err:
            raise Unauthorized(err.code, err.message) from None
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
        state = before.state
        for event in events:
            state = before.game.evolve(state, event)
        version = before.version + len(events)
        if record.get("version") != version:
            return
        finished = before.game.result(state) is not None  # its meta changed more than the version: read it
        self.cache.put(before.id, version, state, None if finished else {**before.meta, "version": version})

    def _remember(self, memo: dict, items: dict, limit: int) -> None:
        """Add to a bounded memo (seeds, seats); the oldest entries go first."""
        with self._memo_lock:
            memo.update(items)
            while len(memo) > limit:
                del memo[next(iter(memo))]

    def _submit_read(self, game_id: str, envelope: dict, wait: float) -> dict:
        """``submit`` reading the game first (two round trips)."""
        meta, seat, move_id, tail = self._submittable(game_id, envelope)
        if seat.get("mail_only") or not seat.get("public_key"):
            raise Forbidden("mail_only_seat", "this seat has no signing key: it plays by mail only")
        try:
            signing.verify(envelope, seat["public_key"])
        except signing.SignatureError as err:
            raise Unauthorized(err.code, err.message) from None
        return self._queue(meta, envelope, move_id, tail, "ed25519", wait=wait)

    def submit_trusted(self, game_id: str, player: int, move: dict, expected_version: int,
                       auth: str, nonce: str, **extra) -> dict:
        """Queue a move whose author the server authenticated by other means
        than a signature (a mail reply token, say). It takes the same path
        as a signed move; the record says how it was authenticated."""
        envelope = {"game": game_id, "player": player, "expected_version": expected_version,
                    "move": move, "nonce": nonce}
        meta, _, move_id, tail = self._submittable(game_id, envelope)
        return self._queue(meta, envelope, move_id, tail, auth, **extra)

    def _submittable(self, game_id: str, envelope: dict) -> tuple[dict, dict, str, Tail | None]:
        """Meta, the seat, the move id, and the log since the cached state
        (read in the same round trip), or a 4xx for what can be told now."""
        if not isinstance(game_id, str):
            raise NotFound("unknown_game", f"no game {game_id!r}")
        player = envelope["player"]
        move_id = move_id_for(game_id, player, envelope["nonce"])
        cached = self.cache.get(game_id)
        read = self.store.read(game_id, move_id, cached[0] if cached else None, seats=True)
        meta, seats, existing, tail = read.meta, read.seats, read.move, read.tail
        if meta is None:
            raise NotFound("unknown_game", f"no game {game_id!r}")
        if seats:
            self._remember(self._seats, {(game_id, seat): data for seat, data in seats.items()}, self.SEATS_KEPT)
        if envelope["game"] != game_id:
            raise Unprocessable("game_mismatch", f"the envelope is signed for game {envelope['game']!r}")
        if existing is not None:
            # Before the status checks: a client resending an envelope (after
            # a 503, a timeout) learns that the first try was recorded, even
            # when that move ended the game.
            raise self._nonce_reused(move_id)
        if meta["status"] == "open":
            raise Conflict("game_not_started", "the game waits for players to join")
        if meta["status"] == "finished":
            raise Conflict("game_over", "the game is over")
        if player not in seats:
            raise NotFound("unknown_seat", f"game {game_id} has no seat {player}")
        return meta, seats[player], move_id, tail

    @staticmethod
    def _nonce_reused(move_id: str) -> Conflict:
        return Conflict("nonce_reused", "this nonce was used already: sign the move again with a new nonce",
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
        if expected > loaded.version:
            raise Conflict("stale_version", f"the game is at version {loaded.version}, not {expected}",
                           version=loaded.version)
        if expected < loaded.version and not self._concurrent_ok(loaded, expected, player):
            raise Conflict("stale_version", f"the game has moved on to version {loaded.version}; "
                           f"your move was signed at {expected}", version=loaded.version)
        try:
            game.check_turn(loaded.state, player)
            # A trial decision on the current state: the events are thrown away.
            game.decide(loaded.state, player, envelope["move"], rng_for(b"precheck", loaded.version))
        except GameError as err:
            raise Unprocessable(err.code, err.message, **err.details) from None

    def _concurrent_ok(self, loaded: Loaded, expected: int, player: int) -> bool:
        """A move signed at an older version still stands when the game says
        the seat still answers the same window (several seats answering at
        once, each signing the version it saw: see ``Game.concurrent_ok``)."""
        game = loaded.game
        if game.concurrency == "strict" or game.window(loaded.state) is None:
            return False  # no window now: no need to load the state the move was signed at
        then = self.load(loaded.id, expected, loaded.meta)
        return bool(game.concurrent_ok(then.state, loaded.state, player))

    # ------------------------------------------------------------------ moves: the worker

    def apply_move(self, game_id: str, move_id: str) -> dict:
        """Decide and append one queued move (see ``apply_moves``)."""
        return self.apply_moves([(game_id, move_id)])[0]

    def apply_moves(self, pairs: list[tuple[str, str]], records: dict | None = None) -> list[dict]:
        """Decide and append a batch of queued moves, in order, with two round
        trips to Redis for the whole batch (read everything, see ``_asks``;
        then settle-or-append), or one when the stream brought the
        ``records`` and this process holds the games (see ``_reads``).
        Safe to run any number of times: a settled move is returned as it
        stands. A move whose append finds the log moved on (another worker
        appended first) is decided again on the new state."""
        results: dict[tuple[str, str], dict] = {}
        pending = list(dict.fromkeys(pairs))
        for attempt in range(4):  # three with a read; the first may be from memory
            if not pending:
                break
            steps, plans, heads = [], [], {}
            retry, deferred = [], set()
            for pair, read, from_memory in self._reads(pending, records if attempt == 0 else None):
                game_id, move_id = pair
                if game_id in deferred:
                    retry.append(pair)  # after its game's deferred move, in order
                    continue
                meta, record = read.meta, read.move
                if read.seed is not None:
                    self._remember_seed(game_id, read.seed)
                if record is None or meta is None:
                    log.warning("move %s of game %s is unknown", move_id, game_id)
                    results[pair] = {"id": move_id, "status": "unknown"}
                    continue
                if record["status"] != "queued":
                    results[pair] = record
                    continue
                # Moves of one game in one batch build on each other.
                loaded = heads.get(game_id) or self.load(game_id, meta=meta, tail=read.tail)
                outcome = self._decide(loaded, record)
                if outcome["status"] == "rejected" and from_memory:
                    # Only an append checks the version: a rejection must be
                    # decided on a state read as the last one.
                    deferred.add(game_id)
                    retry.append(pair)
                    continue
                if outcome["status"] == "rejected":
                    steps.append(("settle", game_id, move_id, outcome))
                    plans.append((pair, loaded, None, outcome))
                    continue
                events, state = outcome.pop("_events"), outcome.pop("_state")
                result = loaded.game.result(state)
                version = loaded.version + len(events)
                meta_after = {**loaded.meta, "version": version}
                if result:
                    meta_after.update(status="finished", result=result.as_dict(), finished=time.time())
                after = heads[game_id] = Loaded(meta_after, loaded.game, state, version)
                steps.append(("append", game_id, loaded.version, move_id, events, outcome,
                              "finished" if result else "",
                              {"result": meta_after["result"], "finished": meta_after["finished"]} if result else None))
                plans.append((pair, loaded, after, outcome, events))
            applied = []
            for plan, done in zip(plans, self.store.settle_and_append_many(steps) if steps else []):
                pair, loaded, after, outcome = plan[:4]
                if after is None:
                    results[pair] = done
                    if done.get("settled") == outcome.get("settled"):  # this call settled it
                        for hook in self.after_reject:
                            try:
                                hook(self, loaded, done)
                            except Exception:
                                log.exception("after_reject hook %r failed", hook)
                elif done.kind == "duplicate":
                    results[pair] = done.prior
                elif done.kind == "stale":
                    retry.append(pair)  # decided on a state that was not the last: again
                else:
                    self._appended(loaded, after, plan[4], outcome)
                    applied.append((loaded, after, plan[4], outcome))
                    results[pair] = outcome
            self._run_batch_hooks(applied)
            pending = sorted(retry, key=pending.index)  # in the order they came
        for game_id, move_id in pending:
            results[(game_id, move_id)] = self.store.settle(game_id, move_id, {
                **(self.store.move(game_id, move_id) or {"id": move_id}), "status": "rejected",
                "settled": time.time(), "error": {"code": "busy", "message": "the game kept changing; try again"}})
        return [results[pair] for pair in pairs]

    def _reads(self, pending: list[tuple[str, str]], records: dict | None) -> list[tuple]:
        """(pair, Read, from memory) for each move: from memory when the
        stream brought its queued record and this process holds its game's
        state, meta and seed (what the last append here left), else from
        Redis, all in one round trip. Nothing decided from memory is stored
        unchecked: an append checks the version, a rejection is read again."""
        memory = {}
        for pair in pending if records else ():
            record = records.get(pair)
            hot = self.cache.current(pair[0]) if record is not None and pair[0] in self._seeds else None
            if hot is not None:
                version, _, meta = hot
                memory[pair] = Read(meta, None, record, None, Tail(version, []))
        rest = [pair for pair in pending if pair not in memory]
        read = dict(zip(rest, self.store.reads(self._asks(rest)))) if rest else {}
        return [(pair, memory.get(pair) or read[pair], pair in memory) for pair in pending]

    def _asks(self, pairs: list[tuple[str, str]]) -> list[tuple]:
        """What to read for a batch: each move's record and its game's meta;
        once per game, the log since the cached state and (if unknown) the seed."""
        asks, seen = [], set()
        for game_id, move_id in pairs:
            first = game_id not in seen
            seen.add(game_id)
            cached = self.cache.get(game_id) if first else None
            asks.append((game_id, move_id, cached[0] if cached else None, False,
                         first and game_id not in self._seeds, first))
        return asks

    def _remember_seed(self, game_id: str, seed: bytes) -> None:
        self._remember(self._seeds, {game_id: seed}, self.SEEDS_KEPT)

    def _appended(self, before: Loaded, after: Loaded, events: list, outcome: dict) -> None:
        """Bookkeeping once a move's events are in the log."""
        game_id = after.id
        self.cache.put(game_id, after.version, after.state, after.meta)
        if after.version // self.snapshot_every > before.version // self.snapshot_every:
            self.store.save_snapshot(game_id, after.version, after.game.dump(after.state))
        for hook in self.after_apply:
            self._run_hook(hook, before, after, events, outcome)

    def _decide(self, loaded: Loaded, record: dict) -> dict:
        envelope = record["envelope"]
        player, game = envelope["player"], loaded.game
        base = {**record, "settled": time.time(), "version_before": loaded.version}

        def rejected(code, message, **details):
            error = {"code": code, "message": message}
            if details:
                error["details"] = details
            return {**base, "status": "rejected", "error": error}

        if loaded.meta["status"] != "active":
            return rejected("game_over" if loaded.finished else "game_not_started", "the game is not in play")
        expected = envelope["expected_version"]
        if expected != loaded.version and not (expected < loaded.version
                                               and self._concurrent_ok(loaded, expected, player)):
            return rejected("stale_version", f"the game is at version {loaded.version}; the move was signed at {expected}",
                            version=loaded.version)
        try:
            game.check_turn(loaded.state, player)
            events = game.decide(loaded.state, player, envelope["move"], rng_for(self._seed(loaded.id), loaded.version))
            state = game.apply(loaded.state, events)
        except GameError as err:
            return rejected(err.code, err.message, **err.details)
        except Exception:  # a bug in a rules module must not wedge the queue
            log.exception("rules error in game %s", loaded.id)
            return rejected("rules_error", "the rules engine failed on this move; it was not applied")
        return {**base, "status": "applied", "version": loaded.version + len(events),
                "_events": events, "_state": state}

    def announce(self, before: Loaded, after: Loaded, events: list, record: dict) -> None:
        """Tell every hook about one step appended outside a batch (the
        setup, a forfeit)."""
        for hook in self.after_apply:
            self._run_hook(hook, before, after, events, record)
        self._run_batch_hooks([(before, after, events, record)])

    def _run_batch_hooks(self, applied: list[tuple]) -> None:
        if not applied:
            return
        for hook in self.after_apply_batch:
            try:
                hook(self, applied)
            except Exception:  # notifications never undo an applied move
                log.exception("after_apply_batch hook %r failed", hook)

    def _run_hook(self, hook, before, after, events, record) -> None:
        try:
            hook(self, before, after, events, record)
        except Exception:  # notifications never undo an applied move
            log.exception("after_apply hook %r failed", hook)

    # ------------------------------------------------------------------ the record

    def record_lines(self, game_id: str, token: str | None) -> Iterator[str]:
        """The game record as JSON lines: a header, then every step of the log
        with the signed envelope that caused it, then (once the game is over)
        the seed and the result. While the game runs, events and envelopes are
        filtered for the caller (``redact``, ``redact_move``): a withheld
        envelope leaves ``envelope_withheld`` on its step, and the header lists
        those steps, whose signatures can be checked once the game is over."""
        meta = self._meta(game_id)
        viewer = self.viewer(game_id, token)
        game = games.get(meta["game"], int(meta["rules_version"]))
        finished = meta.get("status") == "finished"
        seen = OMNISCIENT if finished else viewer
        seats = self.store.seats(game_id)
        rows = self.store.events(game_id, 0, meta["version"])
        records = self.store.moves(game_id, (m for _, _, m in rows))
        steps: list[dict] = []
        for version, event, move_id in rows:
            if not steps or steps[-1]["move_id"] != move_id:
                steps.append({"move_id": move_id, "version_before": version - 1, "made": []})
            steps[-1]["made"].append(event)
            steps[-1]["version_after"] = version
        lines = []
        for step in steps:
            made = step.pop("made")
            rec = self._shown_record(meta, records.get(step["move_id"], {}), viewer, made)
            if rec.get("envelope_withheld"):
                step["envelope_withheld"] = True
            else:
                step["auth"] = rec.get("auth")
                if "envelope" in rec:
                    step["envelope"] = rec["envelope"]
            step["events"] = [game.redact(event, seen) for event in made]
            lines.append(step)
        yield dumps({"record": "pbem-game", "format": 1, "id": game_id, "game": game.name,
                     "rules_version": game.version, "players": meta["players"], "options": meta["options"],
                     "title": meta.get("title"), "created": meta.get("created"), "seed_sha256": meta["seed_sha256"],
                     "seats": [{"seat": s, "name": d["name"], "public_key": d["public_key"]}
                               for s, d in sorted(seats.items())],
                     "viewer": viewer, "sees_all": finished,
                     "withheld": [step["move_id"] for step in lines if step.get("envelope_withheld")]})
        for step in lines:
            yield dumps({k: step[k] for k in ("move_id", "version_before", "auth", "envelope", "envelope_withheld",
                                              "events", "version_after") if k in step})
        if finished:
            yield dumps({"end": True, "seed": self._seed(game_id).hex(), "result": meta.get("result"),
                         "version": meta["version"]})
