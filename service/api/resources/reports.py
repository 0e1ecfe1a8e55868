"""/v1/reports/tables: handle, paid out, game win and game win % of handle per table and gaming day, JSON or
CSV."""
from __future__ import annotations

import marshmallow as ma
from flask import Response, current_app
from flask.views import MethodView

from ...reports.tables import csv_lines
from ...web.access import Task, roles_for
from ...web.reports import ReportQuery, period_report
from ...web.schemas.reports import ReportQuerySchema
from ..auth import require
from ..blueprint import Blueprint
from ..docs import CONTENT_DISPOSITION, documented
from ..schemas.reports import TableReportSchema
from ..transactions import request_uow

blp = Blueprint("reports", __name__, url_prefix="/v1/reports", description="Table reports")


@blp.route("/tables")
class TableReport(MethodView):
    @require(*roles_for(Task.READ_REPORTS))
    @blp.arguments(ReportQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, TableReportSchema, headers={CONTENT_DISPOSITION: {
        "description": "format=csv only: `attachment; filename=\"...\"`, the name to save the file as",
        "schema": {"type": "string"}}})
    @blp.alt_response(200, schema={"type": "string"}, content_type="text/csv", success=True,
                      description="format=csv: the rows, then a TOTAL line; amounts in cents")
    @documented(blp, "getTableReport", 404)
    def get(self, query):
        """Report handle, game win and game win % of handle per table.

        Per table for a gaming day (`gaming_day`, or `date`), month to date or year to date,
        or the gaming days `gaming_day_from` to `gaming_day_to` (`by=day`: per table and gaming
        day): rounds, handle (the stakes), paid out, game win (handle less paid out), game win %
        of handle, bonus and super bonus counts, void refunds. Tables with no play have a "no
        activity" row. The gaming day starts at the configured local time (GAMING_DAY_STARTS in
        PONTOON_TZ). Money is the ledger's: a void's refunds are neither handle nor paid out;
        rounds not settled yet are counted, not summed. Until the document's version 4 these
        were `drop`, `win` and `hold_percent`: the trade's words for a table's drop box and
        chips, which the table games statement (`getTableGamesStatement`) reports."""
        settings = current_app.extensions["pontoon.settings"]
        asked = ReportQuery.of(query, settings)
        report = period_report(request_uow(), settings, asked)
        if query["format"] == "csv":
            first = asked.first_day
            name = f"tables-{asked.period}-{first.isoformat() + '-' if first else ''}{asked.day.isoformat()}.csv"
            return Response("".join(csv_lines(report)), mimetype="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
        return report
