"""/v1/reports/tables: drop, paid out, win and hold per table and gaming day, JSON or CSV."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import marshmallow as ma
from flask import Response, current_app
from flask.views import MethodView

from ...reports.gaming_day import RANGE, gaming_day_of, parse_day_start
from ...reports.tables import csv_lines, table_report
from ...web.access import Task, roles_for
from ...web.schemas.reports import ReportQuerySchema
from ..auth import require
from ..blueprint import Blueprint
from ..docs import documented
from ..errors import fail
from ..schemas.reports import TableReportSchema
from ..transactions import request_uow

blp = Blueprint("reports", __name__, url_prefix="/v1/reports", description="Table reports")


@blp.route("/tables")
class TableReport(MethodView):
    @require(*roles_for(Task.READ_REPORTS))
    @blp.arguments(ReportQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, TableReportSchema)
    @blp.alt_response(200, schema={"type": "string"}, content_type="text/csv", success=True,
                      description="format=csv: the rows, then a TOTAL line; amounts in cents")
    @documented(blp, 404)
    def get(self, query):
        """Per table for a gaming day (`gaming_day`, or `date`), month to date or year to date,
        or the gaming days `gaming_day_from` to `gaming_day_to` (`by=day`: per table and gaming
        day): rounds, drop, paid out, win, hold %, bonus and super bonus counts, void refunds.
        Tables with no play have a "no activity" row. The gaming day starts at the configured
        local time (GAMING_DAY_STARTS in PONTOON_TZ). Money is the ledger's: a void's refunds are
        neither drop nor paid out; rounds not settled yet are counted, not summed."""
        settings = current_app.extensions["pontoon.settings"]
        uow = request_uow()
        if query.get("table") is not None and uow.tables.get(query["table"]) is None:
            fail(404, "not_found", f"no table {query['table']!r}")
        day_start, zone = parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone)
        first = query.get("gaming_day_from")
        kind = RANGE if first is not None else query.get("period", "day")
        day = (query.get("gaming_day_to") or query.get("gaming_day") or query.get("date")
               or gaming_day_of(datetime.now(UTC), day_start, zone))
        report = table_report(uow.reports, kind=kind, day=day, day_start=settings.gaming_day_starts,
                              zone=settings.timezone, by=query["by"], table_id=query.get("table"), first_day=first)
        if query["format"] == "csv":
            name = f"tables-{kind}-{first.isoformat() + '-' if first else ''}{day.isoformat()}.csv"
            return Response("".join(csv_lines(report)), mimetype="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
        return report
