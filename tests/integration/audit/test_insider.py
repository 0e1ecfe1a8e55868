"""Insider attacks on what the money and access depend on, run as the service's own login
(pontoon_app) and as the database's owner: each is refused, or named by `audit verify`."""
from __future__ import annotations

import json
import uuid

import psycopg
import pytest

from service.audit.verify import verify_database
from service.operators.seed import seed_file_versions
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for
from service.store.repositories.keys import KeysRepository
from service.store.repositories.paytables import PaytablesRepository

pytestmark = pytest.mark.integration

PAYTABLE = "canberra-standard"


def problems(db_url: str) -> list[str]:
    with psycopg.connect(db_url, autocommit=True) as conn:
        return [str(problem) for problem in verify_database(conn, rounds=False).problems]


def submit_draft(conn: psycopg.Connection, author: str = "op1") -> dict:
    """Version 1 seeded and version 2 submitted as the service does it: each row with its record."""
    with conn.transaction():
        paytables, audit = PaytablesRepository(conn), AuditRepository(conn)
        seed_file_versions(paytables, audit, [PAYTABLE])
        base = paytables.get(PAYTABLE, 1)
        content = {**base.content, "version": 2}
        paytables.add(name=PAYTABLE, version=2, content=content, source="{}", source_format="json",
                      based_on_version=1, author=author, reason="house rules")
        audit.append(chain_for(None), [AuditRecord("paytable_version_submitted", {
            "paytable": PAYTABLE, "version": 2, "after": content}, actor=author)])
    return content


def approve(conn: psycopg.Connection, approver: str = "op2") -> None:
    with conn.transaction():
        PaytablesRepository(conn).decide(name=PAYTABLE, version=2, status="approved", decided_by=approver,
                                         reason="checked", house_edge_percent=None, rtp_percent=None, evaluation=None)
        AuditRepository(conn).append(chain_for(None), [AuditRecord("paytable_version_approved", {
            "paytable": PAYTABLE, "version": 2}, actor=approver)])


def add_table(admin: psycopg.Connection, table_id: str = "T9") -> None:
    admin.execute("INSERT INTO tables (table_id, game, rules, rules_version, paytable, paytable_version, limits) "
                  "VALUES (%s, 'canberra', 'canberra-standard', 1, %s, 1, '{}')", (table_id, PAYTABLE))


def test_the_honest_path_verifies_intact(db_url, app_conn):
    submit_draft(app_conn)
    approve(app_conn)
    assert problems(db_url) == []


def test_the_app_cannot_insert_a_version_as_approved(app_conn):
    submit_draft(app_conn)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only as a draft"):
        with app_conn.transaction():
            app_conn.execute(
                "INSERT INTO paytable_versions (name, version, content, source, source_format, status, author, "
                "reason, decided_by, decided_at, decision_reason) SELECT name, 3, content, source, 'json', "
                "'approved', 'op1', 'pays 10:1', 'op2', now(), 'ok' FROM paytable_versions WHERE version = 2")


def test_the_app_cannot_store_a_draft_without_its_submission(app_conn):
    submit_draft(app_conn)
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="paytable_version_submitted"):
        with app_conn.transaction():
            app_conn.execute("INSERT INTO paytable_versions (name, version, content, source, source_format, author, "
                             "reason) SELECT name, 3, content, source, 'json', 'op1', 'x' FROM paytable_versions "
                             "WHERE version = 2")


def test_the_app_cannot_approve_without_the_approval_record(app_conn):
    submit_draft(app_conn)
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="paytable_version_approved"):
        with app_conn.transaction():
            app_conn.execute("UPDATE paytable_versions SET status = 'approved', decided_by = 'op2', "
                             "decided_at = now(), decision_reason = 'ok' WHERE version = 2")


def test_the_app_cannot_assign_a_paytable_without_its_record(admin, app_conn):
    add_table(admin)
    submit_draft(app_conn)
    approve(app_conn)
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="paytable_assigned"):
        with app_conn.transaction():
            app_conn.execute("INSERT INTO table_paytable_assignments (table_id, paytable, version, previous_version, "
                             "assigned_by, reason) VALUES ('T9', %s, 2, 1, 'op1', 'x')", (PAYTABLE,))
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="paytable_assigned"):
        with app_conn.transaction():
            app_conn.execute("UPDATE tables SET pending_paytable_version = 2 WHERE table_id = 'T9'")


def test_an_approved_version_edited_by_the_owner_is_named(db_url, admin, app_conn):
    submit_draft(app_conn)
    approve(app_conn)
    admin.execute("ALTER TABLE paytable_versions DISABLE TRIGGER USER")
    admin.execute("UPDATE paytable_versions SET content = jsonb_set(content, '{version}', '2') || "
                  "'{\"pontoon_pays\": 10}' WHERE version = 2")
    admin.execute("ALTER TABLE paytable_versions ENABLE TRIGGER USER")
    found = problems(db_url)
    assert any(f"paytable version {PAYTABLE}@2" in p and "is not the one chained" in p for p in found), found


def test_a_version_inserted_as_approved_by_the_owner_is_named(db_url, admin, app_conn):
    submit_draft(app_conn)
    admin.execute("SET session_replication_role = replica")   # no trigger fires
    admin.execute("INSERT INTO paytable_versions (name, version, content, source, source_format, status, author, "
                  "reason, decided_by, decided_at, decision_reason) SELECT name, 3, content, source, 'json', "
                  "'approved', 'op1', 'pays 10:1', 'op2', now(), 'ok' FROM paytable_versions WHERE version = 2")
    admin.execute("UPDATE tables SET paytable_version = 3 WHERE paytable = %s", (PAYTABLE,))
    found = problems(db_url)
    assert any(f"paytable version {PAYTABLE}@3" in p and "no chained record submitted" in p for p in found), found


def test_a_table_switched_to_another_version_by_the_owner_is_named(db_url, admin, app_conn):
    add_table(admin)
    submit_draft(app_conn)
    approve(app_conn)
    admin.execute("SET session_replication_role = replica")
    admin.execute("UPDATE tables SET paytable_version = 2 WHERE table_id = 'T9'")
    found = problems(db_url)
    assert any("table T9" in p and f"runs {PAYTABLE}@2" in p for p in found), found


def test_a_draft_approved_by_its_own_author_is_named(db_url, admin, app_conn):
    submit_draft(app_conn, author="op1")
    admin.execute("SET session_replication_role = replica")
    admin.execute("UPDATE paytable_versions SET status = 'approved', decided_by = 'op1 ', decided_at = now(), "
                  "decision_reason = 'ok' WHERE version = 2")
    found = problems(db_url)
    assert any(f"paytable version {PAYTABLE}@2" in p and "no chained record decided it" in p for p in found), found


def _staff(conn: psycopg.Connection, username: str, role: str) -> str:
    with conn.transaction():
        user_id = conn.execute("INSERT INTO staff_users (user_id, username, display_name, role, password_hash) "
                               "VALUES (gen_random_uuid(), %s, %s, %s, 'x') RETURNING user_id::text",
                               (username, username, role)).fetchone()[0]
        AuditRepository(conn).append(chain_for(None), [AuditRecord("staff_created", {
            "user_id": user_id, "username": username, "role": role}, actor="admin")])
    return user_id


@pytest.mark.parametrize("as_owner", [False, True])
def test_a_staff_role_raised_without_its_record_is_named(db_url, admin, app_conn, as_owner):
    user_id = _staff(app_conn, "mallory", "compliance")
    assert problems(db_url) == []
    (admin if as_owner else app_conn).execute("UPDATE staff_users SET role = 'admin' WHERE user_id = %s", (user_id,))
    found = problems(db_url)
    assert any("staff account mallory" in p and "is admin" in p and "made it compliance" in p for p in found), found


def test_a_staff_account_inserted_without_its_record_is_named(db_url, app_conn):
    app_conn.execute("INSERT INTO staff_users (user_id, username, display_name, role, password_hash) "
                     "VALUES (gen_random_uuid(), 'ghost', 'ghost', 'admin', 'x')")
    found = problems(db_url)
    assert any("staff account ghost" in p and "no chained record created it" in p for p in found), found


def test_an_api_keys_role_raised_by_the_app_is_named(db_url, app_conn):
    casey = _staff(app_conn, "casey", "compliance")
    with app_conn.transaction():
        key, _ = KeysRepository(app_conn).create(role="compliance", table_id=None, name="reader", created_by="admin",
                                                 owner_id=uuid.UUID(casey))
        AuditRepository(app_conn).append(chain_for(None), [AuditRecord("key_created", {
            "key_id": str(key.key_id), "role": key.role, "owner_id": casey}, actor="admin")])
    assert problems(db_url) == []
    app_conn.execute("UPDATE api_keys SET role = 'admin' WHERE key_id = %s", (key.key_id,))
    found = problems(db_url)
    assert any(f"API key {key.key_id}" in p and "has role admin" in p for p in found), found


def _key_of(conn: psycopg.Connection, user_id: str | None, role: str = "operator") -> str:
    """A key of `role` chained as created for the account `user_id`: its id."""
    with conn.transaction():
        key, _ = KeysRepository(conn).create(role=role, table_id=None, name="key", created_by="admin",
                                             owner_id=uuid.UUID(user_id) if user_id else None)
        AuditRepository(conn).append(chain_for(None), [AuditRecord("key_created", {
            "key_id": str(key.key_id), "role": key.role, "owner_id": user_id}, actor="admin")])
    return str(key.key_id)


@pytest.mark.parametrize("as_owner", [False, True])
def test_a_draft_approved_by_its_authors_other_key_is_named(db_url, admin, app_conn, as_owner):
    # One person, two keys: what four eyes compared as two strings is one pair of eyes.
    olly = _staff(app_conn, "olly", "operator")
    first, second = _key_of(app_conn, olly), _key_of(app_conn, olly)
    submit_draft(app_conn, author=first)
    if as_owner:
        admin.execute("SET session_replication_role = replica")
    approve(admin if as_owner else app_conn, approver=second)   # its chained record and all: the trigger passes
    found = problems(db_url)
    assert any(f"paytable version {PAYTABLE}@2" in p and "approved by its own submitter's person" in p
               and "olly" in p for p in found), found


def test_a_console_draft_approved_with_its_authors_key_is_named(db_url, app_conn):
    olly = _staff(app_conn, "olly", "operator")
    submit_draft(app_conn, author="staff:olly")
    approve(app_conn, approver=_key_of(app_conn, olly))
    found = problems(db_url)
    assert any(f"paytable version {PAYTABLE}@2" in p and "approved by its own submitter's person" in p
               for p in found), found


@pytest.mark.parametrize("as_owner", [False, True])
def test_a_keys_owner_changed_without_its_record_is_named(db_url, admin, app_conn, as_owner):
    # Handing one's key to another account afterwards would make its approvals look like theirs.
    olly, otto = _staff(app_conn, "olly", "operator"), _staff(app_conn, "otto", "operator")
    key_id = _key_of(app_conn, olly)
    assert problems(db_url) == []
    (admin if as_owner else app_conn).execute("UPDATE api_keys SET owner_id = %s WHERE key_id = %s", (otto, key_id))
    found = problems(db_url)
    assert any(f"API key {key_id}" in p and "staff account otto" in p and "created for staff account olly" in p
               for p in found), found


def test_the_app_cannot_store_an_operator_key_that_belongs_to_nobody(app_conn):
    with pytest.raises(psycopg.errors.CheckViolation, match="api_keys_people_own_them"):
        _key_of(app_conn, None)


def test_an_operator_key_that_belongs_to_nobody_stored_by_the_owner_is_named(db_url, admin, app_conn):
    admin.execute("ALTER TABLE api_keys DROP CONSTRAINT api_keys_people_own_them")
    key_id = _key_of(admin, None)
    found = problems(db_url)
    assert any(f"API key {key_id}" in p and "belongs to no person" in p for p in found), found


def _created_table(conn: psycopg.Connection, table_id: str, limits: dict) -> None:
    """A table stored with its own limits and its chained table_created record, as the service does it."""
    with conn.transaction():
        conn.execute("INSERT INTO tables (table_id, game, rules, rules_version, paytable, paytable_version, limits, "
                     "created_by) VALUES (%s, 'canberra', 'canberra', 1, %s, 1, %s, 'admin')",
                     (table_id, PAYTABLE, json.dumps(limits)))
        AuditRepository(conn).append(chain_for(table_id), [AuditRecord("table_created", {
            "rules": "canberra", "paytable": PAYTABLE, "limits": limits}, actor="admin", table_id=table_id)])


LIMITS = {"main": {"min": 500, "max": 50000}}


def test_the_app_cannot_change_a_tables_limits_without_a_record(db_url, app_conn):
    _created_table(app_conn, "T7", LIMITS)
    assert problems(db_url) == []
    # Raising the most a seat may stake, or dropping the table's own limits for the game's.
    for changed in ({"main": {"min": 500, "max": 5000000}}, {}):
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="table T7's limits"):
            with app_conn.transaction():
                app_conn.execute("UPDATE tables SET limits = %s WHERE table_id = 'T7'", (json.dumps(changed),))
    assert problems(db_url) == []


def test_the_app_cannot_store_a_table_with_limits_its_record_does_not_give(app_conn):
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="table T8's limits"):
        with app_conn.transaction():
            app_conn.execute("INSERT INTO tables (table_id, game, rules, paytable, paytable_version, limits) "
                             "VALUES ('T8', 'canberra', 'canberra', %s, 1, %s)",
                             (PAYTABLE, json.dumps({"main": {"min": 100, "max": 9000000}})))
            AuditRepository(app_conn).append(chain_for("T8"), [AuditRecord("table_created", {
                "rules": "canberra", "paytable": PAYTABLE, "limits": {"main": {"min": 100, "max": 9000}}},
                actor="admin", table_id="T8")])


def test_a_tables_limits_raised_by_the_owner_are_named_with_the_table_and_the_limit(db_url, admin, app_conn):
    _created_table(app_conn, "T7", LIMITS)
    admin.execute("SET session_replication_role = replica")   # no trigger fires
    raised = {"main": {"min": 500, "max": 5000000}, "pair": {"min": 100, "max": 900}}
    admin.execute("UPDATE tables SET limits = %s WHERE table_id = 'T7'", (json.dumps(raised),))
    found = problems(db_url)
    assert any("table T7" in p and "limits.main.max is 5000000 cents" in p and "sets 50000 cents" in p
               for p in found), found
    assert any("table T7" in p and "limits.pair.max is 900 cents" in p and "sets none" in p for p in found), found
    assert not any("limits.main.min" in p for p in found), found


def test_limits_given_to_a_table_no_record_created_are_named(db_url, admin):
    add_table(admin)   # the owner's table, no record: the game's limits are all it may have
    assert problems(db_url) == []
    admin.execute("SET session_replication_role = replica")
    admin.execute("""UPDATE tables SET limits = '{"main": {"min": 1, "max": 100}}' WHERE table_id = 'T9'""")
    found = problems(db_url)
    assert any("table T9" in p and "limits.main.max is 100 cents" in p and "no chained record set" in p
               for p in found), found
