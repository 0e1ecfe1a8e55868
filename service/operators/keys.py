"""API keys over HTTP for admins: create (the secret shown once), revoke (at once, but never the
last live admin key), and the access list compliance reads. Every change is an audit record; a
secret never is."""
from __future__ import annotations

from ..refusals import Conflict, Invalid, NotFound
from ..roles import KEY_ROLES, Role
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.keys import KeyRow
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
    if errors:
        raise Invalid("the key cannot be created as asked", code="invalid_key", errors=errors)
    if cmd.table_id and uow.tables.get(cmd.table_id) is None:
        # A well-formed name of a table that is not on the floor: the table is what is missing.
        raise NotFound(f"no table {cmd.table_id!r}", code="table_not_found",
                       errors={"table_id": [f"no table {cmd.table_id!r}"]})
    key, secret = uow.keys.create(role=cmd.role, table_id=cmd.table_id, name=cmd.name, created_by=cmd.actor)
    uow.audit.append(chain_for(None), [AuditRecord("key_created", {
        "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name},
        actor=cmd.actor)])
    return {**key_view(key), "secret": secret}


def revoke_key(cmd: RevokeKey, uow: UnitOfWork) -> dict:
    """Revoke a live key; the next request it signs is refused (keys are checked on every request).
    The last live admin key stays (409): without it no one could create or revoke a key over the
    API again, only on the server's command line."""
    admins = uow.keys.lock_live(Role.ADMIN)
    if admins == [cmd.key_id]:
        raise Conflict(f"key {cmd.key_id} is the last live admin key: create another admin key before revoking it",
                       code="last_admin_key")
    key = uow.keys.revoke(cmd.key_id)
    if key is None:
        if not uow.keys.exists(cmd.key_id):
            raise NotFound(f"no key {cmd.key_id}")
        raise Conflict(f"key {cmd.key_id} was revoked already", code="key_revoked_already")
    uow.audit.append(chain_for(None), [AuditRecord("key_revoked", {
        "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name,
        "reason": cmd.reason}, actor=cmd.actor)])
    return key_view(key)


def access_list(uow: UnitOfWork) -> list[dict]:
    """Every key: role, table, creator, last use, revocation (never a hash or a secret)."""
    return [key_view(key) for key in uow.keys.all()]


def key_view(key: KeyRow) -> dict:
    return {"key_id": key.key_id, "role": key.role, "table_id": key.table_id, "name": key.name,
            "created_by": key.created_by, "created_at": key.created_at, "last_used_at": key.last_used_at,
            "revoked_at": key.revoked_at}
