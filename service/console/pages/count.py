"""/console/count (the count team): every table's drop box of a gaming day, and a form per box for
the cash and the markers counted in it. A box's first figures wait for a second counter, who does
not see them; two counters' figures that agree make the count final."""
from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import urlencode

import marshmallow as ma
from flask import Blueprint, flash, redirect, render_template, request, url_for

from ...accounting.commands import EnterCount
from ...accounting.counts import counts_of_day, enter_count
from ...accounting.policy import written_dollars
from ...refusals import CommandRefused
from ...web.access import Task
from ...web.accounting import accounting_policy
from ...web.chips_form import FormProblems, cents_of_dollars
from ...web.request_scope import request_uow
from ...web.schemas.accounting import DayQuerySchema
from ..auth import current_staff, staff_required
from ..commands import carry_out
from .table_chips import field

blp = Blueprint("console_count", __name__, url_prefix="/console")

Errors = dict[str, list[str]]


def day_of(text: str | None) -> tuple[date, Errors]:
    """The gaming day a form or query names (the current one when blank), or why it names none."""
    try:
        checked = DayQuerySchema().load({"gaming_day": text} if text else {})
    except ma.ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {}
        return accounting_policy().gaming_day(), {"gaming_day": [str(m) for m in messages.get("gaming_day", [])]
                                                  or ["a gaming day as YYYY-MM-DD"]}
    day: date = checked.get("gaming_day") or accounting_policy().gaming_day()
    return day, {}


def _page(day: date, *, status: int = 200, errors: Errors | None = None, table_id: str | None = None) -> Any:
    boxes = counts_of_day(request_uow(), day, accounting_policy())
    return render_template("console/count.html", gaming_day=day, boxes=boxes, errors=errors or {},
                           error_table=table_id, typed=request.form if errors else {},
                           me=current_staff().actor), status


@blp.get("/count")
@staff_required(Task.COUNT_DROP)
def page() -> Any:
    day, errors = day_of(request.args.get("gaming_day", "").strip())
    return _page(day, status=422 if errors else 200, errors=errors)


@blp.post("/count")
@staff_required(Task.COUNT_DROP)
def enter() -> Any:
    table_id = field("table_id")
    day, errors = day_of(field("gaming_day"))
    if errors:
        return _page(day, status=422, errors=errors, table_id=table_id)
    try:
        cash = cents_of_dollars(field("cash"), "cash", allow_zero=True)
        markers = cents_of_dollars(field("markers") or "0", "markers", allow_zero=True)
        counted = carry_out(enter_count, EnterCount(table_id, day, cash, markers, current_staff().actor),
                            accounting_policy())
    except FormProblems as problems:
        return _page(day, status=422, errors=problems.problems, table_id=table_id)
    except CommandRefused as refused:
        errors = {str(name): [str(m) for m in messages] for name, messages in (refused.errors or {}).items()}
        return _page(day, status=int(refused.status), errors=errors or {"cash": [refused.message]}, table_id=table_id)
    message = {"entered": "entered: a second counter counts it again",
               "agreed": f"final: two counts agree on {written_dollars(counted['drop'] or 0)}",
               "disagreed": "does not agree with the count before it: a third count settles it"}[counted["outcome"]]
    flash(f"Table {table_id}'s box for {day}: {message}.", "success" if counted["outcome"] != "disagreed" else "error")
    return redirect(url_for("console_count.page") + "?" + urlencode({"gaming_day": day.isoformat()}), code=303)
