"""What happens at a deadline: the game's default action, applied as an event
through the same path as a player's move.

``pass`` and ``random`` make a move record (``auth: "deadline"``, the same
shape as a signed move but unsigned: the server made it) and push it through
the move pipeline (``service.enqueue``), so the worker decides and appends it
like any move, with the same after-apply hooks. ``pass`` plays a legal move of
type ``pass`` when the rules have one, else the game's ``default_move``;
``random`` is a choice among the legal moves seeded from the server secret,
the game, the version and the seat (so a retried job picks the same move).

``forfeit`` has no counterpart in the game protocol, so the server ends the
game itself: it appends one ``SeatForfeited`` event (rules modules ignore
event types they do not know) and records a result in the game's meta where
the seat that forfeited is placed last and every other seat shares first
place. See docs/notifications.md for the protocol change this stands in for.
"""
from __future__ import annotations

import hashlib
import hmac
import random
import time

from ..errors import ServiceError
from ..games.base import SEAT_FORFEITED, GameError, forfeit_result
from ..games.i18n import N_
from ..service import Loaded, Service, move_id_for
from .kinds import DEADLINE_AUTH

FORFEIT_EVENT = SEAT_FORFEITED
#: the default actions in the words of the mail that tells what was played (translated there)
DEFAULT_ACTION_WORDS = {"pass": N_("the game's default move when a deadline passes"),
                        "random": N_("a legal move chosen at random")}


def seeded_rng(secret: bytes, game_id: str, version: int, seat: int) -> random.Random:
    digest = hmac.new(secret, f"deadline\x00{game_id}\x00{version}\x00{seat}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def choose_move(loaded: Loaded, seat: int, action: str, secret: bytes) -> dict | None:
    """The move made for a seat at its deadline; None means forfeit."""
    game, state = loaded.game, loaded.state
    if action == "forfeit":
        return None
    legal = game.legal_moves(state, seat)
    if not legal:
        return None
    if action == "random":
        return seeded_rng(secret, loaded.id, loaded.version, seat).choice(legal)
    passes = [m for m in legal if m.get("type") == "pass"]
    if passes:
        return passes[0]
    return game.default_move(state, seat)


def submit_default(service: Service, loaded: Loaded, seat: int, move: dict, action: str,
                   since_version: int) -> dict:
    """Queue the server-made move; idempotent per (seat, deadline)."""
    nonce = f"deadline-{since_version}-{loaded.version}"
    if hasattr(service, "submit_trusted"):  # the service's path for unsigned, server-authenticated moves
        try:
            return service.submit_trusted(loaded.id, seat, move, loaded.version, DEADLINE_AUTH, nonce,
                                          default_action=action)
        except ServiceError as err:  # run twice (nonce_reused) or the game moved on meanwhile
            return {"status": "not_queued", "error": {"code": err.code, "message": err.message}}
    move_id = move_id_for(loaded.id, seat, nonce)
    envelope = {"game": loaded.id, "player": seat, "expected_version": loaded.version,
                "move": move, "nonce": nonce}
    record = {"id": move_id, "status": "queued", "auth": DEADLINE_AUTH, "default_action": action,
              "envelope": envelope, "submitted": time.time()}
    if service.store.record_submission(loaded.id, move_id, record):
        if service.enqueue:
            service.enqueue(loaded.id, move_id)
        else:
            service.apply_move(loaded.id, move_id)
    return record


def forfeit(service: Service, loaded: Loaded, seat: int, reason: str = "deadline") -> bool:
    """End the game with ``seat`` placed last. False if the log moved on."""
    players = int(loaded.meta["players"])
    event = {"type": FORFEIT_EVENT, "player": seat, "reason": reason}
    try:
        state = loaded.game.evolve(loaded.state, event)
    except (GameError, KeyError, ValueError, TypeError):
        state = loaded.state  # a rules module that refuses the event: the state stays as it was
    result = forfeit_result(players, seat, reason).as_dict()
    move_id = move_id_for(loaded.id, seat, f"forfeit-{loaded.version}")
    now = time.time()
    record = {"id": move_id, "status": "applied", "auth": "forfeit", "version_before": loaded.version,
              "version": loaded.version + 1, "settled": now, "forfeited": seat}
    done = service.store.append(loaded.id, loaded.version, move_id, [event], record, status="finished",
                                meta={"result": result, "finished": now})
    if done.kind != "ok":
        return False
    service.cache.put(loaded.id, done.version, state)
    meta = {**loaded.meta, "version": done.version, "status": "finished", "result": result, "finished": now}
    after = Loaded(meta, loaded.game, state, done.version)
    service.announce(loaded, after, [event], record)
    return True
