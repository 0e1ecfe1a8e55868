"""Gaming days: a day runs from a configured local time (e.g. 06:00) to the same time next day."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

PERIODS = ("day", "month_to_date", "year_to_date")
RANGE = "range"     # gaming days first to last as asked (gaming_day_from, gaming_day_to)
# The first and last gaming day a query may name: the day after the last must still have a start.
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9999, 12, 30)


@dataclass(frozen=True, slots=True)
class Period:
    kind: str                   # day | month_to_date | year_to_date | range
    first_day: date             # the first gaming day in it
    last_day: date              # the gaming day asked for
    starts_at: datetime         # aware: when first_day begins
    ends_at: datetime           # aware: when last_day ends (exclusive)


def parse_day_start(text: str) -> time:
    """Settings.gaming_day_starts, "HH:MM"."""
    hours, _, minutes = text.partition(":")
    return time(int(hours), int(minutes or 0))


@lru_cache(maxsize=8)
def check_day_start(starts: time, zone_name: str, first_year: int = 1970, last_year: int = 2100) -> None:
    """A gaming day must start at a local time that every day has exactly once. Where daylight
    saving skips or repeats it (02:30 in Sydney, twice a year), that day's start has no one
    instant, and its rounds could be counted on one day in one report and another in the next:
    such a start is refused (ValueError). Only months whose offset changes are looked at day by
    day."""
    zone = ZoneInfo(zone_name)

    def offset(day: date, fold: int = 0) -> timedelta | None:
        return datetime.combine(day, starts, tzinfo=zone).replace(fold=fold).utcoffset()

    for year in range(first_year, last_year + 1):
        for month in range(1, 13):
            first = date(year, month, 1)
            following = date(year + month // 12, month % 12 + 1, 1)
            if offset(first) == offset(following):
                continue
            day = first
            while day < following:
                if offset(day, 0) != offset(day, 1):
                    raise ValueError(f"the gaming day cannot start at {starts:%H:%M} in {zone_name}: on {day} "
                                     "daylight saving skips or repeats that time")
                day += timedelta(days=1)


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


def day_range(first: date, last: date, starts: time, zone: ZoneInfo) -> Period:
    """Gaming days `first` to `last`, both included: from first's start to the start of the day after last."""
    if first > last:
        raise ValueError(f"the first gaming day ({first}) is after the last ({last})")
    return Period(RANGE, first, last, day_starts_at(first, starts, zone),
                  day_starts_at(last + timedelta(days=1), starts, zone))
