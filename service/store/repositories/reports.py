"""Table reports: the rounds and money of a period, per table or per gaming day, from the ledger."""
from __future__ import annotations

from typing import Any

from psycopg.rows import dict_row

from ..transaction import Statements

_REPORT = """
WITH period_rounds AS (
    SELECT r.round_id, r.table_id, r.status, r.opened_at, t.game,
           ((r.opened_at AT TIME ZONE %(zone)s) - %(day_start)s::interval)::date AS gaming_day
    FROM rounds r JOIN tables t ON t.table_id = r.table_id
    WHERE r.opened_at >= %(starts_at)s AND r.opened_at < %(ends_at)s
      AND (%(table_id)s::text IS NULL OR r.table_id = %(table_id)s)
), money AS (
    SELECT l.round_id,
           sum(l.stake) FILTER (WHERE l.kind <> 'void_refund') AS handle,
           sum(l.returned) FILTER (WHERE l.kind <> 'void_refund') AS paid_out,
           sum(l.returned) FILTER (WHERE l.kind = 'void_refund') AS void_refunds,
           count(*) FILTER (WHERE l.kind IN ('main', 'split') AND l.outcome ~ %(bonus)s) AS bonuses,
           count(*) FILTER (WHERE l.kind = 'super_bonus') AS super_bonuses,
           -- the player-banked game: the banker's net (seat 0), the house's neither
           sum(l.returned - l.stake) FILTER (WHERE p.game = ANY(%(player_banked)s) AND l.seat = 0) AS banker_net
    FROM ledger_entries l JOIN period_rounds p ON p.round_id = l.round_id
    GROUP BY l.round_id
), banked AS (
    -- A settled player-banked round's players' stakes (buys included), buys and shoot bets from
    -- its result, the kitty before (traditional_rounds) and after it, and whether the bank passed.
    SELECT p.round_id, p.table_id, p.opened_at,
           (SELECT coalesce(sum((h->>'stake')::bigint), 0) FROM jsonb_array_elements(r.result->'players') pl,
                   jsonb_array_elements(pl->'hands') h) AS stakes,
           (SELECT coalesce(sum(b::bigint), 0) FROM jsonb_array_elements(r.result->'players') pl,
                   jsonb_array_elements(pl->'hands') h, jsonb_array_elements_text(h->'buys') b) AS buys,
           (SELECT coalesce(sum((h->>'shoot')::bigint), 0) FROM jsonb_array_elements(r.result->'players') pl,
                   jsonb_array_elements(pl->'hands') h) AS shoot_bets,
           tr.kitty_before, (r.result->>'kitty')::bigint AS kitty_after,
           (r.result->>'next_banker') IS NOT NULL AS bank_passed
    FROM period_rounds p JOIN rounds r ON r.round_id = p.round_id
    JOIN traditional_rounds tr ON tr.round_id = p.round_id
    WHERE p.status = 'settled' AND p.game = ANY(%(player_banked)s)
), days AS (
    SELECT d::date AS gaming_day FROM generate_series(%(first_day)s::date, %(last_day)s::date, interval '1 day') d
    WHERE %(by_day)s
    UNION ALL
    SELECT NULL::date WHERE NOT %(by_day)s
), slots AS (
    -- Every table that existed in the period gets a row (per day, by day), played or not.
    SELECT t.table_id, t.game, d.gaming_day FROM tables t CROSS JOIN days d
    WHERE t.created_at < %(ends_at)s AND (%(table_id)s::text IS NULL OR t.table_id = %(table_id)s)
)
SELECT s.gaming_day, s.table_id, s.game,
       count(p.round_id) FILTER (WHERE p.status = 'settled') AS rounds,
       count(p.round_id) FILTER (WHERE p.status = 'void') AS voided_rounds,
       count(p.round_id) FILTER (WHERE p.status IN ('open', 'complete')) AS unsettled_rounds,
       coalesce(sum(m.handle), 0)::bigint AS handle,
       coalesce(sum(m.paid_out), 0)::bigint AS paid_out,
       coalesce(sum(m.bonuses), 0)::bigint AS bonuses,
       coalesce(sum(m.super_bonuses), 0)::bigint AS super_bonuses,
       coalesce(sum(m.void_refunds), 0)::bigint AS void_refunds,
       coalesce(sum(b.stakes), 0)::bigint AS stakes,
       coalesce(sum(b.buys), 0)::bigint AS buys,
       coalesce(sum(b.shoot_bets), 0)::bigint AS shoot_bets,
       coalesce(sum(m.banker_net) FILTER (WHERE b.round_id IS NOT NULL), 0)::bigint AS banker_net,
       (array_agg(b.kitty_before ORDER BY b.opened_at) FILTER (WHERE b.round_id IS NOT NULL))[1] AS kitty_before,
       (array_agg(b.kitty_after ORDER BY b.opened_at DESC) FILTER (WHERE b.round_id IS NOT NULL))[1] AS kitty_after,
       count(b.round_id) FILTER (WHERE b.bank_passed) AS bank_passes
FROM slots s
LEFT JOIN period_rounds p ON p.table_id = s.table_id AND (s.gaming_day IS NULL OR p.gaming_day = s.gaming_day)
LEFT JOIN money m ON m.round_id = p.round_id
LEFT JOIN banked b ON b.round_id = p.round_id
GROUP BY s.gaming_day, s.table_id, s.game
ORDER BY s.gaming_day NULLS FIRST, s.table_id
"""


class ReportsRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def period_rows(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The report's rows (by name) for a period: zone, day_start, starts_at, ends_at, table_id,
        bonus (the outcomes counted as bonuses), first_day, last_day, by_day, player_banked (the
        games a player banks: their tables' own figures are counted, the banker's as seat 0)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            return cur.execute(_REPORT, params).fetchall()
