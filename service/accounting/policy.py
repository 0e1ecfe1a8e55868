"""What a casino configures about its tables' chips and books (the chips' denominations, a table's
float, the shifts of a gaming day, the variance that flags a table), its gaming days, and the clock
each step is dated by."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..config import Settings
from ..reports.gaming_day import check_day_start, day_starts_at, gaming_day_of, parse_day_start

# Dollars as the chips read: "5", "2.50", "1000".
_DOLLARS = re.compile(r"^(\d{1,9})(?:\.(\d{1,2}))?$")
MAX_SHIFTS = 6


def cents_of_dollars(text: str) -> int:
    """A configured chip value in dollars ("25", "2.50") as cents; ValueError when it is none."""
    match = _DOLLARS.match(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is no amount of dollars")
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))


def written_dollars(cents: int) -> str:
    """A denomination as a chip reads: 2500 -> "$25", 250 -> "$2.50"."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


@dataclass(frozen=True, slots=True)
class AccountingPolicy:
    denominations: tuple[int, ...] = (100, 500, 2500, 10000, 50000, 100000)   # cents, smallest first
    table_float: tuple[tuple[int, int], ...] = ()        # (denomination, chips) a tray holds as it opens
    shifts: int = 3                                      # shifts in a gaming day
    variance_threshold: int = 10000                      # cents
    day_start: time = time(6, 0)
    zone: str = "Australia/Sydney"
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC), compare=False)

    @classmethod
    def from_settings(cls, settings: Settings, clock: Callable[[], datetime] | None = None) -> AccountingPolicy:
        """The settings' policy; ValueError naming the setting when one cannot be used (the service
        refuses to start with it)."""
        try:
            denominations = tuple(sorted({cents_of_dollars(text) for text in settings.chip_denominations}))
        except ValueError as exc:
            raise ValueError(f"PONTOON_CHIP_DENOMINATIONS: {exc}") from None
        if not denominations or 0 in denominations:
            raise ValueError("PONTOON_CHIP_DENOMINATIONS: give the value of every chip, none of them 0")
        table_float = []
        for pair in settings.table_float:
            value, _, chips = pair.partition(":")
            try:
                denomination = cents_of_dollars(value)
            except ValueError as exc:
                raise ValueError(f"PONTOON_TABLE_FLOAT: {exc}") from None
            if denomination not in denominations or not chips.strip().isdigit():
                raise ValueError(f"PONTOON_TABLE_FLOAT: {pair!r} is not dollars:chips of a denomination "
                                 "PONTOON_CHIP_DENOMINATIONS lists")
            table_float.append((denomination, int(chips)))
        if not 1 <= settings.shifts_per_gaming_day <= MAX_SHIFTS:
            raise ValueError(f"PONTOON_SHIFTS_PER_GAMING_DAY: from 1 to {MAX_SHIFTS}")
        if settings.variance_threshold < 0:
            raise ValueError("PONTOON_VARIANCE_THRESHOLD: cents, 0 or more")
        day_start = parse_day_start(settings.gaming_day_starts)
        check_day_start(day_start, settings.timezone)
        return cls(denominations, tuple(sorted(table_float)), settings.shifts_per_gaming_day,
                   settings.variance_threshold, day_start, settings.timezone,
                   clock or (lambda: datetime.now(UTC)))

    @property
    def float_chips(self) -> Mapping[int, int]:
        return dict(self.table_float)

    @property
    def float_total(self) -> int:
        return sum(denomination * chips for denomination, chips in self.table_float)

    def gaming_day(self, moment: datetime | None = None) -> date:
        """The gaming day `moment` (now, by the clock) belongs to."""
        return gaming_day_of(moment or self.clock(), self.day_start, ZoneInfo(self.zone))

    def window(self, day: date) -> tuple[datetime, datetime]:
        """When the gaming day starts, and when the next one does."""
        zone = ZoneInfo(self.zone)
        return day_starts_at(day, self.day_start, zone), day_starts_at(day + timedelta(days=1), self.day_start, zone)
