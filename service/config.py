"""Configuration from the environment, with defaults that work on a developer's machine."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    database_url: str
    broker_url: str
    port: int
    gaming_day_starts: str     # local time the gaming day starts, "HH:MM"
    timezone: str
    # Seconds the clocks of the hosts that stamp audit records may differ from the database's: an
    # export reaching the present ends this much before the instant every record has committed.
    audit_clock_margin: float = 1.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        source: Mapping[str, str] = os.environ if env is None else env
        return cls(
            database_url=source.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/pontoon"),
            broker_url=source.get("BROKER_URL", "redis://127.0.0.1:6379/0"),
            port=int(source.get("PORT", "8000")),
            gaming_day_starts=source.get("GAMING_DAY_STARTS", "06:00"),
            timezone=source.get("PONTOON_TZ", "Australia/Sydney"),
            audit_clock_margin=float(source.get("PONTOON_AUDIT_CLOCK_MARGIN", "1.0")),
        )
