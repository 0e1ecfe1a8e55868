"""The tables' books in PostgreSQL: the service's own login adds slips, signatures, buy-ins, counts
and statements but never changes or removes one; a slip's serial number rolled back with its slip
is the next slip's; a count is final only as two people's; the slips of a day come back with their
signatures in the order they were signed."""
from __future__ import annotations

from datetime import date

import psycopg
import pytest

from service.store.repositories.accounting import AccountingRepository, Act, Capacity, SlipKind
from service.store.session import app_conninfo
from tests.support.api_client import ok

pytestmark = pytest.mark.integration

BOOKS = ("chip_slips", "slip_signatures", "buy_ins", "drop_count_entries", "drop_counts", "table_statements")


@pytest.fixture
def app_conn(database_url):
    """The database as the service's own login sees it."""
    with psycopg.connect(app_conninfo(database_url), autocommit=True) as conn:
        yield conn


def test_the_service_adds_to_the_books_and_never_changes_them(app_conn, new_table, key_of):
    table_id, _ = new_table(shoe=None)
    ok(key_of("supervisor").post(f"/v1/tables/{table_id}/tray-counts", {"kind": "opener", "chips": {"2500": 4}}), 201)
    assert app_conn.execute("SELECT current_user").fetchone() == ("pontoon_app",)
    for table in BOOKS:
        for statement in (f"UPDATE {table} SET gaming_day = gaming_day" if table != "slip_signatures"
                          else "UPDATE slip_signatures SET actor = 'someone else'",
                          f"DELETE FROM {table}", f"TRUNCATE {table}"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), app_conn.transaction():
                app_conn.execute(statement)
    with pytest.raises(psycopg.errors.InsufficientPrivilege), app_conn.transaction():
        app_conn.execute("INSERT INTO slip_serials (prefix) VALUES ('X')")


def test_a_serial_rolled_back_is_the_next_slips(app_conn, new_table):
    table_id, _ = new_table(shoe=None)
    books = AccountingRepository(app_conn)

    class Undone(Exception):
        pass

    with pytest.raises(Undone), app_conn.transaction():
        taken = books.take_serial(SlipKind.CREDIT)
        raise Undone
    with app_conn.transaction():
        again = books.take_serial(SlipKind.CREDIT)
        row = books.add_slip(serial=again, kind=SlipKind.CREDIT, table_id=table_id, gaming_day=date(2030, 1, 2),
                             chips={10000: 3}, total=30000, replaces=None, created_by="test")
        books.add_signature(slip_id=row.slip_id, act=Act.REQUESTED, capacity=Capacity.SUPERVISOR, actor="a")
        books.add_signature(slip_id=row.slip_id, act=Act.ISSUED, capacity=Capacity.CAGE, actor="b")
        assert books.add_signature(slip_id=row.slip_id, act=Act.ISSUED, capacity=Capacity.CAGE, actor="c") is None
    assert again == taken
    slip = books.slip(again)
    assert slip is not None and (slip.row.chips, slip.row.total, slip.row.table_id) == ({"10000": 3}, 30000, table_id)
    assert [(s.act, s.actor) for s in slip.signatures] == [("requested", "a"), ("issued", "b")]
    assert [s.row.serial for s in books.slips(gaming_days=[date(2030, 1, 2)], table_id=table_id)] == [again]


def test_a_final_count_is_two_peoples_and_one_a_box(app_conn, new_table):
    table_id, _ = new_table(shoe=None)
    books = AccountingRepository(app_conn)
    day = date(2030, 1, 3)
    with pytest.raises(psycopg.errors.CheckViolation), app_conn.transaction():
        books.add_final_count(table_id=table_id, gaming_day=day, cash=1, markers=0, entered_by="kim", verified_by="kim")
    with app_conn.transaction():
        books.add_final_count(table_id=table_id, gaming_day=day, cash=1, markers=2, entered_by="kim", verified_by="lee")
    with pytest.raises(psycopg.errors.UniqueViolation), app_conn.transaction():
        books.add_final_count(table_id=table_id, gaming_day=day, cash=1, markers=2, entered_by="lee", verified_by="kim")
    assert [(c.cash, c.markers) for c in books.final_counts(gaming_day=day, table_id=table_id)] == [(1, 2)]
    with pytest.raises(psycopg.errors.CheckViolation), app_conn.transaction():
        books.add_buy_in(table_id=table_id, gaming_day=day, seat=1, amount=0, method="cash", recorded_by="x",
                         screen=None)
    assert books.buy_ins(gaming_day=day, table_id=table_id) == []
