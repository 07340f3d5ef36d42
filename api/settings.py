"""Settings from ``TAFELRUNDE_*`` environment variables, with defaults for a laptop at a club night.

Decisions: the database defaults to ``tafelrunde.db`` in the working directory; CORS is closed
unless ``TAFELRUNDE_CORS_ORIGINS`` names origins (comma-separated); request bodies are capped at
256 KiB, far more than any round entry needs; 20 refused tokens per minute from one client
address, then 429 (``api.ratelimit``; ``TAFELRUNDE_AUTH_FAILURES_PER_MINUTE=0`` switches it off).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///tafelrunde.db"
DEFAULT_MAX_BODY_BYTES = 256 * 1024
DEFAULT_AUTH_FAILURES_PER_MINUTE = 20


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    host: str = "127.0.0.1"
    port: int = 8000
    cors_origins: tuple[str, ...] = ()
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    pwa_dir: Path = field(default_factory=lambda: REPO_ROOT / "pwa")
    live_backend: str = "auto"
    auth_failures_per_minute: int = DEFAULT_AUTH_FAILURES_PER_MINUTE

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings read from ``env`` (default: the process environment)."""
        source = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = source.get(f"TAFELRUNDE_{name}", "").strip()
            return value or None

        defaults = cls()
        origins = get("CORS_ORIGINS")
        pwa_dir = get("PWA_DIR")
        return cls(
            database_url=get("DATABASE_URL") or defaults.database_url,
            host=get("HOST") or defaults.host,
            port=int(get("PORT") or defaults.port),
            cors_origins=tuple(o.strip() for o in origins.split(",") if o.strip())
            if origins else (),
            max_body_bytes=int(get("MAX_BODY_BYTES") or defaults.max_body_bytes),
            pwa_dir=Path(pwa_dir) if pwa_dir else defaults.pwa_dir,
            live_backend=get("LIVE_BACKEND") or defaults.live_backend,
            auth_failures_per_minute=int(get("AUTH_FAILURES_PER_MINUTE")
                                         or defaults.auth_failures_per_minute),
        )

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")
