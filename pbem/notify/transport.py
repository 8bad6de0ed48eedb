"""Sending mail: SMTP (``SMTP_URL``) or, without it, a maildir under the data dir.

    smtp://user:pass@host:587?starttls=1   plain SMTP, STARTTLS when asked
    smtp+starttls://user:pass@host:587     the same
    smtps://user:pass@host:465             implicit TLS
"""
from __future__ import annotations

import logging
import mailbox
import smtplib
import ssl
import time
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from ..telemetry import logs, metrics


class MailError(Exception):
    pass


def send(msg: EmailMessage, smtp_url: str | None, data_dir: Path, timeout: float = 20) -> str:
    """Send one message; returns where it went ("smtp" or the maildir path).
    Every outgoing mail passes here: it is counted and logged (pbem.telemetry.metrics,
    pbem.telemetry.logs) by outcome."""
    start = time.perf_counter()
    try:
        where = _send(msg, smtp_url, data_dir, timeout)
    except Exception as err:
        _delivered(msg, "failed", start, error=f"{type(err).__name__}: {err}"[:300])
        raise
    _delivered(msg, "sent", start, to="smtp" if where == "smtp" else "maildir")
    return where


def _delivered(msg: EmailMessage, outcome: str, start: float, **extra) -> None:
    metrics.count_delivery("mail", outcome)
    if logs.activity.isEnabledFor(logging.INFO):
        logs.activity.info("mail " + outcome, extra={
            "event": "delivery", "channel": "mail", "outcome": outcome, "game_id": msg.get("X-Pbem-Game"),
            "message_id": msg.get("Message-ID"), "ms": logs.since(start), **extra})


def _send(msg: EmailMessage, smtp_url: str | None, data_dir: Path, timeout: float) -> str:
    if not smtp_url:
        box = mailbox.Maildir(str(data_dir / "maildir"), create=True)
        box.add(msg)
        return str(data_dir / "maildir")
    url = urlsplit(smtp_url)
    query = parse_qs(url.query)
    scheme = url.scheme.lower()
    if scheme not in ("smtp", "smtps", "smtp+starttls"):
        raise MailError(f"SMTP_URL scheme must be smtp, smtps or smtp+starttls, not {scheme!r}")
    host = url.hostname or "localhost"
    context = ssl.create_default_context()
    if scheme == "smtps":
        client = smtplib.SMTP_SSL(host, url.port or 465, timeout=timeout, context=context)
    else:
        client = smtplib.SMTP(host, url.port or 25, timeout=timeout)
    with client:
        client.ehlo()
        if scheme == "smtp+starttls" or query.get("starttls", ["0"])[0] in ("1", "true", "yes"):
            client.starttls(context=context)
            client.ehlo()
        if url.username:
            client.login(unquote(url.username), unquote(url.password or ""))
        client.send_message(msg)
    return "smtp"
