"""`pontoon migrate`: create the database if missing, apply the SQL migrations not yet applied, and
seed version 1 of each paytable from its file."""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

import psycopg

from ..config import Settings
from ..operators.seed import seed_file_versions
from ..store.migrate import migrate
from ..store.repositories.audit import AuditRepository
from ..store.repositories.paytables import PaytablesRepository
from .owner_database import one_line


@dataclass(frozen=True, slots=True)
class Prepared:
    applied: list[str]      # migrations applied now
    seeded: list[str]       # paytables whose version 1 was seeded from its file now


def prepare_database(owner_database_url: str) -> Prepared:
    """The schema up to date and every paytable file's version 1 in it, as the schema's owner: what
    `pontoon migrate` does, and what the stack's start (gunicorn's master) and the tests' scratch
    databases do through it. Requests never seed: a paytable file added later is seeded by the
    next migrate."""
    applied = migrate(owner_database_url)
    with psycopg.connect(owner_database_url) as conn, conn.transaction():
        seeded = seed_file_versions(PaytablesRepository(conn), AuditRepository(conn))
    return Prepared(applied, seeded)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    try:
        prepared = prepare_database(settings.owner_database_url)
    except psycopg.OperationalError as exc:
        print(f"pontoon migrate: cannot reach the database: {one_line(exc)}", file=sys.stderr)
        return 1
    print("applied: " + ", ".join(prepared.applied) if prepared.applied else "the schema is up to date")
    if prepared.seeded:
        print("paytables seeded from their files: " + ", ".join(prepared.seeded))
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("migrate", help="create the database if missing, apply migrations and seed "
                                                   "each paytable file's version 1 "
                                                   "(as the owner: PONTOON_OWNER_DATABASE_URL)")
    parser.set_defaults(run=run)
