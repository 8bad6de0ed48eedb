"""Bot seats made by the server at a game's creation (``bots: {"1": "random"}``).

A bot seat is an ordinary seat: an Ed25519 key the server makes for it, a
bearer token, a name ("Bot (random)" in the game's language) and ``bot``:
its level, which marks it as a bot in every summary, page, mail and record.
The key and token are kept in the game's ``bots`` hash, which only the bot
process (``python -m pbem.bots``) reads; that process then plays the seat
through the public HTTP API like any third party would (pbem/bots/runner.py).
The games with bot seats are listed in ``BOT_GAMES`` (one key) so that it
finds them without scanning.
"""
from __future__ import annotations

import json
import time

from ..errors import ServiceError, Unprocessable
from ..games.i18n import N_, _, reading
from ..store.keys import key
from ..store.seats import invitation_live
from ..trust.signing import generate_key

#: The game types bots play (their rules engines' names).
GAMES_WITH_BOTS = ("carcassonne", "cartoona", "kachina", "wakanda")
#: The set of game ids that have bot seats still to play (read by the bot process).
BOT_GAMES = "pbem:bots:games"
#: Bot level names as a player reads them.
LEVEL_NAMES = {"random": N_("random"), "greedy": N_("greedy"), "search": N_("search")}


#: The bot levels: pbem.bots.LEVELS (the bots sit above the service, which
#: may not import them; tests/test_bots_runner.py checks both say the same).
LEVELS = ("random", "greedy", "search")


def levels() -> tuple[str, ...]:
    return LEVELS


def check_bots(game: str, players: int, bots: dict | None, invited: list[int] = ()) -> dict[int, str]:
    """``{"seat": level}`` checked: ``{seat: level}``, or 422 (nothing stored)."""
    if not bots:
        return {}
    if game.split("@")[0] not in GAMES_WITH_BOTS:
        raise Unprocessable("no_bots", _("the game type {game} has no bots", game=game))
    out: dict[int, str] = {}
    for seat_text, level in bots.items():
        try:
            seat = int(seat_text)
        except (TypeError, ValueError):
            seat = -1
        if not 0 <= seat < players or seat in invited:
            raise Unprocessable("bad_bot_seat", _("seat {seat} cannot be a bot: a game of {players} players has "
                                                  "seats 0 to {last}, and an invited seat is kept for its invitee",
                                                  seat=seat_text, players=players, last=players - 1), seat=seat_text)
        if level not in levels():
            raise Unprocessable("unknown_bot_level", _("there is no bot level {level}: the levels are {levels}",
                                                       level=repr(level), levels=", ".join(levels())),
                                levels=list(levels()))
        out[seat] = level
    return out


def bot_name(level: str, lang: str | None = None) -> str:
    """A bot seat's name: "Bot (search)", in ``lang`` (the game's, stored as
    the seat's name), else the reader's (pages show it so)."""
    if lang is None:
        return _("Bot ({level})", level=_(LEVEL_NAMES.get(level, level)))
    with reading(lang):
        return bot_name(level)


def seat_bots(service, game_id: str, bots: dict[int, str], lang: str) -> None:
    """Make each bot seat: a key, a join, and the credentials kept for the bot process."""
    redis = service.store.redis
    for seat, level in sorted(bots.items()):
        private, public = generate_key()
        joined = service.join(game_id, seat, public, bot_name(level, lang), bot=level)
        redis.hset(key(game_id, "bots"), str(seat), json.dumps(
            {"level": level, "private_key": private, "token": joined["token"]}))
    if bots:
        redis.sadd(BOT_GAMES, game_id)


#: Open games whose free seats bots take at a time (a sorted set: game id -> Unix time).
FILL = "pbem:bots:fill"
#: The level each of those games' bots play at, when the creator chose one (game id -> level).
FILL_LEVELS = "pbem:bots:fill:levels"
#: The level of the bots that fill free seats (``bots_after_s``) unless the creator chose another.
FILL_LEVEL = "greedy"


def check_fill(game: str, level: str | None = None) -> str:
    """The level of the bots that will fill an open game's free seats, or 422 (nothing stored)."""
    if game.split("@")[0] not in GAMES_WITH_BOTS:
        raise Unprocessable("no_bots", _("the game type {game} has no bots", game=game))
    level = FILL_LEVEL if level is None else level
    if level not in levels():
        raise Unprocessable("unknown_bot_level", _("there is no bot level {level}: the levels are {levels}",
                                                   level=repr(level), levels=", ".join(levels())),
                            levels=list(levels()))
    return level


def fill_later(redis, game_id: str, after_s: float, level: str = FILL_LEVEL) -> None:
    """The wait and the level kept together (one transaction): a crash keeps both or neither."""
    pipe = redis.pipeline(transaction=True)
    pipe.hset(FILL_LEVELS, game_id, level)
    pipe.zadd(FILL, {game_id: time.time() + after_s})
    pipe.execute()


def fill_level(redis, game_id: str) -> str:
    level = redis.hget(FILL_LEVELS, game_id)
    return (level.decode() if isinstance(level, bytes) else level) or FILL_LEVEL


def fill_due(service, now: float | None = None) -> list[str]:
    """Bots in the free seats of the open games whose wait is over (the
    bot process calls this each round); the games filled."""
    redis = service.store.redis
    due = [g.decode() for g in redis.zrangebyscore(FILL, 0, time.time() if now is None else now)]
    for game_id in due:
        meta = service.store.meta(game_id)
        level = fill_level(redis, game_id)
        if meta and meta.get("status") == "open":
            held = service.store.seats(game_id)
            invited = service.store.invitations(game_id)
            for seat in range(meta["players"]):
                if seat in held or invitation_live(invited.get(seat), time.time()):
                    continue
                try:
                    seat_bots(service, game_id, {seat: level}, meta.get("lang") or "en")
                except ServiceError:
                    continue  # taken by a person meanwhile (or the game started): theirs
        redis.zrem(FILL, game_id)
        redis.hdel(FILL_LEVELS, game_id)  # after the wait is gone: a crash between leaves a harmless level
    return due


def bot_games(redis) -> list[str]:
    return sorted(g.decode() for g in redis.smembers(BOT_GAMES))


def bot_credentials(redis, game_id: str) -> dict[int, dict]:
    """The bot seats of a game: ``{seat: {level, private_key, token}}``."""
    return {int(s): json.loads(v) for s, v in redis.hgetall(key(game_id, "bots")).items()}


def forget_game(redis, game_id: str) -> None:
    """A game over: its bots have nothing left to play."""
    redis.srem(BOT_GAMES, game_id)
