"""/console/tables/<table_id>: one table live, a supervisor's void, an operator's paytable assignment and
changes of its rules under four eyes."""
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
from ...operators import table_rules
from ...operators.commands import AssignPaytable, DecideTableRules, ProposeTableRules
from ...operators.paytables import assign_paytable
from ...refusals import CommandRefused, NotFound
from ...store.repositories.table_rules import RulesChangeStatus
from ...web.access import Task
from ...web.request_scope import request_uow
from ...web.schemas.paytables import AssignPaytableSchema, DecisionSchema, ProposeTableRulesSchema
from ...web.schemas.voids import VoidRoundSchema
from ..auth import current_staff, error_page, may, staff_required
from ..commands import carry_out
from ..fields import one_each, reason_problem
from ..queries.table import ledger_lines, round_on_table, stakes_on_table, table_page

blp = Blueprint("console_tables", __name__, url_prefix="/console", template_folder="../templates")

Errors = dict[str, list[str]]


def _settings() -> Settings:
    settings: Settings = current_app.extensions["pontoon.settings"]
    return settings


def _may() -> dict[str, bool]:
    """What the signed-in person may do here: void the round in play, assign an approved paytable,
    answer a dealer's call for a supervisor, enrol and revoke the table's screens, propose or decide a
    change of the table's rules."""
    return {"can_void": may(Task.VOID_ROUNDS), "can_assign": may(Task.CHANGE_PAYTABLES),
            "can_answer_calls": may(Task.ANSWER_CALLS), "can_enrol_screens": may(Task.ENROL_SCREENS),
            "can_change_rules": may(Task.CHANGE_TABLE_RULES), "can_see_chips": may(Task.SEE_SLIPS)}


def _page(table_id: str, *, status: int = 200, assign_errors: Errors | None = None,
          assign_form: dict[str, str] | None = None, rules_errors: Errors | None = None,
          rules_form: dict[str, str] | None = None) -> tuple[str, int]:
    try:
        shown = table_page(request_uow(), _settings(), table_id)
    except NotFound:
        return _no_table(table_id)
    return render_template("console/table.html", page=shown, updated_at=datetime.now(UTC),
                           assign_errors=assign_errors or {}, assign_form=assign_form or {},
                           rules_errors=rules_errors or {}, rules_form=rules_form or {},
                           me=current_staff().actor, **_may()), status


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
    return one_each(exc.errors or {}) or {field: [exc.message]}, exc.status


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
    if (problem := reason_problem(reason)) is not None:
        return _void_form(table_id, round_id, step="reason", reason=reason, errors={"reason": [problem]}, status=422)
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
    return one_each(messages)


# ----- paytable assignment (operator) -----------------------------------------------------------
@blp.post("/tables/<table_id>/paytable")
@staff_required(Task.CHANGE_PAYTABLES)
def assign(table_id: str) -> Response | tuple[str, int]:
    form = {"version": request.form.get("version", ""), "reason": request.form.get("reason", "")}
    if (problem := reason_problem(form["reason"])) is not None:
        return _page(table_id, status=422, assign_errors={"reason": [problem]}, assign_form=form)
    version = form["version"].strip()
    if not (version.isascii() and version.isdigit() and 1 <= len(version) <= 7):
        return _page(table_id, status=422, assign_errors={"version": ["Choose an approved version from the list."]},
                     assign_form=form)
    body: dict[str, Any] = {"reason": form["reason"], "version": int(version)}
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


# ----- the table's rules (operators, four eyes) ------------------------------------------------
@blp.post("/tables/<table_id>/rules")
@staff_required(Task.CHANGE_TABLE_RULES)
def propose_rules(table_id: str) -> Response | tuple[str, int]:
    """Propose another rules file of the table's game; another operator approves it."""
    form = {"rules": request.form.get("rules", ""), "reason": request.form.get("reason", "")}
    try:
        checked = ProposeTableRulesSchema().load(form)
    except ma.ValidationError as exc:
        return _page(table_id, status=422, rules_errors=_messages(exc), rules_form=form)
    try:
        carry_out(table_rules.propose_rules, ProposeTableRules(table_id, checked["rules"], checked["reason"],
                                                               current_staff().actor))
    except CommandRefused as exc:
        if isinstance(exc, NotFound):
            return _no_table(table_id)
        errors, status = _refusal(exc, "rules")
        return _page(table_id, status=status, rules_errors=errors, rules_form=form)
    flash(f"The change to {checked['rules']} is proposed: another operator approves it, and it applies when "
          "the table's next shoe opens.", "success")
    return redirect(url_for("console_tables.page", table_id=table_id), code=303)


@blp.post("/tables/<table_id>/rules/<int:change_id>/decision")
@staff_required(Task.CHANGE_TABLE_RULES)
def decide_rules(table_id: str, change_id: int) -> Response | tuple[str, int]:
    """Approve (not one's own proposal) or reject a change waiting for the table."""
    decision = {"approve": RulesChangeStatus.APPROVED, "reject": RulesChangeStatus.REJECTED}.get(
        request.form.get("decision", ""))
    form = {"decision_reason": request.form.get("reason", "")}
    if decision is None:
        return _page(table_id, status=422, rules_errors={"decision": ["approve or reject"]}, rules_form=form)
    try:
        checked = DecisionSchema().load({"reason": form["decision_reason"]})
    except ma.ValidationError as exc:
        return _page(table_id, status=422, rules_errors={"decision_reason": _messages(exc).get("reason", [])},
                     rules_form=form)
    try:
        carry_out(table_rules.decide_rules, DecideTableRules(table_id, change_id, decision, checked["reason"],
                                                             current_staff().actor))
    except CommandRefused as exc:
        if isinstance(exc, NotFound):
            return error_page(404, "No such change", f"Table {table_id} has no rules change {change_id}.")
        errors, status = _refusal(exc, "decision")
        return _page(table_id, status=status, rules_errors=errors, rules_form=form)
    flash(f"Rules change {change_id} is {decision}"
          + (": it applies when the table's next shoe opens." if decision == RulesChangeStatus.APPROVED else "."),
          "success")
    return redirect(url_for("console_tables.page", table_id=table_id), code=303)
