"""API keys over HTTP for admins: create (the secret shown once; a person's key names its person),
revoke (at once, but never the last live admin key), and the access list compliance reads. Every
change is an audit record; a secret never is."""
from __future__ import annotations

from ..refusals import Conflict, Invalid, NotFound
from ..roles import KEY_ROLES, PERSONAL_KEY_ROLES, Role
from ..staff.accounts import normal_username
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.keys import KeyRow
from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork
from .commands import CreateKey, RevokeKey


def create_key(cmd: CreateKey, uow: UnitOfWork) -> dict:
    """A new key and its secret: the only time the secret leaves the service."""
    errors: dict[str, list[str]] = {}
    if cmd.role not in KEY_ROLES:
        # A dealer signs in as themselves at a table's enrolled screen: no key stands for one.
        errors["role"] = [f"one of {', '.join(KEY_ROLES)}"]
    elif cmd.role == Role.TERMINAL and not cmd.table_id:
        errors["table_id"] = ["a terminal key is bound to one table: name it"]
    elif cmd.role != Role.TERMINAL and cmd.table_id:
        errors["table_id"] = ["only terminal keys are bound to a table"]
    elif cmd.role == Role.TERMINAL and cmd.owner:
        errors["owner"] = ["a terminal key belongs to its table, never to a person"]
    elif cmd.role in PERSONAL_KEY_ROLES and not cmd.owner:
        article = "an" if cmd.role[0] in "aeiou" else "a"
        errors["owner"] = [f"{article} {cmd.role} key belongs to a person: name the staff account (its username) "
                           "whose actions its requests are"]
    if errors:
        raise Invalid("the key cannot be created as asked", code="invalid_key", errors=errors)
    owner = _owner(uow, cmd) if cmd.owner else None
    if cmd.table_id and uow.tables.get(cmd.table_id) is None:
        # A well-formed name of a table that is not on the floor: the table is what is missing.
        raise NotFound(f"no table {cmd.table_id!r}", code="table_not_found",
                       errors={"table_id": [f"no table {cmd.table_id!r}"]})
    key, secret = uow.keys.create(role=cmd.role, table_id=cmd.table_id, name=cmd.name, created_by=cmd.actor,
                                  owner_id=owner.user_id if owner else None)
    uow.audit.append(chain_for(None), [AuditRecord("key_created", {
        "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name,
        "owner_id": str(owner.user_id) if owner else None, "owner": owner.username if owner else None},
        actor=cmd.actor)])
    return {**key_view(key, owner.username if owner else None), "secret": secret}


def _owner(uow: UnitOfWork, cmd: CreateKey) -> StaffRow:
    """The active account the key is for, in the key's role: a key does what its person may."""
    username = normal_username(cmd.owner or "")
    row = uow.staff.get(username)
    if row is None:   # a well-formed name nobody has: the person is what is missing
        raise NotFound(f"no staff account {username!r}", code="owner_not_found",
                       errors={"owner": [f"no staff account {username!r}"]})
    if not row.active:
        raise Conflict(f"{username} is deactivated", code="owner_deactivated",
                       errors={"owner": [f"{username} is deactivated"]})
    if row.role != cmd.role:
        raise Conflict(f"{username} is {row.role}, not {cmd.role}: a key has its person's role",
                       code="owner_role", errors={"owner": [f"{username} is {row.role}: a key has its person's role"]})
    return row


def revoke_key(cmd: RevokeKey, uow: UnitOfWork) -> dict:
    """Revoke a live key; the next request it signs is refused (keys are checked on every request).
    The last live admin key stays (409): without it no one could create or revoke a key over the
    API again, only on the server's command line."""
    admins = uow.keys.lock_live(Role.ADMIN)
    if admins == [cmd.key_id]:
        raise Conflict(f"key {cmd.key_id} is the last live admin key: create another admin key before revoking it",
                       code="last_admin_key")
    key = uow.keys.revoke(cmd.key_id, cmd.reason)
    if key is None:
        if not uow.keys.exists(cmd.key_id):
            raise NotFound(f"no key {cmd.key_id}")
        raise Conflict(f"key {cmd.key_id} was revoked already", code="key_revoked_already")
    uow.audit.append(chain_for(None), [AuditRecord("key_revoked", {
        "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name,
        "reason": cmd.reason}, actor=cmd.actor)])
    return key_view(key, _owners(uow).get(key.owner_id) if key.owner_id else None)


def access_list(uow: UnitOfWork) -> list[dict]:
    """Every key: role, table, creator, last use, revocation (never a hash or a secret)."""
    owners = _owners(uow)
    return [key_view(key, owners.get(key.owner_id) if key.owner_id else None) for key in uow.keys.all()]


def _owners(uow: UnitOfWork) -> dict:
    return {row.user_id: row.username for row in uow.staff.all()}


def key_view(key: KeyRow, owner: str | None = None) -> dict:
    return {"key_id": key.key_id, "role": key.role, "table_id": key.table_id, "name": key.name,
            "created_by": key.created_by, "created_at": key.created_at, "last_used_at": key.last_used_at,
            "revoked_at": key.revoked_at, "revoke_reason": key.revoke_reason, "owner_id": key.owner_id,
            "owner": owner}
