"""Settings, from the environment, with embedded defaults for one machine."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

# Every setting, its default, type and meaning: pbem/settings/registry.py.
from .registry import SettingError, check_environment, env  # noqa: F401


def _env(name: str):
    return field(default_factory=lambda: env(name))


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
    # "none" (or 0) turns one operation's limit off; an empty value is the default, as for every setting.
    rates = {name: env(setting) for name, (setting, _default) in LIMIT_DEFAULTS.items()}
    return {name: "" if r.strip().lower() in ("none", "0", "off") else r for name, r in rates.items()}


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = _env("REDIS_URL")
    data_dir: Path = field(default_factory=lambda: env("PBEM_DATA_DIR").resolve())
    host: str = _env("HOST")
    port: int = _env("PORT")
    redis_port: int = _env("PBEM_REDIS_PORT")
    public_url: str | None = _env("PBEM_PUBLIC_URL")
    #: Events between snapshots.
    snapshot_every: int = _env("PBEM_SNAPSHOT_EVERY")
    #: Games whose recent states a process keeps in memory (a few KB each for
    #: Wakanda or Kachina, tens of KB for Carcassonne or Cartoona). A miss
    #: costs a larger read and a replay from the snapshot, not a round trip.
    state_cache: int = _env("PBEM_STATE_CACHE")
    #: Largest request body accepted, in bytes.
    max_body: int = _env("PBEM_MAX_BODY")
    #: A submission taken by a worker that died is retaken after this many ms.
    claim_idle_ms: int = _env("PBEM_CLAIM_IDLE_MS")
    #: How long a drain job keeps listening after the last submission, in ms.
    drain_linger_ms: int = _env("PBEM_DRAIN_LINGER_MS")
    drain_gather_ms: float = _env("PBEM_DRAIN_GATHER_MS")
    #: Longest "Prefer: wait=N" honoured, in seconds.
    max_wait: int = _env("PBEM_MAX_WAIT")
    appendfsync: str = _env("PBEM_APPENDFSYNC")
    #: The event-stream process's port (None: PORT + 1) and its public base
    #: URL (None: http://HOST:that port), which the API's links and 307 name.
    stream_port: int | None = _env("PBEM_STREAM_PORT")
    stream_url: str | None = _env("PBEM_STREAM_URL")
    #: Origins whose pages may open streams (CORS), comma-separated; None:
    #: the API's own public origin. "*" allows any (tickets, not cookies,
    #: carry the credential, so no page gains a credential it did not have).
    stream_origins: str | None = _env("PBEM_STREAM_ORIGINS")
    #: Seconds between keep-alive comments on an idle stream.
    stream_keepalive_s: float = _env("PBEM_STREAM_KEEPALIVE_S")

    #: ``PBEM_RATE_LIMITS=0`` turns the API's request rate limits off (pbem/api/ratelimit.py).
    rate_limits: bool = _env("PBEM_RATE_LIMITS")
    #: Each limited operation's rates (PBEM_LIMIT_CREATE, ..._JOIN, ..._INVITE, ..._PARSE, ..._INBOUND).
    limit_rates: dict = field(default_factory=lambda: limit_rates_from_env())

    #: The operator's bearer token (``/admin`` operations, any game's clock); unset: no operator.
    admin_token: str | None = _env("PBEM_ADMIN_TOKEN")
    #: Open games nobody joined are deleted this long after their creation (0: never).
    open_game_ttl_s: float = _env("PBEM_OPEN_GAME_TTL_S")
    #: A rematch offered this long ago starts with those who accepted, or is called off.
    rematch_wait_s: float = _env("PBEM_REMATCH_WAIT_S")
    #: A finished game is compacted into one archive this long after it ended.
    compact_after_s: float = _env("PBEM_COMPACT_AFTER_S")
    #: How far a signed join's or token request's ``issued_at`` may be from now.
    signed_request_window_s: float = _env("PBEM_SIGNED_REQUEST_WINDOW_S")
    #: How often a worker runs the sweeps (expiry, compaction); one worker at a time.
    sweep_every_s: float = _env("PBEM_SWEEP_EVERY_S")

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
