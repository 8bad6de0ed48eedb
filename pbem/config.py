"""Settings, from the environment, with embedded defaults for one machine."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _opt_int(name: str) -> int | None:
    value = os.environ.get(name)
    return int(value) if value else None


#: Each rate-limited operation of the API: its setting and default rates (the
#: syntax of ``limits.parse_many``; empty: no limit). The same rates apply per
#: client address and, where the operation takes one, per bearer token.
LIMIT_DEFAULTS = {
    "create": ("PBEM_LIMIT_CREATE", "30/minute;300/hour"),
    "join": ("PBEM_LIMIT_JOIN", "60/minute;600/hour"),
    "invite": ("PBEM_LIMIT_INVITE", "20/minute;120/hour"),
    "parse": ("PBEM_LIMIT_PARSE", "120/minute;3000/hour"),
    "inbound": ("PBEM_LIMIT_INBOUND", "600/minute"),
}


def limit_rates_from_env() -> dict:
    return {name: os.environ.get(env, default) for name, (env, default) in LIMIT_DEFAULTS.items()}


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    data_dir: Path = field(default_factory=lambda: Path(os.environ.get("PBEM_DATA_DIR", "var")).resolve())
    host: str = field(default_factory=lambda: os.environ.get("HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: _int("PORT", 8000))
    redis_port: int = field(default_factory=lambda: _int("PBEM_REDIS_PORT", 6390))
    public_url: str | None = field(default_factory=lambda: os.environ.get("PBEM_PUBLIC_URL") or None)
    #: Events between snapshots.
    snapshot_every: int = field(default_factory=lambda: _int("PBEM_SNAPSHOT_EVERY", 50))
    #: Games whose recent states a process keeps in memory (a few KB each for
    #: Wakanda or Kachina, tens of KB for Carcassonne or Cartoona). A miss
    #: costs a larger read and a replay from the snapshot, not a round trip.
    state_cache: int = field(default_factory=lambda: _int("PBEM_STATE_CACHE", 2048))
    #: Largest request body accepted, in bytes.
    max_body: int = field(default_factory=lambda: _int("PBEM_MAX_BODY", 64 * 1024))
    #: A submission taken by a worker that died is retaken after this many ms.
    claim_idle_ms: int = field(default_factory=lambda: _int("PBEM_CLAIM_IDLE_MS", 5000))
    #: How long a drain job keeps listening after the last submission, in ms.
    drain_linger_ms: int = field(default_factory=lambda: _int("PBEM_DRAIN_LINGER_MS", 500))
    drain_gather_ms: float = field(default_factory=lambda: float(os.environ.get("PBEM_DRAIN_GATHER_MS", "2")))
    #: Longest "Prefer: wait=N" honoured, in seconds.
    max_wait: int = field(default_factory=lambda: _int("PBEM_MAX_WAIT", 30))
    appendfsync: str = field(default_factory=lambda: os.environ.get("PBEM_APPENDFSYNC", "always"))
    #: The event-stream process's port (None: PORT + 1) and its public base
    #: URL (None: http://HOST:that port), which the API's links and 307 name.
    stream_port: int | None = field(default_factory=lambda: _opt_int("PBEM_STREAM_PORT"))
    stream_url: str | None = field(default_factory=lambda: os.environ.get("PBEM_STREAM_URL") or None)
    #: Origins whose pages may open streams (CORS), comma-separated; None:
    #: the API's own public origin. "*" allows any (tickets, not cookies,
    #: carry the credential, so no page gains a credential it did not have).
    stream_origins: str | None = field(default_factory=lambda: os.environ.get("PBEM_STREAM_ORIGINS") or None)
    #: Seconds between keep-alive comments on an idle stream.
    stream_keepalive_s: float = field(default_factory=lambda: float(os.environ.get("PBEM_STREAM_KEEPALIVE_S", "15")))

    #: ``PBEM_RATE_LIMITS=0`` turns the API's request rate limits off (pbem/ratelimit.py).
    rate_limits: bool = field(default_factory=lambda: os.environ.get("PBEM_RATE_LIMITS", "1").strip().lower()
                              not in ("0", "false", "no", "off"))
    #: Each limited operation's rates (PBEM_LIMIT_CREATE, ..._JOIN, ..._INVITE, ..._PARSE, ..._INBOUND).
    limit_rates: dict = field(default_factory=lambda: limit_rates_from_env())

    #: The operator's bearer token (``/admin`` operations, any game's clock); unset: no operator.
    admin_token: str | None = field(default_factory=lambda: os.environ.get("PBEM_ADMIN_TOKEN") or None)
    #: Open games nobody joined are deleted this long after their creation (0: never).
    open_game_ttl_s: float = field(default_factory=lambda: float(os.environ.get("PBEM_OPEN_GAME_TTL_S", 7 * 86400)))
    #: A finished game is compacted into one archive this long after it ended.
    compact_after_s: float = field(default_factory=lambda: float(os.environ.get("PBEM_COMPACT_AFTER_S", 3600)))
    #: How often a worker runs the sweeps (expiry, compaction); one worker at a time.
    sweep_every_s: float = field(default_factory=lambda: float(os.environ.get("PBEM_SWEEP_EVERY_S", 60)))

    def base_url(self) -> str:
        return self.public_url or f"http://{self.host}:{self.port}"

    def stream_bind_port(self) -> int:
        return self.stream_port or self.port + 1

    def stream_base_url(self) -> str:
        return (self.stream_url or f"http://{self.host}:{self.stream_bind_port()}").rstrip("/")

    def allowed_origins(self) -> set[str]:
        if self.stream_origins:
            return {o.strip().rstrip("/") for o in self.stream_origins.split(",") if o.strip()}
        parts = urlsplit(self.base_url())
        return {f"{parts.scheme}://{parts.netloc}"}


def settings() -> Settings:
    return Settings()
