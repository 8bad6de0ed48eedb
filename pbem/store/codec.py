"""Reading the store's values back: a game's meta hash, its seats, its log's
stream entries.

The decoders are functions, not Store methods, because the event-stream
process (pbem/stream, on redis.asyncio) reads the same keys and must
decode them the same way.
"""
from __future__ import annotations

import json

_META_JSON = {"players", "options", "created", "version", "result", "started", "finished"}
# Numbers are parsed directly (every read decodes a meta: JSON for these
# is most of the cost), anything else JSON-encoded by json.
_META_NUMBERS = {"players": int, "version": int, "created": float, "started": float, "finished": float}


def decode_meta(raw: dict) -> dict:
    """A game's meta hash as Redis returns it (bytes) -> dict."""
    out = {}
    for k, v in raw.items():
        k = k.decode()
        v = v.decode()
        number = _META_NUMBERS.get(k)
        if number is not None:
            try:
                out[k] = number(v)
                continue
            except ValueError:
                pass
        out[k] = json.loads(v) if k in _META_JSON else v
    out.setdefault("version", 0)
    return out


def decode_seats(raw: dict) -> dict[int, dict]:
    return {int(k): json.loads(v) for k, v in raw.items()}


def stream_rows(raw: list) -> list:
    """XRANGE's reply as redis-py parses it, (id, {field: value}), also when
    it came raw ([id, [field, value, ...]]): a cluster client's transaction
    (redis-py 8.1's) applies no stream reply parsing."""
    return [(rid, fields if isinstance(fields, dict) else dict(zip(fields[::2], fields[1::2])))
            for rid, fields in raw]


def decode_log(rows) -> list[tuple[int, dict, str]]:
    """``:log`` entries as XRANGE/XREAD return them -> (version, event, move id)."""
    return [(int(rid.split(b"-")[0]), json.loads(f[b"e"]), f[b"m"].decode()) for rid, f in rows]


def log_id(version: int) -> str:
    """The stream id of event ``version`` (XREAD/XRANGE ``after`` it: entries after this version)."""
    return f"{version}-1"
