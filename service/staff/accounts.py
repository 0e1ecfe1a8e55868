"""What admins do to staff accounts: create, list, deactivate, reset a password (a dealer's PIN),
change a role. Each change is an audit record naming who made it; a password or a PIN never is."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..refusals import Conflict, Invalid, NotFound
from ..roles import STAFF_ROLES, Role
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.screens import EndedSession
from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork
from .commands import ChangeRole, CreateStaff, DeactivateStaff, ResetPassword
from .passwords import generate_password, generate_pin, password_problems, pin_problems
from .policy import StaffPolicy

USERNAME = re.compile(r"^[a-z][a-z0-9._-]{1,31}$")
DISPLAY_NAME_MAX = 100
# What a display name may not hold, as a key's name may not: control characters (NUL included, which
# PostgreSQL refuses in text), DEL and C1 controls, line and paragraph separators, and the marks and
# overrides that make a name read backwards on the pages and in exports that show it.
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class IssuedPassword:
    """An account and the password (a dealer's PIN) just set for it, generated or given: the only
    time it is seen."""
    account: dict[str, Any]
    password: str
    generated: bool

    @property
    def is_pin(self) -> bool:
        return bool(self.account["role"] == Role.DEALER)


def secret_field(role: str) -> str:
    """The name of what the account signs in with: a dealer's PIN, anyone else's password."""
    return "pin" if role == Role.DEALER else "password"


def _secret_problems(role: str, secret: str, username: str) -> list[str]:
    return pin_problems(secret) if role == Role.DEALER else password_problems(secret, username)


def _new_secret(role: str) -> str:
    return generate_pin() if role == Role.DEALER else generate_password()


def set_by(role: str, actor: str) -> str | None:
    """Who a password set for someone else is marked as set by: its person must set their own at
    their next console sign-in, and approves nothing before. A dealer's PIN is always handed to
    them, and a dealer approves nothing: it is not marked."""
    return None if role == Role.DEALER else actor


def normal_username(username: str) -> str:
    return username.strip().lower()


def staff_view(row: StaffRow) -> dict[str, Any]:
    """An account as shown to admins and reviewers (never its hash or its TOTP secret)."""
    return {"user_id": row.user_id, "username": row.username, "display_name": row.display_name,
            "role": row.role, "active": row.active, "totp_enrolled": row.totp_secret is not None,
            "locked_until": row.locked_until, "created_by": row.created_by, "created_at": row.created_at,
            "password_set_by": row.password_set_by,
            "last_sign_in_at": row.last_sign_in_at, "deactivated_at": row.deactivated_at}


def create_staff(cmd: CreateStaff, uow: UnitOfWork, policy: StaffPolicy | None = None) -> IssuedPassword:
    """A new active account; its password as given, or generated, hashed as `policy` says (the
    default policy's when none is given)."""
    username = normal_username(cmd.username)
    display_name = (cmd.display_name or "").strip() or username
    errors: dict[str, list[str]] = {}
    if not USERNAME.match(username):
        errors["username"] = ["2 to 32 characters: a letter, then letters, digits, '.', '_' or '-'"]
    if cmd.role not in STAFF_ROLES:
        errors["role"] = [f"one of {', '.join(STAFF_ROLES)}"]
    if len(display_name) > DISPLAY_NAME_MAX:
        errors["display_name"] = [f"at most {DISPLAY_NAME_MAX} characters"]
    elif UNPRINTABLE.search(display_name):
        errors["display_name"] = ["no control characters, line breaks or bidirectional marks"]
    if cmd.password is not None and (problems := _secret_problems(cmd.role, cmd.password, username)):
        errors[secret_field(cmd.role)] = problems
    if errors:
        raise Invalid("the account cannot be created as asked", code="invalid_account", errors=errors)
    password = cmd.password if cmd.password is not None else _new_secret(cmd.role)
    row = uow.staff.add(username=username, display_name=display_name, role=cmd.role,
                        password_hash=(policy or StaffPolicy()).passwords.hash(password), created_by=cmd.actor,
                        password_set_by=set_by(cmd.role, cmd.actor))
    if row is None:
        raise Conflict(f"the username {username!r} is taken", code="username_taken",
                       errors={"username": ["taken: choose another"]})
    uow.audit.append(chain_for(None), [AuditRecord("staff_created", {
        "user_id": str(row.user_id), "username": row.username, "display_name": row.display_name,
        "role": row.role}, actor=cmd.actor)])
    return IssuedPassword(staff_view(row), password, cmd.password is None)


def list_staff(uow: UnitOfWork) -> list[dict[str, Any]]:
    return [staff_view(row) for row in uow.staff.all()]


def _locked_account(uow: UnitOfWork, username: str) -> StaffRow:
    row = uow.staff.lock(normal_username(username))
    if row is None:
        raise NotFound(f"no account {normal_username(username)!r}", errors={"username": ["no such account"]})
    return row


def _keep_an_admin(uow: UnitOfWork, row: StaffRow, what: str) -> None:
    """Someone must stay able to manage access: the last active admin account is not taken away."""
    if row.role == Role.ADMIN and row.active and uow.staff.count_active(Role.ADMIN) <= 1:
        raise Conflict(f"{row.username} is the last active admin: {what} would leave nobody to manage access",
                       code="last_admin")


def _end_every_session(uow: UnitOfWork, row: StaffRow, reason: str, kind: str, payload: dict[str, Any],
                       actor: str) -> None:
    """End the account's console sessions and its sessions on dealers' screens, and record `kind`
    (with how many ended) and, on each table's chain, the dealer's leaving its screen."""
    ended = uow.staff.end_sessions(row.user_id, reason)
    at_screens = uow.screens.end_sessions_of(row.user_id, reason)
    records: dict[str, list[AuditRecord]] = {chain_for(None): [AuditRecord(kind, {
        **payload, "sessions_ended": ended + len(at_screens)}, actor=actor)]}
    for session in at_screens:
        records.setdefault(chain_for(session.table_id), []).append(dealer_left(session, reason, actor))
    uow.audit.append_by_chain(records)


def dealer_left(session: EndedSession, reason: str, actor: str | None, **details: object) -> AuditRecord:
    """The record of a dealer's session on a screen ended (by them, or by whoever ended it)."""
    return AuditRecord("dealer_signed_out", {
        "user_id": str(session.user_id), "username": session.username, "session_id": str(session.session_id),
        "screen_id": str(session.screen_id), "screen": session.screen_name, "reason": reason, **details},
        actor=actor, table_id=session.table_id)


def _reason(reason: str | None) -> dict[str, str]:
    """The reason given, for the audit record (the command line may give none)."""
    return {"reason": reason} if reason else {}


def deactivate_staff(cmd: DeactivateStaff, uow: UnitOfWork) -> dict[str, Any]:
    """The account may not sign in again; its open sessions (on dealers' screens too) end now."""
    row = _locked_account(uow, cmd.username)
    if not row.active:
        raise Conflict(f"{row.username} is deactivated already", code="deactivated_already")
    _keep_an_admin(uow, row, "deactivating it")
    uow.staff.deactivate(row.user_id)
    _end_every_session(uow, row, "deactivated", "staff_deactivated",
                       {"user_id": str(row.user_id), "username": row.username, "role": row.role,
                        **_reason(cmd.reason)}, cmd.actor)
    return staff_view(uow.staff.get_by_id(row.user_id) or row)


def reset_password(cmd: ResetPassword, uow: UnitOfWork, policy: StaffPolicy | None = None) -> IssuedPassword:
    """A new password (a dealer's PIN), given or generated, for an active account; its lock and
    its open sessions end now. `policy` hashes it (the default policy's when none is given)."""
    row = _locked_account(uow, cmd.username)
    if not row.active:
        raise Conflict(f"{row.username} is deactivated", code="deactivated")
    if cmd.password is not None and (problems := _secret_problems(row.role, cmd.password, row.username)):
        what = secret_field(row.role)
        raise Invalid(f"the {'PIN' if what == 'pin' else what} cannot be used", code=f"invalid_{what}",
                      errors={what: problems})
    password = cmd.password if cmd.password is not None else _new_secret(row.role)
    uow.staff.set_password(row.user_id, (policy or StaffPolicy()).passwords.hash(password),
                           set_by=set_by(row.role, cmd.actor))
    reason = "pin_reset" if row.role == Role.DEALER else "password_reset"
    _end_every_session(uow, row, reason, "staff_password_reset",
                       {"user_id": str(row.user_id), "username": row.username, **_reason(cmd.reason)}, cmd.actor)
    return IssuedPassword(staff_view(row), password, cmd.password is None)


def change_role(cmd: ChangeRole, uow: UnitOfWork) -> dict[str, Any]:
    """The account's one role, in force from its next request."""
    if cmd.role not in STAFF_ROLES:
        raise Invalid("no such role", code="invalid_role", errors={"role": [f"one of {', '.join(STAFF_ROLES)}"]})
    row = _locked_account(uow, cmd.username)
    if not row.active:
        raise Conflict(f"{row.username} is deactivated", code="deactivated")
    if (row.role == Role.DEALER) != (cmd.role == Role.DEALER):
        # A PIN of six digits is no console password, nor a console password a PIN: a dealer who
        # becomes a supervisor (or the other way) gets an account of the new kind, and this one
        # is deactivated, so each name keeps the way it signs in.
        told = (f"{row.username} is a dealer, who signs in with a PIN at a table's screen: create a console "
                "account for the new role instead" if row.role == Role.DEALER else
                f"{row.username} signs in to the console with a password: create a dealer's account, with a PIN, "
                "instead")
        raise Conflict(told, code="role_signs_in_otherwise",
                       errors={"role": ["a dealer's account stays a dealer's, and no other becomes one"]})
    if row.role == cmd.role:
        raise Conflict(f"{row.username} is {cmd.role} already", code="same_role",
                       errors={"role": [f"{row.username} is {cmd.role} already"]})
    if cmd.role != Role.ADMIN:
        _keep_an_admin(uow, row, "changing its role")
    uow.staff.set_role(row.user_id, cmd.role)
    uow.audit.append(chain_for(None), [AuditRecord("staff_role_changed", {
        "user_id": str(row.user_id), "username": row.username, "from": row.role, "to": cmd.role},
        actor=cmd.actor)])
    return staff_view(uow.staff.get_by_id(row.user_id) or row)
