"""Configuration from the environment, with defaults that work on a developer's machine."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from .store.session import owner_conninfo

# The local server, logged in as the application role (trust on 127.0.0.1); migrations connect as
# the local superuser unless PONTOON_OWNER_DATABASE_URL says otherwise.
DEFAULT_DATABASE_URL = "postgresql://pontoon_app@127.0.0.1:5432/pontoon"


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
    # The Ed25519 key that signs the chains' heads (kept off the database host's reach) and the
    # directory the signed checkpoints are appended to; seconds between two checkpoints.
    checkpoint_key: str = ""
    checkpoint_dir: str = ""
    checkpoint_every: float = 300.0
    # Where migrations and owner commands (`pontoon migrate`, `pontoon keys`) connect: the schema's
    # owner. The service itself logs in with database_url, as the application role only.
    owner_database_url: str = ""
    # The largest request body the API reads (413 beyond): 1 MiB, far above its largest
    # legitimate body (a paytable document with its reason).
    max_body_bytes: int = 1 << 20
    # The broker queue settlement messages travel on; empty: derived from the database, so stacks
    # sharing a broker keep apart. Set it where hosts reach one database under different names.
    settlement_queue: str = ""
    # The console: the key signing its cookies (empty: one generated once and kept in the
    # database, so every worker and every restart shares it), cookies sent over HTTPS only, and
    # its sign-in rules: failures in a row before a lock, the lock, idle and absolute session
    # lengths, and the roles that must use a second factor (TOTP).
    secret_key: str = ""
    console_secure_cookies: bool = False
    console_max_failures: int = 5
    console_lock_minutes: float = 15.0
    console_idle_minutes: float = 15.0
    console_session_hours: float = 12.0
    console_2fa_roles: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        source: Mapping[str, str] = os.environ if env is None else env
        database_url = source.get("DATABASE_URL", DEFAULT_DATABASE_URL)
        return cls(
            database_url=database_url,
            owner_database_url=source.get("PONTOON_OWNER_DATABASE_URL") or owner_conninfo(database_url),
            max_body_bytes=int(source.get("PONTOON_MAX_BODY_BYTES", str(1 << 20))),
            broker_url=source.get("BROKER_URL", "redis://127.0.0.1:6379/0"),
            port=int(source.get("PORT", "8000")),
            gaming_day_starts=source.get("GAMING_DAY_STARTS", "06:00"),
            timezone=source.get("PONTOON_TZ", "Australia/Sydney"),
            audit_clock_margin=float(source.get("PONTOON_AUDIT_CLOCK_MARGIN", "1.0")),
            checkpoint_key=source.get("PONTOON_CHECKPOINT_KEY", ""),
            checkpoint_dir=source.get("PONTOON_CHECKPOINT_DIR", ""),
            checkpoint_every=float(source.get("PONTOON_CHECKPOINT_EVERY", "300")),
            settlement_queue=source.get("PONTOON_SETTLEMENT_QUEUE", ""),
            secret_key=source.get("PONTOON_SECRET_KEY", ""),
            console_secure_cookies=source.get("PONTOON_CONSOLE_SECURE_COOKIES", "0") == "1",
            console_max_failures=int(source.get("PONTOON_CONSOLE_MAX_FAILURES", "5")),
            console_lock_minutes=float(source.get("PONTOON_CONSOLE_LOCK_MINUTES", "15")),
            console_idle_minutes=float(source.get("PONTOON_CONSOLE_IDLE_MINUTES", "15")),
            console_session_hours=float(source.get("PONTOON_CONSOLE_SESSION_HOURS", "12")),
            console_2fa_roles=tuple(role.strip() for role in source.get("PONTOON_CONSOLE_2FA_ROLES", "").split(",")
                                    if role.strip()),
        )
