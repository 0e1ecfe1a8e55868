"""Opens the PostgreSQL connection pool a process uses; called by the app factory, never at import."""
from __future__ import annotations

from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from .session import app_conninfo, configure_connection, named

# Sync gunicorn workers serve one request at a time; a request uses one connection, so a small
# pool per process is enough and keeps workers x pool well under max_connections.
MIN_SIZE = 1
MAX_SIZE = 4
# A request waits this long for a connection, then is answered 503 with `Retry-After: 1`: while the
# database is away a terminal learns it within a second and retries, instead of queueing behind
# other requests' waits (errors.py).
CHECKOUT_TIMEOUT = 1.0
# A connection that cannot be made is tried again for this long, on psycopg_pool's growing delays,
# then given up; the next request that needs one starts a new attempt at once. So the retries never
# back off further than this, and the first request after the database returns finds it.
RECONNECT_WITHIN = 2.0
# Statements are prepared the first time they run: the service runs a fixed set of them, and a
# rollback (every refused command) makes psycopg drop them all, so at its default of five runs a
# busy connection would keep running a good part of them unprepared.
PREPARE_THRESHOLD = 0


def open_pool(database_url: str, *, min_size: int = MIN_SIZE, max_size: int = MAX_SIZE,
              name: str = "pontoon-api") -> ConnectionPool:
    """A pool whose connections log in as the application role (no rewriting the audit log), in
    autocommit mode: a unit of work's writes go in psycopg's transaction blocks
    (UnitOfWork.transaction), and a read on its own is a transaction of its own. Each connection is
    checked as it is handed out (a round trip): one the server ended while it lay idle (a restart,
    an outage) is replaced then, instead of failing the first request after the database returns.
    One that breaks under a request fails that request and is discarded; idle ones are renewed by
    `max_idle`."""
    pool = ConnectionPool(app_conninfo(database_url), min_size=min_size, max_size=max_size, name=name,
                          kwargs={"autocommit": True, "prepare_threshold": PREPARE_THRESHOLD,
                                  **named(database_url, name)},
                          timeout=CHECKOUT_TIMEOUT, reconnect_timeout=RECONNECT_WITHIN,
                          check=check_connection,
                          configure=configure_connection, open=False)
    pool.open(wait=False)
    return pool


def check_connection(conn: psycopg.Connection[Any]) -> None:
    """Whether the server still answers on `conn`: psycopg_pool's own check (an empty statement,
    one round trip), sent unprepared. With every statement prepared on its first run
    (PREPARE_THRESHOLD), psycopg prepares the empty statement under a new name at each check and
    keeps none of them, so each connection's server process would hold one more prepared statement
    for every request it had served, for as long as the connection lives. The pool's connections
    are always in autocommit mode, as the check needs."""
    conn.execute("", prepare=False)
