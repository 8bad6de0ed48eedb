"""A player's vacation: every deadline of their games pauses for its length.

"The player" is who holds a seat, across games: the seat's Ed25519 public
key, or, for a seat joined by mail (no key), the address its invitation was
answered from (confirmed by that reply). Their games are the active games
where that key (the ``player:H`` index) or that address (a mail-only seat
of an active game) holds a seat. A game that starts during the vacation is
not paused by it.

A vacation is declared for whole days (``PBEM_VACATION_DAY_S`` each) within
an allowance a calendar year (``PBEM_VACATION_DAYS``, the UTC year of its
start). Declaring it checks and stores it in one script (a vacation already
running, or one beyond what is left: refused, nothing stored changed), then
pauses each game's deadline clock (``Notifier.pause``) unless something
else paused it already, and marks the pause with the vacations that hold
it. At its end (a job scheduled for then) or when the player says they are
back, each game it holds and nothing else holds resumes (``Notifier.
resume``): every running deadline keeps the time it had left, so it falls
as late as the vacation was long. The other players of each game are told
both times, by mail and webhook (kind ``vacation``), in their language.

Coming back early gives back the days not begun (a day begun counts).

Ending is safe to repeat: the games are let go first, the record is
deleted last (once: whoever deletes it tells the others). A vacation is in
the due index from its declaration to its end, and each maintenance sweep
ends those past their end, should their end job never have run or have been
cut short (a worker killed in it).

    pbem:{vac:ID}:current      string  the running vacation (JSON)
    pbem:{vac:ID}:used:YEAR    string  vacation days taken in that year
    pbem:vacations:due         zset    [player, vacation id] (JSON) -> its end
"""
from __future__ import annotations

import hashlib
import json
import math
import secrets
import time
from datetime import datetime, timezone

from .. import failpoint
from ..errors import Conflict, Unprocessable
from ..games.i18n import _, reading
from ..store.indexes import Indexes
from ..store.keys import dumps
from . import wording
from .kinds import VACATION
from .notifier import JOB_OPTS

#: A running vacation's key outlives its end by this much (its end job deletes it).
KEEP_S = 30 * 86400
USED_KEEP_S = 400 * 86400
PAGE = 200
DUE = "pbem:vacations:due"

_DECLARE = """
local current = redis.call('GET', KEYS[1])
if current then return {-1, current} end
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
if used + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return {-2, tostring(used)} end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
redis.call('INCRBY', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return {0, tostring(used + tonumber(ARGV[2]))}
"""


def player_of(seat: dict | None) -> str | None:
    """The player holding a seat: ``key:H`` (its public key's hash) or
    ``mail:H`` (its address's hash); None for a free seat."""
    seat = seat or {}
    if seat.get("public_key"):
        return "key:" + hashlib.sha256(seat["public_key"].encode()).hexdigest()[:32]
    if seat.get("email"):
        return "mail:" + hashlib.sha256(seat["email"].strip().lower().encode()).hexdigest()[:32]
    return None


def _holds(seat: dict, player: str) -> bool:
    return player_of(seat) == player


def _key(player: str, what: str) -> str:
    return f"pbem:{{vac:{player}}}:{what}"


def _due(player: str, vacation_id: str) -> str:
    return json.dumps([player, vacation_id])


def _year(ts: float) -> int:
    return datetime.fromtimestamp(ts, tz=timezone.utc).year


def games_of(service, seat: dict) -> dict[str, list[int]]:
    """The active games of the player holding ``seat``, with the seats they hold in each."""
    player = player_of(seat)
    indexes = Indexes(service.store.redis)
    found: dict[str, list[int]] = {}
    offset = 0
    while True:
        ids = (indexes.of_player(seat["public_key"], offset, PAGE) if seat.get("public_key")
               else indexes.games("active", offset, PAGE))
        for game_id in ids:
            meta = service.store.meta(game_id) or {}
            if meta.get("status") != "active":
                continue
            mine = sorted(s for s, data in service.store.seats(game_id).items() if _holds(data, player))
            if mine:
                found[game_id] = mine
        if len(ids) < PAGE:
            return found
        offset += PAGE


class Vacations:
    def __init__(self, notifier):
        self.n = notifier
        self.redis = notifier.service.store.redis

    # -- reading ------------------------------------------------------------

    def current(self, player: str) -> dict | None:
        raw = self.redis.get(_key(player, "current"))
        return json.loads(raw) if raw else None

    def used(self, player: str, year: int) -> int:
        return int(self.redis.get(_key(player, f"used:{year}")) or 0)

    def status(self, seat: dict, now: float | None = None) -> dict:
        player = player_of(seat)
        now = time.time() if now is None else now
        year = _year(now)
        used = self.used(player, year)
        allowance = int(self.n.conf.vacation_days)
        return {"vacation": _public(self.current(player)), "year": year, "allowance_days": allowance,
                "used_days": used, "left_days": max(0, allowance - used)}

    # -- declaring and ending -------------------------------------------------

    def declare(self, seat: dict, days) -> dict:
        """Go on vacation for ``days`` (checked, then stored in one script):
        pause the player's games and have the others told."""
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise Unprocessable("bad_vacation_days", _("a vacation is a whole number of days, 1 or more"))
        player = player_of(seat)
        now = time.time()
        end = now + days * float(self.n.conf.vacation_day_s)
        allowance = int(self.n.conf.vacation_days)
        # Its games named from the start: an end (or the sweep) lets go of each
        # even if this declaring is cut short before it says which it held.
        record = {"id": secrets.token_hex(8), "player": player, "start": now, "end": end, "days": days,
                  "year": _year(now), "games": games_of(self.n.service, seat), "held": []}
        # Due before it is stored (the index is a key of its own, on any shard
        # of a cluster): the sweep ends it should its end job never run.
        due = _due(player, record["id"])
        self.redis.zadd(DUE, {due: end})
        code, value = self.redis.eval(_DECLARE, 2, _key(player, "current"), _key(player, f"used:{record['year']}"),
                                      dumps(record), days, allowance, int(end - now + KEEP_S), USED_KEEP_S)
        value = value.decode() if isinstance(value, bytes) else value
        if int(code) != 0:
            self.redis.zrem(DUE, due)
        if int(code) == -1:
            until = json.loads(value).get("end")
            raise Conflict("vacation_overlaps", _("you are on vacation already: write “back” first"), until=until)
        if int(code) == -2:
            used = int(value)
            raise Unprocessable("vacation_allowance",
                                _("that is more than the vacation days you have left this year ({left} of {allowance})",
                                  left=max(0, allowance - used), allowance=allowance),
                                used=used, allowance=allowance, left=max(0, allowance - used))
        record["job"] = self.n._at(end, "vacation_end", player, record["id"])
        record["held"] = [g for g in record["games"] if self._hold(g, record["id"])]
        self.redis.set(_key(player, "current"), dumps(record), keepttl=True)
        self.n.queue.enqueue("workers.notify_jobs.vacation_told", record["games"], end, [], **JOB_OPTS)
        return record

    def back(self, seat: dict) -> dict:
        """End the player's vacation now (``back``); days not begun are given back."""
        player = player_of(seat)
        record = self.current(player)
        if not record:
            raise Conflict("not_on_vacation", _("you are not on vacation"))
        return self.end(player, record["id"], early=True) or record

    def end(self, player: str, vacation_id: str, early: bool = False) -> dict | None:
        """End one vacation (its job, at its end, or ``back``): once only."""
        record = self.current(player)
        if not record or record["id"] != vacation_id:
            self.redis.zrem(DUE, _due(player, vacation_id))
            return None  # ended already
        # Its games first, each safe to let go twice; the record last: an end
        # cut short is still running, and the next (the sweep's) does it whole.
        for game_id in record.get("games", {}):
            self._release(game_id, vacation_id)
        failpoint.hit("vacation_released")
        if not self.redis.delete(_key(player, "current")):
            return None  # another ending got in first
        self.redis.zrem(DUE, _due(player, vacation_id))
        if early:
            self.n._cancel([record.get("job")])
            begun = max(1, math.ceil((time.time() - record["start"]) / float(self.n.conf.vacation_day_s)))
            unused = record["days"] - min(begun, record["days"])
            if unused > 0:
                self.redis.decrby(_key(player, f"used:{record['year']}"), unused)
        resumed = [g for g in record.get("held", []) if not self._held_by_vacations(g)]
        self.n.queue.enqueue("workers.notify_jobs.vacation_told", record.get("games", {}), None, resumed,
                             **JOB_OPTS)
        record["ended"] = time.time()
        return record

    # -- each game's pause ------------------------------------------------------

    def _hold(self, game_id: str, vacation_id: str) -> bool:
        """Pause a game for a vacation (or join the vacations holding its pause).
        False when something else paused it: its pause is not the vacation's.
        The pause names its vacations by their random ids, never their players
        (a game's deadlines and pause are public: GET /games/{id}/deadline)."""
        store = self.n.store
        paused = store.paused(game_id)
        if paused is None:  # paused with its vacation named at once: never a vacation's pause no vacation holds
            paused = self.n.pause(game_id, "vacation", vacations=[vacation_id])
        if paused.get("by") != "vacation":
            return False
        if vacation_id not in paused.get("vacations", []):
            paused["vacations"] = sorted(set(paused.get("vacations", [])) | {vacation_id})
            store.set_paused(game_id, paused)
        return True

    def due(self, now: float | None = None, limit: int = 100) -> list[str]:
        """End the vacations past their end still running (the sweep's part:
        their end job did not run, or was cut short); their ids."""
        now = time.time() if now is None else now
        ended = []
        for raw in self.redis.zrangebyscore(DUE, "-inf", now, start=0, num=limit):
            player, vacation_id = json.loads(raw)
            if self.end(player, vacation_id):
                ended.append(vacation_id)
        return ended

    def _held_by_vacations(self, game_id: str) -> bool:
        paused = self.n.store.paused(game_id)
        return bool(paused) and paused.get("by") == "vacation"

    def _release(self, game_id: str, vacation_id: str) -> bool:
        """A vacation lets go of a game's pause: resumed when no other holds it."""
        store = self.n.store
        paused = store.paused(game_id)
        if not paused or paused.get("by") != "vacation" or vacation_id not in paused.get("vacations", []):
            return False
        paused["vacations"] = [v for v in paused.get("vacations", []) if v != vacation_id]
        if paused["vacations"]:
            store.set_paused(game_id, paused)
            return False
        self.n.resume(game_id)
        return True

    # -- telling the others ---------------------------------------------------

    def tell(self, games: dict, end: float | None, resumed: list[str]) -> int:
        """Tell the other players of each game: gone until ``end``, or back
        (``end`` None; ``resumed``: the games whose clock runs again)."""
        told = 0
        for game_id, seats in games.items():
            loaded = self.n.service.load(game_id)
            if loaded.meta.get("status") != "active":
                continue
            players = int(loaded.meta["players"])
            names = wording.seat_names(self.n.service.store.seats(game_id), players)
            who = names[seats[0]] if seats and seats[0] < len(names) else ""
            for seat in range(players):
                if seat in seats:
                    continue
                reader = self.n.reader(loaded, seat)
                with reading(reader.lang):
                    if end is not None:
                        message = _("{name} is on vacation until {end}: this game's deadlines are paused until "
                                    "then.", name=who, end=reader.when(end))
                    elif game_id in resumed:
                        message = _("{name} is back from vacation: this game's deadlines run again.", name=who)
                    else:
                        message = _("{name} is back from vacation.", name=who)
                self.n.tell(loaded, seat, VACATION, None, message)
                told += 1
        return told


def _public(record: dict | None) -> dict | None:
    if not record:
        return None
    return {"start": record["start"], "end": record["end"], "days": record["days"],
            "games": sorted(record.get("games", {}))}
