"""The table report: per table (or per table and gaming day) over a day, month to date or year to
date: rounds, drop, paid out, win, hold %, bonus and super bonus counts, from the ledger.

Money is the ledger's: drop is every stake of the settled rounds opened in the period, paid out
every return (super bonus and envy prizes included), win is drop less paid out. A voided round's
refunds are stake handed back, neither won nor lost: they stay out of drop and paid out and are
shown beside them (void_refunds), so drop + void_refunds is every stake the ledger holds. A round
belongs to the gaming day it opened in; rounds not settled yet carry no money and are counted."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from ..store.repositories.reports import ReportsRepository
from .gaming_day import RANGE, Period, check_day_start, day_range, parse_day_start, period

# A ledger outcome naming a bonus line of the paytable grammar (5_card_21, 7_plus_card_21,
# 678_suited, 777_spades): a winning 21 paid better than even money.
BONUS_OUTCOME = r"^([0-9]_(plus_)?card_21|[A2-9TJQK]{2,7}_(mixed|suited|spades))$"
NO_ACTIVITY, ACTIVE = "no activity", "active"
MONEY_COLUMNS = ("rounds", "voided_rounds", "unsettled_rounds", "drop", "paid_out", "win", "bonuses",
                 "super_bonuses", "void_refunds")
CSV_COLUMNS = ("gaming_day", "table_id", "activity", "rounds", "voided_rounds", "unsettled_rounds", "drop",
               "paid_out", "win", "hold_percent", "bonuses", "super_bonuses", "void_refunds")
TOTAL = "TOTAL"

def table_report(reports: ReportsRepository, *, kind: str, day: date, day_start: str, zone: str,
                 by: str = "table", table_id: str | None = None, first_day: date | None = None) -> dict[str, Any]:
    """The report for the gaming day `day` (day), from the 1st of its month or year to it, or
    (range) from `first_day` to it."""
    check_day_start(parse_day_start(day_start), zone)
    if kind == RANGE:
        window = day_range(first_day or day, day, parse_day_start(day_start), ZoneInfo(zone))
    else:
        window = period(kind, day, parse_day_start(day_start), ZoneInfo(zone))
    rows = [_finish(row) for row in reports.period_rows({
        "zone": zone, "day_start": parse_day_start(day_start).strftime("%H:%M"), "starts_at": window.starts_at,
        "ends_at": window.ends_at, "table_id": table_id, "bonus": BONUS_OUTCOME, "first_day": window.first_day,
        "last_day": window.last_day, "by_day": by == "day"})]
    return {**_header(window, day_start, zone, by, table_id), "rows": rows, "totals": _totals(rows)}


def _header(window: Period, day_start: str, zone: str, by: str, table_id: str | None) -> dict[str, Any]:
    return {"period": window.kind, "gaming_day": window.last_day, "first_gaming_day": window.first_day,
            "starts_at": window.starts_at, "ends_at": window.ends_at, "timezone": zone,
            "gaming_day_starts": day_start, "by": by, "table_id": table_id, "money_unit": "cents"}


def hold_percent(win: int, drop: int) -> float | None:
    """Win as a percentage of drop to two places, halves rounded away from zero as a regulator's
    figures are, and worked out in whole numbers: a float's own rounding would put 1 in 800 at
    0.12 rather than 0.13. None without a drop."""
    if not drop:
        return None
    hundredths, remainder = divmod(abs(win) * 10_000, drop)
    if 2 * remainder >= drop:
        hundredths += 1
    return (hundredths if win >= 0 else -hundredths) / 100


def _finish(row: dict[str, Any]) -> dict[str, Any]:
    row["win"] = row["drop"] - row["paid_out"]
    row["hold_percent"] = hold_percent(row["win"], row["drop"])
    played = row["rounds"] + row["voided_rounds"] + row["unsettled_rounds"]
    row["activity"] = ACTIVE if played else NO_ACTIVITY
    return row


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    totals = {column: sum(row[column] for row in rows) for column in MONEY_COLUMNS}
    totals["hold_percent"] = hold_percent(totals["win"], totals["drop"])
    totals["activity"] = ACTIVE if any(row["activity"] == ACTIVE for row in rows) else NO_ACTIVITY
    return totals


def csv_lines(report: dict[str, Any]) -> Iterator[str]:
    """The report's rows as CSV (a header, one line per row, a TOTAL line); amounts in cents."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(["" if value is None else value for value in values])
        return buffer.getvalue()

    first, last = report["first_gaming_day"], report["gaming_day"]
    # By table, a row covers the whole period: an ISO 8601 interval of gaming days.
    whole_period = last.isoformat() if first == last else f"{first.isoformat()}/{last.isoformat()}"
    yield line(CSV_COLUMNS)
    for row in report["rows"]:
        yield line([row["gaming_day"].isoformat() if row["gaming_day"] else whole_period]
                   + [row[column] for column in CSV_COLUMNS[1:]])
    totals = {**report["totals"], "table_id": TOTAL}
    yield line([whole_period] + [totals[column] for column in CSV_COLUMNS[1:]])
