"""/console/statement (compliance, finance's readers, supervisors, operators): the table games
statement of a gaming day per table, shift and for the floor, beside the rounds' game win, with
each flagged table's reasons; its CSV; and, for compliance, its issue into the audit log."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for

from ...accounting.commands import IssueStatement
from ...accounting.statement import issue_statement, table_games_statement
from ...reports.table_games import csv_lines
from ...web.access import Task
from ...web.accounting import accounting_policy
from ...web.request_scope import request_uow
from ..auth import current_staff, may, staff_required
from ..commands import carry_out
from .count import day_of
from .table_chips import field

blp = Blueprint("console_statement", __name__, url_prefix="/console")


@blp.get("/statement")
@staff_required(Task.READ_STATEMENT)
def page() -> Any:
    day, errors = day_of(request.args.get("gaming_day", "").strip())
    statement = None if errors else table_games_statement(request_uow(), accounting_policy(), day)
    return render_template("console/statement.html", gaming_day=day, errors=errors, statement=statement,
                           csv_url=url_for("console_statement.csv") + "?" + urlencode({"gaming_day": day.isoformat()}),
                           can_issue=may(Task.ISSUE_STATEMENT)), 422 if errors else 200


@blp.get("/statement.csv")
@staff_required(Task.READ_STATEMENT)
def csv() -> Response:
    """The statement as the REST API's CSV: each table's day and shifts, a FLOOR line, in cents."""
    day, errors = day_of(request.args.get("gaming_day", "").strip())
    if errors:
        return Response("gaming_day: " + " ".join(errors["gaming_day"]) + "\n", status=422, mimetype="text/plain")
    statement = table_games_statement(request_uow(), accounting_policy(), day)
    return Response("".join(csv_lines(statement)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="table-games-{day}.csv"'})


@blp.post("/statement/issue")
@staff_required(Task.ISSUE_STATEMENT)
def issue() -> Any:
    day, errors = day_of(field("gaming_day"))
    if errors:
        flash("The statement names no gaming day: " + " ".join(errors["gaming_day"]), "error")
        return redirect(url_for("console_statement.page"), code=303)
    carry_out(issue_statement, IssueStatement(day, current_staff().actor), accounting_policy())
    flash(f"The statement of gaming day {day} is issued into the audit log.", "success")
    return redirect(url_for("console_statement.page") + "?" + urlencode({"gaming_day": day.isoformat()}), code=303)
