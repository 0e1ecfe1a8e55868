"""The owner's commands on the server (`pontoon keys`, `users`, `migrate`): how a database that is
unreachable or not yet migrated is said, in one line, with the exit status the shell sees."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import psycopg


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def run_reporting_database(command: str, action: Callable[[argparse.Namespace], int], args: argparse.Namespace,
                           *, missing: str) -> int:
    """`action(args)`, or 1 with a line on standard error when the database has no schema yet
    (`missing` says what is absent) or cannot be reached."""
    try:
        return action(args)
    except psycopg.errors.UndefinedTable:
        print(f"pontoon {command}: {missing}: run `pontoon migrate`", file=sys.stderr)
        return 1
    except psycopg.OperationalError as exc:
        print(f"pontoon {command}: cannot reach the database: {one_line(exc)}", file=sys.stderr)
        return 1
