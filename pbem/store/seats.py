"""Seats and invitations: a seat taken first come in one script that reads
the seat's invitation too, so a seat reserved for an invitation is never
taken by anyone else; a held seat's new token; invitations made and withdrawn."""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

from .codec import decode_seats
from .keys import INVITATIONS, STARTING_INDEX, dumps, key

# Take a seat, first come, only while the game exists (a game expiring at the
# same moment leaves no orphaned seats hash), is open, and the seat is not
# reserved for a live invitation other than the one presented. The invitation
# is read here, in the claim's own script, so no join can slip between a
# check and the write. The claim that fills the last seat also names the game
# in the starting index, in the same step: should its joiner die before the
# deal is appended, a later read, a retried join or the sweep deals it.
# KEYS: meta, seats, invitations, starting index
# ARGV: seat, data, invitation ('' none presented, else 'n:' .. its nonce), now
# Reply: {'ok', '1' when the seat was the last}, {'taken', the holder's JSON},
# {'invited', the invitation's JSON}, {'withdrawn'}, {'expired'}, {'started'}, {'gone'}
_CLAIM_SEAT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held then return {'taken', held} end
if redis.call('HGET', KEYS[1], 'status') ~= 'open' then return {'started'} end
local raw = redis.call('HGET', KEYS[3], ARGV[1])
local inv = raw and cjson.decode(raw)
local live = inv and not (type(inv['expires']) == 'number' and inv['expires'] <= tonumber(ARGV[4]))
if ARGV[3] ~= '' then
  local nonce = inv and type(inv['nonce']) == 'string' and inv['nonce'] or ''
  if not inv or 'n:' .. nonce ~= ARGV[3] then return {'withdrawn'} end
  if not live then return {'expired'} end
elseif live then
  return {'invited', raw}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('HLEN', KEYS[2]) >= tonumber(redis.call('HGET', KEYS[1], 'players')) then
  redis.call('ZADD', KEYS[4], ARGV[4], redis.call('HGET', KEYS[1], 'id'))
  return {'ok', '1'}
end
return {'ok', '0'}
"""

# Give a held seat a new token hash: only if the seat is still as it was read
# (its JSON, whole), and, for a signed token request, only once per nonce
# (the nonce's key lives as long as a request may be replayed).
# KEYS: seats, nonce key (or the seats key again: no nonce)
# ARGV: seat, the seat's JSON as read, its new JSON, the nonce's time to live ('' no nonce)
_REISSUE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 'moved' end
if ARGV[4] ~= '' and not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[4]) then return 'reused' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 'ok'
"""

# Record an invitation for a seat: not when the seat is taken, nor over a
# live invitation (an expired one is replaced).
# KEYS: meta, seats, invitations   ARGV: seat, invitation, now
_INVITE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'open' then return 'started' end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 'taken' end
local raw = redis.call('HGET', KEYS[3], ARGV[1])
if raw then
  local inv = cjson.decode(raw)
  if not (type(inv['expires']) == 'number' and inv['expires'] <= tonumber(ARGV[3])) then return 'invited' end
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 'ok'
"""

# Withdraw a seat's invitation, unless its invitee has joined.
# KEYS: seats, invitations   ARGV: seat
_WITHDRAW = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'taken' end
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return 'none' end
redis.call('HDEL', KEYS[2], ARGV[1])
return raw
"""


@dataclass(frozen=True)
class Claimed:
    """What a claim did (``Store.claim``): ``ok`` (``last``: it filled the
    game's last seat), or why not: ``taken`` (``held``: the holder's seat
    data), ``invited`` (``invitation``: the live invitation reserving it),
    ``withdrawn`` (the invitation presented is no longer the seat's),
    ``expired`` (it is, but it has expired), ``started``, ``gone``."""

    kind: str
    last: bool = False
    held: dict | None = None
    held_raw: str | None = None
    invitation: dict | None = None


def invitation_live(invitation: dict | None, now: float | None = None) -> bool:
    """Whether an invitation still reserves its seat (it has not expired):
    the rule the claim script applies, for readers."""
    if invitation is None:
        return False
    expires = invitation.get("expires")
    return not (isinstance(expires, (int, float)) and expires <= (time.time() if now is None else now))


class SeatsMixin:
    """``Store``'s seats and invitations."""

    def claim_seat(self, game_id: str, seat: int, data: dict) -> bool:
        """Take a seat (first come); False if it is taken, reserved for an
        invitation, or the game is gone (``claim`` says which)."""
        return self.claim(game_id, seat, data).kind == "ok"

    def claim(self, game_id: str, seat: int, data: dict, invitation_nonce: str | None = None,
              now: float | None = None) -> Claimed:
        """Take a seat in one script (``_CLAIM_SEAT``): first come, and not
        one reserved for a live invitation unless ``invitation_nonce`` is
        that invitation's (``""`` for an invitation made before nonces)."""
        now = time.time() if now is None else now
        reply = self._claim_seat(keys=[key(game_id, "meta"), key(game_id, "seats"), key(game_id, INVITATIONS),
                                       self.index_key(STARTING_INDEX, game_id)],
                                 args=[str(seat), dumps(data), "" if invitation_nonce is None else
                                       f"n:{invitation_nonce}", repr(now)])
        kind = reply[0].decode()
        if kind == "ok":
            if data.get("public_key"):
                # A projection (pbem/store/indexes.py): should this be lost, a rebuild finds the seat.
                pipe = self.redis.pipeline(transaction=False)
                self.indexes.on_join(pipe, game_id, data["public_key"], data.get("joined") or now)
                pipe.execute()
            return Claimed(kind, last=reply[1] == b"1")
        if kind == "taken":
            return Claimed(kind, held=json.loads(reply[1]), held_raw=reply[1].decode())
        if kind == "invited":
            return Claimed(kind, invitation=json.loads(reply[1]))
        return Claimed(kind)

    def reissue(self, game_id: str, seat: int, held_raw: str, data: dict, nonce: str | None = None,
                nonce_ttl_s: int = 0) -> str:
        """Store a held seat's new data (a new token hash) if the seat is
        still ``held_raw`` and, with ``nonce``, the nonce was not used in the
        last ``nonce_ttl_s`` seconds: 'ok', 'moved' or 'reused'."""
        nonce_key = key(game_id, f"seat-nonce:{seat}:{hashlib.sha256(nonce.encode()).hexdigest()[:32]}") \
            if nonce is not None else key(game_id, "seats")
        return self._reissue(keys=[key(game_id, "seats"), nonce_key],
                             args=[str(seat), held_raw, dumps(data), str(max(1, int(nonce_ttl_s))) if nonce
                                   is not None else ""]).decode()

    def update_seat(self, game_id: str, seat: int, held_raw: str, data: dict) -> str:
        """Store a held seat's new data (its language, say) if the seat is
        still ``held_raw``: 'ok', or 'moved' (read it again)."""
        return self.reissue(game_id, seat, held_raw, data)

    # -- invitations ---------------------------------------------------------

    def save_invitation(self, game_id: str, seat: int, invitation: dict, now: float | None = None) -> str:
        """Record a seat's invitation (``_INVITE``): 'ok', 'taken' (the seat
        is held), 'invited' (a live invitation has it) or 'started'."""
        return self._invite(keys=[key(game_id, "meta"), key(game_id, "seats"), key(game_id, INVITATIONS)],
                            args=[str(seat), dumps(invitation), repr(time.time() if now is None else now)]).decode()

    def withdraw_invitation(self, game_id: str, seat: int) -> dict | str:
        """Remove a seat's invitation: the invitation removed, or 'taken'
        (its invitee joined) or 'none'."""
        reply = self._withdraw(keys=[key(game_id, "seats"), key(game_id, INVITATIONS)], args=[str(seat)])
        return reply.decode() if reply in (b"taken", b"none") else json.loads(reply)

    def invitations(self, game_id: str) -> dict[int, dict]:
        """Every invitation of a game, live or expired, by seat."""
        return {int(k): json.loads(v) for k, v in self.redis.hgetall(key(game_id, INVITATIONS)).items()}

    def invitation(self, game_id: str, seat: int) -> dict | None:
        raw = self.redis.hget(key(game_id, INVITATIONS), str(seat))
        return json.loads(raw) if raw else None

    def seat_raw(self, game_id: str, seat: int) -> str | None:
        """One seat's JSON as stored (None: free, or the game is compacted)."""
        raw = self.redis.hget(key(game_id, "seats"), str(seat))
        return raw.decode() if raw is not None else None

    def seats(self, game_id: str) -> dict[int, dict]:
        raw, archive = self._with_archive(game_id, lambda pipe: pipe.hgetall(key(game_id, "seats")))
        if not raw and archive is not None:
            return archive.decoded_seats()
        return decode_seats(raw)
