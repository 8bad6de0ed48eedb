"""Rematches as stored: one hash per finished game, ``pbem:{g:ID}:rematch``
(in the game's slot, and not one of the keys compaction drops), and the
index of rematches still waiting for answers, ``pbem:rematches`` (offered
time), which the sweep reads to start (or call off) those out of time.

Fields: ``offered`` (Unix seconds) and ``by`` (the seat that offered), one
``sN`` per seat that answered (``yes`` or ``no``), and once decided
``closed`` (``started`` or ``off``), ``closed_at`` and, when started,
``game`` (the new game's id, chosen before it is created, so that whoever
finishes a creation cut short makes that same game).

Every answer is one script: a second answer of a seat, an answer after the
decision, or a refusal with nothing offered change nothing."""
from __future__ import annotations

import json

from .keys import key

INDEX = "pbem:rematches"

# KEYS: the game's rematch hash   ARGV: seat, yes|no, now
_ANSWER = """
if redis.call('HEXISTS', KEYS[1], 'closed') == 1 then return 'closed' end
if redis.call('HEXISTS', KEYS[1], 's' .. ARGV[1]) == 1 then return 'answered' end
local first = 0
if redis.call('HEXISTS', KEYS[1], 'offered') == 0 then
  if ARGV[2] ~= 'yes' then return 'not_offered' end
  redis.call('HSET', KEYS[1], 'offered', ARGV[3], 'by', ARGV[1])
  first = 1
end
redis.call('HSET', KEYS[1], 's' .. ARGV[1], ARGV[2])
if first == 1 then return 'offered' end
return 'ok'
"""

# KEYS: the game's rematch hash   ARGV: started|off, now, the new game's id (or '')
_CLOSE = """
if redis.call('HEXISTS', KEYS[1], 'closed') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'closed', ARGV[1], 'closed_at', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'game', ARGV[3]) end
return 1
"""


class Rematches:
    def __init__(self, client):
        self.redis = client
        self._answer = client.register_script(_ANSWER)
        self._close = client.register_script(_CLOSE)

    def read(self, game_id: str) -> dict:
        """The rematch of a game as stored: {} when none was offered."""
        raw = self.redis.hgetall(key(game_id, "rematch"))
        return {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
                for k, v in raw.items()}

    def answer(self, game_id: str, seat: int, yes: bool, now: float) -> str:
        """``offered`` (the first yes), ``ok``, or why nothing was stored:
        ``answered``, ``closed``, ``not_offered``."""
        out = self._answer(keys=[key(game_id, "rematch")], args=[seat, "yes" if yes else "no", repr(now)])
        out = out.decode() if isinstance(out, bytes) else out
        if out == "offered":
            self.redis.zadd(INDEX, {game_id: now})
        return out

    def close(self, game_id: str, outcome: str, now: float, new_game: str | None = None) -> bool:
        """Decide the rematch once: True for the caller that decided it."""
        won = bool(self._close(keys=[key(game_id, "rematch")], args=[outcome, repr(now), new_game or ""]))
        if outcome != "started":  # a started one stays listed until its game is made (``made``)
            self.made(game_id)
        return won

    def made(self, game_id: str) -> None:
        self.redis.zrem(INDEX, game_id)

    def due(self, before: float, limit: int = 100) -> list[str]:
        """Games whose rematch was offered before ``before`` and is undecided."""
        return [g.decode() if isinstance(g, bytes) else g
                for g in self.redis.zrangebyscore(INDEX, "-inf", before, start=0, num=limit)]

    def channels(self, game_id: str) -> dict[int, dict]:
        """Each seat's notification channels as stored (pbem/notify/store.py's
        ``notify:seats``): copied to the new game with the seats."""
        raw = self.redis.hgetall(key(game_id, "notify:seats"))
        return {int(k): json.loads(v) for k, v in raw.items()}

    def copy_channels(self, game_id: str, channels: dict[int, dict]) -> None:
        if channels:
            self.redis.hset(key(game_id, "notify:seats"),
                            mapping={str(seat): json.dumps(ch, sort_keys=True) for seat, ch in channels.items()})
