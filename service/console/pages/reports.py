"""/console/reports: drop, win and hold by table and gaming day, its daily chart, and its CSV."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import marshmallow as ma
from flask import Blueprint, Response, current_app, render_template, request, url_for

from ...config import Settings
from ...refusals import NotFound
from ...reports.gaming_day import PERIODS, RANGE
from ...reports.tables import csv_lines
from ...web.access import Task
from ...web.reports import ReportQuery, period_report
from ...web.request_scope import request_uow
from ...web.schemas.reports import ReportQuerySchema
from ..auth import staff_required
from ..queries.reports import report_page

blp = Blueprint("console_reports", __name__, url_prefix="/console", template_folder="../templates")

FIELDS = ("period", "date", "from", "to", "by", "table")
PERIOD_NAMES = {"day": "Gaming day", "month_to_date": "Month to date", "year_to_date": "Year to date",
                RANGE: "Gaming days from … to …"}
# The REST query's parameters as the form names them (its messages are shown at these fields).
FORM_FIELD = {"gaming_day": "date", "gaming_day_from": "from", "gaming_day_to": "to"}

Errors = dict[str, list[str]]


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


def _query(form: dict[str, str]) -> tuple[ReportQuery | None, Errors]:
    """The query checked as the REST report checks it, or the messages for the form's fields."""
    try:
        checked = ReportQuerySchema().load(_rest_query(form))
    except ma.ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {"period": exc.messages}
        return None, {FORM_FIELD.get(str(k), str(k)): [str(m) for m in (v if isinstance(v, list) else [v])]
                      for k, v in messages.items()}
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
                           csv_url=csv_url), 422 if errors else 200


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
