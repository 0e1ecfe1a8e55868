"""`audit verify` and the tables' books: an exported table chain with its issued statement verifies
offline; a statement whose figures do not follow from the slips and counts chained before it is
named, even re-hashed into a valid chain; a slip, a signature, a buy-in or a final count changed in
the database under its records is named."""
from __future__ import annotations

import json

import psycopg
import pytest

from service.audit.books import BooksWalker, check_stored_books
from service.audit.export import export_lines
from service.audit.report import Report
from service.audit.verify import verify_export
from service.store.audit_hash import GENESIS, record_hash
from service.store.repositories.accounting import AccountingRepository
from service.store.repositories.audit import AuditRepository
from tests.support.api_client import ok

pytestmark = pytest.mark.integration


@pytest.fixture
def stated_table(new_table, key_of):
    """A table with a signed opener and closer, a fill, a buy-in and a final count, whose statement
    is issued: (table_id, its chain exported as records)."""
    table_id, terminal = new_table(shoe=None)
    supervisor, cage = key_of("supervisor"), key_of("cage")
    opener = ok(supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "opener", "chips": {"10000": 10}}), 201)
    ok(terminal.post(f"/v1/slips/{opener['serial']}/sign", {}), 200)
    fill = ok(supervisor.post(f"/v1/tables/{table_id}/fills", {"chips": {"10000": 2}}), 201)
    ok(cage.post(f"/v1/slips/{fill['serial']}/issue", {}), 200)
    ok(terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 1, "amount": 5000}), 201)
    ok(supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "closer", "chips": {"10000": 11, "2500": 6}}),
       201)
    day = opener["gaming_day"]
    for counter in (key_of("count"), key_of("count")):
        ok(counter.post(f"/v1/tables/{table_id}/drop-counts", {"gaming_day": day, "cash": 5000, "markers": 0}), 201)
    ok(key_of("compliance").post("/v1/reports/table-games-statement", {"gaming_day": day}), 201)
    return table_id


def _chain(database_url: str, table_id: str) -> list[dict]:
    with psycopg.connect(database_url) as conn, conn.transaction():
        return [json.loads(line) for line in export_lines(AuditRepository(conn), table_id=table_id)]


def _rechained(records: list[dict]) -> list[str]:
    """The records hashed again into a chain that holds together, as a forger would."""
    previous, lines = GENESIS, []
    for record in records:
        record = {**record, "prev_hash": previous}
        record["hash"] = record_hash(record["chain"], record["seq"], record["at"], record["kind"], record["actor"],
                                     record["table_id"], record["round_id"], record["payload"], previous)
        previous = record["hash"]
        lines.append(json.dumps(record))
    return lines


def test_the_exported_chain_with_its_statement_verifies(stated_table, database_url):
    records = _chain(database_url, stated_table)
    statement = next(r for r in records if r["kind"] == "table_statement_issued")
    # win = 5,000 + 0 - 20,000 + (125,000 - 100,000) = 10,000
    assert (statement["payload"]["win"], statement["payload"]["fills"], statement["payload"]["drop"]) == (
        10000, 20000, 5000)
    report = verify_export(json.dumps(record) for record in records)
    assert report.intact, [str(problem) for problem in report.problems]


def test_a_statement_that_does_not_follow_from_its_slips_is_named(stated_table, database_url):
    records = _chain(database_url, stated_table)
    forged = []
    for record in records:
        if record["kind"] == "table_statement_issued":
            record = {**record, "payload": {**record["payload"], "fills": 0, "win": 30000}}
        elif record["kind"] == "drop_count_final":
            record = {**record, "payload": {**record["payload"], "cash": 9000}}
        forged.append(record)
    report = verify_export(_rechained(forged))
    named = [str(problem) for problem in report.problems]
    assert len(named) == 1 and "statement of gaming day" in named[0], named
    assert "fills 0 where its slips and counts give 20000" in named[0]
    assert "drop 5000 where its slips and counts give 9000" in named[0]


def test_a_slip_changed_under_its_records_is_named(stated_table, database_url):
    with psycopg.connect(database_url) as conn:
        report = Report()
        walker = BooksWalker(report)
        with conn.transaction():
            for line in export_lines(AuditRepository(conn), table_id=stated_table):
                walker.check(json.loads(line))
        with conn.transaction(force_rollback=True):
            conn.execute("UPDATE chip_slips SET total = total + 2500 WHERE table_id = %s AND kind = 'fill'",
                         (stated_table,))
            conn.execute("UPDATE buy_ins SET amount = 1 WHERE table_id = %s", (stated_table,))
            conn.execute("UPDATE drop_counts SET cash = 1 WHERE table_id = %s", (stated_table,))
            conn.execute("DELETE FROM slip_signatures WHERE act = 'issued' AND slip_id IN "
                         "(SELECT slip_id FROM chip_slips WHERE table_id = %s)", (stated_table,))
            accounting = AccountingRepository(conn)
            check_stored_books(_only(accounting, stated_table), walker, report)
    named = " | ".join(str(problem) for problem in report.problems)
    assert "fill of 22500" in named and "was chained as issued by the cage" in named
    assert "buy-in" in named and "drop count of table" in named


class _only:
    """The repository's reads of one table's books (the database holds other tests' tables too)."""

    def __init__(self, accounting: AccountingRepository, table_id: str) -> None:
        self.accounting, self.table_id = accounting, table_id

    def slips(self):
        return self.accounting.slips(table_id=self.table_id)

    def buy_ins(self):
        return self.accounting.buy_ins(table_id=self.table_id)

    def final_counts(self):
        return self.accounting.final_counts(table_id=self.table_id)
