"""Settings, from the environment, with embedded defaults for one machine."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


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

    def base_url(self) -> str:
        return self.public_url or f"http://{self.host}:{self.port}"


def settings() -> Settings:
    return Settings()
