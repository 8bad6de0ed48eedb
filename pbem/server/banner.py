"""``make run``'s banner: once every part answers, one block with every
address a person needs (the lobby, the API docs, the event streams, where
outgoing mail goes, the SMTP listener, Redis) and how to stop, each said
once. The children do not print their own addresses under ``make run``
(pbem/server/run.py keeps their standard output for themselves).

Everything here reads settings and probes loopback ports; nothing starts."""
from __future__ import annotations

import http.client
import socket
import time
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit, urlunsplit

from ..settings.config import Settings
from ..mail_in.config import MailInSettings
from ..notify.config import NotifySettings
from ..settings.registry import env

#: How long the banner waits for every part to answer before it is printed
#: all the same, naming what does not answer yet.
WAIT_S = 60.0
#: Between two rounds of probes.
EVERY_S = 0.25


def without_credentials(url: str) -> str:
    """A URL as it may be printed: no user, password or query (a REDIS_URL
    or SMTP_URL may carry a password in either)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def reachable(host: str) -> str:
    """The address to probe a listener bound to ``host`` on."""
    return {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


@dataclass(frozen=True)
class Parts:
    """What ``make run`` started, as the banner names it."""

    conf: Settings
    notify: NotifySettings
    mail_in: MailInSettings
    redis_url: str
    redis_note: str
    workers: int
    api_workers: int


def text(parts: Parts, not_answering: list[str] | None = None) -> str:
    conf, notify, mail_in = parts.conf, parts.notify, parts.mail_in
    base = conf.base_url()
    lobby = f"{base}/"
    if conf.public_url:
        lobby += f"  (listening on {conf.host}:{conf.port})"
    if notify.smtp_url:
        outgoing = f"through the relay {without_credentials(notify.smtp_url)}"
    else:
        outgoing = f"to the maildir {notify.data_dir / 'maildir'}  (SMTP_URL names a relay instead)"
    if not env("PBEM_NOTIFY"):
        outgoing += "; turn mails are off (PBEM_NOTIFY=0)"
    rows = [
        ("lobby", lobby),
        ("API docs", f"{base}/docs  (spec /openapi.json, metrics /metrics, readiness /ready)"),
        ("event streams", conf.stream_base_url()),
        ("outgoing mail", outgoing),
        ("incoming mail", f"SMTP on {mail_in.host}:{mail_in.port}, to move+TOKEN@{notify.mail_domain}"),
        ("Redis", f"{without_credentials(parts.redis_url)}  ({parts.redis_note})"),
    ]
    processes = (f"{parts.api_workers} API process{'es' if parts.api_workers != 1 else ''}, {parts.workers} move "
                 f"worker{'s' if parts.workers != 1 else ''}, a background worker, the SMTP listener, the "
                 "stream process and the bot process; any that dies is started again")
    if not_answering:
        head = f"pbem: started, but not answering after {WAIT_S:.0f} s: {', '.join(not_answering)} ({processes})"
    else:
        head = f"pbem is up ({processes})"
    width = max(len(name) for name, _ in rows)
    return "\n".join([head, *(f"  {name:<{width}}  {value}" for name, value in rows), "Ctrl-C stops it all."])


# -- is everything up? ----------------------------------------------------------------------------


def http_ok(host: str, port: int, path: str, timeout: float = 1.0) -> bool:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def smtp_ok(host: str, port: int, timeout: float = 1.0) -> bool:
    """The listener greets (220), and is told goodbye (a connection dropped
    without QUIT would be an error in its log)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            replies = sock.makefile("rb")
            greeting = replies.readline()
            sock.sendall(b"QUIT\r\n")
            replies.readline()
            return greeting.startswith(b"220")
    except OSError:
        return False


def probes(parts: Parts) -> dict[str, Callable[[], bool]]:
    """Each part by the name the banner gives it when it does not answer:
    the API ready (Redis answers, a move worker reports; only alive when
    there are no move workers), the stream process, the SMTP listener."""
    conf, mail_in = parts.conf, parts.mail_in
    api_host = reachable(conf.host)
    ready = "/ready" if parts.workers else "/health"
    return {
        f"the API ({ready})": lambda: http_ok(api_host, conf.port, ready),
        "the stream process": lambda: http_ok(api_host, conf.stream_bind_port(), "/health"),
        "the SMTP listener": lambda: smtp_ok(reachable(mail_in.host), mail_in.port),
    }


class Announcement:
    """Called after each of the supervisor's rounds until it returns True:
    probes the parts (every ``EVERY_S``) and prints the banner once they all
    answer, or after ``WAIT_S`` naming those that do not."""

    def __init__(self, parts: Parts, say: Callable[[str], None], clock: Callable[[], float] = time.monotonic,
                 checks: dict[str, Callable[[], bool]] | None = None):
        self.parts, self.say, self.clock = parts, say, clock
        self.checks = probes(parts) if checks is None else checks
        self.deadline = clock() + WAIT_S
        self.next_probe = clock()
        self.up: set[str] = set()

    def __call__(self) -> bool:
        now = self.clock()
        if now < self.next_probe:
            return False
        self.next_probe = now + EVERY_S
        self.up |= {name for name, check in self.checks.items() if name not in self.up and check()}
        waiting = [name for name in self.checks if name not in self.up]
        if waiting and now < self.deadline:
            return False
        self.say(text(self.parts, waiting))
        return True
