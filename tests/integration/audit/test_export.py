"""`pontoon audit export`: streamed with a server-side cursor, filtered, and verifiable offline."""
from __future__ import annotations

import csv
import io
import json
import tracemalloc
from datetime import UTC, datetime, timedelta

import pytest

from service.audit.export import COLUMNS, export_lines, iter_records
from service.store.repositories.audit import AuditRecord, AuditRepository

pytestmark = pytest.mark.integration


def export_to(path, pontoon, *args) -> None:
    with open(path, "w") as handle:
        done = pontoon("audit", "export", *args, stdout=handle)
    assert done.returncode == 0, done.stderr


def test_an_export_verifies_offline_and_a_changed_line_is_named(settled_casino, admin, pontoon, tmp_path):
    path = tmp_path / "audit.jsonl"
    export_to(path, pontoon)
    lines = path.read_text().splitlines()
    assert len(lines) == admin.execute("SELECT count(*) FROM audit_log").fetchone()[0]
    assert set(json.loads(lines[0])) == set(COLUMNS)
    done = pontoon("audit", "verify", str(path))
    assert done.returncode == 0, done.stdout
    assert "shoe commitments re-opened" in done.stdout and " 0 shoe" not in done.stdout

    payouts = [i for i, line in enumerate(lines) if json.loads(line)["kind"] == "payout"]
    victim = json.loads(lines[payouts[3]])
    victim["payload"]["returned"] += 1
    lines[payouts[3]] = json.dumps(victim)
    path.write_text("\n".join(lines) + "\n")
    done = pontoon("audit", "verify", str(path))
    assert done.returncode == 1
    assert f"chain {victim['chain']} seq {victim['seq']} id {victim['id']}:" in done.stdout, done.stdout


def test_a_shoe_closed_record_whose_order_does_not_open_the_commitment_is_named(settled_casino, pontoon, tmp_path):
    path = tmp_path / "audit.jsonl"
    export_to(path, pontoon)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    closed = next(r for r in records if r["kind"] == "shoe_closed")
    order = closed["payload"]["card_order"]
    swap = next(i for i in range(1, len(order)) if order[i] != order[0])
    order[0], order[swap] = order[swap], order[0]
    # Re-hash the whole chain from there on, as a forger with the export would: only the
    # commitment published at the shoe's start can still tell.
    from service.store.audit_hash import record_hash
    chain = [r for r in records if r["chain"] == closed["chain"]]
    prev = None
    for record in chain:
        if record["seq"] < closed["seq"]:
            continue
        if prev is not None:
            record["prev_hash"] = prev
        record["hash"] = record_hash(*(record[c] for c in ("chain", "seq", "at", "kind", "actor", "table_id",
                                                          "round_id", "payload", "prev_hash")))
        prev = record["hash"]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = pontoon("audit", "verify", str(path))
    assert done.returncode == 1
    assert (f"chain {closed['chain']} seq {closed['seq']} id {closed['id']}: shoe {closed['payload']['shoe_id']}"
            in done.stdout), done.stdout


def test_filters_by_table_and_time_and_a_partial_export_still_verifies(settled_casino, admin, pontoon, tmp_path):
    at = [row[0] for row in admin.execute("SELECT DISTINCT at FROM audit_log WHERE chain = 'table:T2' ORDER BY at")]
    assert len(at) >= 2
    path = tmp_path / "t2.jsonl"
    export_to(path, pontoon, "--table", "T2", "--from", at[1].isoformat())
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records and {r["chain"] for r in records} == {"table:T2"}
    assert min(datetime.fromisoformat(r["at"]) for r in records) == at[1]
    assert [r["id"] for r in records] == sorted(r["id"] for r in records)
    done = pontoon("audit", "verify", str(path))
    assert done.returncode == 0, done.stdout
    assert "partial export" in done.stdout

    until = at[1].isoformat()
    export_to(path, pontoon, "--table", "T2", "--to", until)
    before = [json.loads(line) for line in path.read_text().splitlines()]
    assert before and all(datetime.fromisoformat(r["at"]) < at[1] for r in before)


def test_csv_export_has_a_header_and_one_row_per_record(settled_casino, admin):
    with admin.transaction():   # the server-side cursor lives in the reader's transaction
        lines = list(export_lines(AuditRepository(admin), fmt="csv", table_id="T1"))
    rows = list(csv.reader(io.StringIO("".join(lines))))
    assert rows[0] == list(COLUMNS)
    count = admin.execute("SELECT count(*) FROM audit_log WHERE chain = 'table:T1'").fetchone()[0]
    assert len(rows) == count + 1
    assert json.loads(rows[1][COLUMNS.index("payload")]) is not None


def test_export_streams_through_a_server_side_cursor_in_constant_memory(admin, app_conn):
    seeded = admin.execute("SELECT count(*) FROM audit_log").fetchone()[0]   # the paytable files' versions
    with app_conn.transaction():
        AuditRepository(app_conn).append("system", [AuditRecord("service_started", {"n": n, "pad": "x" * 500})
                                                     for n in range(12000)])
    with admin.transaction():
        stream = export_lines(AuditRepository(admin))
        first = next(stream)
        assert json.loads(first)["seq"] == 1
        # The rows wait on the server: a cursor is open there, not a result held here.
        cursors = [name for (name,) in admin.execute("SELECT name FROM pg_cursors")]
        assert cursors == ["audit_records"]
        tracemalloc.start()
        n = 1 + sum(1 for _ in stream)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert n == seeded + 12000
    # Held all at once, 12000 records of ~700 bytes would pass 8 MB; streamed, a fetch's worth.
    assert peak < 6 * 1024 * 1024, f"peak {peak} bytes while streaming 12000 records"


def test_iter_records_takes_time_bounds(admin, app_conn):
    seeded = admin.execute("SELECT count(*) FROM audit_log").fetchone()[0]   # the paytable files' versions
    with app_conn.transaction():
        AuditRepository(app_conn).append("system", [AuditRecord("service_started", {})])
    now = datetime.now(UTC)
    with admin.transaction():
        assert len(list(iter_records(AuditRepository(admin), since=now - timedelta(minutes=5)))) == seeded + 1
        assert list(iter_records(AuditRepository(admin), until=now - timedelta(minutes=5))) == []


def test_a_file_that_cannot_be_read_as_an_export_is_status_2_in_one_line(pontoon, tmp_path):
    """1 means problems found in a readable export; a file that is missing or not UTF-8 is 2."""
    garbled = tmp_path / "garbled.jsonl"
    garbled.write_bytes(b"\xff\xfe\n")
    for path in (garbled, tmp_path / "missing.jsonl"):
        done = pontoon("audit", "verify", str(path))
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
