"""Notification settings from the environment, and the server secret."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


def _float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class NotifySettings:
    data_dir: Path = field(default_factory=lambda: Path(os.environ.get("PBEM_DATA_DIR", "var")).resolve())
    #: smtp://user:pass@host:port, smtps://... or smtp://...?starttls=1; unset: a maildir.
    smtp_url: str | None = field(default_factory=lambda: os.environ.get("SMTP_URL") or None)
    mail_domain: str = field(default_factory=lambda: os.environ.get("MAIL_DOMAIN", "pbem.localhost"))
    mail_from: str | None = field(default_factory=lambda: os.environ.get("PBEM_MAIL_FROM") or None)
    public_url: str = field(default_factory=lambda: os.environ.get("PBEM_PUBLIC_URL") or
                            f"http://{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
    #: At most one turn mail per game and seat in this many seconds.
    mail_interval: float = field(default_factory=lambda: _float("PBEM_MAIL_INTERVAL", 60))
    #: How often a "daily digest" is sent, in seconds.
    digest_period: float = field(default_factory=lambda: _float("PBEM_DIGEST_PERIOD", 86400))
    #: Operator setting: deliver webhooks to loopback/private/link-local addresses.
    webhook_allow_private: bool = field(default_factory=lambda: _flag("PBEM_WEBHOOK_ALLOW_PRIVATE"))
    #: First retry delay in seconds; doubles per attempt up to the cap, plus jitter.
    webhook_backoff_base: float = field(default_factory=lambda: _float("PBEM_WEBHOOK_BACKOFF_BASE", 60))
    webhook_backoff_cap: float = field(default_factory=lambda: _float("PBEM_WEBHOOK_BACKOFF_CAP", 6 * 3600))
    #: 13 attempts with the defaults span more than a day (about 26.5 h before jitter).
    webhook_max_attempts: int = field(default_factory=lambda: int(os.environ.get("PBEM_WEBHOOK_MAX_ATTEMPTS", 13)))
    webhook_timeout: float = field(default_factory=lambda: _float("PBEM_WEBHOOK_TIMEOUT", 10))
    secret_env: str | None = field(default_factory=lambda: os.environ.get("PBEM_SECRET") or None)

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
