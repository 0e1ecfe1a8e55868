"""Table reports: the rounds and money of a period, per table or per gaming day, from the ledger."""
from __future__ import annotations

from typing import Any

from psycopg.rows import dict_row

from ..transaction import Statements

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


class ReportsRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def period_rows(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The report's rows (by name) for a period: zone, day_start, starts_at, ends_at, table_id,
        bonus (the outcomes counted as bonuses), first_day, last_day, by_day."""
        with self.db.cursor(row_factory=dict_row) as cur:
            return cur.execute(_REPORT, params).fetchall()
