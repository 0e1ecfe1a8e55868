"""What a person does to their own account: change the password, enrol in or remove the TOTP
second factor. Each is an audit record; a password or a secret never is."""
from __future__ import annotations

from datetime import UTC, datetime

from ..refusals import Conflict, Invalid, NotFound
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork
from .commands import ChangePassword, EnrolTotp, RemoveTotp
from .passwords import password_problems, totp_step
from .policy import StaffPolicy
from .sessions import staff_actor


def _own_account(uow: UnitOfWork, cmd: ChangePassword | EnrolTotp | RemoveTotp) -> StaffRow:
    row = uow.staff.lock_by_id(cmd.user_id)
    if row is None or not row.active:
        raise NotFound("no such active account")
    return row


def change_password(cmd: ChangePassword, uow: UnitOfWork, policy: StaffPolicy | None = None) -> None:
    """A new password, given the current one; every other session of the account ends. `policy`
    hashes it (the default policy's when none is given)."""
    passwords = (policy or StaffPolicy()).passwords
    row = _own_account(uow, cmd)
    errors: dict[str, list[str]] = {}
    if not passwords.verify(row.password_hash, cmd.current_password):
        errors["current_password"] = ["not the current password"]
    if problems := password_problems(cmd.new_password, row.username):
        errors["new_password"] = problems
    elif cmd.new_password == cmd.current_password:
        errors["new_password"] = ["must differ from the current password"]
    if errors:
        raise Invalid("the password was not changed", code="invalid_password", errors=errors)
    uow.staff.set_password(row.user_id, passwords.hash(cmd.new_password))
    ended = uow.staff.end_sessions(row.user_id, "password_changed", keep=cmd.session_id)
    uow.audit.append(chain_for(None), [AuditRecord("staff_password_changed", {
        "user_id": str(row.user_id), "username": row.username, "other_sessions_ended": ended},
        actor=staff_actor(row.username))])


def enrol_totp(cmd: EnrolTotp, uow: UnitOfWork) -> None:
    """Enrol the secret shown to the person, once they prove their authenticator holds it."""
    row = _own_account(uow, cmd)
    if row.totp_secret is not None:
        raise Conflict("a second factor is enrolled already: remove it first", code="totp_enrolled")
    secret = cmd.secret.strip().upper()
    step = totp_step(secret, cmd.code, datetime.now(UTC)) if 16 <= len(secret) <= 64 else None
    if step is None:
        raise Invalid("the code does not match", code="invalid_totp",
                      errors={"code": ["not the code your authenticator shows now"]})
    uow.staff.set_totp_secret(row.user_id, secret, step)
    uow.audit.append(chain_for(None), [AuditRecord("staff_totp_enrolled", {
        "user_id": str(row.user_id), "username": row.username}, actor=staff_actor(row.username))])


def remove_totp(cmd: RemoveTotp, uow: UnitOfWork, policy: StaffPolicy) -> None:
    """Remove the second factor, given the password; not for a role that must have one."""
    row = _own_account(uow, cmd)
    if row.totp_secret is None:
        raise Conflict("no second factor is enrolled", code="totp_not_enrolled")
    if row.role in policy.totp_roles:
        raise Conflict(f"a {row.role} must sign in with a second factor", code="totp_required")
    if not policy.passwords.verify(row.password_hash, cmd.password):
        raise Invalid("the second factor was not removed", code="invalid_password",
                      errors={"password": ["not the current password"]})
    uow.staff.set_totp_secret(row.user_id, None)
    uow.audit.append(chain_for(None), [AuditRecord("staff_totp_removed", {
        "user_id": str(row.user_id), "username": row.username}, actor=staff_actor(row.username))])
