"""/console/access (admins): staff accounts (create, deactivate, reset a password or a dealer's PIN,
change a role), API keys (issue a table's terminal key, shown once; revoke), and the access review
of every account and key, as a page and as CSV."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request
from werkzeug.wrappers import Response

from ...operators.commands import CreateKey, RevokeKey
from ...operators.keys import access_list, create_key, revoke_key
from ...refusals import CommandRefused
from ...roles import CONSOLE_ROLES, STAFF_ROLES, Role
from ...staff.accounts import change_role, create_staff, deactivate_staff, list_staff, reset_password
from ...staff.commands import ChangeRole, CreateStaff, DeactivateStaff, ResetPassword
from ...web.access import Task
from ...web.request_scope import request_uow
from ..auth import current_staff, error_page, staff_required
from ..commands import carry_out
from ..fields import Most, one_each, over_limits, reason_problem

blp = Blueprint("console_access", __name__, url_prefix="/console")

REVIEW_COLUMNS = ("kind", "id", "name", "owner", "role", "table_id", "status", "created_at", "created_by",
                  "last_used_at", "ended_at")


def _field(name: str) -> str:
    return request.form.get(name, "").strip()


def _field_errors(refused: CommandRefused) -> dict[str, list[str]]:
    return one_each(refused.errors or {}) or {"_form": [refused.message]}


def _page(status: int = 200, **shown: Any) -> tuple[str, int]:
    """The page: accounts and keys as they stand, with whatever a form left to show (its errors
    and values, a secret to show once, a refusal)."""
    uow = request_uow()
    context: dict[str, Any] = {"create_errors": {}, "create_form": {}, "key_errors": {}, "key_form": {},
                               "issued": None, "refusal": None, **shown}
    return render_template("console/access.html", accounts=list_staff(uow), keys=access_list(uow),
                           roles=STAFF_ROLES, console_roles=CONSOLE_ROLES, now=datetime.now(UTC), **context), status


@blp.get("/access")
@staff_required(Task.MANAGE_ACCESS)
def page() -> tuple[str, int]:
    return _page()


@blp.post("/access/accounts")
@staff_required(Task.MANAGE_ACCESS)
def create_account() -> tuple[str, int]:
    form = {name: _field(name) for name in ("username", "display_name", "role")}
    password = request.form.get("password", "")
    pin = _field("pin")
    errors = over_limits({**form, "password": password}, {"username": Most.USERNAME,
                                                          "display_name": Most.DISPLAY_NAME,
                                                          "password": Most.PASSWORD})
    if not form["role"]:
        errors["role"] = ["Choose the account's role."]
    if errors:
        return _page(422, create_errors=errors, create_form=form)
    dealer = form["role"] == Role.DEALER
    # A dealer signs in with a PIN, anyone else with a password: the other field stays empty.
    if dealer and password:
        return _page(422, create_errors={"password": ["a dealer signs in with a PIN: type it below, or leave both "
                                                      "empty to have one generated"]}, create_form=form)
    if pin and not dealer:
        return _page(422, create_errors={"pin": ["only a dealer signs in with a PIN: give a password instead"]},
                     create_form=form)
    try:
        issued = carry_out(create_staff, CreateStaff(form["username"], form["role"], current_staff().actor,
                                                     display_name=form["display_name"] or None,
                                                     password=(pin if dealer else password) or None))
    except CommandRefused as refused:
        return _page(refused.status, create_errors=_field_errors(refused), create_form=form)
    shown = {"what": f"Account {issued.account['username']} created ({issued.account['role']})."}
    if issued.generated:
        shown |= {"label": f"Its {_secret_name(issued.is_pin)} (give it to the person; it is not shown again):",
                  "secret": issued.password}
    return _page(201, issued=shown)


def _secret_name(is_pin: bool) -> str:
    return "PIN" if is_pin else "password"


# ----- the acts that cannot be undone: each asks for a reason on a page of its own, and only that
# page's confirmed form acts --------------------------------------------------------------------
class Act(StrEnum):
    DEACTIVATE = "deactivate"
    RESET = "reset-password"
    REVOKE = "revoke"


def _confirm_page(act: Act, subject: dict[str, Any], *, reason: str = "", error: str | None = None,
                  refusal: str | None = None, status: int = 200) -> tuple[str, int]:
    """`error`: what is wrong with the reason; `refusal`: why the act itself was refused."""
    return render_template("console/access_confirm.html", act=act.value, subject=subject, reason=reason,
                           error=error, refusal=refusal), status


def _account(username: str) -> dict[str, Any] | None:
    return next((a for a in list_staff(request_uow()) if a["username"] == username), None)


def _key(key_id: str) -> dict[str, Any] | None:
    return next((k for k in access_list(request_uow()) if str(k["key_id"]) == key_id), None)


def _no_account(username: str) -> tuple[str, int]:
    return error_page(404, "No such account", f"There is no account {username}.")


def _no_key(key_id: str) -> tuple[str, int]:
    return error_page(404, "No such key", f"There is no key {key_id}.")


def _asked(act: Act, subject: dict[str, Any]) -> tuple[str, tuple[str, int] | None]:
    """The reason given with the confirmed form, or the confirmation page again: asked afresh
    (a form posted from anywhere but the confirmation), or with the reason's problem at its field."""
    reason = _field("reason")
    if request.form.get("confirmed") != "yes":
        return reason, _confirm_page(act, subject, reason=reason)
    problem = reason_problem(reason)
    if problem is not None:
        return reason, _confirm_page(act, subject, reason=reason, error=problem, status=422)
    return reason, None


@blp.get("/access/accounts/<username>/deactivate")
@staff_required(Task.MANAGE_ACCESS)
def confirm_deactivate(username: str) -> tuple[str, int]:
    account = _account(username)
    return _no_account(username) if account is None else _confirm_page(Act.DEACTIVATE, account)


@blp.post("/access/accounts/<username>/deactivate")
@staff_required(Task.MANAGE_ACCESS)
def deactivate(username: str) -> Response | tuple[str, int]:
    account = _account(username)
    if account is None:
        return _no_account(username)
    reason, again = _asked(Act.DEACTIVATE, account)
    if again is not None:
        return again
    try:
        carry_out(deactivate_staff, DeactivateStaff(username, current_staff().actor, reason))
    except CommandRefused as refused:
        return _confirm_page(Act.DEACTIVATE, account, reason=reason, refusal=refused.message,
                             status=refused.status)
    flash(f"{account['display_name']} ({username}) is deactivated; any session of theirs has ended.", "success")
    return redirect("/console/access", 303)


@blp.get("/access/accounts/<username>/reset-password")
@staff_required(Task.MANAGE_ACCESS)
def confirm_reset(username: str) -> tuple[str, int]:
    account = _account(username)
    return _no_account(username) if account is None else _confirm_page(Act.RESET, account)


@blp.post("/access/accounts/<username>/reset-password")
@staff_required(Task.MANAGE_ACCESS)
def reset(username: str) -> tuple[str, int]:
    account = _account(username)
    if account is None:
        return _no_account(username)
    reason, again = _asked(Act.RESET, account)
    if again is not None:
        return again
    try:
        issued = carry_out(reset_password, ResetPassword(username, current_staff().actor, reason=reason))
    except CommandRefused as refused:
        return _confirm_page(Act.RESET, account, reason=reason, refusal=refused.message,
                             status=refused.status)
    what = _secret_name(issued.is_pin)
    return _page(issued={"what": f"{issued.account['username']}'s {what} is reset; their sessions have ended.",
                         "label": f"The new {what} (give it to the person; it is not shown again):",
                         "secret": issued.password})


@blp.post("/access/accounts/<username>/role")
@staff_required(Task.MANAGE_ACCESS)
def set_role(username: str) -> Response | tuple[str, int]:
    try:
        account = carry_out(change_role, ChangeRole(username, _field("role"), current_staff().actor))
    except CommandRefused as refused:
        return _page(refused.status, refusal=refused.message)
    flash(f"{account['username']} is now {account['role']}.", "success")
    return redirect("/console/access", 303)


@blp.post("/access/keys")
@staff_required(Task.MANAGE_ACCESS)
def issue_key() -> tuple[str, int]:
    form = {name: _field(name) for name in ("table_id", "name")}
    errors = over_limits(form, {"table_id": Most.TABLE_ID, "name": Most.KEY_NAME})
    if not form["table_id"]:
        errors["table_id"] = ["Name the table this terminal key is for."]
    if errors:
        return _page(422, key_errors=errors, key_form=form)
    try:
        key = carry_out(create_key, CreateKey(Role.TERMINAL, form["table_id"], form["name"] or None,
                                              current_staff().actor))
    except CommandRefused as refused:
        return _page(refused.status, key_errors=_field_errors(refused), key_form=form)
    return _page(201, issued={"what": f"Terminal key {key['key_id']} issued for table {key['table_id']}.",
                              "label": "The key (enter it in the table's terminal; it is not shown again):",
                              "secret": key["secret"]})


@blp.get("/access/keys/<key_id>/revoke")
@staff_required(Task.MANAGE_ACCESS)
def confirm_revoke(key_id: str) -> tuple[str, int]:
    key = _key(key_id)
    return _no_key(key_id) if key is None else _confirm_page(Act.REVOKE, key)


@blp.post("/access/keys/<key_id>/revoke")
@staff_required(Task.MANAGE_ACCESS)
def revoke(key_id: str) -> Response | tuple[str, int]:
    key = _key(key_id)
    if key is None:
        return _no_key(key_id)
    reason, again = _asked(Act.REVOKE, key)
    if again is not None:
        return again
    try:
        carry_out(revoke_key, RevokeKey(key["key_id"], reason, current_staff().actor))
    except CommandRefused as refused:
        return _confirm_page(Act.REVOKE, key, reason=reason, refusal=refused.message,
                             status=refused.status)
    flash(f"Key {key_id}{' (' + key['name'] + ')' if key['name'] else ''} is revoked: the next request it signs "
          "is refused.", "success")
    return redirect("/console/access", 303)


def review_rows() -> list[dict[str, Any]]:
    """Every account and every key: who or what, whose key it is, role, created when and by whom,
    last used, status. A key's owner is the person behind it (an admin's, operator's or
    supervisor's key always has one; a terminal's never does); an account is its own person."""
    uow = request_uow()
    rows = [{"kind": "staff", "id": a["username"], "name": a["display_name"], "owner": None, "role": a["role"],
             "table_id": None, "status": "active" if a["active"] else "deactivated", "created_at": a["created_at"],
             "created_by": a["created_by"], "last_used_at": a["last_sign_in_at"], "ended_at": a["deactivated_at"]}
            for a in list_staff(uow)]
    rows += [{"kind": "key", "id": str(k["key_id"]), "name": k["name"], "owner": k["owner"], "role": k["role"],
              "table_id": k["table_id"], "status": "revoked" if k["revoked_at"] else "live",
              "created_at": k["created_at"], "created_by": k["created_by"], "last_used_at": k["last_used_at"],
              "ended_at": k["revoked_at"]}
             for k in access_list(uow)]
    return rows


@blp.get("/access/review")
@staff_required(Task.MANAGE_ACCESS)
def review() -> str:
    return render_template("console/access_review.html", rows=review_rows())


@blp.get("/access/review.csv")
@staff_required(Task.MANAGE_ACCESS)
def review_csv() -> Response:
    rows = review_rows()

    def lines() -> Iterator[str]:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        for values in [REVIEW_COLUMNS, *([_csv_value(row[c]) for c in REVIEW_COLUMNS] for row in rows)]:
            writer.writerow(values)
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()

    return Response(lines(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="access-review.csv"'})


def _csv_value(value: Any) -> str:
    if value is None:
        return ""
    text = value.isoformat(timespec="seconds") if hasattr(value, "isoformat") else str(value)
    # A name typed as "=..." must reach a spreadsheet as text, not as a formula it would run.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
