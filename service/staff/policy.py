"""The sign-in rules a casino configures (lockout, session lengths, roles that need a second factor),
with the password hashing and the clock they are applied with."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ..config import Settings
from .keys import StaffKeys
from .passwords import PasswordHashing


@dataclass(frozen=True, slots=True)
class StaffPolicy:
    max_failures: int = 5                       # failed sign-ins in a row, from one address, before a lock
    lock: timedelta = timedelta(minutes=15)
    idle: timedelta = timedelta(minutes=15)     # a session unused this long has ended
    absolute: timedelta = timedelta(hours=12)   # a session this old has ended, however busy
    totp_roles: frozenset[str] = frozenset()    # roles that may not work without a second factor
    passwords: PasswordHashing = field(default_factory=PasswordHashing, compare=False)
    keys: StaffKeys = field(default_factory=StaffKeys.generate, compare=False)   # from outside the database
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC), compare=False)   # what a lock is timed by

    @classmethod
    def from_settings(cls, settings: Settings, keys: StaffKeys | None = None,
                      passwords: PasswordHashing | None = None) -> StaffPolicy:
        return cls(keys=keys or StaffKeys.from_settings(settings),
                   passwords=passwords or PasswordHashing(),
                   max_failures=max(1, settings.console_max_failures),
                   lock=timedelta(minutes=settings.console_lock_minutes),
                   idle=timedelta(minutes=settings.console_idle_minutes),
                   absolute=timedelta(hours=settings.console_session_hours),
                   totp_roles=frozenset(settings.console_2fa_roles))
