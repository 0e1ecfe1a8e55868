"""A scratch database for one test session: uniquely named, migrated and seeded, dropped at the end."""
from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service.commands.migrate import prepare_database

BASE_URL = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/pontoon")


@contextlib.contextmanager
def scratch_database(prefix: str = "pontoon_t") -> Iterator[str]:
    """A new database named `prefix_<random>`, migrated and seeded as `pontoon migrate` does it,
    dropped afterwards whatever happened."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    url = make_conninfo(BASE_URL, dbname=name)
    prepare_database(url)  # creates it
    try:
        yield url
    finally:
        with psycopg.connect(make_conninfo(BASE_URL, dbname="postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
