"""`pontoon audit verify [FILE]` and `pontoon audit export`: check the audit trail, stream it out."""
from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..audit.checkpoints import check_checkpoints, checkpoint_database, load_or_create_key, read_checkpoints
from ..audit.export import export_end, export_lines
from ..audit.verify import print_report, verify_database, verify_export
from ..config import Settings
from ..reports.gaming_day import day_range, parse_day_start
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
        wanted: dict[tuple[str, int], str | None] = {}
        checkpoints: list[dict] = []
        if args.checkpoints:
            try:
                checkpoints = read_checkpoints(args.checkpoints)
            except (OSError, ValueError) as exc:
                print(f"pontoon audit verify: checkpoints: {exc}", file=sys.stderr)
                return 2
            wanted = {(str(c["chain"]), int(c["seq"])): None for c in checkpoints}
        try:
            with handle:
                report = verify_export(handle, hashes_at=wanted)
        except UnicodeDecodeError as exc:
            print(f"pontoon audit verify: {args.file}: not a UTF-8 export ({exc.reason} at byte {exc.start})",
                  file=sys.stderr)
            return 2
        if args.checkpoints:
            # An export may start after a checkpoint or end before one: only those it covers are checked.
            covered = [c for c in checkpoints if wanted.get((str(c["chain"]), int(c["seq"]))) is not None]
            if len(covered) < len(checkpoints):
                report.notes.append(f"{len(checkpoints) - len(covered)} checkpoints fall outside the export")
            check_checkpoints(lambda chain, seq: wanted.get((chain, seq)), covered, report,
                              _public_key(args.public_key))
    else:
        with _connect() as conn:
            report = verify_database(conn, rounds=not args.no_rounds)
            if args.checkpoints:
                try:
                    public = _public_key(args.public_key)
                    check_checkpoints(conn, read_checkpoints(args.checkpoints), report, public)
                except (OSError, ValueError, KeyError) as exc:
                    print(f"pontoon audit verify: checkpoints: {exc}", file=sys.stderr)
                    return 2
    return print_report(report, sys.stdout)


def _public_key(text: str | None) -> Ed25519PublicKey | None:
    """The signer's public key: hex, or the private key file's (PONTOON_CHECKPOINT_KEY) when none is given."""
    if text:
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    path = Settings.from_env().checkpoint_key
    if path and os.path.exists(path):
        return load_or_create_key(path).public_key()
    return None


def _checkpoint(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not settings.checkpoint_key or not (args.directory or settings.checkpoint_dir):
        print("pontoon audit checkpoint: set PONTOON_CHECKPOINT_KEY and PONTOON_CHECKPOINT_DIR", file=sys.stderr)
        return 2
    with _connect() as conn:
        signed = checkpoint_database(conn, load_or_create_key(settings.checkpoint_key),
                                     args.directory or settings.checkpoint_dir)
    for checkpoint in signed:
        print(f"chain {checkpoint['chain']} seq {checkpoint['seq']} {checkpoint['hash']} at {checkpoint['at']}")
    return 0


def _timestamp(text: str) -> datetime:
    """ISO 8601; a time without an offset is taken as UTC."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _gaming_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a gaming day (YYYY-MM-DD): {text!r}") from None


def _gaming_days(args: argparse.Namespace, settings: Settings) -> str | None:
    """Turn --gaming-day (or --gaming-day-from with --gaming-day-to) into --from and --to, in the
    casino's zone from its day start; what is wrong with the options, if anything."""
    first = args.gaming_day or args.gaming_day_from
    last = args.gaming_day or args.gaming_day_to
    if first is None and last is None:
        return None
    if args.gaming_day and (args.gaming_day_from or args.gaming_day_to):
        return "--gaming-day, or --gaming-day-from with --gaming-day-to: not both"
    if first is None or last is None:
        return "--gaming-day-from and --gaming-day-to go together"
    if args.since or args.until:
        return "gaming days and --from/--to cannot be combined: give one"
    try:
        window = day_range(first, last, parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone))
    except ValueError as exc:
        return str(exc)
    args.since, args.until = window.starts_at, window.ends_at
    return None


def _export(args: argparse.Namespace) -> int:
    problem = _gaming_days(args, Settings.from_env())
    if problem is not None:
        print(f"pontoon audit export: {problem}", file=sys.stderr)
        return 2
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
    verify = actions.add_parser("verify", help="check the hash chains, the shoes, and every round against its "
                                               "chained records, the ledger and its payouts; exit 0 when intact, "
                                               "1 naming each problem")
    verify.add_argument("file", nargs="?", help="an export (JSON lines) to check offline; without it, the database")
    verify.add_argument("--no-rounds", action="store_true", help="skip the rounds (their events, ledger and payouts)")
    verify.add_argument("--checkpoints", metavar="DIR",
                        help="a directory of signed checkpoints: every chain must extend each of them")
    verify.add_argument("--public-key", metavar="HEX", help="the checkpoints' signer (Ed25519, hex); by default "
                                                             "the key in PONTOON_CHECKPOINT_KEY")
    verify.set_defaults(action=_verify)
    checkpoint = actions.add_parser("checkpoint", help="sign every chain's head and append the checkpoints to "
                                                       "PONTOON_CHECKPOINT_DIR")
    checkpoint.add_argument("--directory", help="append here instead of PONTOON_CHECKPOINT_DIR")
    checkpoint.set_defaults(action=_checkpoint)
    export = actions.add_parser("export", help="stream audit records to standard output")
    export.add_argument("--from", dest="since", type=_timestamp, help="records at or after this time (ISO 8601)")
    export.add_argument("--to", dest="until", type=_timestamp, help="records before this time (ISO 8601)")
    export.add_argument("--gaming-day", type=_gaming_day, metavar="YYYY-MM-DD",
                        help="the records of this gaming day (GAMING_DAY_STARTS local time in PONTOON_TZ to the next)")
    export.add_argument("--gaming-day-from", type=_gaming_day, metavar="YYYY-MM-DD",
                        help="from the start of this gaming day (with --gaming-day-to)")
    export.add_argument("--gaming-day-to", type=_gaming_day, metavar="YYYY-MM-DD",
                        help="to the end of this gaming day, included")
    export.add_argument("--table", help="only this table's chain")
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    export.set_defaults(action=_export)
    parser.set_defaults(run=run)
