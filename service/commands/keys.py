"""`pontoon keys create|revoke|list`: API keys; a new key's secret is printed once, alone on the
last line, and only its SHA-256 is stored."""
from __future__ import annotations

import argparse
import re
import sys
import uuid
from typing import Any

import psycopg

from ..config import Settings
from ..roles import KEY_ROLES, PERSONAL_KEY_ROLES, Role
from ..store.repositories.audit import AuditRecord, AuditRepository, chain_for
from ..store.repositories.keys import KeysRepository
from ..store.repositories.staff import StaffRepository
from ..store.repositories.tables import TablesRepository
from .owner_database import run_reporting_database

_ACTOR = "cli"
# Characters a name stored before names were refused them could hold, which would break a listing
# across lines or show it reversed: printed as escapes.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(text: str | None) -> str:
    return "-" if not text else _UNPRINTABLE.sub(lambda found: found.group().encode("unicode_escape").decode(), text)


def _connect() -> psycopg.Connection:
    """As the database's owner: the command line on the server is where the first admin key is
    made and where a key is revoked when no admin key is left to do it."""
    return psycopg.connect(Settings.from_env().owner_database_url)


def create(args: argparse.Namespace) -> int:
    if args.role == Role.TERMINAL and not args.table:
        print("pontoon keys create: a terminal key needs --table", file=sys.stderr)
        return 2
    if args.role != Role.TERMINAL and args.table:
        print("pontoon keys create: only terminal keys are bound to a table", file=sys.stderr)
        return 2
    if args.role == Role.TERMINAL and args.owner:
        print("pontoon keys create: a terminal key belongs to its table, never to a person", file=sys.stderr)
        return 2
    if args.role in PERSONAL_KEY_ROLES and not args.owner:
        print(f"pontoon keys create: a {args.role} key belongs to a person: --owner USERNAME (their staff account, "
              "of the same role)", file=sys.stderr)
        return 2
    with _connect() as conn:
        keys = KeysRepository(conn)
        if args.if_none and keys.any_live(args.role):
            return 0  # a first-start helper: there is one already, so print nothing
        owner = StaffRepository(conn).get(args.owner.strip().lower()) if args.owner else None
        if args.owner and (owner is None or not owner.active or owner.role != args.role):
            told = ("no such account" if owner is None else "deactivated" if not owner.active
                    else f"{owner.role}, not {args.role}")
            print(f"pontoon keys create: --owner {args.owner!r}: {told}", file=sys.stderr)
            return 1
        if args.table and TablesRepository(conn).get(args.table) is None:
            # As the API refuses it (404): a key for a table nobody made opens nothing, and a
            # mistyped table name would hand a terminal a key that never works.
            print(f"pontoon keys create: no table {args.table!r}: create the table first", file=sys.stderr)
            return 1
        with conn.transaction():
            key, secret = keys.create(role=args.role, table_id=args.table, name=args.name, created_by=_ACTOR,
                                      owner_id=owner.user_id if owner else None)
            AuditRepository(conn).append(chain_for(None), [AuditRecord("key_created", {
                "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name,
                "owner_id": str(owner.user_id) if owner else None, "owner": owner.username if owner else None},
                actor=_ACTOR)])
    print(f"key {key.key_id} role {key.role}" + (f" table {key.table_id}" if key.table_id else "")
          + (f" owner {owner.username}" if owner else ""))
    print(secret)
    return 0


def revoke(args: argparse.Namespace) -> int:
    try:
        key_id = uuid.UUID(args.key_id)
    except ValueError:
        print(f"pontoon keys revoke: {args.key_id!r} is not a key id", file=sys.stderr)
        return 2
    with _connect() as conn, conn.transaction():
        key = KeysRepository(conn).revoke(key_id)
        if key is None:
            print(f"pontoon keys revoke: no live key {key_id}", file=sys.stderr)
            return 1
        AuditRepository(conn).append(chain_for(None),
                                     [AuditRecord("key_revoked", {"key_id": str(key_id)}, actor=_ACTOR)])
    print(f"revoked {key_id}")
    return 0


def list_keys(_args: argparse.Namespace) -> int:
    with _connect() as conn:
        keys = KeysRepository(conn).all()
    print(f"{'key_id':36}  {'role':10}  {'table':12}  {'name':16}  {'last used':25}  revoked")
    for key in keys:
        print(f"{str(key.key_id):36}  {key.role:10}  {key.table_id or '-':12}  {_shown(key.name):16}  "
              f"{key.last_used_at.isoformat(timespec='seconds') if key.last_used_at else '-':25}  "
              f"{key.revoked_at.isoformat(timespec='seconds') if key.revoked_at else '-'}")
    return 0


def run(args: argparse.Namespace) -> int:
    return run_reporting_database("keys", args.action, args, missing="the database has no schema yet")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("keys", help="create, revoke and list API keys "
                                                "(as the owner: PONTOON_OWNER_DATABASE_URL)")
    actions = parser.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    made = actions.add_parser("create", help="create a key and print its secret (once)")
    made.add_argument("--role", required=True, choices=[role.value for role in KEY_ROLES])
    made.add_argument("--table", help="the table a terminal key is bound to")
    made.add_argument("--name", help="who or what holds the key")
    made.add_argument("--owner", help="the username of the staff account the key belongs to (required for "
                                      "admin, operator and supervisor keys; of the key's role)")
    made.add_argument("--if-none", action="store_true",
                      help="create it only when no live key has this role (first start); else print nothing")
    made.set_defaults(action=create)
    revoked = actions.add_parser("revoke", help="revoke a key at once")
    revoked.add_argument("key_id")
    revoked.set_defaults(action=revoke)
    listed = actions.add_parser("list", help="list keys (never their secrets)")
    listed.set_defaults(action=list_keys)
    parser.set_defaults(run=run)
