"""/console/audit: records searched by date, table, round, kind and actor a page at a time; a period
exported as JSON lines or CSV, streamed, that verifies offline; the chains verified in place by a
worker, the verification's page following it to its verdict."""
from __future__ import annotations

import csv
import io
import json
import re
import uuid
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from service.audit.export import COLUMNS
from service.audit.jobs import BEAT_EVERY, STALE_AFTER, TakenUp
from service.audit.verify import verify_export
from service.config import Settings
from service.console.pages import audit as audit_page
from service.reports.gaming_day import gaming_day_of, parse_day_start
from service.store.repositories.verifications import VerificationStatus
from tests.support.scripted_rounds import play_script
from tests.support.verifications import finish_those_under_way, run_worker

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


def test_search_pages_older_records(signed_in, new_table, db):   # noqa: F811  (the fixtures, by name)
    table_id, terminal = new_table(shoe=None)
    on_table = "SELECT count(*) FROM audit_log WHERE table_id = %s"
    while db.execute(on_table, (table_id,)).fetchone()[0] <= audit_page.PAGE_SIZE:   # more than a page
        play_script(terminal, table_id, ONE_SEAT, ONE_LOSS)
    console = signed_in("compliance")
    every = shown_records(console.get(f"/console/audit?table={table_id}").get_data(as_text=True))
    assert len(every) == audit_page.PAGE_SIZE
    pages, path = [], f"/console/audit?table={table_id}"
    while path:
        page = console.get(path).get_data(as_text=True)
        pages.extend(shown_records(page))
        older = re.search(r'<a class="button small" rel="next" href="([^"]+)"', page)
        path = older.group(1).replace("&amp;", "&") if older else ""
    ids = [record for record, _ in pages]
    assert ids == sorted(ids, reverse=True) and len(ids) == len(set(ids)), "every record once, newest first"
    assert len(ids) == db.execute(on_table, (table_id,)).fetchone()[0]


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


@pytest.fixture(autouse=True)
def nothing_under_way(settings, db):
    finish_those_under_way(settings.database_url, db)


def ask_for_verification(console) -> uuid.UUID:
    """Press Verify: the console answers with the verification's page, whose id is returned."""
    asked = console.post("/console/audit/verify")
    assert asked.status_code == 303, asked.get_data(as_text=True)[:2000]
    found = re.fullmatch(r".*/console/audit/verifications/([0-9a-f-]{36})", asked.headers["Location"])
    assert found, asked.headers["Location"]
    return uuid.UUID(found.group(1))


def verification_card(console, verification_id: uuid.UUID) -> str:
    page = console.get(f"/console/audit/verifications/{verification_id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    return text[text.find('id="verify"'):][:4000]


def test_a_worker_verifies_the_log_and_its_page_says_intact(signed_in, played_round, settings, db):
    console = signed_in("compliance")
    verification_id = ask_for_verification(console)
    waiting = verification_card(console, verification_id)
    assert 'data-status="queued"' in waiting and "hx-trigger" in waiting, "a waiting verification polls"
    assert db.execute("SELECT count(*) FROM outbox WHERE topic = 'verify_audit' AND published_at IS NULL "
                      "AND payload->>'verification_id' = %s", (str(verification_id),)).fetchone() == (1,)

    assert run_worker(settings.database_url, verification_id) == VerificationStatus.INTACT
    card = verification_card(console, verification_id)
    assert 'data-verdict="intact"' in card, card
    assert "hx-trigger" not in card, "a finished verification stops polling"
    assert re.search(r"[1-9]\d* settled rounds", card)
    polled = console.get(f"/console/audit/verifications/{verification_id}/status").get_data(as_text=True)
    assert polled.lstrip().startswith('<section class="card" id="verify"') and 'data-verdict="intact"' in polled
    recorded = db.execute("SELECT actor, payload->>'verdict', (payload->>'rounds')::int FROM audit_log "
                          "WHERE kind = 'audit_verified' AND payload->>'verification_id' = %s",
                          (str(verification_id),)).fetchone()
    assert recorded is not None and recorded[:2] == (f"staff:{console.login.username}", "intact") and recorded[2] > 0
    listed = console.get("/console/audit").get_data(as_text=True)
    assert f'data-verification="{verification_id}" data-status="intact"' in listed


def test_a_second_delivery_of_a_finished_verification_does_nothing(signed_in, played_round, settings, db):
    verification_id = ask_for_verification(signed_in("compliance"))
    assert run_worker(settings.database_url, verification_id) == VerificationStatus.INTACT
    assert run_worker(settings.database_url, verification_id) is None
    assert db.execute("SELECT count(*) FROM audit_log WHERE kind = 'audit_verified' "
                      "AND payload->>'verification_id' = %s", (str(verification_id),)).fetchone() == (1,)


def test_asking_again_while_one_is_under_way_joins_it(signed_in, settings, db):
    first, second = signed_in("compliance"), signed_in("compliance")
    verification_id = ask_for_verification(first)
    assert ask_for_verification(second) == verification_id
    assert "already under way" in second.get(f"/console/audit/verifications/{verification_id}").get_data(as_text=True)
    sent = db.execute("SELECT count(*) FROM outbox WHERE topic = 'verify_audit' "
                      "AND payload->>'verification_id' = %s", (str(verification_id),)).fetchone()
    assert sent == (1,), "one verification, sent once"
    run_worker(settings.database_url, verification_id)


def test_a_verification_whose_worker_went_quiet_is_sent_again_and_taken_over(signed_in, settings, db):
    console = signed_in("compliance")
    verification_id = ask_for_verification(console)
    # A worker took it up and died: running, its heartbeat long past.
    db.execute("UPDATE audit_verifications SET status = 'running', attempts = 1, "
               "started_at = now() - interval '1 hour', heartbeat_at = now() - interval '1 hour' "
               "WHERE verification_id = %s", (verification_id,))
    card = verification_card(console, verification_id)
    assert "data-stalled" in card and "Ask again" in card
    assert ask_for_verification(console) == verification_id
    assert "sent to the workers again" in console.get(f"/console/audit/verifications/{verification_id}").get_data(
        as_text=True)
    sent = db.execute("SELECT count(*) FROM outbox WHERE topic = 'verify_audit' "
                      "AND payload->>'verification_id' = %s", (str(verification_id),)).fetchone()
    assert sent == (2,), "asking again sends the quiet verification once more"
    assert run_worker(settings.database_url, verification_id) == VerificationStatus.INTACT
    assert db.execute("SELECT attempts FROM audit_verifications WHERE verification_id = %s",
                      (verification_id,)).fetchone() == (2,)


def test_a_running_verification_with_a_live_worker_is_left_to_it(signed_in, settings, db):
    verification_id = ask_for_verification(signed_in("compliance"))
    db.execute("UPDATE audit_verifications SET status = 'running', attempts = 1, started_at = now(), "
               "heartbeat_at = now() WHERE verification_id = %s", (verification_id,))
    try:
        with pytest.raises(TakenUp) as taken:
            run_worker(settings.database_url, verification_id)
        assert 0 < taken.value.look_again_in <= STALE_AFTER + BEAT_EVERY
        assert db.execute("SELECT status, attempts FROM audit_verifications WHERE verification_id = %s",
                          (verification_id,)).fetchone() == ("running", 1)
    finally:   # the worker that holds it "dies": the next test's verification must not wait on it
        db.execute("UPDATE audit_verifications SET status = 'queued' WHERE verification_id = %s", (verification_id,))
        run_worker(settings.database_url, verification_id)


def change_card(db, round_id: str, was: str, now: str) -> None:
    """Edit a chained card_dealt record as the schema's owner can (its append-only trigger off)."""
    db.execute("ALTER TABLE audit_log DISABLE TRIGGER USER")
    try:
        db.execute("UPDATE audit_log SET payload = jsonb_set(payload, '{card}', to_jsonb(%s::text)) "
                   "WHERE round_id = %s AND kind = 'card_dealt' AND payload->>'card' = %s", (now, round_id, was))
    finally:
        db.execute("ALTER TABLE audit_log ENABLE TRIGGER USER")


def test_verification_names_a_changed_record(signed_in, played_round, settings, db):
    table_id, round_id = played_round
    console = signed_in("compliance")
    verification_id = ask_for_verification(console)
    change_card(db, round_id, "9H", "2C")
    try:
        assert run_worker(settings.database_url, verification_id) == VerificationStatus.BROKEN
    finally:   # the folder's database stays intact for the tests that verify all of it
        change_card(db, round_id, "2C", "9H")
    card = verification_card(console, verification_id)
    assert 'data-verdict="broken"' in card and f"table:{table_id}" in card


def test_an_unknown_verification_is_not_found(signed_in):
    assert signed_in("compliance").get(f"/console/audit/verifications/{uuid.uuid4()}").status_code == 404


@pytest.mark.parametrize("role", ["operator", "supervisor", "admin"])
def test_the_audit_pages_are_for_compliance(signed_in, role):
    console = signed_in(role)
    assert console.get("/console/audit").status_code == 403
    assert console.get("/console/audit/export").status_code == 403
    assert console.post("/console/audit/verify").status_code == 403


def test_verification_needs_its_csrf_token(signed_in):
    assert signed_in("compliance").post("/console/audit/verify", csrf=False).status_code == 400
