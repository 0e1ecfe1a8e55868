"""/console/recall (compliance, supervisors): a table's last rounds with every card, decision, bet and
payout; each round's transcript to download; and a re-verification of a round against the ledger."""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from functools import partial

from flask import Blueprint, Response, render_template, request

from ...audit.report import Report
from ...audit.rounds import check_rounds
from ...catalog import approved_paytable
from ...compliance.recall import MAX_ROUNDS, recall
from ...refusals import NotFound
from ...rounds.queries import round_transcript
from ...store.uow import UnitOfWork
from ...web.access import Task
from ...web.request_scope import request_uow
from ..auth import error_page, staff_required

blp = Blueprint("console_recall", __name__, url_prefix="/console")

DEFAULT_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """A round re-verified: its chained records, its events, its replay and the ledger agree, or
    each disagreement found."""

    round_id: str
    status: str
    agrees: bool
    problems: list[str]


@blp.get("/recall")
@staff_required(Task.RECALL_ROUNDS)
def page() -> str | tuple[str, int]:
    return _recall_page(request_uow(), request.args)


@blp.post("/recall/verify")
@staff_required(Task.RECALL_ROUNDS)
def verify() -> str | tuple[str, int]:
    """Re-verify one round, then show the recall it was asked from with the verdict at that round."""
    uow = request_uow()
    try:
        round_id = uuid.UUID(request.form.get("round_id", ""))
    except ValueError:
        return error_page(422, "No such round", "the round to re-verify must be named by its id")
    check = reverify(uow, round_id)
    if check is None:
        return error_page(404, "No such round", f"no round {round_id}")
    return _recall_page(uow, request.form, check)


@blp.get("/recall/rounds/<uuid:round_id>/transcript.json")
@staff_required(Task.RECALL_ROUNDS)
def transcript(round_id: uuid.UUID) -> Response | tuple[str, int]:
    """The round's transcript as the REST API gives it: `pontoon replay FILE` plays a complete one
    to the same money."""
    try:
        body = round_transcript(request_uow(), round_id)
    except NotFound as exc:
        return error_page(404, "No such round", exc.message)
    return Response(json.dumps(body, ensure_ascii=False, indent=2, default=str) + "\n", mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="round-{round_id}.json"'})


def reverify(uow: UnitOfWork, round_id: uuid.UUID) -> RoundCheck | None:
    """The round checked as `pontoon audit verify` checks every round: rebuilt from its chained
    records, compared with its stored events, and, once settled, replayed as settlement does and
    compared bet by bet with the ledger and its payout records. None if there is no such round."""
    facts = uow.audit.round_facts_of(round_id)
    if facts is None:
        return None
    report = Report()
    check_rounds([facts], report, partial(approved_paytable, uow.paytables))
    status = str(facts.status)
    return RoundCheck(str(round_id), status, report.intact, [str(problem) for problem in report.problems])


def _recall_page(uow: UnitOfWork, form, check: RoundCheck | None = None) -> str | tuple[str, int]:
    table_id = (form.get("table") or "").strip()
    last_text = (form.get("last") or str(DEFAULT_ROUNDS)).strip()
    errors: dict[str, str] = {}
    last = int(last_text) if last_text.isascii() and last_text.isdigit() else 0
    if not 1 <= last <= MAX_ROUNDS:
        errors["last"] = f"Enter a whole number of rounds from 1 to {MAX_ROUNDS}."
    recalled = None
    if table_id and not errors:
        try:
            recalled = recall(uow, table_id, last)
        except NotFound:
            errors["table"] = f"There is no table {table_id}."
    tables = [row.table.table_id for row in uow.floor.tables()]
    return render_template("console/recall.html", tables=tables, table_id=table_id, last=last_text, errors=errors,
                           recalled=recalled, check=check), 422 if errors else 200
