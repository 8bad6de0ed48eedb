"""Seats handed to a bot for a while (the rules of consent are
pbem/games/handover.py's, pure): a handover move decided here, on the
game's whole log, instead of by the game's ``decide``.

The log is the truth (``SeatHandedOver``/``SeatTakenBack``); what the
server keeps beside it is a projection made again from the log
(``reconcile_handovers``) after every handover event is appended and, for a
process killed in between, by the bot process's every round over the games
in ``HANDOVER_GAMES``:

- the seat's record gets ``handed_over`` (level) and ``bot_key``, which the
  edge accepts signatures from (``seat_keys``) and pages show;
- the game's ``bots`` hash gets the bot's credentials (its private key, a
  bearer token of its own, whose hash is kept in the seat as
  ``bot_token_sha256``), which only the bot process reads; it plays the seat
  through the public API like the server's other bots.

The bot's key pair is made by the worker deciding the move that hands the
seat over, and its private half kept (``bot_keys``: public -> private)
before the event that names the public half is appended: a crash after the
append finds it.
"""
from __future__ import annotations

import json
import secrets

from ..games import handover
from ..games.base import GameError
from ..games.i18n import _
from ..store.keys import key
from ..trust.signing import generate_key
from .common import Loaded, Part, token_hash

#: The games that ever had a seat handed over (the bot process reconciles them).
HANDOVER_GAMES = "pbem:bots:handovers"
#: pbem/service/bots.py's ``BOT_GAMES`` (the service parts import only ``common``;
#: tests/test_handover.py checks both say the same).
BOT_GAMES = "pbem:bots:games"


class Handovers(Part):
    def handover_now(self, game_id: str, version: int) -> handover.Seats:
        """The handovers as the log up to ``version`` stands."""
        return handover.standing(event for _v, event, _m in self.store.events(game_id, 0, version))

    def handovers_if_any(self, game_id: str, version: int) -> handover.Seats:
        """``handover_now``, reading the log only for a game with a handover
        asked or standing (``HANDOVER_GAMES``): a page's cheap question."""
        if not self.store.redis.sismember(HANDOVER_GAMES, game_id):
            return handover.Seats()
        return self.handover_now(game_id, version)

    def server_bot_seats(self, game_id: str) -> set[int]:
        return {seat for seat, data in self.store.seats(game_id).items() if data.get("bot")}

    def decide_handover(self, loaded: Loaded, player: int, move: dict, trial: bool = False) -> tuple[list, object]:
        """A handover move's events and the state after them (the same
        state: handovers are above the game). ``trial``: the edge's check,
        which makes no key."""
        players = int(loaded.meta["players"])
        now = self.handover_now(loaded.id, loaded.version)
        bots = self.server_bot_seats(loaded.id)
        bot_key = None
        if not trial:  # listed before its events are appended: pages and the bot process look here first
            self.store.redis.sadd(HANDOVER_GAMES, loaded.id)
        if isinstance(move, dict) and handover.needs_bot_key(players, now, player, move, bots):
            if trial:
                bot_key = "trial"
            else:
                private, bot_key = generate_key()
                redis = self.store.redis
                pipe = redis.pipeline(transaction=True)
                pipe.hset(key(loaded.id, "bot_keys"), bot_key, private)
                pipe.sadd(HANDOVER_GAMES, loaded.id)
                pipe.execute()
        return handover.decide(players, now, player, move, bots, bot_key), loaded.state

    def handover_stale(self, loaded: Loaded, expected: int, move: dict) -> bool:
        """A handover move signed at ``expected``: never ahead of the game;
        an answer not before the request it answers."""
        if expected > loaded.version:
            return True
        if isinstance(move, dict) and move.get("handover") in ("accept", "refuse"):
            waiting = self.handover_now(loaded.id, loaded.version).waiting
            return waiting is not None and expected < waiting.at
        return False

    def check_bot_signed(self, loaded: Loaded, player: int, bot_key: str) -> None:
        """A move signed by a bot's key: that bot still plays the seat (its
        player may have taken it back since it was signed)."""
        if self.handover_now(loaded.id, loaded.version).handed.get(player, {}).get("bot_key") != bot_key:
            raise GameError("seat_not_handed_over", _("the seat is not handed to this bot (any more)"))

    def reconcile_handovers(self, game_id: str) -> None:
        """The seats' records and the bots' credentials made to say what the
        log says (idempotent: run as often as wanted)."""
        meta = self.store.meta(game_id)
        if not meta:
            return
        redis = self.store.redis
        now_standing = self.handover_now(game_id, int(meta["version"]))
        handed = now_standing.handed
        creds = {int(s): json.loads(v) for s, v in redis.hgetall(key(game_id, "bots")).items()}
        seats = self.store.seats(game_id)
        for seat, held in seats.items():
            now = handed.get(seat)
            if held.get("bot"):
                continue  # the server's own bot seat: never handed over
            if now and (held.get("bot_key") != now["bot_key"] or seat not in creds):
                private = redis.hget(key(game_id, "bot_keys"), now["bot_key"])
                if private is None:
                    continue  # not this server's key (never happens): the seat stays its player's
                token = secrets.token_urlsafe(32)
                data = {**held, "handed_over": now["level"], "bot_key": now["bot_key"],
                        "bot_token_sha256": token_hash(token)}
                if self._update_seat(game_id, seat, data):
                    redis.hset(key(game_id, "bots"), str(seat), json.dumps(
                        {"level": now["level"], "private_key": private.decode() if isinstance(private, bytes)
                         else private, "token": token, "handover": True}))
                    redis.sadd(BOT_GAMES, game_id)
            elif not now and (held.get("bot_key") or seat in creds):
                data = {k: v for k, v in held.items() if k not in ("handed_over", "bot_key", "bot_token_sha256")}
                if self._update_seat(game_id, seat, data):
                    redis.hdel(key(game_id, "bots"), str(seat))
        if meta.get("status") == "finished" or not (handed or now_standing.waiting):
            redis.srem(HANDOVER_GAMES, game_id)
        if not redis.hlen(key(game_id, "bots")):
            redis.srem(BOT_GAMES, game_id)
        for seat in seats:  # this process's copies of the seats: read again
            self._seats.pop((game_id, seat), None)

    def _update_seat(self, game_id: str, seat: int, data: dict) -> bool:
        raw = self.store.seat_raw(game_id, seat)
        if raw is None:
            return False
        return self.store.update_seat(game_id, seat, raw, data) == "ok"  # 'moved': the next reconcile sees it


__all__ = ["GameError", "HANDOVER_GAMES", "Handovers"]
