"""Gaming days: a day runs from a configured local time (e.g. 06:00) to the same time next day."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

PERIODS = ("day", "month_to_date", "year_to_date")


@dataclass(frozen=True, slots=True)
class Period:
    kind: str                   # day | month_to_date | year_to_date
    first_day: date             # the first gaming day in it
    last_day: date              # the gaming day asked for
    starts_at: datetime         # aware: when first_day begins
    ends_at: datetime           # aware: when last_day ends (exclusive)


def parse_day_start(text: str) -> time:
    """Settings.gaming_day_starts, "HH:MM"."""
    hours, _, minutes = text.partition(":")
    return time(int(hours), int(minutes or 0))


def day_starts_at(day: date, starts: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, starts, tzinfo=zone)


def gaming_day_of(moment: datetime, starts: time, zone: ZoneInfo) -> date:
    """The gaming day a moment belongs to: before the start time, it is still yesterday's."""
    local = moment.astimezone(zone)
    return local.date() - timedelta(days=1) if local.time() < starts else local.date()


def period(kind: str, day: date, starts: time, zone: ZoneInfo) -> Period:
    if kind not in PERIODS:
        raise ValueError(f"period must be one of {', '.join(PERIODS)}, not {kind!r}")
    first = {"day": day, "month_to_date": day.replace(day=1), "year_to_date": day.replace(month=1, day=1)}[kind]
    return Period(kind, first, day, day_starts_at(first, starts, zone),
                  day_starts_at(day + timedelta(days=1), starts, zone))
