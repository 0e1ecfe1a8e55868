"""/console/tables/<table_id>: one table live, a supervisor's void and an operator's paytable assignment."""
from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import marshmallow as ma
from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...compliance.commands import VoidRound
from ...compliance.void import void_round
from ...config import Settings
from ...operators.commands import AssignPaytable
from ...operators.paytables import assign_paytable
from ...refusals import CommandRefused, NotFound
from ...web.access import Task
from ...web.request_scope import request_uow
from ...web.schemas.paytables import AssignPaytableSchema
from ...web.schemas.voids import VoidRoundSchema
from ..auth import current_staff, error_page, may, staff_required
from ..commands import carry_out
from ..queries.table import ledger_lines, round_on_table, stakes_on_table, table_page

blp = Blueprint("console_tables", __name__, url_prefix="/console", template_folder="../templates")

Errors = dict[str, list[str]]


def _settings() -> Settings:
    settings: Settings = current_app.extensions["pontoon.settings"]
    return settings


def _may() -> dict[str, bool]:
    """What the signed-in person may do here: void the round in play, assign an approved paytable,
    answer a dealer's call for a supervisor, enrol and revoke the table's screens."""
    return {"can_void": may(Task.VOID_ROUNDS), "can_assign": may(Task.CHANGE_PAYTABLES),
            "can_answer_calls": may(Task.ANSWER_CALLS), "can_enrol_screens": may(Task.ENROL_SCREENS),
            "can_see_chips": may(Task.SEE_SLIPS)}


def _page(table_id: str, *, status: int = 200, assign_errors: Errors | None = None,
          assign_form: dict[str, str] | None = None) -> tuple[str, int]:
    try:
        shown = table_page(request_uow(), _settings(), table_id)
    except NotFound:
        return _no_table(table_id)
    return render_template("console/table.html", page=shown, updated_at=datetime.now(UTC),
                           assign_errors=assign_errors or {}, assign_form=assign_form or {}, **_may()), status


@blp.get("/tables/<table_id>")
@staff_required(Task.SEE_TABLES)
def page(table_id: str) -> tuple[str, int]:
    return _page(table_id)


@blp.get("/tables/<table_id>/live")
@staff_required(Task.SEE_TABLES)
def live(table_id: str) -> str | tuple[str, int]:
    """The round in play, the day's figures and the last rounds, for the page's own polling."""
    try:
        shown = table_page(request_uow(), _settings(), table_id, with_paytable=False)
    except NotFound:
        return _no_table(table_id)
    return render_template("console/_table_live.html", page=shown, updated_at=datetime.now(UTC), **_may())


def _refusal(exc: CommandRefused, field: str) -> tuple[Errors, int]:
    """A handler's refusal as messages next to the form's fields (its own field errors where it
    names them, else the message against `field`), with the status the REST API would answer."""
    errors = {name: [str(m) for m in (messages if isinstance(messages, list) else [messages])]
              for name, messages in (exc.errors or {}).items()}
    return errors or {field: [exc.message]}, exc.status


# ----- void (supervisor) ------------------------------------------------------------------------
def _void_form(table_id: str, round_id: uuid.UUID, *, step: str, reason: str = "", errors: Errors | None = None,
               status: int = 200) -> tuple[str, int]:
    uow = request_uow()
    try:
        shown = round_on_table(uow, table_id, round_id)
    except NotFound:
        return error_page(404, "No such round", f"There is no round {round_id} at table {table_id}.")
    return render_template("console/table_void.html", table_id=table_id, round=shown, step=step, reason=reason,
                           errors=errors or {}, stakes=stakes_on_table(shown.state)), status


def _round_id(raw: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(raw or "")
    except ValueError:
        return None


def _no_table(table_id: str) -> tuple[str, int]:
    return error_page(404, "No such table", f"There is no table {table_id}.")


def _no_round() -> tuple[str, int]:
    return error_page(404, "No such round", "The form names no round of this table.")


@blp.get("/tables/<table_id>/void")
@staff_required(Task.VOID_ROUNDS)
def void_form(table_id: str) -> tuple[str, int]:
    round_id = _round_id(request.args.get("round"))
    return _no_round() if round_id is None else _void_form(table_id, round_id, step="reason")


@blp.post("/tables/<table_id>/void")
@staff_required(Task.VOID_ROUNDS)
def void(table_id: str) -> tuple[str, int]:
    """Two steps: the reason, checked, then a confirmation naming the round and its stakes; only
    the confirmed form voids."""
    round_id = _round_id(request.form.get("round_id"))
    if round_id is None:
        return _no_round()
    reason = request.form.get("reason", "")
    try:
        checked = VoidRoundSchema().load({"reason": reason})
    except ma.ValidationError as exc:
        return _void_form(table_id, round_id, step="reason", reason=reason, errors=_messages(exc), status=422)
    if request.form.get("confirmed") != "yes":
        return _void_form(table_id, round_id, step="confirm", reason=reason)
    try:
        round_on_table(request_uow(), table_id, round_id)   # only this table's round, whatever the form says
        voided = carry_out(void_round, VoidRound(round_id, checked["reason"], current_staff().actor))
    except CommandRefused as exc:
        errors, status = _refusal(exc, "round")
        return _void_form(table_id, round_id, step="reason", reason=reason, errors=errors, status=status)
    return render_template("console/table_voided.html", table_id=table_id, voided=voided,
                           ledger=ledger_lines(request_uow(), round_id)), 200


def _messages(exc: ma.ValidationError) -> Errors:
    messages = exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}
    return {str(name): [str(m) for m in (value if isinstance(value, list) else [value])]
            for name, value in messages.items()}


# ----- paytable assignment (operator) -----------------------------------------------------------
@blp.post("/tables/<table_id>/paytable")
@staff_required(Task.CHANGE_PAYTABLES)
def assign(table_id: str) -> Response | tuple[str, int]:
    form = {"version": request.form.get("version", ""), "reason": request.form.get("reason", "")}
    body: dict[str, Any] = {"reason": form["reason"]}
    if form["version"].strip().isascii() and form["version"].strip().isdigit():
        body["version"] = int(form["version"])
    else:
        body["version"] = form["version"] or None
    try:
        checked = AssignPaytableSchema().load(body)
    except ma.ValidationError as exc:
        return _page(table_id, status=422, assign_errors=_messages(exc), assign_form=form)
    try:
        carry_out(assign_paytable, AssignPaytable(table_id, checked["version"], checked["reason"],
                                                  current_staff().actor))
    except CommandRefused as exc:
        if isinstance(exc, NotFound):
            return _no_table(table_id)
        errors, status = _refusal(exc, "version")
        return _page(table_id, status=status, assign_errors=errors, assign_form=form)
    flash(f"Version {checked['version']} of the paytable is assigned to table {table_id} from its next round.",
          "success")
    return redirect(url_for("console_tables.page", table_id=table_id), code=303)
