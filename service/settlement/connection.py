"""The settlement processes' database connection: one per process, opened on first use."""
from __future__ import annotations

from typing import Any

import psycopg

from ..store.session import app_conninfo, configure_connection, named

_connections: dict[str, psycopg.Connection] = {}


def connect(database_url: str, process: str = "pontoon-settlement") -> psycopg.Connection:
    """An autocommit connection logged in as the application role; work runs in explicit
    transactions. The server polls the socket while a statement waits, so a settler killed
    mid-transaction releases its row locks within a second instead of when the wait ends."""
    name: dict[str, Any] = named(database_url, process)
    conn = psycopg.connect(app_conninfo(database_url), autocommit=True, **name)
    configure_connection(conn)
    conn.execute("SET client_connection_check_interval = 1000")
    return conn


def process_connection(database_url: str) -> psycopg.Connection:
    """This process's connection, reopened when the last one broke. Created lazily, so a
    prefork worker's children each open their own after the fork."""
    conn = _connections.get(database_url)
    if conn is None or conn.closed or conn.broken:
        conn = _connections[database_url] = connect(database_url)
    return conn
