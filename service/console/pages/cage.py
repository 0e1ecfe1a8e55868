"""/console/cage (the cage): the fills and credits the tables' supervisors have asked for, to issue
(a fill's chips sent, a credit's taken in), and the gaming day's fills and credits as they stand; a
cashier also voids a mistaken slip with a reason, or confirms another person's void."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ...accounting.commands import IssueChips, VoidSlip
from ...accounting.slips import issue_chips, slips_of_day, void_slip, waiting_for
from ...refusals import CommandRefused
from ...store.repositories.accounting import Capacity
from ...web.access import Task
from ...web.accounting import accounting_policy, capacity_of
from ...web.request_scope import request_uow
from ..auth import current_staff, may, staff_required
from ..commands import carry_out
from .table_chips import field

blp = Blueprint("console_cage", __name__, url_prefix="/console")

Errors = dict[str, list[str]]
MOVES = ("fill", "credit")


def _page(*, status: int = 200, errors: Errors | None = None, typed: dict[str, str] | None = None) -> Any:
    uow = request_uow()
    policy = accounting_policy()
    day = policy.gaming_day()
    waiting = waiting_for(uow, Capacity.CAGE, policy)
    today = [slip for slip in slips_of_day(uow, day) if slip["kind"] in MOVES]
    return render_template("console/cage.html", gaming_day=day, waiting=waiting, today=today, errors=errors or {},
                           typed=typed or {}, can_void=may(Task.VOID_SLIPS)), status


def _done(message: str) -> Response:
    flash(message, "success")
    return redirect(url_for("console_cage.page"), code=303)


@blp.get("/cage")
@staff_required(Task.ISSUE_CHIPS)
def page() -> Any:
    return _page()


@blp.post("/cage/issue")
@staff_required(Task.ISSUE_CHIPS)
def issue() -> Any:
    serial = field("serial")
    try:
        slip = carry_out(issue_chips, IssueChips(serial, current_staff().actor))
    except CommandRefused as refused:
        return _page(status=int(refused.status), errors={serial: [refused.message]})
    sent = "sent to" if slip["kind"] == "fill" else "taken from"
    return _done(f"{slip['serial']} is issued: chips {sent} table {slip['table_id']}, to be received there.")


@blp.post("/cage/void")
@staff_required(Task.ISSUE_CHIPS)
def void() -> Any:
    """A fill's or a credit's void, asked or confirmed by the cage."""
    serial = field("serial")
    staff = current_staff()
    try:
        slip = carry_out(void_slip, VoidSlip(serial, field("reason"), staff.actor, capacity_of(staff.role)))
    except CommandRefused as refused:
        messages = [str(m) for m in (refused.errors or {}).get("reason", [])] or [refused.message]
        return _page(status=int(refused.status), errors={f"reason.{serial}": messages},
                     typed={"serial": serial, "reason": field("reason")})
    words = "voided" if slip["status"] == "voided" else "to be voided: a second person confirms it"
    return _done(f"{slip['serial']} is {words}.")
