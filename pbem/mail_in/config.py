"""Inbound mail settings from the environment."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class MailInSettings:
    #: The SMTP listener (``pbem mail-in``, started by ``make run``).
    host: str = field(default_factory=lambda: os.environ.get("PBEM_MAIL_HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: _int("PBEM_MAIL_PORT", 8025))
    #: Largest inbound message in bytes (SMTP SIZE / 552, HTTP 413).
    max_bytes: int = field(default_factory=lambda: _int("PBEM_MAIL_MAX_BYTES", 256 * 1024))
    #: Bearer secret of ``POST /inbound/email``; unset: the endpoint is closed.
    inbound_secret: str | None = field(default_factory=lambda: os.environ.get("PBEM_INBOUND_SECRET") or None)
    #: Inbound mails one seat's token may send an hour; more get a
    #: temporary refusal (SMTP 450, HTTP 429), so a flood of replies cannot
    #: flood the workers.
    per_hour: int = field(default_factory=lambda: _int("PBEM_MAIL_PER_HOUR", 120))
    #: Invitation mails one game, and one client address, may have sent an
    #: hour (``POST /games/{id}/invitations``, ``POST /games`` with
    #: ``invite``); more are 429 too_many_requests with Retry-After.
    invites_per_hour: int = field(default_factory=lambda: _int("PBEM_INVITES_PER_HOUR", 20))
    #: How long a Message-ID is remembered (seconds).
    dedupe_ttl: int = field(default_factory=lambda: _int("PBEM_MAIL_DEDUPE_TTL", 30 * 86400))
    #: How long a raw message waits for its job (seconds).
    raw_ttl: int = field(default_factory=lambda: _int("PBEM_MAIL_RAW_TTL", 7 * 86400))
    #: Commands read from one mail, at most.
    max_commands: int = field(default_factory=lambda: _int("PBEM_MAIL_MAX_COMMANDS", 20))
    #: How long the job waits for each move to settle (seconds).
    settle_timeout: float = field(default_factory=lambda: float(os.environ.get("PBEM_MAIL_SETTLE_TIMEOUT", 20)))
