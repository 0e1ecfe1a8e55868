"""Gaming days asked for by name (YYYY-MM-DD) on the audit export and the table report, in the
casino's zone from its day start; anything else is a 422 naming the field."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from service.reports.gaming_day import day_range, gaming_day_of, parse_day_start
from tests.conftest import ROOT
from tests.support.api_client import ok
from tests.support.scripted_rounds import SIMPLE_PUSH, play_script

SYDNEY = ZoneInfo("Australia/Sydney")
SIX = parse_day_start("06:00")
ONE_SEAT = [{"seat": 1, "wager": 1000}]


def today() -> date:
    return gaming_day_of(datetime.now(UTC), SIX, SYDNEY)


def test_a_range_of_gaming_days_spans_them_whole_across_a_change_of_clocks():
    # Daylight saving ends in Sydney on Sunday 7 April 2024: Saturday's gaming day is 25 hours.
    window = day_range(date(2024, 4, 6), date(2024, 4, 7), SIX, SYDNEY)
    assert window.starts_at == datetime(2024, 4, 6, 6, tzinfo=SYDNEY)
    assert window.ends_at == datetime(2024, 4, 8, 6, tzinfo=SYDNEY)
    assert window.ends_at.astimezone(UTC) - window.starts_at.astimezone(UTC) == timedelta(hours=49)
    with pytest.raises(ValueError):
        day_range(date(2024, 4, 7), date(2024, 4, 6), SIX, SYDNEY)


def test_the_report_takes_a_gaming_day_and_a_range_of_them(new_table, settle, compliance, db):
    table_id, terminal = new_table(prefix="G")
    saturday, sunday = (play_script(terminal, table_id, ONE_SEAT, SIMPLE_PUSH)["round_id"] for _ in range(2))
    settle([saturday, sunday])
    for round_id, opened_at in ((saturday, datetime(2024, 4, 7, 5, 59, 59, tzinfo=SYDNEY)),
                                (sunday, datetime(2024, 4, 7, 6, 0, tzinfo=SYDNEY))):
        db.execute("UPDATE rounds SET opened_at = %s WHERE round_id = %s", (opened_at, round_id))
    db.execute("UPDATE tables SET created_at = '2024-01-01T00:00:00Z' WHERE table_id = %s", (table_id,))

    named = ok(compliance.get(f"/v1/reports/tables?gaming_day=2024-04-06&table={table_id}"), 200)
    assert named == ok(compliance.get(f"/v1/reports/tables?date=2024-04-06&table={table_id}"), 200)
    assert named["totals"]["rounds"] == 1

    both = ok(compliance.get(f"/v1/reports/tables?gaming_day_from=2024-04-06&gaming_day_to=2024-04-07"
                             f"&table={table_id}"), 200)
    assert both["period"] == "range"
    assert (both["first_gaming_day"], both["gaming_day"]) == ("2024-04-06", "2024-04-07")
    assert (both["starts_at"], both["ends_at"]) == ("2024-04-06T06:00:00+11:00", "2024-04-08T06:00:00+10:00")
    assert both["totals"]["rounds"] == 2
    by_day = ok(compliance.get(f"/v1/reports/tables?gaming_day_from=2024-04-05&gaming_day_to=2024-04-07"
                               f"&by=day&table={table_id}"), 200)
    assert [(row["gaming_day"], row["rounds"]) for row in by_day["rows"]] == \
        [("2024-04-05", 0), ("2024-04-06", 1), ("2024-04-07", 1)]
    month = ok(compliance.get(f"/v1/reports/tables?gaming_day=2024-04-30&period=month_to_date&table={table_id}"), 200)
    assert month["first_gaming_day"] == "2024-04-01" and month["totals"]["rounds"] == 2


def test_the_export_of_a_gaming_day_holds_that_days_records(new_table, compliance, db):
    table_id, terminal = new_table(prefix="G")
    play_script(terminal, table_id, ONE_SEAT, SIMPLE_PUSH)
    day = today()
    window = day_range(day, day, SIX, SYDNEY)
    reply = compliance.get(f"/v1/audit/export?gaming_day={day.isoformat()}&table={table_id}")
    assert reply.status == 200
    records = [json.loads(line) for line in reply.data.splitlines()]
    assert records and all(r["table_id"] == table_id for r in records)
    ends = datetime.fromisoformat(reply.headers["Pontoon-Export-Ends"])
    assert ends <= window.ends_at
    exported = db.execute("SELECT payload FROM audit_log WHERE kind = 'audit_exported' ORDER BY id DESC LIMIT 1"
                          ).fetchone()[0]
    assert datetime.fromisoformat(exported["from"]) == window.starts_at
    earlier = compliance.get(f"/v1/audit/export?gaming_day_from={(day - timedelta(days=3)).isoformat()}"
                             f"&gaming_day_to={(day - timedelta(days=1)).isoformat()}&table={table_id}")
    assert earlier.status == 200 and earlier.data == b""


BAD = [("gaming_day=2026-13-01", "gaming_day"),
       ("gaming_day=26/11/2026", "gaming_day"),
       ("gaming_day_from=2026-11-26", "gaming_day_to"),
       ("gaming_day_to=2026-11-26", "gaming_day_from"),
       ("gaming_day_from=2026-11-27&gaming_day_to=2026-11-26", "gaming_day_to"),
       ("gaming_day=2026-11-26&gaming_day_from=2026-11-26&gaming_day_to=2026-11-27", "gaming_day")]


@pytest.mark.parametrize("query, field", [*BAD, ("gaming_day=2026-11-26&from=2026-11-26T06:00:00Z", "gaming_day")])
def test_a_bad_gaming_day_on_the_export_is_422_naming_the_field(compliance, query, field):
    reply = compliance.get(f"/v1/audit/export?{query}")
    assert reply.status == 422 and field in json.dumps(reply.body), reply.body


@pytest.mark.parametrize("query, field", [*BAD, ("gaming_day=2026-11-26&date=2026-11-26", "gaming_day"),
                                          ("gaming_day_from=2026-11-01&gaming_day_to=2026-11-02&period=month_to_date",
                                           "gaming_day_from")])
def test_a_bad_gaming_day_on_the_report_is_422_naming_the_field(compliance, query, field):
    reply = compliance.get(f"/v1/reports/tables?{query}")
    assert reply.status == 422 and field in json.dumps(reply.body), reply.body


def test_the_command_line_export_takes_gaming_days_too(new_table, compliance, database_url):
    table_id, terminal = new_table(prefix="G")
    play_script(terminal, table_id, ONE_SEAT, SIMPLE_PUSH)
    day = today().isoformat()
    env = dict(os.environ, DATABASE_URL=database_url, PONTOON_AUDIT_CLOCK_MARGIN="0")
    exported = subprocess.run([sys.executable, "-m", "service.cli", "audit", "export", "--gaming-day", day,
                               "--table", table_id], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    over_http = compliance.get(f"/v1/audit/export?gaming_day={day}&table={table_id}").data.decode()
    on_the_line = [json.loads(line)["id"] for line in exported.stdout.splitlines()]
    # The API's export may stop a second short of the present (records still committing).
    assert on_the_line and on_the_line[:len(over_http.splitlines())] == \
        [json.loads(line)["id"] for line in over_http.splitlines()]
    refused = subprocess.run([sys.executable, "-m", "service.cli", "audit", "export", "--gaming-day-from", day],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--gaming-day-to" in refused.stderr


def test_an_offset_whose_plus_was_not_escaped_is_still_read_as_the_offset(compliance, db):
    def recorded_from(query: str) -> str:
        assert compliance.get(f"/v1/audit/export?{query}&to=2026-11-26T07:00:00Z").status == 200, query
        return db.execute("SELECT payload->>'from' FROM audit_log WHERE kind = 'audit_exported' "
                          "ORDER BY id DESC LIMIT 1").fetchone()[0]

    escaped = recorded_from("from=2026-11-26T06:00:00%2B11:00")
    assert datetime.fromisoformat(escaped) == datetime(2026, 11, 25, 19, tzinfo=UTC)
    assert recorded_from("from=2026-11-26T06:00:00+11:00") == escaped
    # A date and a time with no offset is not mistaken for one.
    assert compliance.get("/v1/audit/export?from=2026-11-26%2006:00&to=2026-11-26T07:00:00Z").status == 200
