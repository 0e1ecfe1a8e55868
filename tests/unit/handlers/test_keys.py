"""API keys' handlers on a unit of work in memory: a key bound to a table or not as its role says,
revocation (never of the last live admin key), and an audit record for each, never the secret."""
from __future__ import annotations

import uuid

import pytest

from service.operators.commands import CreateKey, RevokeKey
from service.operators.keys import access_list, create_key, revoke_key
from service.refusals import Conflict, Invalid, NotFound
from service.rounds import handlers
from service.rounds.commands import CreateTable

from .fake_uow import FakeUnitOfWork


@pytest.fixture
def uow() -> FakeUnitOfWork:
    uow = FakeUnitOfWork()
    handlers.create_table(CreateTable("T1", "canberra", "canberra-standard", actor="admin"), uow)
    for username, role in (("ada", "admin"), ("olly", "operator"), ("gone", "operator")):
        uow.staff.add(username=username, display_name=username.title(), role=role, password_hash="x",
                      created_by="admin")
    gone = uow.staff.get("gone")
    assert gone is not None
    uow.staff.deactivate(gone.user_id)
    return uow


def test_a_terminal_key_is_bound_to_its_table_and_its_secret_is_given_once_and_never_audited(uow):
    created = create_key(CreateKey("terminal", "T1", "till 1", actor="admin"), uow)
    assert created["role"] == "terminal" and created["table_id"] == "T1" and created["secret"]
    (record,) = uow.audit.records["system"]
    assert record.kind == "key_created" and record.actor == "admin"
    assert created["secret"] not in repr(record.payload) and record.payload["key_id"] == str(created["key_id"])
    assert all("secret" not in entry for entry in access_list(uow))


@pytest.mark.parametrize(("role", "table_id"), [("terminal", None), ("supervisor", "T1")])
def test_only_a_terminal_key_names_a_table_and_it_must(uow, role, table_id):
    with pytest.raises(Invalid) as refused:
        create_key(CreateKey(role, table_id, None, actor="admin"), uow)
    assert "table_id" in (refused.value.errors or {}) and not uow.keys.rows


def test_a_terminal_key_for_a_table_not_on_the_floor_is_not_found(uow):
    with pytest.raises(NotFound) as refused:
        create_key(CreateKey("terminal", "T9", None, actor="admin"), uow)
    assert refused.value.code == "table_not_found" and not uow.keys.rows


def test_a_revoked_key_is_revoked_once_and_audited_with_the_reason(uow):
    create_key(CreateKey("admin", None, "first", actor="admin", owner="ada"), uow)
    other = create_key(CreateKey("admin", None, "second", actor="admin", owner="ada"), uow)
    revoked = revoke_key(RevokeKey(other["key_id"], "left the company", actor="admin"), uow)
    assert revoked["revoked_at"] is not None
    assert uow.audit.records["system"][-1].kind == "key_revoked"
    assert uow.audit.records["system"][-1].payload["reason"] == "left the company"
    with pytest.raises(Conflict) as again:
        revoke_key(RevokeKey(other["key_id"], None, actor="admin"), uow)
    assert again.value.code == "key_revoked_already"


def test_the_last_live_admin_key_is_kept(uow):
    only = create_key(CreateKey("admin", None, None, actor="admin", owner="ada"), uow)
    with pytest.raises(Conflict) as refused:
        revoke_key(RevokeKey(only["key_id"], None, actor="admin"), uow)
    assert refused.value.code == "last_admin_key"
    assert uow.keys.rows[only["key_id"]].revoked_at is None


def test_revoking_a_key_that_never_was_is_not_found(uow):
    with pytest.raises(NotFound):
        revoke_key(RevokeKey(uuid.uuid4(), None, actor="admin"), uow)


@pytest.mark.parametrize("role", ["admin", "operator", "supervisor"])
def test_a_key_that_drafts_approves_voids_or_manages_access_names_its_person(uow, role):
    with pytest.raises(Invalid) as refused:
        create_key(CreateKey(role, None, "automation", actor="admin"), uow)
    assert "owner" in (refused.value.errors or {}) and not uow.keys.rows


def test_a_persons_key_is_theirs_in_the_chained_record(uow):
    created = create_key(CreateKey("operator", None, "olly's laptop", actor="admin", owner="olly"), uow)
    olly = uow.staff.get("olly")
    assert olly is not None and created["owner"] == "olly" and created["owner_id"] == olly.user_id
    (record,) = uow.audit.records["system"]
    assert record.payload["owner_id"] == str(olly.user_id) and record.payload["owner"] == "olly"


@pytest.mark.parametrize(("role", "owner", "told"), [
    ("operator", "ada", "ada is admin"),                 # a key has its person's role
    ("operator", "gone", "gone is deactivated"),
    ("operator", "nobody", "no staff account 'nobody'"),
])
def test_a_key_is_only_for_an_active_person_of_its_role(uow, role, owner, told):
    with pytest.raises((Conflict, NotFound)) as refused:
        create_key(CreateKey(role, None, None, actor="admin", owner=owner), uow)
    assert told in refused.value.message and not uow.keys.rows


def test_a_terminal_key_belongs_to_its_table_not_a_person(uow):
    with pytest.raises(Invalid) as refused:
        create_key(CreateKey("terminal", "T1", None, actor="admin", owner="olly"), uow)
    assert "owner" in (refused.value.errors or {})
