"""Shared parts of the notification tests (no tests here): a real SMTP
server (aiosmtpd) and a real HTTP webhook receiver, both on loopback."""
from __future__ import annotations

import email
import http.server
import socket
import threading
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller
from rq import Queue
from rq.worker import SimpleWorker

from pbem.trust import signing
from pbem.notify import QUEUE, install
from .conftest import POLL_S


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """aiosmtpd handler: keeps every envelope it is given."""

    def __init__(self):
        self.messages: list[dict] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.original_content or envelope.content, policy=default_policy)
        with self.lock:
            self.messages.append({"from": envelope.mail_from, "rcpt": list(envelope.rcpt_tos), "msg": msg,
                                  "raw": envelope.original_content or envelope.content})
        return "250 OK"

    def to(self, address: str, kind: str | None = None) -> list:
        with self.lock:
            return [m["msg"] for m in self.messages
                    if address in m["rcpt"] and (kind is None or m["msg"]["X-Pbem-Kind"] == kind)]


@pytest.fixture
def smtp():
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    inbox.url = f"smtp://127.0.0.1:{port}"
    yield inbox
    controller.stop()


@pytest.fixture
def notify_env(monkeypatch, tmp_path, settings, smtp):
    """The environment the API, the in-process jobs and worker processes read."""
    env = {"REDIS_URL": settings.redis_url, "SMTP_URL": smtp.url, "PBEM_DATA_DIR": str(tmp_path),
           "PBEM_SECRET": "test-secret", "PBEM_WEBHOOK_ALLOW_PRIVATE": "1", "PBEM_WEBHOOK_BACKOFF_BASE": "0.2",
           "PBEM_WEBHOOK_TIMEOUT": "3", "MAIL_DOMAIN": "mail.test", "PBEM_PUBLIC_URL": "http://pbem.test",
           "PBEM_NOTICE_LINGER_MS": "0"}  # in-process job runs return at once
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return env


def run_jobs(client) -> None:
    """Run every job waiting on pbem-notify, in this process."""
    SimpleWorker([Queue(QUEUE, connection=client)], connection=client).work(burst=True, logging_level="WARNING")


def new_game(service, name="wakanda", options=None, title="", names=("Ann", "Bob"), emails=None):
    install(service)
    game = service.create_game(name, len(names), options or {}, title)
    keys, tokens = [], []
    for seat, player in enumerate(names):
        private, public = signing.generate_key()
        mail = emails[seat] if emails else f"p{seat}@example.test"
        tokens.append(service.join(game["id"], seat, public, player, email=mail)["token"])
        keys.append(private)
    return game["id"], keys, tokens


def submit(service, game_id, seat, keys, move, version=None):
    if version is None:
        version = service.load(game_id).version
    return service.submit(game_id, signing.make_envelope(game_id, seat, version, move, keys[seat]))


def to_act(service, game_id) -> list[int]:
    loaded = service.load(game_id)
    return sorted(loaded.game.to_act(loaded.state))


class Receiver:
    """A webhook receiver on loopback: answers the statuses in ``script`` in
    turn (then the last one), keeping every request."""

    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    receiver.requests.append({"headers": {k.lower(): v for k, v in self.headers.items()},
                                              "body": body.decode(), "path": self.path})
                    n = len(receiver.requests)
                status = receiver.script[min(n, len(receiver.script)) - 1]
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": POLL_S},
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
