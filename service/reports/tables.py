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
from datetime import date
from typing import Any, Iterator
from zoneinfo import ZoneInfo

import psycopg

from .gaming_day import Period, check_day_start, parse_day_start, period

# A ledger outcome naming a bonus line of the paytable grammar (5_card_21, 7_plus_card_21,
# 678_suited, 777_spades): a winning 21 paid better than even money.
BONUS_OUTCOME = r"^([0-9]_(plus_)?card_21|[A2-9TJQK]{2,7}_(mixed|suited|spades))$"
NO_ACTIVITY, ACTIVE = "no activity", "active"
MONEY_COLUMNS = ("rounds", "voided_rounds", "unsettled_rounds", "drop", "paid_out", "win", "bonuses",
                 "super_bonuses", "void_refunds")
CSV_COLUMNS = ("gaming_day", "table_id", "activity", "rounds", "voided_rounds", "unsettled_rounds", "drop",
               "paid_out", "win", "hold_percent", "bonuses", "super_bonuses", "void_refunds")
TOTAL = "TOTAL"

_REPORT = """
WITH period_rounds AS (
    SELECT r.round_id, r.table_id, r.status,
           ((r.opened_at AT TIME ZONE %(zone)s) - %(day_start)s::interval)::date AS gaming_day
    FROM rounds r
    WHERE r.opened_at >= %(starts_at)s AND r.opened_at < %(ends_at)s
      AND (%(table_id)s::text IS NULL OR r.table_id = %(table_id)s)
), money AS (
    SELECT l.round_id,
           sum(l.stake) FILTER (WHERE l.kind <> 'void_refund') AS drop,
           sum(l.returned) FILTER (WHERE l.kind <> 'void_refund') AS paid_out,
           sum(l.returned) FILTER (WHERE l.kind = 'void_refund') AS void_refunds,
           count(*) FILTER (WHERE l.kind IN ('main', 'split') AND l.outcome ~ %(bonus)s) AS bonuses,
           count(*) FILTER (WHERE l.kind = 'super_bonus') AS super_bonuses
    FROM ledger_entries l JOIN period_rounds p ON p.round_id = l.round_id
    GROUP BY l.round_id
), days AS (
    SELECT d::date AS gaming_day FROM generate_series(%(first_day)s::date, %(last_day)s::date, interval '1 day') d
    WHERE %(by_day)s
    UNION ALL
    SELECT NULL::date WHERE NOT %(by_day)s
), slots AS (
    -- Every table that existed in the period gets a row (per day, by day), played or not.
    SELECT t.table_id, d.gaming_day FROM tables t CROSS JOIN days d
    WHERE t.created_at < %(ends_at)s AND (%(table_id)s::text IS NULL OR t.table_id = %(table_id)s)
)
SELECT s.gaming_day, s.table_id,
       count(p.round_id) FILTER (WHERE p.status = 'settled') AS rounds,
       count(p.round_id) FILTER (WHERE p.status = 'void') AS voided_rounds,
       count(p.round_id) FILTER (WHERE p.status IN ('open', 'complete')) AS unsettled_rounds,
       coalesce(sum(m.drop), 0)::bigint AS drop,
       coalesce(sum(m.paid_out), 0)::bigint AS paid_out,
       coalesce(sum(m.bonuses), 0)::bigint AS bonuses,
       coalesce(sum(m.super_bonuses), 0)::bigint AS super_bonuses,
       coalesce(sum(m.void_refunds), 0)::bigint AS void_refunds
FROM slots s
LEFT JOIN period_rounds p ON p.table_id = s.table_id AND (s.gaming_day IS NULL OR p.gaming_day = s.gaming_day)
LEFT JOIN money m ON m.round_id = p.round_id
GROUP BY s.gaming_day, s.table_id
ORDER BY s.gaming_day NULLS FIRST, s.table_id
"""


def table_report(conn: psycopg.Connection, *, kind: str, day: date, day_start: str, zone: str,
                 by: str = "table", table_id: str | None = None) -> dict[str, Any]:
    """The report for the gaming day `day` (day), or from the 1st of its month or year to it."""
    check_day_start(parse_day_start(day_start), zone)
    window = period(kind, day, parse_day_start(day_start), ZoneInfo(zone))
    cursor = conn.execute(_REPORT, {
        "zone": zone, "day_start": parse_day_start(day_start).strftime("%H:%M"), "starts_at": window.starts_at,
        "ends_at": window.ends_at, "table_id": table_id, "bonus": BONUS_OUTCOME, "first_day": window.first_day,
        "last_day": window.last_day, "by_day": by == "day"})
    names = [column.name for column in cursor.description]
    rows = [_finish(dict(zip(names, values))) for values in cursor]
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
