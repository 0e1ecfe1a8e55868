"""Creates the database when missing and applies the SQL migrations in order, under an advisory
lock so that processes starting together do not race."""
from __future__ import annotations

from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import dict_row

# Applied in the order of their names, and recorded by name in schema_migrations. There is no
# 0003: the schema went from 0002 to 0004 when it was first written, and databases have recorded
# 0004 onwards under those names since, so renumbering would apply them all again. Nor is there a
# 0012 any more: it dropped a benchmark floor table that the schema no longer makes (the benchmark's
# app makes its own, bench/floor_app.py); a database that applied it keeps its record.
# The gaps stay (tests/unit/test_migrations.py holds every other number to follow on, each used once).
MIGRATIONS = Path(__file__).with_name("migrations")
_LOCK_KEY = 0x706F6E74  # "pont": one lock for the whole schema


def ensure_database(database_url: str) -> None:
    """Create the database named in the URL if it does not exist (connecting to `postgres`)."""
    params = conninfo_to_dict(database_url)
    name = str(params.get("dbname") or "postgres")
    admin = make_conninfo(database_url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        # Serialise creators: two processes may both see the database missing.
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))


def migrate(database_url: str) -> list[str]:
    """Apply every migration not applied yet; returns the names applied now."""
    ensure_database(database_url)
    applied_now: list[str] = []
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            with conn.cursor(row_factory=dict_row) as cur:
                done = {row["name"] for row in cur.execute("SELECT name FROM schema_migrations")}
            for path in sorted(MIGRATIONS.glob("*.sql")):
                if path.name in done:
                    continue
                with conn.transaction():
                    conn.execute(path.read_text(encoding="utf-8"))
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))
                applied_now.append(path.name)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return applied_now
