"""The console's messages in its readers' words: no setting's or parameter's name, one message for
each problem, roles named as people, text shown as it was written, people and keys by their names,
and downloads named by their period."""
from __future__ import annotations

import re
import uuid
from datetime import date, timedelta

import pytest

from service.console.pages.audit import export_name
from service.console.pages.reports import MAX_RANGE_DAYS

from .pit_play import api, new_table, text_of  # noqa: F401  (fixtures by name)

pytestmark = pytest.mark.integration

INTERNAL = re.compile(r"gaming_day_from|gaming_day_to|GAMING_DAY_STARTS|PONTOON_TZ|<unicode string>|Not a valid|"
                      r"Longer than|Length must|staff:[a-z]")


def field_messages(html: str) -> list[str]:
    return [text_of(m) for m in re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)]


@pytest.mark.parametrize("query", ["date=27-11-2026", "period=range&from=2026-11-02", "period=range&to=2026-11-02",
                                   "period=range&from=2026-11-02&to=2026-11-01", "period=range&from=x&to=y",
                                   "date=0001-01-01", "table=" + "t" * 300, "period=week&by=shoe"])
def test_a_reports_refusal_names_no_parameter_or_setting_and_says_each_problem_once(signed_in, query):
    page = signed_in("compliance").get(f"/console/reports?{query}")
    html = page.get_data(as_text=True)
    messages = field_messages(html)
    assert page.status_code == 422 and messages, query
    assert not [m for m in messages if INTERNAL.search(m)], messages
    assert len(messages) == html.count('class="field has-error"'), "one message for each field refused"


def test_a_reports_range_is_limited_and_says_so(signed_in):
    console = signed_in("compliance")
    first = date(2024, 1, 1)
    longest = console.get(f"/console/reports?period=range&from={first}&to={first + timedelta(days=MAX_RANGE_DAYS - 1)}"
                          "&by=day&table=NO-SUCH-TABLE")
    assert "at most" not in " ".join(field_messages(longest.get_data(as_text=True)))
    too_long = console.get(f"/console/reports?period=range&from={first}&to={first + timedelta(days=MAX_RANGE_DAYS)}"
                           "&by=day")
    assert too_long.status_code == 422
    assert f"A range covers at most {MAX_RANGE_DAYS} gaming days, and this one has 367" in \
        " ".join(field_messages(too_long.get_data(as_text=True)))
    assert console.get(f"/console/reports.csv?period=range&from={first}&to=2026-01-01").status_code == 422


def test_the_refusal_page_names_the_roles_as_people(signed_in):
    page = signed_in("operator").get("/console/audit")
    assert page.status_code == 403
    text = text_of(page.get_data(as_text=True))
    assert "This page is for compliance staff;" in text and "compliances" not in text


def test_the_audit_log_shows_text_as_written_and_people_by_their_names(signed_in):
    admin = signed_in("admin")
    username = f"cleo{uuid.uuid4().hex[:6]}"
    assert admin.post("/console/access/accounts", {"username": username, "display_name": "Cléo Ñúñez",
                                                   "role": "operator"}).status_code == 201
    html = signed_in("compliance").get("/console/audit?kind=staff_created").get_data(as_text=True)
    assert "Cléo Ñúñez" in html and "\\u00e9" not in html
    # Who made it: the admin by name, the stored actor beside it for the search.
    assert f'title="staff:{admin.login.username}"' in html
    shown = re.search(rf'data-actor="staff:{admin.login.username}">([^<]+)<', html).group(1)
    assert shown != f"staff:{admin.login.username}" and not shown.startswith("staff:")


def test_an_export_is_named_by_its_period():
    day = date(2026, 11, 29)
    assert export_name(None, day, day) == "audit-2026-11-29"
    assert export_name("T1", day - timedelta(days=28), day) == "audit-T1-2026-11-01-to-2026-11-29"
    assert export_name(None, None, day) == "audit-to-2026-11-29"
    assert export_name(None, day, None) == "audit-from-2026-11-29"


def test_the_export_download_carries_its_period(signed_in):
    exported = signed_in("compliance").get("/console/audit/export?from=2000-01-01&to=2000-01-01&format=csv")
    assert exported.status_code == 200
    assert 'filename="audit-2000-01-01.csv"' in exported.headers["Content-Disposition"]
    exported.close()


def test_an_assignment_with_a_version_not_on_the_list_says_so(signed_in, new_table):
    table_id, _ = new_table()
    page = signed_in("operator").post(f"/console/tables/{table_id}/paytable", {"version": "-1", "reason": "try"})
    assert page.status_code == 422
    assert field_messages(page.get_data(as_text=True)) == ["Choose an approved version from the list."]
