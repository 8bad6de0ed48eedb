"""Notification settings from the environment, and the server secret."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


from ..settings.registry import env


def _env(name: str):
    return field(default_factory=lambda: env(name))


@dataclass(frozen=True)
class NotifySettings:
    data_dir: Path = field(default_factory=lambda: env("PBEM_DATA_DIR").resolve())
    #: smtp://user:pass@host:port, smtps://... or smtp://...?starttls=1; unset: a maildir.
    smtp_url: str | None = _env("SMTP_URL")
    mail_domain: str = _env("MAIL_DOMAIN")
    mail_from: str | None = _env("PBEM_MAIL_FROM")
    public_url: str = field(default_factory=lambda: env("PBEM_PUBLIC_URL") or
                            f"http://{env('HOST')}:{env('PORT')}")
    #: At most one turn mail per game and seat in this many seconds.
    mail_interval: float = _env("PBEM_MAIL_INTERVAL")
    #: A notice handled more than this many seconds after its move goes
    #: without a picture (the text has the board): a picture costs 50-250 ms,
    #: so under a burst of moves mail catches up instead of falling behind.
    picture_lag_s: float = _env("PBEM_MAIL_PICTURE_LAG_S")
    #: How often a "daily digest" is sent, in seconds.
    digest_period: float = _env("PBEM_DIGEST_PERIOD")
    #: How often an "hourly digest" (pbem.notify.digests) is sent, in seconds.
    digest_hourly_s: float = _env("PBEM_DIGEST_HOURLY_S")
    #: Vacation days a player may take a calendar year, and a vacation day's length in seconds.
    vacation_days: int = _env("PBEM_VACATION_DAYS")
    vacation_day_s: float = _env("PBEM_VACATION_DAY_S")
    #: Operator setting: deliver webhooks to loopback/private/link-local addresses.
    webhook_allow_private: bool = _env("PBEM_WEBHOOK_ALLOW_PRIVATE")
    #: First retry delay in seconds; doubles per attempt up to the cap, plus jitter.
    webhook_backoff_base: float = _env("PBEM_WEBHOOK_BACKOFF_BASE")
    webhook_backoff_cap: float = _env("PBEM_WEBHOOK_BACKOFF_CAP")
    #: 13 attempts with the defaults span more than a day (about 26.5 h before jitter).
    webhook_max_attempts: int = _env("PBEM_WEBHOOK_MAX_ATTEMPTS")
    webhook_timeout: float = _env("PBEM_WEBHOOK_TIMEOUT")
    #: Bearer token of the operator (game settings at any time); unset: none.
    admin_token: str | None = _env("PBEM_ADMIN_TOKEN")
    secret_env: str | None = _env("PBEM_SECRET")

    @property
    def sender(self) -> str:
        return self.mail_from or f"pbem@{self.mail_domain}"

    def secret(self) -> bytes:
        """PBEM_SECRET, else a secret generated once into the data directory."""
        if self.secret_env:
            return self.secret_env.encode()
        return load_or_create_secret(self.data_dir / "secret")


def load_or_create_secret(path: Path) -> bytes:
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_hex(32).encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race
        return path.read_bytes().strip()
    with os.fdopen(fd, "wb") as fh:
        fh.write(value)
    return value
