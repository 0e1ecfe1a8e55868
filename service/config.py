"""Configuration from the environment, with defaults that work on a developer's machine."""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    database_url: str
    broker_url: str
    port: int
    gaming_day_starts: str     # local time the gaming day starts, "HH:MM"
    timezone: str

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/pontoon"),
            broker_url=env.get("BROKER_URL", "redis://127.0.0.1:6379/0"),
            port=int(env.get("PORT", "8000")),
            gaming_day_starts=env.get("GAMING_DAY_STARTS", "06:00"),
            timezone=env.get("PONTOON_TZ", "Australia/Sydney"),
        )
