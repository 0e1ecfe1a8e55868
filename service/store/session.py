"""Per-connection session set-up: every application connection acts as the `pontoon_app` role,
reads JSON columns with orjson, and names its process in pg_stat_activity."""
from __future__ import annotations

import orjson
import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus
from psycopg.types.json import set_json_loads

APP_ROLE = "pontoon_app"


def named(database_url: str, process: str) -> dict[str, str]:
    """Connection arguments naming the process ("pontoon-api", "pontoon-settlement", ...) as the
    connection's application_name, so pg_stat_activity and the server's log say which part of the
    service holds a lock or runs a statement. A name set in the URL itself is kept."""
    return {} if "application_name" in conninfo_to_dict(database_url) else {"application_name": process}


def configure_connection(conn: psycopg.Connection) -> None:
    """Make `conn` act as the application role (migration 0002), whose grants refuse UPDATE and
    DELETE on audit_log, so the service cannot rewrite its own audit trail even when it logs in
    as a superuser. Call it on a fresh connection (a pool's `configure` hook, a worker's connect):
    the role holds for the whole session, across transactions."""
    status = conn.info.transaction_status
    if status != TransactionStatus.IDLE:
        # A SET inside someone else's transaction would vanish with its rollback.
        raise psycopg.ProgrammingError("configure_connection needs an idle connection, not one in a transaction")
    # A round's events come back as one JSON array on every decision; orjson reads it in under half
    # the standard library's time (PostgreSQL's JSON holds nothing orjson reads differently:
    # no NaN, and amounts are whole cents).
    set_json_loads(orjson.loads, conn)
    conn.execute(f"SET ROLE {APP_ROLE}")
    if not conn.autocommit:
        conn.commit()  # the SET opened a transaction; commit it so a later rollback keeps the role
