"""/console/audit: records searched by date, table, round, kind and actor a page at a time; a period
exported as JSON lines or CSV, streamed, that verifies offline; the chains verified in place."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from service.audit.export import COLUMNS
from service.audit.verify import verify_export
from service.config import Settings
from service.console.pages import audit as audit_page
from service.reports.gaming_day import gaming_day_of, parse_day_start

from ..compliance.client import play_script
from .pit_play import api, new_table, settle  # noqa: F401  (fixtures by name)

ONE_SEAT = [{"seat": 1, "wager": 1000}]
ONE_LOSS = ["9H", "8D", "8C", {"seat": 1, "hand": 0, "action": "stand"}, "KD"]


def casino_today() -> date:
    """The gaming day now, in the casino's zone (not the test host's date: the two differ for
    hours of every day)."""
    settings = Settings.from_env()
    return gaming_day_of(datetime.now(UTC), parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone))


@pytest.fixture
def played_round(new_table, settle):   # noqa: F811  (the fixtures, by name)
    """A table with one settled round: (table_id, round_id)."""
    table_id, terminal = new_table(shoe=None)
    state = play_script(terminal, table_id, ONE_SEAT, ONE_LOSS)
    settle(state["round_id"])
    return table_id, state["round_id"]


def shown_records(page: str) -> list[tuple[int, str]]:
    return [(int(record), kind) for record, kind in re.findall(r'<tr data-record="(\d+)" data-kind="([^"]+)">', page)]


def test_records_are_searched_by_table_round_kind_actor_and_date(signed_in, played_round, db):
    table_id, round_id = played_round
    console = signed_in("compliance")
    by_table = shown_records(console.get(f"/console/audit?table={table_id}").get_data(as_text=True))
    expected = db.execute("SELECT id, kind FROM audit_log WHERE table_id = %s ORDER BY id DESC", (table_id,)).fetchall()
    assert by_table == [tuple(row) for row in expected] and {"card_dealt", "payout"} <= {k for _, k in by_table}

    by_round = shown_records(console.get(f"/console/audit?round={round_id}&kind=payout").get_data(as_text=True))
    assert [kind for _, kind in by_round] == ["payout"]

    who = console.login.username
    console.get(f"/console/audit/export?table={table_id}").get_data()   # recorded under this person's name
    mine = shown_records(console.get(f"/console/audit?actor={who}").get_data(as_text=True))
    assert [kind for _, kind in mine][:1] == ["audit_exported"], "found by the username alone"
    assert shown_records(console.get(f"/console/audit?actor=staff:{who}&kind=audit_exported")
                         .get_data(as_text=True)) == mine[:1]

    today = casino_today()
    around_today = f"from={today - timedelta(days=1)}&to={today + timedelta(days=1)}"
    within = console.get(f"/console/audit?table={table_id}&{around_today}")
    assert shown_records(within.get_data(as_text=True)) == by_table
    long_ago = console.get(f"/console/audit?table={table_id}&from=2001-01-01&to=2001-01-31").get_data(as_text=True)
    assert shown_records(long_ago) == [] and "No record matches" in long_ago


def test_search_pages_older_records(signed_in, played_round, monkeypatch):
    table_id, _ = played_round
    monkeypatch.setattr(audit_page, "PAGE_SIZE", 3)
    console = signed_in("compliance")
    every = shown_records(console.get(f"/console/audit?table={table_id}").get_data(as_text=True))
    assert len(every) == 3
    pages, path = [], f"/console/audit?table={table_id}"
    while path:
        page = console.get(path).get_data(as_text=True)
        pages.extend(shown_records(page))
        older = re.search(r'<a class="button small" rel="next" href="([^"]+)"', page)
        path = older.group(1).replace("&amp;", "&") if older else ""
    ids = [record for record, _ in pages]
    assert ids == sorted(ids, reverse=True) and len(ids) == len(set(ids)) > 3, "every record once, newest first"


@pytest.mark.parametrize("query, field", [("from=27-11-2026", "from"), ("round=not-a-round", "round"),
                                          ("from=2026-11-27&to=2026-11-20", "to"), ("table=%20bad%20id!", "table"),
                                          ("kind=pay%0Aout", "kind"), ("before=x", "before")])
def test_a_bad_criterion_is_named_next_to_its_field(signed_in, query, field):
    refused = signed_in("compliance").get(f"/console/audit?{query}")
    assert refused.status_code == 422
    assert f'data-field="{field}"' in refused.get_data(as_text=True)


def test_the_export_streams_json_lines_that_verify_offline(signed_in, played_round, db):
    console = signed_in("compliance")
    today = casino_today()
    exported = console.get(f"/console/audit/export?from={today - timedelta(days=1)}&to={today}&format=jsonl")
    assert exported.status_code == 200 and exported.is_streamed
    assert exported.mimetype == "application/x-ndjson" and "attachment" in exported.headers["Content-Disposition"]
    assert exported.headers["Pontoon-Export-Ends"]
    lines = exported.get_data(as_text=True).splitlines()
    assert lines and all(set(COLUMNS) <= set(json.loads(line)) for line in lines)
    report = verify_export(lines)
    assert report.intact, [str(problem) for problem in report.problems]
    assert report.records == len(lines)
    recorded = db.execute("SELECT actor, payload->>'format' FROM audit_log WHERE kind = 'audit_exported' "
                          "ORDER BY id DESC LIMIT 1").fetchone()
    assert recorded == (f"staff:{console.login.username}", "jsonl"), "the export is itself recorded"


def test_the_export_of_one_table_as_csv(signed_in, played_round):
    table_id, round_id = played_round
    exported = signed_in("compliance").get(f"/console/audit/export?table={table_id}&format=csv")
    assert exported.status_code == 200 and exported.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(exported.get_data(as_text=True))))
    assert rows[0] == list(COLUMNS)
    assert {row[COLUMNS.index("chain")] for row in rows[1:]} <= {f"table:{table_id}"}


@pytest.mark.parametrize("query, field", [("format=xml", "format"), ("table=NO-SUCH-TABLE", "table"),
                                          ("from=yesterday", "from")])
def test_a_bad_export_is_refused_next_to_its_field(signed_in, query, field):
    refused = signed_in("compliance").get(f"/console/audit/export?{query}")
    assert refused.status_code == 422 and f'data-field="{field}"' in refused.get_data(as_text=True)


def test_verification_runs_and_says_the_log_is_intact(signed_in, played_round):
    verified = signed_in("compliance").post("/console/audit/verify")
    assert verified.status_code == 200
    page = verified.get_data(as_text=True)
    assert 'data-verdict="intact"' in page, page[page.find('id="verify"'):][:3000]
    assert re.search(r"[1-9]\d* settled rounds", page)


def change_card(db, round_id: str, was: str, now: str) -> None:
    """Edit a chained card_dealt record as the schema's owner can (its append-only trigger off)."""
    db.execute("ALTER TABLE audit_log DISABLE TRIGGER USER")
    try:
        db.execute("UPDATE audit_log SET payload = jsonb_set(payload, '{card}', to_jsonb(%s::text)) "
                   "WHERE round_id = %s AND kind = 'card_dealt' AND payload->>'card' = %s", (now, round_id, was))
    finally:
        db.execute("ALTER TABLE audit_log ENABLE TRIGGER USER")


def test_verification_names_a_changed_record(signed_in, played_round, db):
    table_id, round_id = played_round
    change_card(db, round_id, "9H", "2C")
    try:
        page = signed_in("compliance").post("/console/audit/verify").get_data(as_text=True)
    finally:   # the folder's database stays intact for the tests that verify all of it
        change_card(db, round_id, "2C", "9H")
    assert 'data-verdict="broken"' in page and f"table:{table_id}" in page


@pytest.mark.parametrize("role", ["operator", "supervisor", "admin"])
def test_the_audit_pages_are_for_compliance(signed_in, role):
    console = signed_in(role)
    assert console.get("/console/audit").status_code == 403
    assert console.get("/console/audit/export").status_code == 403
    assert console.post("/console/audit/verify").status_code == 403


def test_verification_needs_its_csrf_token(signed_in):
    assert signed_in("compliance").post("/console/audit/verify", csrf=False).status_code == 400
