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
