"""Settings, from the environment, with embedded defaults for one machine."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

# Every setting, its default, type and meaning: pbem/settings_registry.py.
from .settings_registry import SettingError, check_environment, env  # noqa: F401


def _env(name: str):
    return field(default_factory=lambda: env(name))


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
