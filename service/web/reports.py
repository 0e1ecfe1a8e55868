"""The table report a checked query asks for: the REST report and the console's reports page read
the same report for the same query."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from ..config import Settings
from ..games import FAMILIES
from ..refusals import NotFound
from ..reports.gaming_day import RANGE, gaming_day_of, parse_day_start
from ..reports.tables import table_report
from ..store.uow import UnitOfWork


@dataclass(frozen=True, slots=True)
class ReportQuery:
    """A period (day, month_to_date, year_to_date, or range from `first_day`) ending on the gaming
    day `day`, rows by table or by table and day, of one table or all."""

    period: str
    day: date
    by: str = "table"
    table_id: str | None = None
    first_day: date | None = None

    @classmethod
    def of(cls, checked: Mapping[str, Any], settings: Settings, now: datetime | None = None) -> ReportQuery:
        """The query as ReportQuerySchema loaded it: a range names its first and last gaming day;
        any other period ends on the gaming day named (gaming_day or date), or the current one."""
        first = checked.get("gaming_day_from")
        day = (checked.get("gaming_day_to") or checked.get("gaming_day") or checked.get("date")
               or gaming_day_of(now or datetime.now(UTC), parse_day_start(settings.gaming_day_starts),
                                ZoneInfo(settings.timezone)))
        period = RANGE if first is not None else checked.get("period", "day")
        return cls(period, day, checked.get("by", "table"), checked.get("table"), first)


def period_report(uow: UnitOfWork, settings: Settings, query: ReportQuery, by: str | None = None) -> dict[str, Any]:
    """The table report for the casino's gaming days (`by`: other rows than the query's); NotFound
    when the query names a table that does not exist."""
    if query.table_id is not None and uow.tables.get(query.table_id) is None:
        raise NotFound(f"no table {query.table_id!r}")
    return table_report(uow.reports, kind=query.period, day=query.day, day_start=settings.gaming_day_starts,
                        zone=settings.timezone, by=by or query.by, table_id=query.table_id, first_day=query.first_day,
                        player_banked=tuple(game for game, family in FAMILIES.items() if not family.house_banked))
