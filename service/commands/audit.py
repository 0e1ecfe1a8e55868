"""`pontoon audit verify [FILE]` and `pontoon audit export`: check the audit trail, stream it out."""
from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from typing import Any

import psycopg

from ..audit.export import export_end, export_lines
from ..audit.verify import print_report, verify_database, verify_export
from ..config import Settings
from ..settlement.connection import connect
from ..store.repositories.audit import AuditRepository


def _connect() -> psycopg.Connection[Any]:
    return connect(Settings.from_env().database_url)


def _verify(args: argparse.Namespace) -> int:
    if args.file:
        try:
            handle = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
        except OSError as exc:
            print(f"pontoon audit verify: {exc}", file=sys.stderr)
            return 2
        try:
            with handle:
                report = verify_export(handle)
        except UnicodeDecodeError as exc:
            print(f"pontoon audit verify: {args.file}: not a UTF-8 export ({exc.reason} at byte {exc.start})",
                  file=sys.stderr)
            return 2
    else:
        with _connect() as conn:
            report = verify_database(conn, rounds=not args.no_rounds)
    return print_report(report, sys.stdout)


def _timestamp(text: str) -> datetime:
    """ISO 8601; a time without an offset is taken as UTC."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _export(args: argparse.Namespace) -> int:
    with _connect() as conn:
        until = export_end(AuditRepository(conn), args.until, Settings.from_env().audit_clock_margin)
        print(f"records from {args.since.isoformat() if args.since else 'the start'} until {until.isoformat()} "
              "(every record before that has committed)", file=sys.stderr)
        try:
            with conn.transaction():   # the export's server-side cursor lives in a transaction
                for line in export_lines(AuditRepository(conn), fmt=args.format, since=args.since, until=until,
                                         table_id=args.table):
                    sys.stdout.write(line)
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader stopped (`| head`): not an error of the export. Keep Python from
            # complaining again when it flushes standard output at exit.
            sys.stdout = open(os.devnull, "w")
    return 0


def run(args: argparse.Namespace) -> int:
    return args.action(args)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("audit", help="verify the audit trail, or export it")
    actions = parser.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    verify = actions.add_parser("verify", help="check the hash chains, shoe commitments and settled rounds; "
                                               "exit 0 when intact, 1 naming the first broken record")
    verify.add_argument("file", nargs="?", help="an export (JSON lines) to check offline; without it, the database")
    verify.add_argument("--no-rounds", action="store_true", help="skip replaying settled rounds against the ledger")
    verify.set_defaults(action=_verify)
    export = actions.add_parser("export", help="stream audit records to standard output")
    export.add_argument("--from", dest="since", type=_timestamp, help="records at or after this time (ISO 8601)")
    export.add_argument("--to", dest="until", type=_timestamp, help="records before this time (ISO 8601)")
    export.add_argument("--table", help="only this table's chain")
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    export.set_defaults(action=_export)
    parser.set_defaults(run=run)
