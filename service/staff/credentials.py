"""What a person does to their own account: change the password, enrol in or remove the TOTP
second factor. Each is an audit record; a password or a secret never is."""
from __future__ import annotations

from datetime import UTC, datetime

from ..refusals import Conflict, Invalid, NotFound
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork
from .commands import ChangePassword, EnrolTotp, RemoveTotp, SetOwnPassword
from .confirmation import Confirmation, confirm
from .keys import StaffKeys, is_sealed
from .passwords import is_totp_code, is_totp_secret, password_problems, totp_step
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
    uow.staff.set_password(row.user_id, passwords.hash(cmd.new_password), set_by=None)   # their own now
    ended = uow.staff.end_sessions(row.user_id, "password_changed", keep=cmd.session_id)
    uow.audit.append(chain_for(None), [AuditRecord("staff_password_changed", {
        "user_id": str(row.user_id), "username": row.username, "other_sessions_ended": ended},
        actor=staff_actor(row.username))])


def set_own_password(cmd: SetOwnPassword, uow: UnitOfWork, policy: StaffPolicy) -> dict:
    """The key's person sets their own password, confirming the current one (and their TOTP code):
    a wrong one counts toward their sign-in lock, as at the console's sign-in. Their console
    sessions end; from now on the password is theirs (an admin's no longer)."""
    if cmd.owner_id is None:
        raise Conflict("this key belongs to no person: a password is a person's", code="key_of_nobody")
    row = uow.staff.lock_by_id(cmd.owner_id)
    if row is None or not row.active:
        raise NotFound("no such active account")
    # Who it is first: a stranger holding the key learns nothing of the rules from the answers.
    confirm(uow, row, Confirmation(cmd.current_password, cmd.totp, cmd.address), policy, "setting your own password")
    if problems := password_problems(cmd.new_password, row.username):
        raise Invalid("the password was not changed", code="invalid_password", errors={"new_password": problems})
    if cmd.new_password == cmd.current_password:
        raise Invalid("the password was not changed", code="invalid_password",
                      errors={"new_password": ["must differ from the current password"]})
    uow.staff.set_password(row.user_id, policy.passwords.hash(cmd.new_password), set_by=None)
    ended = uow.staff.end_sessions(row.user_id, "password_changed")
    uow.audit.append(chain_for(None), [AuditRecord("staff_password_changed", {
        "user_id": str(row.user_id), "username": row.username, "other_sessions_ended": ended,
        "key_id": str(cmd.key_id)}, actor=str(cmd.key_id))])
    return {"username": row.username, "password_own": True, "sessions_ended": ended}


def enrol_totp(cmd: EnrolTotp, uow: UnitOfWork, policy: StaffPolicy) -> None:
    """Enrol the secret the server made and showed the person, given their password and a code
    proving their authenticator holds it. The secret is stored sealed with the policy's key."""
    row = _own_account(uow, cmd)
    if row.totp_secret is not None:
        raise Conflict("a second factor is enrolled already: remove it first", code="totp_enrolled")
    errors: dict[str, list[str]] = {}
    if not policy.passwords.verify(row.password_hash, cmd.password):
        errors["password"] = ["not the current password"]
    if not is_totp_secret(cmd.secret):
        errors["secret"] = ["not a secret this service made: reload the page for a new one"]
    elif not is_totp_code(cmd.code):
        errors["code"] = ["six digits, as your authenticator shows them"]
    elif (step := totp_step(cmd.secret, cmd.code, datetime.now(UTC))) is None:
        errors["code"] = ["not the code your authenticator shows now"]
    if errors:
        raise Invalid("the second factor was not enrolled", code="invalid_totp", errors=errors)
    uow.staff.set_totp_secret(row.user_id, policy.keys.seal(cmd.secret), step)
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


def seal_totp_secrets(uow: UnitOfWork, keys: StaffKeys) -> int:
    """Seal every TOTP secret still stored in clear (from before secrets were sealed) with `keys`;
    how many there were. Run once by the owner, with the service's key, after upgrading."""
    sealed = 0
    for row in uow.staff.all():
        if row.totp_secret is not None and not is_sealed(row.totp_secret):
            uow.staff.set_totp_secret(row.user_id, keys.seal(row.totp_secret), row.totp_last_step)
            sealed += 1
    if sealed:
        uow.audit.append(chain_for(None), [AuditRecord("staff_totp_sealed", {"accounts": sealed}, actor="cli")])
    return sealed
