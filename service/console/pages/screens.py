"""/console/tables/<table_id>/screens (admins, supervisors): enrol a dealer's screen for the table
with a one-time code or link (good for ten minutes), list its screens with when each was last seen
and who enrolled it, and revoke one (a reason, then a confirmation). And a dealer's call for a
supervisor, dismissed by a supervisor with a reason when no void answers it."""
from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...refusals import CommandRefused, NotFound
from ...screens.calls import dismiss_call, open_calls
from ...screens.commands import DismissCall, IssueScreenCode, RevokeScreen
from ...screens.enrolment import issue_code, revoke_screen, screens_of, waiting_codes
from ...staff.policy import StaffPolicy
from ...web.access import Task
from ...web.browser import DEALER_PREFIX
from ...web.request_scope import request_uow
from ..auth import current_staff, error_page, staff_required
from ..commands import carry_out

blp = Blueprint("console_screens", __name__, url_prefix="/console")

FIELD_LIMIT = 1024
Errors = dict[str, list[str]]


def _policy() -> StaffPolicy:
    found: StaffPolicy = current_app.extensions["pontoon.staff_policy"]
    return found


def _field(name: str) -> str:
    return request.form.get(name, "")[:FIELD_LIMIT]


def _errors(refused: CommandRefused, field: str) -> Errors:
    return {name: [str(m) for m in messages] for name, messages in (refused.errors or {}).items()} \
        or {field: [refused.message]}


def _no_table(table_id: str) -> tuple[str, int]:
    return error_page(404, "No such table", f"There is no table {table_id}.")


def _page(table_id: str, *, status: int = 200, **shown: Any) -> tuple[str, int]:
    """The table's screens as they stand, with what a form left to show (a code issued, its errors)."""
    uow = request_uow()
    if uow.tables.get(table_id) is None:
        return _no_table(table_id)
    context: dict[str, Any] = {"issued": None, "enrol_errors": {}, "enrol_form": {}, **shown}
    return render_template("console/table_screens.html", table_id=table_id,
                           screens=screens_of(uow, table_id, _policy()),
                           waiting=waiting_codes(uow, table_id, _policy()), now=datetime.now(UTC), **context), status


@blp.get("/tables/<table_id>/screens")
@staff_required(Task.ENROL_SCREENS)
def page(table_id: str) -> tuple[str, int]:
    return _page(table_id)


@blp.post("/tables/<table_id>/screens")
@staff_required(Task.ENROL_SCREENS)
def enrol(table_id: str) -> tuple[str, int]:
    """A one-time code for a new screen at the table, shown once with its link."""
    form = {"name": _field("name")}
    try:
        issued = carry_out(issue_code, IssueScreenCode(table_id, form["name"], current_staff().actor), _policy())
    except NotFound:
        return _no_table(table_id)
    except CommandRefused as refused:
        return _page(table_id, status=int(refused.status), enrol_errors=_errors(refused, "name"), enrol_form=form)
    # On the public URL where one is set; otherwise on the name this page was asked by (a trusted one).
    site = current_app.extensions["pontoon.settings"].public_url or request.host_url
    link = f"{site.rstrip('/')}{DEALER_PREFIX}/enrol?{urlencode({'code': issued.code})}"
    return _page(table_id, status=201, issued={"name": issued.name, "code": issued.code, "link": link,
                                               "expires_at": issued.expires_at})


def _uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


def _revoke_form(table_id: str, screen_id: uuid.UUID | None, *, step: str, reason: str = "",
                 errors: Errors | None = None, status: int = 200) -> tuple[str, int]:
    screen = next((s for s in screens_of(request_uow(), table_id, _policy()) if s["screen_id"] == screen_id), None)
    if screen is None:
        return error_page(404, "No such screen", f"There is no screen {screen_id} at table {table_id}.")
    return render_template("console/table_screen_revoke.html", table_id=table_id, screen=screen, step=step,
                           reason=reason, errors=errors or {}), status


@blp.get("/tables/<table_id>/screens/<screen_id>/revoke")
@staff_required(Task.ENROL_SCREENS)
def revoke_form(table_id: str, screen_id: str) -> tuple[str, int]:
    return _revoke_form(table_id, _uuid(screen_id), step="reason")


@blp.post("/tables/<table_id>/screens/<screen_id>/revoke")
@staff_required(Task.ENROL_SCREENS)
def revoke(table_id: str, screen_id: str) -> Response | tuple[str, int]:
    """Two steps: the reason, then a confirmation naming the screen and who deals at it; only the
    confirmed form revokes."""
    found = _uuid(screen_id)
    reason = _field("reason").strip()
    if not reason:
        return _revoke_form(table_id, found, step="reason", errors={"reason": ["give a reason (it is kept in the "
                                                                               "audit log)"]}, status=422)
    if request.form.get("confirmed") != "yes":
        return _revoke_form(table_id, found, step="confirm", reason=reason)
    try:
        if found is None:
            raise NotFound(f"no screen {screen_id!r}")
        revoked = carry_out(revoke_screen, RevokeScreen(table_id, found, reason, current_staff().actor))
    except NotFound:
        return error_page(404, "No such screen", f"There is no screen {screen_id} at table {table_id}.")
    except CommandRefused as refused:
        return _revoke_form(table_id, found, step="reason", reason=reason, errors=_errors(refused, "reason"),
                            status=int(refused.status))
    flash(f"Screen {revoked['name']} is revoked: its next click goes to enrolment, and the dealer signed in on it "
          "is signed out.", "success")
    return redirect(url_for("console_screens.page", table_id=table_id), code=303)


# ----- a dealer's call for a supervisor ----------------------------------------------------------
def _call_form(table_id: str, call_id: uuid.UUID | None, *, reason: str = "", errors: Errors | None = None,
               status: int = 200) -> tuple[str, int]:
    call = next((c for c in open_calls(request_uow(), table_id) if c["call_id"] == call_id), None)
    if call is None:
        return error_page(404, "No such call", f"There is no open call for a supervisor {call_id} at table "
                                               f"{table_id}: it may have been answered already.")
    return render_template("console/table_call_dismiss.html", table_id=table_id, call=call, reason=reason,
                           errors=errors or {}), status


@blp.get("/tables/<table_id>/calls/<call_id>/dismiss")
@staff_required(Task.ANSWER_CALLS)
def dismiss_form(table_id: str, call_id: str) -> tuple[str, int]:
    return _call_form(table_id, _uuid(call_id))


@blp.post("/tables/<table_id>/calls/<call_id>/dismiss")
@staff_required(Task.ANSWER_CALLS)
def dismiss(table_id: str, call_id: str) -> Response | tuple[str, int]:
    """Close the call without a void (the dealer dealt on, the dispute settled), with the reason."""
    found = _uuid(call_id)
    reason = _field("reason")
    try:
        if found is None:
            raise NotFound(f"no call {call_id!r}")
        carry_out(dismiss_call, DismissCall(table_id, found, reason, current_staff().actor))
    except NotFound:
        return _call_form(table_id, found)
    except CommandRefused as refused:
        return _call_form(table_id, found, reason=reason, errors=_errors(refused, "reason"), status=int(refused.status))
    flash("The call is dismissed; the dealer's screen no longer shows it.", "success")
    return redirect(url_for("console_tables.page", table_id=table_id), code=303)
