"""Inbound mail settings from the environment."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..settings.registry import env


def _env(name: str):
    return field(default_factory=lambda: env(name))


@dataclass(frozen=True)
class MailInSettings:
    #: The SMTP listener (``pbem mail-in``, started by ``make run``).
    host: str = _env("PBEM_MAIL_HOST")
    port: int = _env("PBEM_MAIL_PORT")
    #: Largest inbound message in bytes (SMTP SIZE / 552, HTTP 413).
    max_bytes: int = _env("PBEM_MAIL_MAX_BYTES")
    #: Bearer secret of ``POST /inbound/email``; unset: the endpoint is closed.
    inbound_secret: str | None = _env("PBEM_INBOUND_SECRET")
    #: Inbound mails one seat's token may send an hour; more get a
    #: temporary refusal (SMTP 450, HTTP 429), so a flood of replies cannot
    #: flood the workers.
    per_hour: int = _env("PBEM_MAIL_PER_HOUR")
    #: Lists of their games (a ``games`` mail) one address may be sent an hour.
    my_games_per_hour: int = _env("PBEM_MY_GAMES_PER_HOUR")
    #: Invitation mails one game, and one client address, may have sent an
    #: hour (``POST /games/{id}/invitations``, ``POST /games`` with
    #: ``invite``); more are 429 too_many_requests with Retry-After.
    invites_per_hour: int = _env("PBEM_INVITES_PER_HOUR")
    #: How long an invitation reserves its seat (seconds; 0: until used or withdrawn).
    invitation_ttl_s: float = _env("PBEM_INVITATION_TTL_S")
    #: Mails about subscriptions (confirmations, links to unsubscribe) one
    #: address may be sent an hour: more requests are dropped unanswered.
    subscribe_mails_per_hour: int = _env("PBEM_SUBSCRIBE_MAILS_PER_HOUR")
    #: How long a Message-ID is remembered (seconds).
    dedupe_ttl: int = _env("PBEM_MAIL_DEDUPE_TTL")
    #: How long a raw message waits for its job (seconds).
    raw_ttl: int = _env("PBEM_MAIL_RAW_TTL")
    #: Commands read from one mail, at most.
    max_commands: int = _env("PBEM_MAIL_MAX_COMMANDS")
    #: How long the job waits for each move to settle (seconds).
    settle_timeout: float = _env("PBEM_MAIL_SETTLE_TIMEOUT")
