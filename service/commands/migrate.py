"""`pontoon migrate`: create the database if missing and apply the SQL migrations not yet applied."""
from __future__ import annotations

import argparse
import sys
from typing import Any

import psycopg

from ..config import Settings
from ..store.migrate import migrate
from .owner_database import one_line


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    try:
        applied = migrate(settings.owner_database_url)
    except psycopg.OperationalError as exc:
        print(f"pontoon migrate: cannot reach the database: {one_line(exc)}", file=sys.stderr)
        return 1
    print("applied: " + ", ".join(applied) if applied else "the schema is up to date")
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("migrate", help="create the database if missing and apply migrations "
                                                   "(as the owner: PONTOON_OWNER_DATABASE_URL)")
    parser.set_defaults(run=run)
