"""The sweep: settles rounds left 'complete' too long (a message lost, a settler that died)."""
from __future__ import annotations

import psycopg

from ..store.repositories.settlement import SettlementRepository
from .batches import batches_by_table
from .settle import BatchOutcome, settle_rounds


def sweep_stale_rounds(conn: psycopg.Connection, older_than_seconds: float, limit: int = 2000) -> BatchOutcome:
    """Settle up to `limit` stale rounds directly, batch by batch (each its own transaction)."""
    total = BatchOutcome()
    for batch in batches_by_table(SettlementRepository(conn).stale(older_than_seconds, limit)):
        outcome = settle_rounds(conn, batch)
        total.settled += outcome.settled
        total.not_settleable += outcome.not_settleable
        total.refused += outcome.refused
    return total
