"""Play by email: inbound mail becomes moves, joins, help and board views.

A mail for ``move+TOKEN@MAIL_DOMAIN`` reaches the server by SMTP (``pbem
mail-in``, ``listener``) or by HTTP (``POST /inbound/email``). Both only check
the recipient and the size, store the raw message and enqueue one job on the
``pbem-mail`` queue (``workers.mail_jobs.process``), which does the rest:

    addresses   the recipient token: a reply token (a seat of a game, made by
                pbem.notify.tokens) or an invitation token (a free seat)
    reading     the message: commands from the first unquoted, unsigned lines,
                the version it answers, loop/auto-reply detection
    store       raw messages, Message-ID dedupe, invitations (Redis)
    compose     outgoing replies and invitation mails (header-safe)
    process     applying commands in order through Service.submit_trusted
    invites     inviting seats by email and joining by mail
    config      settings from the environment

The token in the recipient address is the credential, never the From header;
replies go to the seat's registered address, not to whoever sent the mail.
"""
from __future__ import annotations

from datetime import timedelta

from rq import Queue

from ..store.connections import rq_connection

QUEUE = "pbem-mail"
#: Seconds before each new try of a mail the relay refused; then it is given up.
RETRIES = (30, 120, 600, 3600)
JOB_OPTS = {"result_ttl": 0, "failure_ttl": 7 * 86400, "job_timeout": 120}


def try_later(client, attempt: int, job: str, *args, job_kwargs: dict | None = None) -> bool:
    """Schedule try ``attempt + 1`` of a mail job (``job(*args, attempt,
    **job_kwargs)``) with RQ's scheduler; False once the RETRIES are used up."""
    if attempt > len(RETRIES):
        return False
    Queue(QUEUE, connection=rq_connection(client)).enqueue_in(
        timedelta(seconds=RETRIES[attempt - 1]), job, args=(*args, attempt + 1), kwargs=job_kwargs or {}, **JOB_OPTS)
    return True
