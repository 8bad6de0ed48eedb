"""Server-sent events as pbem sends them (the WHATWG ``text/event-stream``
format). Each frame's ``data`` is one line of JSON (JSON escapes newlines),
so no field ever needs splitting."""
from __future__ import annotations

from ..store import dumps

#: Sent first: how long a browser's EventSource waits before reconnecting.
RETRY = b"retry: 2000\n\n"
#: A comment line: keeps proxies from timing an idle stream out, and finds
#: dead connections (a write to one fails).
KEEPALIVE = b": keep-alive\n\n"


def event_frame(item: dict) -> bytes:
    """A log event, shown as ``GET /games/{id}/events`` shows it; its id is
    the game version, so ``Last-Event-ID`` resumes after it."""
    return b"id: %d\nevent: event\ndata: %s\n\n" % (item["version"], dumps(item).encode())


def end_frame(version: int, result) -> bytes:
    """The game is over: nothing more will come. No ``id``, so a client's
    Last-Event-ID stays the last event's version."""
    return b"event: end\ndata: %s\n\n" % dumps({"status": "finished", "version": version, "result": result}).encode()


# -- chat (docs/chat.md): only on a stream that asks for it (``?chat=``) -----
#
# On such a stream every frame's id names both cursors, ``<version>:<n>``:
# the last game version and the last chat message number sent so far, so a
# reconnecting EventSource's Last-Event-ID resumes both, none lost or
# doubled. The game's events keep their data (and versions) as they are.


def chat_body(message: dict) -> bytes:
    """A chat message (as ``GET /games/{id}/chat`` lists it), without its id."""
    return b"event: chat\ndata: %s\n\n" % dumps(message).encode()


def chat_frame(version: int, n: int, body: bytes) -> bytes:
    return b"id: %d:%d\n%s" % (version, n, body)


def with_id(frame: bytes, version: int, n: int) -> bytes:
    """An event frame (``event_frame``) with the id of a stream with chat."""
    return b"id: %d:%d\n%s" % (version, n, frame[frame.index(b"\n") + 1:])
