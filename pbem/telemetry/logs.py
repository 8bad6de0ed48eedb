"""Logging for every pbem process: text for a terminal, or one JSON object a
line (``PBEM_LOG_FORMAT=json``) for a log collector.

Activity lines (one per request, per applied or refused move, per delivery)
are written when ``PBEM_ACCESS_LOG`` is on, which it is by default with JSON
and not with text (at hundreds of moves a second a terminal is no place for
them). They carry their fields as ``extra`` (``game_id``, ``move_id``,
``request_id``...), which both formats show.

A request id comes from the client's ``X-Request-ID`` (when it is a sane
token) or is made here; the API returns it, puts it on the move's queue
entry, and the worker that applies the move logs it again, so one id
follows a move from its request to its outcome.

The standard library's logging, with a formatter of our own, rather than
structlog: gunicorn, RQ, aiohttp and redis-py already log through it, and
one formatter on the root handler shapes their lines and ours alike.
"""
from __future__ import annotations

import contextvars
import itertools
import json
import logging
import re
import sys
import time
import uuid

from ..settings.registry import env

#: The request being served (API threads), for what it queues.
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
#: The request ids of the batch a move drainer is applying, by (game, move id).
batch_request_ids: contextvars.ContextVar[dict | None] = contextvars.ContextVar("batch_request_ids", default=None)

_SANE_ID = re.compile(r"^[A-Za-z0-9._:/+=-]{1,128}$")
#: LogRecord's own attributes: anything else on a record came as ``extra``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}

activity = logging.getLogger("pbem.activity")


#: New request ids: this process's random prefix and a counter (unique
#: without a syscall per request; a uuid4 cost 7 µs of a 350 µs no-op).
_PREFIX = uuid.uuid4().hex[:16]
_COUNTER = itertools.count(1)


def new_request_id() -> str:
    return f"{_PREFIX}{next(_COUNTER):016x}"


def incoming_request_id(header: str | None) -> str:
    """The client's ``X-Request-ID`` if it is a plain token of at most 128
    characters (it goes into logs and a header: nothing that could break a
    line), else a new one."""
    if header and _SANE_ID.match(header):
        return header
    return new_request_id()


#: What a log shows in place of a credential.
REDACTED = "REDACTED"
# Credentials that travel in a URL or a header, and what a log keeps of each:
# a play link's token (its game and seat, to follow a game through the log),
# an invitation's token in a path, a stream ticket or any ``...token``
# query parameter's value, and an Authorization header's credential.
# deploy/nginx.conf's maps do the same for nginx's access log.
_PLAY = re.compile(r"/play/(?:([a-z0-9]{1,64})\.(\d{1,2})\.)?[^/?#\s\"]*")
_INVITE = re.compile(r"/(invitations?|invites?|join)/[^/?#\s\"]+")
_QUERY = re.compile(r"((?:^|[?&;])(?:ticket|secret|[A-Za-z0-9_.-]*token)=)[^&;#\s\"]*", re.I)
_AUTH = re.compile(r"\b(Bearer|Basic|Token)\s+[^\s\",]+", re.I)


def _play(match: re.Match) -> str:
    game, seat = match.group(1), match.group(2)
    return f"/play/{game}.{seat}.{REDACTED}" if game else f"/play/{REDACTED}"


def redact(text: str) -> str:
    """``text`` (a path, a request line, a URL, a header) with the
    credentials it may carry replaced by ``REDACTED``: what every access
    log writes instead of what it was sent."""
    if "/" in text:
        text = _INVITE.sub(rf"/\1/{REDACTED}", _PLAY.sub(_play, text))
    if "=" in text:
        text = _QUERY.sub(rf"\1{REDACTED}", text)
    if " " in text:
        text = _AUTH.sub(rf"\1 {REDACTED}", text)
    return text


def _extras(record: logging.LogRecord) -> dict:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    def __init__(self, process: str):
        super().__init__()
        self.process = process

    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": round(record.created, 6), "level": record.levelname.lower(), "process": self.process,
                "pid": record.process, "logger": record.name, "msg": record.getMessage()}
        line.update(_extras(record))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, separators=(",", ":"))


class TextFormatter(logging.Formatter):
    def __init__(self, process: str):
        super().__init__("%(asctime)s " + process + " %(levelname)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        extras = _extras(record)
        return text + "".join(f" {k}={v}" for k, v in extras.items()) if extras else text


def setup(process: str, level: int = logging.INFO) -> None:
    """One handler on the root logger, to stderr, in the format asked for."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(process) if env("PBEM_LOG_FORMAT") == "json" else TextFormatter(process))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    activity.setLevel(logging.INFO if activity_on() else logging.WARNING)
    activity.propagate = True


def activity_on() -> bool:
    on = env("PBEM_ACCESS_LOG")
    return env("PBEM_LOG_FORMAT") == "json" if on is None else on


def since(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)
