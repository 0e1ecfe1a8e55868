"""What a test sees of PostgreSQL's lock waits: to hold requests at a lock until all are there."""
from __future__ import annotations

import psycopg


def waiting_for_locks(conn: psycopg.Connection) -> int:
    """How many sessions of this database wait for a lock now (`conn` autocommit: pg_stat_activity
    is read afresh by each statement only outside a transaction)."""
    row = conn.execute("SELECT count(*) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND wait_event_type = 'Lock'").fetchone()
    return row[0] if row else 0
