"""/console/reports: handle, game win and game win % of handle by table and gaming day, its daily chart,
and its CSV."""
from __future__ import annotations

import re
from datetime import date
from typing import Any
from urllib.parse import urlencode

import marshmallow as ma
from flask import Blueprint, Response, current_app, render_template, request, url_for

from ...config import Settings
from ...refusals import NotFound
from ...reports.gaming_day import FIRST_DAY, LAST_DAY, PERIODS, RANGE
from ...reports.tables import csv_lines
from ...web.access import Task
from ...web.reports import ReportQuery, period_report
from ...web.request_scope import request_uow
from ...web.schemas.base import TABLE_ID_PATTERN
from ...web.schemas.reports import ReportQuerySchema
from ..auth import staff_required
from ..fields import Most, one_each, too_long
from ..queries.reports import report_page

blp = Blueprint("console_reports", __name__, url_prefix="/console", template_folder="../templates")

FIELDS = ("period", "date", "from", "to", "by", "table")
PERIOD_NAMES = {"day": "Gaming day", "month_to_date": "Month to date", "year_to_date": "Year to date",
                RANGE: "Gaming days from … to …"}
# The REST query's parameters as the form names them (its messages are shown at these fields).
FORM_FIELD = {"gaming_day": "date", "gaming_day_from": "from", "gaming_day_to": "to"}

Errors = dict[str, list[str]]
# A range of gaming days is at most a leap year's: longer ones made pages of tens of megabytes.
MAX_RANGE_DAYS = 366
EXAMPLE_DAY = "2026-11-27"
_TABLE_ID = re.compile(TABLE_ID_PATTERN)


def _form() -> dict[str, str]:
    """The query as typed (blank fields left out), to fill the form in again."""
    return {name: request.args.get(name, "").strip() for name in FIELDS if request.args.get(name, "").strip()}


def _rest_query(form: dict[str, str]) -> dict[str, str]:
    """The form as the REST report's query: a range names its first and last gaming day, any
    other period the gaming day it ends on."""
    query: dict[str, str] = {key: form[key] for key in ("by", "table") if key in form}
    if form.get("period") == RANGE:
        query.update({"gaming_day_from": form.get("from", ""), "gaming_day_to": form.get("to", "")})
    else:
        query.update({key: form[key] for key in ("period", "date") if key in form})
    return query


def _day(form: dict[str, str], name: str, errors: Errors, missing: str | None = None) -> date | None:
    """A gaming day typed in a field, or its message in the form's words."""
    text = form.get(name, "")
    if not text:
        if missing is not None:
            errors[name] = [missing]
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        errors[name] = [f"Enter a gaming day as a date, such as {EXAMPLE_DAY}."]
        return None
    if not FIRST_DAY <= day <= LAST_DAY:
        errors[name] = [f"Enter a gaming day from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}."]
        return None
    return day


def _form_problems(form: dict[str, str]) -> Errors:
    """The form checked in its own words, one message for each field: a period from the list, real
    dates, a range in order and no longer than MAX_RANGE_DAYS, a table's name as tables are named."""
    errors: Errors = {}
    period = form.get("period", "day")
    if period not in PERIOD_NAMES:
        errors["period"] = ["Choose a period from the list."]
    if form.get("by", "table") not in ("table", "day"):
        errors["by"] = ["Choose the rows from the list."]
    table = form.get("table", "")
    if table and (problem := too_long(table, Most.TABLE_ID)) is not None:
        errors["table"] = [problem]
    elif table and not _TABLE_ID.fullmatch(table):
        errors["table"] = [f"There is no table {table}: a table's name is letters, digits, '.', '_' and '-'."]
    if period == RANGE:
        first = _day(form, "from", errors, "Enter the range's first gaming day.")
        last = _day(form, "to", errors, "Enter the range's last gaming day.")
        if first and last and last < first:
            errors["to"] = ["The last gaming day comes before the first: swap them."]
        elif first and last and (days := (last - first).days + 1) > MAX_RANGE_DAYS:
            errors["to"] = [f"A range covers at most {MAX_RANGE_DAYS} gaming days, and this one has {days:,}: "
                            "choose a shorter one (a year to date covers its year)."]
    else:
        _day(form, "date", errors)
    return errors


def _query(form: dict[str, str]) -> tuple[ReportQuery | None, Errors]:
    """The query checked in the form's words, then as the REST report checks it (the same report
    for the same query), or the messages for the form's fields."""
    if errors := _form_problems(form):
        return None, errors
    try:
        checked = ReportQuerySchema().load(_rest_query(form))
    except ma.ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {"period": exc.messages}
        return None, one_each({FORM_FIELD.get(str(k), str(k)): v for k, v in messages.items()})
    return ReportQuery.of(checked, _settings()), {}


def _settings() -> Settings:
    settings: Settings = current_app.extensions["pontoon.settings"]
    return settings


def _no_table(query: ReportQuery) -> Errors:
    return {"table": [f"There is no table {query.table_id}."]}


@blp.get("/reports")
@staff_required(Task.CHART_REPORTS)
def page() -> tuple[str, int]:
    form = _form()
    query, errors = _query(form)
    shown = None
    if query is not None:
        try:
            shown = report_page(request_uow(), _settings(), query)
        except NotFound:
            errors = _no_table(query)
            query = None
    csv_url = url_for("console_reports.csv") + (f"?{urlencode(form)}" if form else "")
    return render_template("console/reports.html", form=form, errors=errors, query=query, shown=shown,
                           periods=[(p, PERIOD_NAMES[p]) for p in (*PERIODS, RANGE)], period_names=PERIOD_NAMES,
                           csv_url=csv_url, max_range_days=MAX_RANGE_DAYS), 422 if errors else 200


@blp.get("/reports.csv")
@staff_required(Task.CHART_REPORTS)
def csv() -> Response:
    """What the page shows, as the REST report's CSV (amounts in cents, a TOTAL line)."""
    query, errors = _query(_form())
    report: dict[str, Any] | None = None
    if query is not None:
        try:
            report = period_report(request_uow(), _settings(), query)
        except NotFound:
            errors = _no_table(query)
    if query is None or report is None:
        text = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in errors.items())
        return Response(text + "\n", status=422, mimetype="text/plain")
    first = f"{query.first_day.isoformat()}-" if query.first_day else ""
    name = f"tables-{query.period}-{first}{query.day.isoformat()}{'-by-day' if query.by == 'day' else ''}.csv"
    return Response("".join(csv_lines(report)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
