"""Shared parts of the play-by-email tests (no tests here): the inbound SMTP
listener (aiosmtpd, ``pbem.mail_in.listener``) on loopback, a player's mail
client (smtplib), and the jobs run in this process."""
from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid, parseaddr

import pytest
from rq import Queue
from rq.worker import SimpleWorker

from pbem.mail_in import QUEUE as MAIL_QUEUE
from pbem.mail_in import invites
from pbem.mail_in.config import MailInSettings
from pbem.mail_in.listener import controller
from pbem.notify import QUEUE as NOTIFY_QUEUE
from pbem.notify import install

from .test_notify_support import free_port, notify_env, smtp  # noqa: F401  (fixtures: import them with mail_in)

DOMAIN = "mail.test"
INBOUND_SECRET = "inbound-secret"


@pytest.fixture
def mail_env(notify_env, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_INTERVAL", "0")
    monkeypatch.setenv("PBEM_INBOUND_SECRET", INBOUND_SECRET)
    monkeypatch.setenv("PBEM_MAIL_MAX_BYTES", str(64 * 1024))
    monkeypatch.setenv("PBEM_MAIL_SETTLE_TIMEOUT", "10")
    return {**notify_env, "PBEM_MAIL_INTERVAL": "0", "PBEM_INBOUND_SECRET": INBOUND_SECRET}


class MailIn:
    """The inbound listener, and a player's outgoing SMTP client."""

    def __init__(self, client, port):
        self.port = port
        self.ctl = controller(client, MailInSettings(), port=port)

    def send(self, msg: EmailMessage | bytes, rcpt: str, mail_from: str = "player@example.test"):
        """Submit one message; returns smtplib's refused-recipients dict
        (raises SMTPRecipientsRefused / SMTPDataError / SMTPSenderRefused)."""
        with smtplib.SMTP("127.0.0.1", self.port, timeout=10) as client:
            raw = msg.as_bytes(policy=SMTP) if isinstance(msg, EmailMessage) else msg
            return client.sendmail(mail_from, [rcpt], raw)


@pytest.fixture
def mail_in(mail_env, redis_client):
    box = MailIn(redis_client, free_port())
    box.ctl.start()
    yield box
    box.ctl.stop()


def run_jobs(client) -> None:
    """Run every job waiting on pbem-mail and pbem-notify, in this process
    (the mail job drains the move queue itself when no worker does)."""
    queues = [Queue(MAIL_QUEUE, connection=client), Queue(NOTIFY_QUEUE, connection=client)]
    for _ in range(5):  # a job may enqueue others (a join starts the game: turn mails)
        SimpleWorker(queues, connection=client).work(burst=True, logging_level="WARNING")
        if not any(len(q) for q in queues):
            return


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def reply(to_msg, body: str, from_addr: str, quote: bool = True, subject: str | None = None,
          message_id: str | None = None) -> EmailMessage:
    """What a mail client makes of "Reply": To the Reply-To address, "Re:"
    subject, threading headers, the original quoted below the answer."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = from_addr
    msg["To"] = to_msg["Reply-To"]
    msg["Subject"] = subject if subject is not None else "Re: " + str(to_msg["Subject"])
    msg["Message-ID"] = message_id or make_msgid(domain="example.test")
    msg["In-Reply-To"] = to_msg["Message-ID"]
    msg["References"] = " ".join(x for x in (str(to_msg.get("References") or ""), str(to_msg["Message-ID"])) if x)
    text = body
    if quote:
        quoted = "\n".join("> " + line for line in text_of(to_msg).splitlines())
        text += f"\n\nOn Mon, 1 Jan 2024 at 10:00, pbem <pbem@{DOMAIN}> wrote:\n{quoted}\n"
    msg.set_content(text)
    return msg


def reply_address(msg) -> str:
    return parseaddr(str(msg["Reply-To"]))[1]


def examples_in(text: str) -> list[str]:
    """The example moves a turn mail lists."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("What you may do now, for example:"):
            out = []
            for nxt in lines[i + 1:]:
                if not nxt.startswith("  ") or not nxt.strip():
                    break
                out.append(nxt.strip())
            return out
    return []


def invited_game(service, redis_client, smtp, mail_in, emails=("ann@example.test", "bob@example.test"),
                 title="Mail game", options=None) -> str:
    """A Wakanda game whose seats are taken by replying "join" to invitations."""
    install(service)
    game_id = service.create_game("wakanda", len(emails), options or {}, title)["id"]
    invites.invite(service, game_id, [{"email": e} for e in emails])
    run_jobs(redis_client)
    for email in emails:
        invitation = [m for m in smtp.to(email, "invitation")][-1]
        mail_in.send(reply(invitation, "join", email), reply_address(invitation), email)
    run_jobs(redis_client)
    return game_id
