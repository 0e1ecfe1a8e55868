"""The sweep: settles rounds left 'complete' too long (a message lost, a settler that died)."""
from __future__ import annotations

import psycopg

from .batches import batches_by_table
from .settle import BatchOutcome, settle_rounds


def stale_rounds(conn: psycopg.Connection, older_than_seconds: float, limit: int) -> list[tuple[str, str]]:
    """(round_id, table_id) of rounds complete for longer than the given age, oldest first."""
    rows = conn.execute(
        "SELECT round_id::text, table_id FROM rounds WHERE status = 'complete' "
        "AND COALESCE(completed_at, opened_at) < now() - make_interval(secs => %s) "
        "ORDER BY COALESCE(completed_at, opened_at) LIMIT %s", (older_than_seconds, limit)).fetchall()
    return [(round_id, table_id) for round_id, table_id in rows]


def sweep_stale_rounds(conn: psycopg.Connection, older_than_seconds: float, limit: int = 2000) -> BatchOutcome:
    """Settle up to `limit` stale rounds directly, batch by batch (each its own transaction)."""
    total = BatchOutcome()
    for batch in batches_by_table(stale_rounds(conn, older_than_seconds, limit)):
        outcome = settle_rounds(conn, batch)
        total.settled += outcome.settled
        total.not_settleable += outcome.not_settleable
        total.refused += outcome.refused
    return total
