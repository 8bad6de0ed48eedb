"""What gunicorn answers by itself (a NUL in a header, a request line over
4 KB, too many headers) comes in the one JSON error format, and an answer
given before the body was read (a 413) closes the connection and says so.
Over raw sockets, against the server as `make run` starts it."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys

import pytest
import requests

from pbem.server.embedded_redis import free_port

from .conftest import ROOT, wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port, redis_port, mail_port = free_port(), free_port(), free_port()
    env = dict(os.environ, PORT=str(port), PBEM_REDIS_PORT=str(redis_port), PBEM_MAIL_PORT=str(mail_port),
               PBEM_DATA_DIR=str(tmp_path_factory.mktemp("var")), PBEM_WORKERS="1", WEB_CONCURRENCY="1")
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "pbem.server.run"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: _up(f"http://127.0.0.1:{port}/health"), timeout=30, interval=0.2)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _up(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


class Conn:
    """One TCP connection: send raw bytes, read whole responses."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buf = b""

    def send(self, data: bytes) -> "Conn":
        self.sock.sendall(data)
        return self

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buf += chunk
        return bool(chunk)

    def response(self) -> tuple[int, dict, bytes]:
        while b"\r\n\r\n" not in self.buf:
            assert self._fill(), f"closed before a response: {self.buf!r}"
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", 0))
        while len(self.buf) < length:
            assert self._fill()
        body, self.buf = self.buf[:length], self.buf[length:]
        return int(lines[0].split()[1]), headers, body

    def closed_by_server(self) -> bool:
        try:
            return not self.buf and not self._fill()
        except ConnectionResetError:
            return True

    def close(self):
        self.sock.close()


def post(path: str, body: bytes, extra: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{extra}\r\n").encode() + body


def error_of(status: int, headers: dict, body: bytes) -> dict:
    assert headers["content-type"].startswith("application/json"), (status, headers, body)
    error = json.loads(body)["error"]
    assert error["status"] == status and error["code"] and error["message"]
    return error


@pytest.mark.parametrize("request_bytes,status,code", [
    (b"GET /health HTTP/1.1\r\nHost: t\r\nX-Bad: a\x00b\r\n\r\n", 400, "bad_request"),
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414, "request_line_too_long"),
    (b"GET /health HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(120)) + b"\r\n",
     431, "headers_too_large"),
    (b"GET /health HTTP/9.9\r\nHost: t\r\n\r\n", 400, "bad_request"),
    (b"GET /health HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", 400, "bad_request"),
])
def test_gunicorns_own_errors_are_json(server, request_bytes, status, code):
    conn = Conn(server).send(request_bytes)
    got, headers, body = conn.response()
    assert got == status
    assert error_of(got, headers, body)["code"] == code
    assert headers["connection"] == "close" and conn.closed_by_server()
    conn.close()


def test_a_413_closes_the_connection_and_says_so(server):
    big = b'{"title": "' + b"x" * (100 * 1024) + b'"}'
    conn = Conn(server).send(post("/games", big))
    status, headers, body = conn.response()
    assert status == 413 and error_of(status, headers, body)["code"] == "body_too_large"
    assert headers["connection"] == "close"
    assert conn.closed_by_server()
    conn.close()
    # a new connection is served as usual
    conn = Conn(server).send(post("/noop", b"{}"))
    assert conn.response()[0] == 200
    conn.close()


def test_an_error_answered_before_the_body_was_read_closes(server):
    """No token: 401 before the (small) body is looked at."""
    conn = Conn(server).send(post("/games/nosuchgame/pause", b'{"x": 1}'))
    status, headers, body = conn.response()
    assert status in (401, 404) and headers["connection"] == "close" and conn.closed_by_server()
    conn.close()


def test_answers_after_reading_the_body_keep_the_connection(server):
    conn = Conn(server)
    for body, status in [(b"{}", 200), (b'{"bad json', 400), (b"[" * 100 + b"]" * 100, 400)]:
        path = "/noop" if status == 200 else "/games"
        got, headers, _ = conn.send(post(path, body)).response()
        assert got == status and headers["connection"] == "keep-alive", (body[:20], headers)
    got, headers, body = conn.send(post("/games", b'{"game": "wakanda", "players": 2}')).response()
    assert got == 201 and headers["connection"] == "keep-alive"
    conn.close()


def test_a_large_unread_body_closes_even_on_success(server):
    """More than gunicorn would skip: closed, and said so, not silently."""
    conn = Conn(server).send(post("/noop", b"x" * (100 * 1024)))
    status, headers, _ = conn.response()
    assert status == 200 and headers["connection"] == "close" and conn.closed_by_server()
    conn.close()


def test_a_chunked_body_left_unread_by_an_error_closes(server):
    conn = Conn(server).send(b"POST /games/nosuchgame/pause HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
                             b"Content-Type: application/json\r\n\r\n5\r\n{\"a\":\r\n")  # more chunks to come
    status, headers, body = conn.response()
    assert status in (401, 404) and error_of(status, headers, body)
    assert headers["connection"] == "close" and conn.closed_by_server()
    conn.close()


def test_tracked_counts_what_was_read():
    import io

    from pbem.server.http_worker import Tracked

    body = Tracked(io.BytesIO(b"x" * 100_000), "100000")
    body.read(1000)
    assert not body.done and body.must_close(200) and body.must_close(400)
    while body.read(30_000):
        pass
    assert body.done
    small = Tracked(io.BytesIO(b"{}"), "2")
    assert not small.must_close(200) and small.must_close(401)  # gunicorn skips it; an error closes
    small.read()
    assert small.done
    lines = Tracked(io.BytesIO(b"a\nb\n"), "4")
    assert list(lines) == [b"a\n", b"b\n"] and lines.done
    assert Tracked(io.BytesIO(b""), None).must_close(200)  # chunked and unread: its length unknown, close
