"""The service logs in as pontoon_app, which no RESET ROLE, SET ROLE or trigger switch makes the owner."""
from __future__ import annotations

import psycopg
import pytest

from service.config import Settings
from service.settlement.connection import connect
from service.store.pool import open_pool
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for
from service.store.session import APP_ROLE, app_conninfo, configure_connection, owner_conninfo

pytestmark = pytest.mark.integration

PROTECTED = ("audit_log", "ledger_entries")


def refused(conn: psycopg.Connection, statement: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with conn.transaction():
            conn.execute(statement)


def test_the_app_logs_in_as_its_role_even_given_the_owners_url(db_url, app_conn):
    assert app_conn.execute("SELECT session_user, current_user").fetchone() == (APP_ROLE, APP_ROLE)
    pool = open_pool(db_url, min_size=1, max_size=1)
    try:
        with pool.connection() as conn:
            assert conn.execute("SELECT session_user, current_user").fetchone() == (APP_ROLE, APP_ROLE)
    finally:
        pool.close()


def test_the_role_can_log_in_but_holds_nothing_else(admin):
    login, inherit, superuser, createrole, createdb, bypassrls = admin.execute(
        "SELECT rolcanlogin, rolinherit, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls FROM pg_roles "
        "WHERE rolname = %s", (APP_ROLE,)).fetchone()
    assert (login, inherit, superuser, createrole, createdb, bypassrls) == (True, False, False, False, False, False)
    assert admin.execute("SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member "
                         "WHERE r.rolname = %s", (APP_ROLE,)).fetchone() == (0,)


def test_the_app_cannot_become_another_role(app_conn):
    app_conn.execute("RESET ROLE")
    assert app_conn.execute("SELECT session_user, current_user").fetchone() == (APP_ROLE, APP_ROLE)
    for statement in ("SET ROLE postgres", "SET SESSION AUTHORIZATION postgres", "SET ROLE pg_write_server_files"):
        refused(app_conn, statement)
    assert app_conn.execute("SELECT current_user").fetchone() == (APP_ROLE,)


@pytest.mark.parametrize("table", PROTECTED)
def test_the_app_cannot_rewrite_the_audit_log_or_the_ledger(settled_casino, app_conn, table):
    app_conn.execute("RESET ROLE")
    for statement in (f"UPDATE {table} SET table_id = 'T0'", f"DELETE FROM {table}", f"TRUNCATE {table}",
                      f"ALTER TABLE {table} DISABLE TRIGGER ALL", f"ALTER TABLE {table} OWNER TO {APP_ROLE}",
                      f"DROP TABLE {table}"):
        refused(app_conn, statement)


def test_the_app_cannot_disable_the_audit_logs_triggers(app_conn):
    for trigger in ("audit_log_append_only", "audit_log_no_truncate"):
        refused(app_conn, f"ALTER TABLE audit_log DISABLE TRIGGER {trigger}")
    refused(app_conn, "SET session_replication_role = replica")   # which would skip every trigger


def test_the_app_still_appends_and_the_owner_still_owns(admin, db_url):
    with connect(db_url) as conn, conn.transaction():
        AuditRepository(conn).append(chain_for(None), [AuditRecord("service_started", {"service": "test"})])
    assert admin.execute("SELECT count(*) FROM audit_log WHERE kind = 'service_started'").fetchone() == (1,)
    assert admin.execute("SELECT tableowner FROM pg_tables WHERE tablename = 'audit_log'").fetchone() != (APP_ROLE,)


def test_an_owners_connection_is_refused_as_an_application_connection(db_url):
    with psycopg.connect(owner_conninfo(db_url), autocommit=True) as conn:
        with pytest.raises(psycopg.ProgrammingError, match="must log in as pontoon_app"):
            configure_connection(conn)


def test_both_urls_come_from_the_environment_with_local_defaults():
    local = Settings.from_env({})
    assert psycopg.conninfo.conninfo_to_dict(local.database_url)["user"] == APP_ROLE
    assert psycopg.conninfo.conninfo_to_dict(local.owner_database_url)["user"] == "postgres"
    given = Settings.from_env({"DATABASE_URL": "postgresql://pontoon_app:s3cret@db.example/casino",
                               "PONTOON_OWNER_DATABASE_URL": "postgresql://owner:other@db.example/casino"})
    assert given.database_url == "postgresql://pontoon_app:s3cret@db.example/casino"
    assert given.owner_database_url == "postgresql://owner:other@db.example/casino"
    derived = psycopg.conninfo.conninfo_to_dict(Settings.from_env({
        "DATABASE_URL": "postgresql://pontoon_app:s3cret@db.example/casino"}).owner_database_url)
    assert (derived["user"], derived.get("password"), derived["dbname"]) == ("postgres", None, "casino")
    # A URL naming the owner (a developer's, a test's) still has the service log in as the app.
    app = psycopg.conninfo.conninfo_to_dict(app_conninfo("postgresql://postgres:pw@127.0.0.1/pontoon"))
    assert (app["user"], app.get("password"), app["dbname"]) == (APP_ROLE, None, "pontoon")


def test_the_app_plans_without_jit_compilation(app_conn):
    # A few rows per statement: compiling a plan to machine code costs more than running it.
    assert app_conn.execute("SHOW jit").fetchone()[0] == "off"
