"""`pontoon users create|list|deactivate|reset-password|set-role|seal-totp`: staff accounts for the console
and dealers' accounts for the tables' screens. A generated password (a dealer's PIN) is printed once, alone
on the last line; only its argon2 hash is stored."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import psycopg

from ..command_runner import run_command
from ..config import Settings
from ..refusals import CommandRefused, Invalid
from ..roles import CONSOLE_ROLES, STAFF_ROLES
from ..staff.accounts import IssuedPassword, change_role, create_staff, deactivate_staff, list_staff, reset_password
from ..staff.commands import ChangeRole, CreateStaff, DeactivateStaff, ResetPassword
from ..staff.credentials import seal_totp_secrets
from ..staff.keys import StaffKeys
from ..store.uow import UnitOfWork
from .owner_database import run_reporting_database

_ACTOR = "cli"


def _in_unit_of_work(action: Callable[[UnitOfWork], Any]) -> Any:
    """Run `action` in a unit of work as the database's owner, and commit: the command line on the
    server is where the first admin account is made, and where access is restored when no admin
    can sign in."""
    with psycopg.connect(Settings.from_env().owner_database_url, autocommit=True) as conn:
        uow = UnitOfWork(conn)
        return run_command(uow, lambda: action(uow))


def _password_from_stdin(args: argparse.Namespace) -> str | None:
    if not args.password_stdin:
        return None
    return sys.stdin.readline().rstrip("\r\n")


def _print_issued(issued: IssuedPassword, what: str) -> None:
    account = issued.account
    print(f"{what} {account['username']} role {account['role']} ({account['display_name']})")
    if issued.generated:
        print(issued.password)


def create(args: argparse.Namespace) -> int:
    if args.if_none and _in_unit_of_work(lambda uow: uow.staff.any_active(args.role)):
        return 0   # a first-start helper: there is one already, so print nothing
    command = CreateStaff(args.username, args.role, _ACTOR, display_name=args.name,
                          password=_password_from_stdin(args))
    _print_issued(_in_unit_of_work(lambda uow: create_staff(command, uow)), "account")
    return 0


def reset(args: argparse.Namespace) -> int:
    command = ResetPassword(args.username, _ACTOR, password=_password_from_stdin(args), reason=args.reason)
    _print_issued(_in_unit_of_work(lambda uow: reset_password(command, uow)), "new password for")
    return 0


def deactivate(args: argparse.Namespace) -> int:
    account = _in_unit_of_work(lambda uow: deactivate_staff(DeactivateStaff(args.username, _ACTOR, args.reason), uow))
    print(f"deactivated {account['username']}; its sessions have ended")
    return 0


def set_role(args: argparse.Namespace) -> int:
    account = _in_unit_of_work(lambda uow: change_role(ChangeRole(args.username, args.role, _ACTOR), uow))
    print(f"{account['username']} is now {account['role']}")
    return 0


def seal_totp(_args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not (settings.secret_key and settings.totp_key):
        print("pontoon users: set PONTOON_TOTP_KEY and PONTOON_SECRET_KEY (or PONTOON_SECRETS_FILE) to the "
              "service's keys first", file=sys.stderr)
        return 2
    keys = StaffKeys.from_settings(settings)
    sealed = _in_unit_of_work(lambda uow: seal_totp_secrets(uow, keys))
    print(f"sealed {sealed} TOTP secrets stored in clear")
    return 0


def _when(moment: Any) -> str:
    return moment.isoformat(timespec="seconds") if moment else "-"


def list_users(_args: argparse.Namespace) -> int:
    accounts = _in_unit_of_work(list_staff)
    now = datetime.now(UTC)
    print(f"{'username':20}  {'role':10}  {'status':11}  {'2fa':3}  {'last sign-in':25}  {'created':25}  name")
    for account in accounts:
        locked = account["locked_until"] is not None and account["locked_until"] > now
        status = "deactivated" if not account["active"] else ("locked" if locked else "active")
        print(f"{account['username']:20}  {account['role']:10}  {status:11}  "
              f"{'yes' if account['totp_enrolled'] else 'no':3}  {_when(account['last_sign_in_at']):25}  "
              f"{_when(account['created_at']):25}  {account['display_name']}")
    return 0


def _refusals_said(args: argparse.Namespace) -> int:
    """The action, a refusal (a bad field, the last admin) said in one line: 2 for bad input."""
    try:
        result: int = args.action(args)
        return result
    except CommandRefused as refused:
        details = "; ".join(f"{field}: {', '.join(map(str, messages))}"
                            for field, messages in (refused.errors or {}).items())
        print(f"pontoon users: {refused.message}" + (f" ({details})" if details else ""), file=sys.stderr)
        return 2 if isinstance(refused, Invalid) else 1


def run(args: argparse.Namespace) -> int:
    return run_reporting_database("users", _refusals_said, args, missing="the database has no staff accounts yet")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("users", help="create, list and deactivate staff accounts "
                                                 "(as the owner: PONTOON_OWNER_DATABASE_URL)")
    actions = parser.add_subparsers(dest="users_command", metavar="ACTION", required=True)
    made = actions.add_parser("create", help="create an account; a generated password (a dealer's PIN: six "
                                             "digits) is printed once")
    made.add_argument("--username", required=True)
    made.add_argument("--role", required=True, choices=[role.value for role in STAFF_ROLES])
    made.add_argument("--name", help="the person's name as the console shows it (default: the username)")
    made.add_argument("--password-stdin", action="store_true",
                      help="read the password (a dealer's PIN: at least 6 digits) from standard input")
    made.add_argument("--if-none", action="store_true",
                      help="create it only when no active account has this role (first start); else print nothing")
    made.set_defaults(action=create)
    listed = actions.add_parser("list", help="list accounts (never a password)")
    listed.set_defaults(action=list_users)
    gone = actions.add_parser("deactivate", help="deactivate an account; its sessions end at once")
    gone.add_argument("username")
    gone.add_argument("--reason", help="why, kept in the audit record")
    gone.set_defaults(action=deactivate)
    reset_parser = actions.add_parser("reset-password", help="set a new password (a dealer's PIN); its sessions "
                                                             "end at once")
    reset_parser.add_argument("username")
    reset_parser.add_argument("--password-stdin", action="store_true",
                              help="read the password (a dealer's PIN) from standard input")
    reset_parser.add_argument("--reason", help="why, kept in the audit record")
    reset_parser.set_defaults(action=reset)
    role = actions.add_parser("set-role", help="change an account's role")
    role.add_argument("username")
    role.add_argument("--role", required=True, choices=[role.value for role in CONSOLE_ROLES],
                      help="a console role: a dealer's account stays a dealer's")
    role.set_defaults(action=set_role)
    seal = actions.add_parser("seal-totp", help="seal TOTP secrets stored in clear with the service's TOTP key "
                                                "(once, after upgrading)")
    seal.set_defaults(action=seal_totp)
    parser.set_defaults(run=run)
