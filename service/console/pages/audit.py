"""/console/audit (compliance): search the audit log, export a period of it as JSON lines or CSV
(streamed), and have a worker verify its hash chains and every round against the ledger."""
from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as Redirect

from ...audit.export import FORMATS
from ...audit.jobs import STALE_AFTER, request_verification
from ...audit.report import checked_summary
from ...command_runner import run_command
from ...config import Settings
from ...reports.gaming_day import day_starts_at, parse_day_start
from ...store.repositories.audit_search import AuditHit, AuditSearch
from ...store.repositories.verifications import Verification
from ...web.access import Task
from ...web.audit_export import export_response
from ...web.request_scope import request_uow
from ...web.schemas.base import TABLE_ID_PATTERN
from ..auth import current_staff, error_page, staff_required

blp = Blueprint("console_audit", __name__, url_prefix="/console")

PAGE_SIZE = 50
RECENT_VERIFICATIONS = 5
_TABLE_ID = re.compile(f"^{TABLE_ID_PATTERN}$")
_WORD = re.compile(r"^[A-Za-z0-9_:.@-]{1,200}$")


@dataclass(frozen=True, slots=True)
class Period:
    """Gaming days from `first` to `last`, both included, as the instants they span."""

    since: datetime | None
    until: datetime | None
    first: date | None = None
    last: date | None = None


@blp.get("/audit")
@staff_required(Task.AUDIT)
def page() -> tuple[str, int]:
    args = request.args
    errors: dict[str, str] = {}
    period = _period(args, errors)
    search = AuditSearch(since=period.since, until=period.until, table_id=_table(args, errors),
                         round_id=_round_id(args, errors), kind=_word(args, "kind", errors),
                         actor=_word(args, "actor", errors), before_id=_before(args, errors))
    hits: list[AuditHit] = []
    if not errors:
        hits = request_uow().audit_search.search(search, PAGE_SIZE + 1)
    older = hits[PAGE_SIZE - 1].id if len(hits) > PAGE_SIZE else None
    return _render(search_errors=errors, hits=hits[:PAGE_SIZE], newest_url=_page_url(args, None),
                   older_url=_page_url(args, older) if older is not None else None), 422 if errors else 200


@blp.get("/audit/export")
@staff_required(Task.AUDIT)
def export() -> Response | tuple[str, int]:
    """The period's records streamed as the REST export streams them, the export recorded
    (audit_exported). When the period reaches where records may still be committing it ends
    before, as the Pontoon-Export-Ends header says, so a follow-on export from there misses
    nothing."""
    args = request.args
    errors: dict[str, str] = {}
    period = _period(args, errors)
    table_id = _table(args, errors)
    fmt = args.get("format", "jsonl")
    if fmt not in FORMATS:
        errors["format"] = "Choose JSON lines or CSV."
    uow = request_uow()
    if table_id is not None and "table" not in errors and uow.tables.get(table_id) is None:
        errors["table"] = f"There is no table {table_id}."
    if errors:
        return _render(export_errors=errors), 422
    return export_response(uow, since=period.since, until=period.until, table_id=table_id, fmt=fmt,
                           actor=current_staff().actor, clock_margin=_settings().audit_clock_margin,
                           file_name=export_name(table_id, period.first, period.last))


def export_name(table_id: str | None, first: date | None, last: date | None) -> str:
    """The download's name with its period: audit-2026-11-29 for a gaming day,
    audit-T1-2026-11-01-to-2026-11-29 for one table's days, audit-to-2026-11-29 from the start."""
    if first is not None and first == last:
        span = first.isoformat()
    elif first is not None and last is not None:
        span = f"{first.isoformat()}-to-{last.isoformat()}"
    elif first is not None:
        span = f"from-{first.isoformat()}"
    elif last is not None:
        span = f"to-{last.isoformat()}"
    else:
        span = "whole-log"
    return "-".join(["audit", *([table_id] if table_id else []), span])


@blp.post("/audit/verify")
@staff_required(Task.AUDIT)
def verify() -> Redirect:
    """Ask a worker to verify the whole log (a log of months outlasts a web request), then show
    that verification; asking while one is under way shows that one."""
    uow = request_uow()
    requested = run_command(uow, lambda: request_verification(uow, current_staff().actor))
    if requested.resent:
        flash("A verification was already under way but had shown no progress for a minute: it has been sent to "
              "the workers again.", "warning")
    elif requested.joined:
        flash("A verification was already under way (one runs at a time): this is it.", "info")
    return redirect(url_for(".verification", verification_id=requested.verification.verification_id), 303)


@blp.get("/audit/verifications/<uuid:verification_id>")
@staff_required(Task.AUDIT)
def verification(verification_id: uuid.UUID) -> tuple[str, int]:
    found = request_uow().verifications.get(verification_id)
    if found is None:
        return error_page(404, "No such verification", "There is no verification of the audit log with that id.")
    return _shown("console/audit_verification.html", found), 200


@blp.get("/audit/verifications/<uuid:verification_id>/status")
@staff_required(Task.AUDIT)
def verification_status(verification_id: uuid.UUID) -> tuple[str, int]:
    """The verification's card alone: the page asks for it every few seconds while it is under way."""
    found = request_uow().verifications.get(verification_id)
    if found is None:
        return "", 404
    return _shown("console/_verification.html", found), 200


# ----- helpers --------------------------------------------------------------------------------
def _shown(template: str, found: Verification) -> str:
    checked = checked_summary(found.records, found.chains, found.shoes, found.rounds)
    return render_template(template, verification=found, checked=checked, stale_after=STALE_AFTER)


def _render(**shown: Any) -> str:
    nothing_yet: dict[str, Any] = {"search_errors": {}, "export_errors": {}, "hits": None, "newest_url": None,
                                   "older_url": None}
    recent: list[Verification] = request_uow().verifications.newest(RECENT_VERIFICATIONS)
    return render_template("console/audit.html", args=request.args, page_size=PAGE_SIZE, formats=FORMATS,
                           verifications=recent, **{**nothing_yet, **shown})


def _page_url(args: Mapping[str, str], before: int | None) -> str:
    """This search's page of records older than `before` (the newest page without it)."""
    query: dict[str, Any] = {key: value for key, value in args.items() if key != "before" and value}
    if before is not None:
        query["before"] = before
    return url_for(".page", **query)


def _settings() -> Settings:
    settings: Settings = current_app.extensions["pontoon.settings"]
    return settings


def _period(args: Mapping[str, str], errors: dict[str, str]) -> Period:
    """The gaming days `from` and `to` (both included, either open) as instants: a gaming day runs
    from its start time to the next day's, in the casino's time zone."""
    settings = _settings()
    starts, zone = parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone)
    first, last = _day(args, "from", errors), _day(args, "to", errors)
    if first and last and last < first:
        errors["to"] = "The last gaming day comes before the first: swap them."
    return Period(day_starts_at(first, starts, zone) if first else None,
                  day_starts_at(last + timedelta(days=1), starts, zone) if last else None, first, last)


def _day(args: Mapping[str, str], name: str, errors: dict[str, str]) -> date | None:
    text = (args.get(name) or "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors[name] = "Enter a gaming day as a date, such as 2026-11-27."
        return None


def _table(args: Mapping[str, str], errors: dict[str, str]) -> str | None:
    text = (args.get("table") or "").strip()
    if text and not _TABLE_ID.fullmatch(text):
        errors["table"] = f"There is no table {text[:64]}: a table's name is letters, digits, '.', '_' and '-'."
    return text or None


def _round_id(args: Mapping[str, str], errors: dict[str, str]) -> uuid.UUID | None:
    text = (args.get("round") or "").strip()
    if not text:
        return None
    try:
        return uuid.UUID(text)
    except ValueError:
        errors["round"] = "Enter a round's id in full, such as 3f2a9c1d-5b7e-4c1a-9d2e-0a1b2c3d4e5f."
        return None


def _word(args: Mapping[str, str], name: str, errors: dict[str, str]) -> str | None:
    text = (args.get(name) or "").strip()
    if text and not _WORD.fullmatch(text):
        errors[name] = "Letters, digits and _ : . @ - only, at most 200 of them (an actor is written as staff:alice)."
    return text or None


def _before(args: Mapping[str, str], errors: dict[str, str]) -> int | None:
    text = (args.get("before") or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        errors["before"] = "The page of older records is named by a record's number: go back to the newest."
        return None
    return int(text)
