"""gunicorn's threaded worker, answering in the API's one error format.

    gunicorn pbem.server.wsgi:app --worker-class pbem.server.http_worker.Worker --threads 16

What it changes from ``gthread``:

* gunicorn answers some requests itself, before the application sees them
  (a NUL in a header, a request line over 4 KB, too many headers, a bad
  chunk): as HTML. Here they are ``{"error": {"code", "message", "status"}}``
  like every other error, with ``Connection: close`` as before.
* An answer given before the body was read to its end (a 413, a 401 on a
  POST) says ``Connection: close`` and the connection is closed: gunicorn
  would otherwise announce keep-alive, then either skip the unread body
  (at most 64 KB of it) or, past that, close the connection anyway, so the
  client's next request on it would die. A successful answer that left a
  small body unread (``POST /noop``) keeps the connection.
"""
from __future__ import annotations

import json

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

#: gunicorn skips at most this much of a body the application left unread
#: (``gunicorn.http.parser._DRAIN_MAX_BYTES``); past it, it closes.
DRAIN_LIMIT = 64 * 1024

#: Codes for the statuses gunicorn answers by itself.
GUNICORN_CODES = {400: "bad_request", 403: "forbidden", 414: "request_line_too_long", 417: "expectation_failed",
                  431: "headers_too_large", 500: "internal_error", 501: "not_implemented"}


def error_bytes(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP response in the one error format."""
    code = GUNICORN_CODES.get(status, "bad_request" if 400 <= status < 500 else "internal_error")
    text = f"{reason}: {message}" if message else reason
    body = json.dumps({"error": {"code": code, "message": text, "status": status}}, separators=(",", ":")).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def write_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """Replaces ``gunicorn.util.write_error`` (same signature)."""
    util.write_nonblock(sock, error_bytes(status_int, reason, mesg))


class Worker(ThreadWorker):
    def init_process(self):
        # gunicorn's handle_error writes through this one module function
        # and has no hook for the format: replaced in this worker process
        # only (the arbiter never writes an error).
        util.write_error = write_error
        super().init_process()

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = closing(self.wsgi)


def closing(app):
    """Wrap a WSGI app: watch how much of the body it reads; when it has
    answered without reading it to its end with an error (or left more than
    gunicorn would skip), tell gunicorn's response (whose ``start_response``
    this is) to close. gunicorn sends the headers with the first piece of
    the body, after the app returns: ``force_close`` then still makes them
    say ``Connection: close``."""

    def wrapped(environ, start_response):
        chunked = "HTTP_TRANSFER_ENCODING" in environ
        if not chunked and environ.get("CONTENT_LENGTH", "0") in ("", "0"):
            return app(environ, start_response)  # no body: nothing to watch (most reads)
        body = environ["wsgi.input"] = Tracked(environ["wsgi.input"], None if chunked else environ["CONTENT_LENGTH"])
        result = app(environ, start_response)
        if not body.done:
            response = getattr(start_response, "__self__", None)
            status = getattr(response, "status_code", None)
            if status and not response.headers_sent and body.must_close(status):
                response.force_close()
        return result

    return wrapped


class Tracked:
    """``wsgi.input``, noting whether the application read it to its end.
    The length is parsed only when an answer needs it (cheap on the hot path)."""

    __slots__ = ("_body", "_length", "_read", "done")

    def __init__(self, body, length: str | None):
        self._body, self._length, self._read, self.done = body, length, 0, False

    def must_close(self, status: int) -> bool:
        """Whether, the body not read to its end, the connection must close."""
        try:
            left = int(self._length) - self._read if self._length is not None else None
        except ValueError:
            left = None
        if left is not None and left <= 0:
            return False
        return status >= 400 or left is None or left > DRAIN_LIMIT

    def read(self, size=None):
        data = self._body.read(size)
        if size is None or size < 0 or (not data and size != 0):
            self.done = True  # a read to the end (werkzeug's get_data), or an empty read: the end
        else:
            self._read += len(data)
        return data

    def readline(self, size=None):
        line = self._body.readline(size)
        if not line and size != 0:
            self.done = True
        self._read += len(line)
        return line

    def readlines(self, hint=None):
        lines = self._body.readlines(hint)
        self.done = True
        return lines

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line
