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

QUEUE = "pbem-mail"
