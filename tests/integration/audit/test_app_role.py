"""The application role: appends to the audit log, never rewrites it; the migration survives reruns."""
from __future__ import annotations

import psycopg
import pytest

from service.store.audit_hash import GENESIS
from service.store.migrate import MIGRATIONS
from service.store.repositories.audit import HEAD_LOCK_EXISTING, AuditRecord, AuditRepository, chain_for
from service.store.session import app_conninfo, configure_connection
from tests.integration.settlement.support import fresh_database

pytestmark = pytest.mark.integration


def test_the_application_appends_but_cannot_update_or_delete_audit_rows(admin, app_conn):
    before = admin.execute("SELECT count(*), array_agg(actor ORDER BY id) FROM audit_log").fetchone()  # the seeds
    with app_conn.transaction():
        AuditRepository(app_conn).append(chain_for("T1"), [AuditRecord("key_created", {"key_id": "k1"}, "admin")])
    assert app_conn.execute("SELECT current_user").fetchone() == ("pontoon_app",)
    # With the trigger off, only the missing grant stands between the app and the rows.
    admin.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only")
    for statement in ("UPDATE audit_log SET actor = 'someone else'", "DELETE FROM audit_log",
                      "TRUNCATE audit_log"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            with app_conn.transaction():
                app_conn.execute(statement)
    assert admin.execute("SELECT count(*), array_agg(actor ORDER BY id) FROM audit_log").fetchone() == (
        before[0] + 1, [*(before[1] or []), "admin"])


def test_the_application_appends_to_the_ledger_but_cannot_change_a_row(admin, app_conn, casino):
    round_id = casino.play(1, ["T1"])[0].round_id
    casino.write(admin)
    row = (round_id, "T1", None, "canberra", "canberra-standard", 1, 0, "main", 1000)
    with app_conn.transaction():
        app_conn.execute("INSERT INTO ledger_entries (round_id, table_id, shoe_id, rules_ref, paytable_ref, seat, "
                         "hand, kind, stake, returned, outcome) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, 0, 'lose')",
                         row)
    for statement in ("UPDATE ledger_entries SET returned = 2000", "DELETE FROM ledger_entries",
                      "TRUNCATE ledger_entries"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            with app_conn.transaction():
                app_conn.execute(statement)
    with pytest.raises(psycopg.errors.CheckViolation):   # not even its owner books a negative amount
        admin.execute("UPDATE ledger_entries SET returned = -1")
    assert admin.execute("SELECT count(*), sum(returned) FROM ledger_entries").fetchone() == (1, 0)


def test_the_trigger_refuses_even_the_superuser(admin, app_conn):
    with app_conn.transaction():
        AuditRepository(app_conn).append("system", [AuditRecord("service_started", {})])
    with pytest.raises(psycopg.errors.RaiseException):
        admin.execute("UPDATE audit_log SET actor = 'x'")


def test_the_application_may_use_the_ordinary_tables(app_conn):
    with app_conn.transaction():
        app_conn.execute("INSERT INTO tables (table_id, game, rules) VALUES ('T1', 'canberra', 'canberra')")
        app_conn.execute("UPDATE tables SET state = '{\"x\": 1}' WHERE table_id = 'T1'")
        app_conn.execute("INSERT INTO outbox (topic) VALUES ('settle_round')")   # sequence usage
        app_conn.execute("DELETE FROM tables WHERE table_id = 'T1'")


def test_the_application_asks_for_and_keeps_paytable_evaluations_but_never_deletes_one(admin, app_conn):
    with app_conn.transaction():
        app_conn.execute("INSERT INTO paytable_evaluations (paytable, version, requested_by) "
                         "VALUES ('canberra-standard', 1, 'staff:olive')")
        app_conn.execute("UPDATE paytable_evaluations SET status = 'running', started_at = now()")
    for statement in ("DELETE FROM paytable_evaluations", "TRUNCATE paytable_evaluations"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            with app_conn.transaction():
                app_conn.execute(statement)
    assert admin.execute("SELECT status FROM paytable_evaluations").fetchall() == [("running",)]


def test_the_role_survives_a_rollback_and_refuses_a_busy_connection(db_url):
    with psycopg.connect(app_conninfo(db_url)) as conn:   # not autocommit, as a pool's connections may be
        configure_connection(conn)
        conn.execute("SELECT 1")
        conn.rollback()
        assert conn.execute("SELECT current_user").fetchone() == ("pontoon_app",)
        with pytest.raises(psycopg.ProgrammingError):
            configure_connection(conn)   # now inside a transaction


def test_the_migration_runs_again_and_in_a_new_database_while_the_role_exists(admin):
    admin.execute((MIGRATIONS / "0002_app_role.sql").read_text())
    admin.execute((MIGRATIONS / "0014_app_login.sql").read_text())
    with fresh_database("role") as other:
        with psycopg.connect(app_conninfo(other), autocommit=True) as conn:
            configure_connection(conn)
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("DELETE FROM audit_log")


def test_a_chain_without_a_head_gets_one_when_the_callers_lock_found_none(admin, app_conn):
    chain = chain_for("no-head-yet")
    with app_conn.transaction():
        audit = AuditRepository(app_conn)
        assert app_conn.execute(HEAD_LOCK_EXISTING, {"chain": chain}).fetchone() is None   # the caller's lock
        audit.append(chain, [AuditRecord("table_created", {})], head=None)
        audit.append(chain, [AuditRecord("table_created", {})],
                     head=app_conn.execute(HEAD_LOCK_EXISTING, {"chain": chain}).fetchone())
    assert admin.execute("SELECT seq FROM audit_chain_heads WHERE chain = %s", (chain,)).fetchone() == (2,)
    rows = admin.execute("SELECT seq, prev_hash, hash FROM audit_log WHERE chain = %s ORDER BY seq",
                         (chain,)).fetchall()
    assert [seq for seq, _, _ in rows] == [1, 2] and rows[0][1] == GENESIS and rows[1][1] == rows[0][2]
