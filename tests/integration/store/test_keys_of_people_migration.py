"""Migration 0025 over a database from before it: live admin, operator and supervisor keys that
belong to nobody are revoked with the reason kept, other keys stay; an account whose last password
was set for it (its creation, a reset) must set its own, one whose person changed it need not."""
from __future__ import annotations

import secrets
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from bench.processes import BASE_URL
from service.store.migrate import MIGRATIONS, ensure_database, migrate
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for

pytestmark = pytest.mark.integration

KEYS_OF_PEOPLE = "0025_keys_of_people.sql"


@pytest.fixture
def before_0025() -> Iterator[str]:
    """A new database with every migration before 0025 applied, as one upgraded would have it."""
    url = make_conninfo(BASE_URL, dbname=f"pontoon_m25_{secrets.token_hex(4)}")
    ensure_database(url)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, "
                         "applied_at timestamptz NOT NULL DEFAULT now())")
            for path in sorted(MIGRATIONS.glob("*.sql")):
                if path.name >= KEYS_OF_PEOPLE:
                    break
                with conn.transaction():
                    conn.execute(path.read_text(encoding="utf-8"))
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))
        yield url
    finally:
        with psycopg.connect(make_conninfo(BASE_URL, dbname="postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(psycopg.conninfo.conninfo_to_dict(url)["dbname"])))


def _account(conn: psycopg.Connection, username: str, *kinds: str) -> None:
    user_id = conn.execute("INSERT INTO staff_users (user_id, username, display_name, role, password_hash, "
                           "created_by) VALUES (gen_random_uuid(), %s, %s, 'operator', 'x', 'staff:root') "
                           "RETURNING user_id::text", (username, username)).fetchone()[0]
    audit = AuditRepository(conn)
    for kind in kinds:
        actor = f"staff:{username}" if kind == "staff_password_changed" else "staff:root"
        audit.append(chain_for(None), [AuditRecord(kind, {"user_id": user_id, "username": username}, actor=actor)])


def test_unowned_keys_of_people_are_revoked_and_admin_set_passwords_are_marked(before_0025):
    with psycopg.connect(before_0025) as conn, conn.transaction():
        conn.execute("INSERT INTO tables (table_id, game, rules, rules_version, limits) "
                     "VALUES ('T1', 'canberra', 'canberra', 1, '{}')")
        # As the schema before 0025 stores a key (no owner column yet).
        made = {role: conn.execute("INSERT INTO api_keys (key_id, key_hash, role, table_id, name, created_by) "
                                   "VALUES (gen_random_uuid(), %s, %s, %s, %s, 'cli') RETURNING key_id::text",
                                   (secrets.token_hex(32), role, "T1" if role == "terminal" else None, role)
                                   ).fetchone()[0]
                for role in ("admin", "operator", "supervisor", "compliance", "terminal")}
        _account(conn, "handed", "staff_created")
        _account(conn, "reset", "staff_created", "staff_password_changed", "staff_password_reset")
        _account(conn, "own", "staff_created", "staff_password_changed")
    assert migrate(before_0025)[0] == KEYS_OF_PEOPLE
    with psycopg.connect(before_0025) as conn:
        states = dict(conn.execute("SELECT key_id::text, revoke_reason FROM api_keys WHERE revoked_at IS NOT NULL"
                                   ).fetchall())
        marked = dict(conn.execute("SELECT username, password_set_by FROM staff_users").fetchall())
    assert set(states) == {made["admin"], made["operator"], made["supervisor"]}
    assert all("belonged to no staff account" in reason for reason in states.values())
    assert marked == {"handed": "staff:root", "reset": "staff:root", "own": None}
