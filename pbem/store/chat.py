"""A game's chat: the players' messages, in a stream of their own beside the
game's log (``pbem:{g:ID}:chat``), never in it: a message does not change
the game's version, so no signed move goes stale because somebody talked.

Each message is one entry whose id is its number (``n-1``, 1, 2, ...), with
its seat, the seat it is to (``""``: everyone), its text, its time and the
game's version when it was said (where it sits among the moves: the record
places it there, a turn mail carries those since the seat's last move).

A message is stored by one script (``_SAY``) that first checks the game is
not over and counts it against the seat's allowance in a window (a counter
key per seat that expires with its window): refused, nothing is stored.
Compaction moves the stream into the game's archive (pbem/store/archives.py);
deleting a game deletes it with its other keys (same hash tag)."""
from __future__ import annotations

from .codec import stream_rows
from .keys import key

#: The part of a game's keys that holds its chat (a stream).
CHAT = "chat"
#: The part of a seat's counter of messages in the current window (+ seat).
CHAT_COUNT = "chat:count:"

# KEYS: meta, chat, the seat's counter
# ARGV: seat, to ("" for everyone), text, time, allowance, window (ms)
# -> {n, version} or {"finished"} / {"too_fast", ms left} / {"unknown"}
_SAY = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'unknown'} end
if status == 'finished' or redis.call('HGET', KEYS[1], 'archived') then return {'finished'} end
local used = tonumber(redis.call('GET', KEYS[3]) or '0')
if used >= tonumber(ARGV[5]) then
  local left = redis.call('PTTL', KEYS[3])
  if left < 0 then left = tonumber(ARGV[6]) end
  return {'too_fast', left}
end
if used == 0 then
  redis.call('SET', KEYS[3], 1, 'PX', ARGV[6])
else
  redis.call('INCR', KEYS[3])
end
local version = redis.call('HGET', KEYS[1], 'version') or '0'
local n = redis.call('XLEN', KEYS[2]) + 1
redis.call('XADD', KEYS[2], n .. '-1', 's', ARGV[1], 'o', ARGV[2], 'x', ARGV[3], 't', ARGV[4], 'v', version)
return {n, version}
"""


def _script(store):
    script = getattr(store, "_chat_say", None)
    if script is None:
        script = store._chat_say = store.redis.register_script(_SAY)
    return script


def say(store, game_id: str, seat: int, to: int | None, text: str, at: float, allowance: int,
        window_ms: int) -> tuple[str, int, int]:
    """Store one message: ('ok', n, version), ('finished', 0, 0),
    ('unknown', 0, 0) or ('too_fast', ms until the window ends, 0)."""
    reply = _script(store)(keys=[key(game_id, "meta"), key(game_id, CHAT), key(game_id, f"{CHAT_COUNT}{seat}")],
                           args=[seat, "" if to is None else to, text, repr(at), allowance, window_ms])
    first = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
    if first in ("finished", "unknown"):
        return first, 0, 0
    if first == "too_fast":
        return first, int(reply[1]), 0
    return "ok", int(first), int(reply[1])


def message(n: int, fields: dict) -> dict:
    """One stream entry as the message the API answers with."""
    def text(name: bytes) -> str:
        raw = fields.get(name, b"")
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    to = text(b"o")
    return {"n": n, "seat": int(text(b"s")), "to": int(to) if to else None, "text": text(b"x"),
            "time": float(text(b"t")), "version": int(text(b"v") or 0)}


def rows(raw: list) -> list[list]:
    """XRANGE's reply as the archive keeps it: [n, seat, to, text, time, version]."""
    out = []
    for rid, fields in stream_rows(raw):
        rid = rid.decode() if isinstance(rid, bytes) else rid
        m = message(int(rid.split("-")[0]), fields)
        out.append([m["n"], m["seat"], m["to"], m["text"], m["time"], m["version"]])
    return out


def from_row(row) -> dict:
    n, seat, to, text, at, version = row
    return {"n": n, "seat": seat, "to": to, "text": text, "time": at, "version": version}


def said(store, game_id: str) -> list[dict]:
    """Every message of a game, in order: from its stream, or from its
    archive once compacted (one atomic read answers which)."""
    raw, archive = store._with_archive(game_id, lambda pipe: pipe.xrange(key(game_id, CHAT)))
    if archive is not None:
        return [from_row(row) for row in archive.chat]
    return [from_row(row) for row in rows(raw)]
