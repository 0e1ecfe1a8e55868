"""/console/tables/<table_id>/chips: a table's chips and drop box for the gaming day. Supervisors
count the tray (opener, shift change, closer: the dealer signs it at the table's screen), ask the
cage for fills and send it credits, receive them at the table, sign, void a mistaken slip (a second
person confirms) and record buy-ins; compliance, the cage and the count team read it."""
from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...accounting.buy_ins import buy_ins_of_day, record_buy_in
from ...accounting.commands import CountTray, RecordBuyIn, RequestChips, SignSlip, VoidSlip
from ...accounting.policy import written_dollars
from ...accounting.slips import count_tray, request_chips, sign_slip, slips_of_day, void_slip
from ...refusals import CommandRefused, NotFound
from ...web.access import Task
from ...web.accounting import accounting_policy, capacity_of
from ...web.chips_form import FormProblems, cents_of_dollars, chips_of_form
from ...web.request_scope import request_uow
from ..auth import current_staff, error_page, may, staff_required
from ..commands import carry_out

blp = Blueprint("console_table_chips", __name__, url_prefix="/console")

FIELD_LIMIT = 1024
Errors = dict[str, list[str]]
# The page's forms, each named so its errors and its fields come back to it.
TRAY, CHIPS, SIGN, VOID, BUY_IN = "tray", "chips", "sign", "void", "buy_in"


def field(name: str) -> str:
    return request.form.get(name, "")[:FIELD_LIMIT].strip()


def refusal_errors(refused: CommandRefused, default_field: str) -> Errors:
    """A handler's refusal as messages at the form's fields (chips by their `chips.<cents>` field)."""
    errors: Errors = {}
    for name, messages in (refused.errors or {}).items():
        if isinstance(messages, dict):
            for key, inner in messages.items():
                errors[f"chips.{key}"] = [str(message) for message in inner]
        else:
            errors[str(name)] = [str(message) for message in (messages if isinstance(messages, list) else [messages])]
    return errors or {default_field: [refused.message]}


def denominations() -> list[dict[str, Any]]:
    """The casino's chips, each with its value as it reads and its float in the tray."""
    policy = accounting_policy()
    return [{"cents": cents, "shown": written_dollars(cents), "float": policy.float_chips.get(cents, 0)}
            for cents in policy.denominations]


def _may() -> dict[str, bool]:
    return {"can_count": may(Task.COUNT_TRAYS), "can_request": may(Task.REQUEST_CHIPS),
            "can_sign": may(Task.SIGN_SLIPS), "can_void": may(Task.VOID_SLIPS),
            "can_buy_in": may(Task.RECORD_BUY_INS)}


def _page(table_id: str, *, status: int = 200, form: str | None = None, errors: Errors | None = None) -> Any:
    uow = request_uow()
    table = uow.tables.get(table_id)
    if table is None:
        return error_page(404, "No such table", f"There is no table {table_id}.")
    day: date = accounting_policy().gaming_day()
    slips = slips_of_day(uow, day, table_id)
    return render_template("console/table_chips.html", table=table, gaming_day=day, slips=slips,
                           buy_ins=buy_ins_of_day(uow, day, table_id), denominations=denominations(),
                           form_name=form, errors=errors or {}, typed=request.form if errors else {},
                           **_may()), status


def _done(table_id: str, message: str) -> Response:
    flash(message, "success")
    return redirect(url_for("console_table_chips.page", table_id=table_id), code=303)


def _slip_refused(table_id: str, form: str, refused: CommandRefused, default_field: str) -> Any:
    """A slip's form refused: an unknown table is a page of its own; a slip it replaces that was not
    found is told at that field; anything else at the field the refusal names, or `default_field`."""
    if isinstance(refused, NotFound):
        if refused.code == "table_not_found":
            return error_page(404, "No such table", f"There is no table {table_id}.")
        default_field = "replaces"
    return _page(table_id, status=int(refused.status), form=form, errors=refusal_errors(refused, default_field))


@blp.get("/tables/<table_id>/chips")
@staff_required(Task.SEE_SLIPS)
def page(table_id: str) -> Any:
    return _page(table_id)


@blp.post("/tables/<table_id>/chips/tray")
@staff_required(Task.COUNT_TRAYS)
def tray(table_id: str) -> Any:
    """The tray counted by denomination: the supervisor signs it as it is written."""
    try:
        chips = chips_of_form(request.form, accounting_policy().denominations)
        staff = current_staff()
        slip = carry_out(count_tray, CountTray(table_id, field("kind"), chips, staff.actor, capacity_of(staff.role),
                                               replaces=field("replaces") or None), accounting_policy())
    except FormProblems as problems:
        return _page(table_id, status=422, form=TRAY, errors=problems.problems)
    except CommandRefused as refused:
        return _slip_refused(table_id, TRAY, refused, "kind")
    return _done(table_id, f"{slip['serial']}: the {slip['kind'].replace('_', ' ')} is written, "
                           f"{written_dollars(slip['total'])}. The dealer signs it at the table's screen.")


@blp.post("/tables/<table_id>/chips/request")
@staff_required(Task.REQUEST_CHIPS)
def request_slip(table_id: str) -> Any:
    """A fill asked of the cage, or a credit sent to it."""
    try:
        chips = chips_of_form(request.form, accounting_policy().denominations)
        slip = carry_out(request_chips, RequestChips(table_id, field("kind"), chips, current_staff().actor,
                                                     replaces=field("replaces") or None), accounting_policy())
    except FormProblems as problems:
        return _page(table_id, status=422, form=CHIPS, errors=problems.problems)
    except CommandRefused as refused:
        return _slip_refused(table_id, CHIPS, refused, "chips")
    return _done(table_id, f"{slip['serial']}: the {slip['kind']} of {written_dollars(slip['total'])} waits for the "
                           "cage.")


@blp.post("/tables/<table_id>/chips/sign")
@staff_required(Task.SIGN_SLIPS)
def sign(table_id: str) -> Any:
    """A supervisor's signature on a tray's count, or their receipt of a fill or a credit."""
    serial = field("serial")
    staff = current_staff()
    try:
        slip = carry_out(sign_slip, SignSlip(serial, staff.actor, capacity_of(staff.role), table_id))
    except CommandRefused as refused:
        return _page(table_id, status=int(refused.status), form=SIGN, errors={serial: [refused.message]})
    return _done(table_id, f"{slip['serial']} is signed ({slip['status'].replace('_', ' ')}).")


@blp.post("/tables/<table_id>/chips/void")
@staff_required(Task.VOID_SLIPS)
def void(table_id: str) -> Any:
    """A mistaken slip voided with a reason: asked here, confirmed by a second person."""
    serial = field("serial")
    staff = current_staff()
    try:
        found = slips_of_day(request_uow(), accounting_policy().gaming_day(), table_id)
        if serial not in {slip["serial"] for slip in found}:
            raise NotFound(f"no slip {serial} at table {table_id} today", code="slip_not_found")
        slip = carry_out(void_slip, VoidSlip(serial, field("reason"), staff.actor, capacity_of(staff.role)))
    except CommandRefused as refused:
        return _page(table_id, status=int(refused.status), form=VOID,
                     errors={f"reason.{serial}": [str(m) for m in (refused.errors or {}).get("reason", [])]
                             or [refused.message]})
    words = "voided" if slip["status"] == "voided" else "to be voided: a second person confirms it"
    return _done(table_id, f"{slip['serial']} is {words}.")


@blp.post("/tables/<table_id>/buy-ins")
@staff_required(Task.RECORD_BUY_INS)
def buy_in(table_id: str) -> Any:
    """A seat's buy-in: cash or a marker into the box, chips out of the tray."""
    try:
        seat_text = field("seat")
        if not (seat_text.isascii() and seat_text.isdigit()):
            raise FormProblems({"seat": ["the seat's number"]})
        amount = cents_of_dollars(field("amount"), "amount")
        bought = carry_out(record_buy_in, RecordBuyIn(table_id, int(seat_text), amount, field("method") or "cash",
                                                      current_staff().actor), accounting_policy())
    except FormProblems as problems:
        return _page(table_id, status=422, form=BUY_IN, errors=problems.problems)
    except NotFound:
        return error_page(404, "No such table", f"There is no table {table_id}.")
    except CommandRefused as refused:
        return _page(table_id, status=int(refused.status), form=BUY_IN, errors=refusal_errors(refused, "amount"))
    return _done(table_id, f"Seat {bought['seat']} bought in for {written_dollars(bought['amount'])} "
                           f"({bought['method']}).")
