"""The reports page: the REST table report by table or by gaming day for a day, month or year to
date, "no activity" rows, the daily game win and game win % of handle chart, and the CSV of what is
shown; compliance only."""
from __future__ import annotations

import re

import pytest

from service.web.format import money, percent
from tests.support.api_client import ok
from tests.support.scripted_rounds import SPLIT_AND_DOUBLE, SPLIT_AND_DOUBLE_WAGERS, play

from .pit_play import api, new_table, settle, text_of  # noqa: F401  (fixtures by name)


def report_row(html: str, table_id: str) -> str:
    found = re.search(rf'<tr class="[^"]*">\s*(?:<td>[^<]*</td>\s*)?<th scope="row"><a href="/console/tables/'
                      rf'{re.escape(table_id)}">.*?</tr>', html, re.S)
    assert found, f"no report row for {table_id}"
    return text_of(found.group(0))


@pytest.fixture
def played_table(new_table, settle):
    """A table with one settled round today, and a table with none."""
    table_id, terminal = new_table()
    settle(play(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE)["round_id"])
    idle_id, _ = new_table(shoe=None)
    return table_id, idle_id


def test_the_days_report_shows_each_table_and_no_activity_rows(signed_in, played_table, api):
    table_id, idle_id = played_table
    expected = {row["table_id"]: row for row in ok(api("compliance").get("/v1/reports/tables"), 200)["rows"]}
    page = signed_in("compliance").get("/console/reports")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    played = report_row(html, table_id)
    row = expected[table_id]
    assert "active" in played and money(row["handle"]) in played and money(row["paid_out"]) in played
    assert money(row["game_win"]) in played and percent(row["game_win_percent"]) in played
    idle = report_row(html, idle_id)
    assert "no activity" in idle and "$0.00" in idle and "\u2014" in idle
    assert "Gaming day" in text_of(html) and "the gaming day starts at 06:00 Australia/Sydney" in text_of(html)
    # The chart is drawn on the server: an SVG with a bar per gaming day, and no script of its own.
    assert "<svg" in html and html.count('class="game-win-bar"') == 1
    assert "<script>" not in html and html.count("<script") == 1   # the layout's htmx file only


def test_the_rounds_figures_are_headed_handle_and_game_win_never_drop_win_or_hold(signed_in, played_table):
    html = signed_in("compliance").get("/console/reports").get_data(as_text=True)
    headings = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', html)
    assert ["Handle", "Paid out", "Game win", "Game win % of handle"] == \
        headings[headings.index("Handle"):headings.index("Handle") + 4]
    assert not {"Drop", "Win", "Hold"} & set(headings)
    floor = signed_in("compliance").get("/console/floor").get_data(as_text=True)
    floor_headings = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', floor)
    assert {"Handle", "Game win", "Game win % of handle"} <= set(floor_headings)
    assert not {"Drop", "Win", "Hold"} & set(floor_headings)


def test_the_csv_is_what_the_page_shows(signed_in, played_table, api):
    console = signed_in("compliance")
    page = console.get("/console/reports?period=month_to_date&by=day").get_data(as_text=True)
    link = re.search(r'href="(/console/reports\.csv\?[^"]+)"', page)
    assert link, "no CSV link"
    download = console.get(link.group(1).replace("&amp;", "&"))
    assert download.status_code == 200 and download.mimetype == "text/csv"
    assert "attachment" in download.headers["Content-Disposition"]
    rest = api("compliance").get("/v1/reports/tables?period=month_to_date&by=day&format=csv")
    assert download.data == rest.data
    lines = download.get_data(as_text=True).splitlines()
    assert lines[0].startswith("gaming_day,table_id,activity") and lines[-1].split(",")[1] == "TOTAL"
    assert any(played_table[0] in line and ",active," in line for line in lines)


def test_month_to_date_by_day_has_a_row_per_table_and_day_and_a_bar_per_day(signed_in, played_table, api):
    table_id, _ = played_table
    report = ok(api("compliance").get("/v1/reports/tables?period=month_to_date&by=day"), 200)
    days = sorted({row["gaming_day"] for row in report["rows"]})
    html = signed_in("compliance").get("/console/reports?period=month_to_date&by=day").get_data(as_text=True)
    assert html.count('class="game-win-bar"') == len(days)
    assert html.count(f'href="/console/tables/{table_id}"') == len(days)
    assert "Month to date" in text_of(html)


def test_a_range_of_gaming_days_is_reported_as_the_rest_api_reports_it(signed_in, played_table, api):
    table_id, _ = played_table
    today = ok(api("compliance").get("/v1/reports/tables"), 200)["gaming_day"]
    rest = ok(api("compliance").get(f"/v1/reports/tables?gaming_day_from={today}&gaming_day_to={today}"), 200)
    html = signed_in("compliance").get(f"/console/reports?period=range&from={today}&to={today}").get_data(as_text=True)
    expected = next(row for row in rest["rows"] if row["table_id"] == table_id)
    assert money(expected["handle"]) in report_row(html, table_id) and "Gaming days from" in text_of(html)


def test_a_bad_query_is_shown_at_its_field(signed_in):
    console = signed_in("compliance")
    for query, field in (("period=week", "period"), ("date=27-11-2026", "date"), ("by=shoe", "by"),
                         ("table=NO-SUCH-TABLE", "table"), ("period=range&from=2026-11-02", "to"),
                         ("period=range&from=2026-11-02&to=2026-11-01", "to")):
        page = console.get(f"/console/reports?{query}")
        assert page.status_code == 422, query
        html = page.get_data(as_text=True)
        field_block = re.search(rf'<div class="field has-error">\s*<label for="report-{field}">.*?</div>', html, re.S)
        assert field_block and 'class="field-error"' in field_block.group(0), query
    assert console.get("/console/reports.csv?period=week").status_code == 422


@pytest.mark.parametrize("role", ["operator", "supervisor", "admin"])
def test_reports_are_for_compliance(signed_in, role):
    console = signed_in(role)
    assert console.get("/console/reports").status_code == 403
    assert console.get("/console/reports.csv").status_code == 403
