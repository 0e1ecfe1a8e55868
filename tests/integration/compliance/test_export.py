"""The audit export over HTTP: JSON lines that `pontoon audit verify FILE` accepts and that fail
once a byte is changed, CSV with the same records, filters by time and table, flat memory."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tracemalloc
from datetime import datetime, timedelta
from urllib.parse import quote

import pytest

from service.cli import main as cli_main
from service.settlement.connection import connect
from service.store.repositories.audit import AuditRecord, AuditRepository
from tests.conftest import ROOT
from tests.support.api_client import ok
from tests.support.scripted_rounds import SIMPLE_PUSH, play_script


def pontoon(*argv: str, database_url: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DATABASE_URL=database_url, PONTOON_AUDIT_CLOCK_MARGIN="0")
    return subprocess.run([sys.executable, "-m", "service.cli", *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def played_table(new_table, settle):
    """A table with a few settled rounds and one closed virtual shoe (its commitment re-opened)."""
    table_id, terminal = new_table(shoe="virtual")
    rounds = [play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH)["round_id"]
              for _ in range(3)]
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}), 201)   # closes the physical one
    settle(rounds)
    return table_id


def test_an_export_verifies_offline_and_fails_once_a_byte_changes(compliance, played_table, database_url, tmp_path,
                                                                    capsys):
    reply = compliance.get("/v1/audit/export?format=jsonl")
    assert reply.status == 200 and reply.headers["Content-Type"].startswith("application/x-ndjson")
    text = reply.data.decode("utf-8")
    lines = text.splitlines()
    assert len(lines) > 20 and all(json.loads(line)["hash"] for line in lines)
    good = tmp_path / "audit.jsonl"
    good.write_text(text, encoding="utf-8")
    verdict = pontoon("audit", "verify", str(good), database_url=database_url)
    assert verdict.returncode == 0 and "intact" in verdict.stdout, verdict.stdout + verdict.stderr

    record = next(line for line in lines if '"kind":"payout"' in line)
    index = text.index(record)
    for target in ('"returned":', '"kind":"payout"', '"hash":"', '"prev_hash":"', '"at":"'):
        offset = index + record.index(target) + len(target)
        data = bytearray(text.encode("utf-8"))
        data[offset + 1] = ord("7") if data[offset + 1] != ord("7") else ord("3")   # one byte, still JSON
        bad = tmp_path / "tampered.jsonl"
        bad.write_bytes(bytes(data))
        # The command's own entry point, in-process: a subprocess per case would cost a second each.
        assert cli_main(["audit", "verify", str(bad)]) == 1, target
        assert "BROKEN" in capsys.readouterr().out, target


def test_a_table_export_is_its_chain_and_matches_the_command_line(compliance, played_table, database_url):
    reply = compliance.get(f"/v1/audit/export?table={played_table}")
    records = [json.loads(line) for line in reply.data.decode().splitlines()]
    assert records and {r["chain"] for r in records} == {f"table:{played_table}"}
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert {"shoe_closed", "round_voided"} & {r["kind"] for r in records} == {"shoe_closed"}
    cli = pontoon("audit", "export", "--table", played_table, database_url=database_url)
    assert cli.returncode == 0 and cli.stdout == reply.data.decode(), "one exporter, two doors"


def test_the_csv_export_holds_the_same_records(compliance, played_table):
    jsonl = [json.loads(line) for line in compliance.get(f"/v1/audit/export?table={played_table}").data.decode()
             .splitlines()]
    reply = compliance.get(f"/v1/audit/export?table={played_table}&format=csv")
    assert reply.status == 200 and reply.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(reply.data.decode())))
    assert [row["hash"] for row in rows] == [r["hash"] for r in jsonl]
    assert [json.loads(row["payload"]) for row in rows] == [r["payload"] for r in jsonl]


def test_a_time_range_keeps_only_its_records(compliance, played_table, db):
    at = db.execute("SELECT at FROM audit_log WHERE chain = %s ORDER BY seq OFFSET 3 LIMIT 1",
                    (f"table:{played_table}",)).fetchone()[0]
    since, until = at, at + timedelta(microseconds=1)
    reply = compliance.get(f"/v1/audit/export?table={played_table}&from={quote(since.isoformat())}"
                           f"&to={quote(until.isoformat())}")
    records = [json.loads(line) for line in reply.data.decode().splitlines()]
    assert records and all(datetime.fromisoformat(r["at"]) == at for r in records)


@pytest.mark.parametrize("query", ["format=xml", "from=yesterday", "to=2020-01-01T00:00:00Z&from=2021-01-01T00:00:00Z",
                                   "table=no%20such", "colour=red"])
def test_bad_queries_are_422(compliance, query):
    reply = compliance.get(f"/v1/audit/export?{query}")
    assert reply.status == 422, (query, reply.status)


def test_an_unknown_table_is_404_and_every_export_is_recorded(compliance, db):
    assert compliance.get("/v1/audit/export?table=NO-SUCH-TABLE").status == 404
    before = db.execute("SELECT count(*) FROM audit_log WHERE kind = 'audit_exported'").fetchone()[0]
    compliance.get("/v1/audit/export?to=2000-01-01T00:00:00Z")
    assert db.execute("SELECT count(*) FROM audit_log WHERE kind = 'audit_exported'").fetchone()[0] == before + 1


def _export_peak(client, secret: str, since: datetime, until: datetime) -> tuple[int, int]:
    """(records streamed, peak bytes Python allocated while asking for and reading them)."""
    path = f"/v1/audit/export?from={quote(since.isoformat())}&to={quote(until.isoformat())}"
    count = 0
    tracemalloc.start()   # before the request: the test client pulls the first chunk to start the response
    try:
        response = client.get(path, headers={"Authorization": f"Bearer {secret}"}, buffered=False)
        assert response.status_code == 200 and response.is_streamed
        try:
            for chunk in response.response:
                count += chunk.count(b"\n")
        finally:
            response.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return count, peak


def test_memory_stays_flat_however_long_the_range(client, database_url, make_key):
    secret = make_key("compliance")
    ranges = []
    with connect(database_url) as conn:
        # Both ranges span several full fetches of the server-side cursor (2,000 rows), so each
        # export's peak holds two fetches at most (the one read and the one arriving): the peak
        # must not grow with the range.
        for size in (6_000, 25_000):
            with conn.transaction():
                AuditRepository(conn).append(f"bulk-{size}", [AuditRecord("bulk", {"n": n}) for n in range(size)])
            at = conn.execute("SELECT at FROM audit_log WHERE chain = %s LIMIT 1", (f"bulk-{size}",)).fetchone()[0]
            ranges.append((size, at))
    peaks = {}
    for size, at in ranges:
        # tracemalloc counts every thread's allocations, the pool's own threads' too: the least
        # of three exports is the export's.
        measured = [_export_peak(client, secret, at, at + timedelta(microseconds=1)) for _ in range(3)]
        assert [count for count, _ in measured] == [size] * 3
        peaks[size] = min(peak for _, peak in measured)
    # Ten times the records must cost no more memory to stream.
    assert peaks[25_000] < 1.5 * peaks[6_000], peaks


def test_a_record_still_committing_is_in_the_export_that_starts_where_the_last_ended(compliance, database_url):
    """A writer stamps its record, then takes its time to commit. An export asked to end after
    the stamp ends before it instead (and says where), so the next export, starting there, holds
    the record: no record falls between two exports."""
    writer = connect(database_url)
    try:
        writer.autocommit = False
        AuditRepository(writer).append("table:LATE", [AuditRecord("late_commit", {"n": 1})])   # stamped, not committed
        stamped = writer.execute("SELECT at FROM audit_log WHERE kind = 'late_commit'").fetchone()[0]
        asked_to = stamped + timedelta(milliseconds=100)
        while datetime.now(stamped.tzinfo) < asked_to + timedelta(milliseconds=100):
            pass
        first = compliance.get(f"/v1/audit/export?from={quote((stamped - timedelta(minutes=1)).isoformat())}"
                               f"&to={quote(asked_to.isoformat())}")
        ends = datetime.fromisoformat(first.headers["Pontoon-Export-Ends"])
        assert ends <= stamped
        writer.commit()
    finally:
        writer.close()
    second = compliance.get(f"/v1/audit/export?from={quote(ends.isoformat())}")
    kinds = [[json.loads(line)["kind"] for line in reply.data.decode().splitlines()] for reply in (first, second)]
    assert kinds[0].count("late_commit") + kinds[1].count("late_commit") == 1, kinds
