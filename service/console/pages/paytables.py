"""/console/paytables: paytables and their versions; an operator drafts a version as YAML and sees
each bad field at its line, the draft's difference from the version in force and its house edge as
a worker measures it, and another operator approves or rejects it once it is measured."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from http import HTTPStatus

import yaml
from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...operators import evaluation_jobs
from ...operators import paytables as handlers
from ...operators.commands import DecidePaytableVersion, EvaluatePaytableVersion, SubmitPaytableVersion
from ...refusals import CommandRefused, Invalid, NotFound
from ...staff.confirmation import Confirmation
from ...staff.people import one_pair_of_eyes
from ...store.repositories.evaluations import UNDER_WAY
from ...store.repositories.paytables import VersionRow, VersionStatus
from ...store.uow import UnitOfWork
from ...web.access import Task
from ...web.request_scope import request_uow
from ...web.schemas.paytables import DecisionSchema, SubmitVersionSchema
from ..auth import current_staff, error_page, is_htmx, may, policy, staff_required
from ..commands import carry_out
from ..fields import Most, one_each, reason_problem, too_long

blp = Blueprint("console_paytables", __name__, url_prefix="/console")

DECISIONS = {"approve": VersionStatus.APPROVED, "reject": VersionStatus.REJECTED}
_VERSION_LINE = re.compile(r"^version:.*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class DiffLine:
    """A line of the difference between two versions' YAML: added, removed, unchanged, or a hunk's
    header (where in each text the lines below lie)."""

    kind: str        # added | removed | same | hunk
    text: str


@dataclass(frozen=True, slots=True)
class FieldError:
    field: str
    message: str


# ----- pages ----------------------------------------------------------------------------------
@blp.get("/paytables")
@staff_required(Task.SEE_PAYTABLES)
def page() -> str:
    return render_template("console/paytables.html", paytables=handlers.list_paytables(request_uow()),
                           may_draft=may(Task.CHANGE_PAYTABLES))


@blp.get("/paytables/<name>/draft")
@staff_required(Task.CHANGE_PAYTABLES)
def draft(name: str) -> str | tuple[str, int]:
    uow = request_uow()
    try:
        versions = handlers.list_versions(uow, name)
    except NotFound as exc:
        return error_page(404, "No such paytable", exc.message)
    in_force = uow.paytables.latest_approved(name)
    next_version = max(v["version"] for v in versions["versions"]) + 1
    text = _VERSION_LINE.sub(f"version: {next_version}", version_text(in_force), count=1) if in_force else ""
    return render_template("console/paytable_draft.html", name=name, next_version=next_version, in_force=in_force,
                           text=text, reason="", **_located([], {}))


@blp.post("/paytables/<name>/draft")
@staff_required(Task.CHANGE_PAYTABLES)
def submit(name: str) -> Response | tuple[str, int]:
    uow = request_uow()
    text, reason = request.form.get("yaml", ""), request.form.get("reason", "")
    refused = _form_problems(reason, text) or SubmitVersionSchema().validate({"yaml": text, "reason": reason})
    in_force = uow.paytables.latest_approved(name)
    if not refused and in_force is not None and same_paytable(text, version_text(in_force)):
        refused = {"yaml": [f"No change: this says what version {in_force.version}, the latest approved version, says. "
                            "Change a line before submitting a draft."]}
    locations: dict[str, dict[str, int]] = {}
    if not refused:
        try:
            submitted = carry_out(handlers.submit_version,
                                  SubmitPaytableVersion(name, reason, current_staff().actor, yaml_text=text))
        except NotFound as exc:
            return error_page(404, "No such paytable", exc.message)
        except Invalid as exc:
            refused, locations = dict(exc.errors or {}), exc.locations or {}
        else:
            flash(f"Version {submitted['version']} of {name} is submitted as a draft: another operator must "
                  "approve it before a table can use it.", "success")
            return redirect(url_for(".version", name=name, version=submitted["version"]), 303)
    latest = uow.paytables.latest_number(name)
    return render_template("console/paytable_draft.html", name=name, next_version=(latest or 0) + 1,
                           in_force=in_force, text=text, reason=reason,
                           **_located(_field_errors(refused), locations, text)), 422


@blp.get("/paytables/<name>/<int:version>")
@staff_required(Task.SEE_PAYTABLES)
def version(name: str, version: int) -> str | tuple[str, int]:
    return _version_page(request_uow(), name, version)


@blp.get("/paytables/<name>/<int:version>/evaluation")
@staff_required(Task.SEE_PAYTABLES)
def evaluation(name: str, version: int) -> str | tuple[str, int]:
    """Where the version's evaluation stands: a fragment the version page asks for every two
    seconds while a worker has it (htmx), and a page of its own for a link followed without htmx."""
    uow = request_uow()
    row = uow.paytables.get(name, version)
    if row is None:
        return error_page(404, "No such version", f"no version {version} of paytable {name!r}")
    template = "console/_paytable_evaluation.html" if is_htmx() else "console/paytable_evaluation.html"
    return render_template(template, row=row, measurement=_measurement(uow, row),
                           may_ask=may(Task.CHANGE_PAYTABLES))


@blp.post("/paytables/<name>/<int:version>/evaluation")
@staff_required(Task.CHANGE_PAYTABLES)
def ask_for_evaluation(name: str, version: int) -> Response | tuple[str, int]:
    """Ask a worker to measure the version: one never measured (seeded from its file), failed, or
    lost on its way. One under way or done stands."""
    try:
        carry_out(evaluation_jobs.evaluate_version, EvaluatePaytableVersion(name, version, current_staff().actor))
    except NotFound as exc:
        return error_page(404, "No such version", exc.message)
    return redirect(url_for(".version", name=name, version=version) + "#house-edge", 303)


@blp.post("/paytables/<name>/<int:version>/decision")
@staff_required(Task.CHANGE_PAYTABLES)
def decide(name: str, version: int) -> Response | tuple[str, int]:
    uow = request_uow()
    decision = DECISIONS.get(request.form.get("decision", ""))
    reason = request.form.get("reason", "")
    refused = _form_problems(reason) or DecisionSchema().validate({"reason": reason})
    if decision is None:
        refused["decision"] = ["must be approve or reject"]
    if decision is None or refused:
        return _version_page(uow, name, version, field_errors=_field_errors(refused), reason=reason,
                             status=HTTPStatus.UNPROCESSABLE_ENTITY)
    if decision == VersionStatus.APPROVED and not request.form.get("password", ""):
        return _version_page(uow, name, version, reason=reason, status=HTTPStatus.UNPROCESSABLE_ENTITY,
                             field_errors=[FieldError("password", "Your password, to confirm it is you approving.")])
    confirmation = (Confirmation(request.form.get("password", "")[:1024], request.form.get("totp", "")[:16],
                                 request.remote_addr) if decision == VersionStatus.APPROVED else None)
    try:
        carry_out(handlers.decide_version,
                  DecidePaytableVersion(name, version, decision, reason, current_staff().actor, confirmation),
                  policy())
    except CommandRefused as exc:
        return _version_page(uow, name, version, refusal=exc.message, reason=reason, status=exc.status,
                             field_errors=_field_errors(exc.errors or {}))
    flash(f"Version {version} of {name} is {decision}.", "success")
    return redirect(url_for(".version", name=name, version=version), 303)


# ----- helpers --------------------------------------------------------------------------------
def _version_page(uow: UnitOfWork, name: str, version: int, *, field_errors: list[FieldError] | None = None,
                  refusal: str | None = None, reason: str = "", status: int = 200) -> tuple[str, int]:
    try:
        view = handlers.version(uow, name, version)
    except NotFound as exc:
        return error_page(404, "No such version", exc.message)
    row = uow.paytables.get(name, version)
    if row is None:   # cannot be: the view was just read from it, in the same transaction
        return error_page(404, "No such version", f"no version {version} of paytable {name!r}")
    in_force = uow.paytables.latest_approved(name)
    staff = current_staff()
    compared = in_force if in_force is not None and in_force.version != version else None
    evaluation = (_evaluation_view(view["house_edge_percent"], view["rtp_percent"], view["evaluation"] or {})
                  if view["house_edge_percent"] is not None else None)
    return render_template(
        "console/paytable_version.html", view=view, row=row, in_force=in_force, compared=compared,
        diff=line_diff(version_text(compared), version_text(row)) if compared else [],
        evaluation=evaluation, measurement=None if evaluation else _measurement(uow, row),
        may_ask=may(Task.CHANGE_PAYTABLES), may_decide=may(Task.CHANGE_PAYTABLES) and row.status == VersionStatus.DRAFT,
        own_draft=one_pair_of_eyes(uow, row.author, staff.actor),
        field_errors={e.field: e.message for e in field_errors or []},
        refusal=refusal, reason=reason), status


def version_text(row: VersionRow) -> str:
    """A version as YAML: as its author wrote it, or its content written out when it was sent as JSON."""
    if row.source_format in ("yaml", "file"):
        return row.source
    return yaml.safe_dump(row.content, sort_keys=False, allow_unicode=True)


def same_paytable(text: str, approved: str) -> bool:
    """Whether a draft says what the approved version says, whatever its comments, layout or version
    number (False when either is not YAML at all: the draft's checks say what is wrong)."""
    try:
        draft, kept = yaml.safe_load(text), yaml.safe_load(approved)
    except yaml.YAMLError:
        return False
    if not isinstance(draft, dict) or not isinstance(kept, dict):
        return False
    return {k: v for k, v in draft.items() if k != "version"} == {k: v for k, v in kept.items() if k != "version"}


def line_diff(before: str, after: str) -> list[DiffLine]:
    """The lines that differ between two texts, with three unchanged lines around each change."""
    lines = []
    for text in list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=3))[2:]:
        kind = {"+": "added", "-": "removed", "@": "hunk"}.get(text[:1], "same")
        lines.append(DiffLine(kind, text if kind == "hunk" else text[1:]))
    return lines


def _form_problems(reason: str, text: str | None = None) -> dict[str, list[str]]:
    """The form's own fields checked first, each with one message in the reader's words: the reason,
    and the paytable's text when there is one (empty, or longer than a paytable may be)."""
    problems: dict[str, list[str]] = {}
    if (problem := reason_problem(reason, "the reason for the change")) is not None:
        problems["reason"] = [problem]
    if text is not None and not text.strip():
        problems["yaml"] = ["Write the paytable here: the version in force is filled in to start from."]
    elif text is not None and (problem := too_long(text, Most.PAYTABLE)) is not None:
        problems["yaml"] = [problem]
    return problems


def _field_errors(errors: dict) -> list[FieldError]:
    """Field errors as marshmallow or a refused command gives them ({field: [messages]}), flat, one
    message for each field."""
    return [FieldError(field, messages[0]) for field, messages in one_each(errors).items()]


def _located(errors: list[FieldError], locations: dict[str, dict[str, int]], text: str = "") -> dict:
    """The template's view of a refused draft: the submitted text's lines, the errors at each line
    (by the line the document writes the field on), the form's own fields' errors, and the rest."""
    at_line: dict[int, list[FieldError]] = {}
    form_fields: dict[str, str] = {}
    elsewhere: list[FieldError] = []
    for error in errors:
        where = locations.get(error.field)
        if where is not None:
            at_line.setdefault(where["line"], []).append(error)
        elif error.field in ("reason", "yaml"):
            form_fields.setdefault(error.field, error.message)
        else:
            elsewhere.append(error)
    return {"lines": text.splitlines(), "at_line": at_line, "form_errors": form_fields, "elsewhere": elsewhere}


def _measurement(uow: UnitOfWork, row: VersionRow) -> dict:
    """The version's evaluation as it stands, with its figures in the form the analysis fragment
    shows them once it is done, and whether it has gone quiet for longer than a live one would."""
    found = evaluation_jobs.evaluation_of(uow, row.name, row.version)
    figures = (_evaluation_view(found["house_edge_percent"], found["rtp_percent"], found["detail"] or {})
               if found["house_edge_percent"] is not None else None)
    under_way = found["status"] in UNDER_WAY
    return {**found, "figures": figures, "under_way": under_way,
            "stalled": under_way and found["quiet_for"] > evaluation_jobs.STALE_AFTER}


def _evaluation_view(house_edge: float, rtp: float, detail: dict) -> dict:
    """House edge, RTP, each paid line above even money with the points it adds to the RTP and its
    share of the RTP, and each side bet's exact house edge on its own stake."""
    lines = [{**line, "share_of_rtp_percent": line["contribution_percent"] / rtp * 100 if rtp else None}
             for line in detail.get("bonus_lines", [])]
    return {"house_edge_percent": house_edge, "rtp_percent": rtp, "lines": lines,
            "rounds": detail.get("rounds"), "standard_error": detail.get("house_edge_se_percent"),
            "rules": detail.get("rules"), "side_bets": detail.get("side_bets") or {}}
