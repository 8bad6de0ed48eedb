"""``pbem mail-in``: the SMTP listener (aiosmtpd).

Thin: it accepts a recipient only when it is a genuine token address
(``move+TOKEN@MAIL_DOMAIN``; anything else gets ``550`` at RCPT time),
refuses messages over the size limit (``SIZE`` in EHLO, ``552``), stores the
raw message in Redis and enqueues one ``pbem-mail`` job. It never parses
the body or touches a game.
"""
from __future__ import annotations

import logging
import signal
import threading

import redis
from aiosmtpd.controller import Controller
from rq import Queue

from ..store.connections import connect, rq_connection
from ..notify.config import NotifySettings
from ..store import key
from . import QUEUE
from .addresses import read_recipient
from .subscription_tokens import NO_GAME
from .config import MailInSettings
from .store import MailStore

log = logging.getLogger(__name__)

MAX_RECIPIENTS = 10
JOB_OPTS = {"result_ttl": 0, "failure_ttl": 7 * 86400, "job_timeout": 300}


def accept(client: redis.Redis, raw: bytes, recipients: list[str], conf: MailInSettings) -> str:
    """Store a message and enqueue its processing; returns the raw id."""
    raw_id = MailStore(client).put_raw(raw, conf.raw_ttl)
    Queue(QUEUE, connection=rq_connection(client)).enqueue("workers.mail_jobs.process", raw_id, recipients, **JOB_OPTS)
    return raw_id


class InboundHandler:
    def __init__(self, client: redis.Redis, conf: MailInSettings | None = None,
                 notify_conf: NotifySettings | None = None):
        self.client = client
        self.conf = conf or MailInSettings()
        self.nconf = notify_conf or NotifySettings()
        self.secret = self.nconf.secret()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        found = read_recipient(self.secret, self.nconf.mail_domain, address)
        if found is None:
            return "550 5.1.1 No such mailbox: mail to move+TOKEN addresses of a game only"
        try:
            # the lobby's and a confirmation's address name no game (pbem/mail_in/subscription_tokens.py)
            known = found.game_id == NO_GAME or bool(self.client.exists(key(found.game_id, "meta")))
            if known and not MailStore(self.client).take_slot(found.game_id, found.seat, self.conf.per_hour):
                return "450 4.7.1 Too many mails for this address this hour; try again later"
        except redis.RedisError:
            return "451 4.3.0 Try again later"
        if not known:
            return "550 5.1.1 No such mailbox: that game is unknown here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="surrogateescape")
        if len(raw) > self.conf.max_bytes:
            return "552 5.3.4 Message too big"
        try:
            raw_id = accept(self.client, raw, list(envelope.rcpt_tos), self.conf)
        except redis.RedisError as err:
            log.warning("could not queue inbound mail: %s", err)
            return "451 4.3.0 Try again later"
        return f"250 2.0.0 Queued as {raw_id}"


def controller(client: redis.Redis, conf: MailInSettings | None = None,
               notify_conf: NotifySettings | None = None, port: int | None = None) -> Controller:
    conf = conf or MailInSettings()
    handler = InboundHandler(client, conf, notify_conf)
    return Controller(handler, hostname=conf.host, port=conf.port if port is None else port,
                      data_size_limit=conf.max_bytes, ident="pbem mail-in")


def main(argv: list[str] | None = None) -> int:
    from ..settings.config import settings

    from ..telemetry import logs
    from ..settings.config import check_environment

    check_environment("pbem-mail-in")
    logs.setup("mail-in")
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP line at INFO
    url = settings().redis_url
    if not url:
        raise SystemExit("REDIS_URL is not set")
    conf = MailInSettings()
    ctl = controller(connect(url), conf)
    ctl.start()
    nconf = NotifySettings()
    print(f"pbem: mail-in (SMTP) on {conf.host}:{ctl.port} for move+TOKEN@{nconf.mail_domain}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        stop.wait()
    finally:
        ctl.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
