"""/console/access (admins): staff accounts (create, deactivate, reset a password or a dealer's PIN,
change a role), API keys (issue a table's terminal key, shown once; revoke), and the access review
of every account and key, as a page and as CSV."""
from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request
from werkzeug.wrappers import Response

from ...operators.commands import CreateKey, RevokeKey
from ...operators.keys import access_list, create_key, revoke_key
from ...refusals import CommandRefused, Invalid
from ...roles import CONSOLE_ROLES, STAFF_ROLES, Role
from ...staff.accounts import change_role, create_staff, deactivate_staff, list_staff, reset_password
from ...staff.commands import ChangeRole, CreateStaff, DeactivateStaff, ResetPassword
from ...web.access import Task
from ...web.request_scope import request_uow
from ..auth import current_staff, staff_required
from ..commands import carry_out
from .account import FIELD_LIMIT

blp = Blueprint("console_access", __name__, url_prefix="/console")

REVIEW_COLUMNS = ("kind", "id", "name", "role", "table_id", "status", "created_at", "created_by", "last_used_at",
                  "ended_at")


def _field(name: str) -> str:
    return request.form.get(name, "")[:FIELD_LIMIT].strip()


def _field_errors(refused: CommandRefused) -> dict[str, list[str]]:
    return {field: [str(m) for m in messages] for field, messages in (refused.errors or {}).items()} \
        or {"_form": [refused.message]}


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
    password = request.form.get("password", "")[:FIELD_LIMIT]
    pin = _field("pin")
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


@blp.post("/access/accounts/<username>/deactivate")
@staff_required(Task.MANAGE_ACCESS)
def deactivate(username: str) -> Response | tuple[str, int]:
    try:
        carry_out(deactivate_staff, DeactivateStaff(username, current_staff().actor))
    except CommandRefused as refused:
        return _page(refused.status, refusal=refused.message)
    flash(f"{username} is deactivated; any session of theirs has ended.", "success")
    return redirect("/console/access")


@blp.post("/access/accounts/<username>/reset-password")
@staff_required(Task.MANAGE_ACCESS)
def reset(username: str) -> tuple[str, int]:
    try:
        issued = carry_out(reset_password, ResetPassword(username, current_staff().actor))
    except CommandRefused as refused:
        return _page(refused.status, refusal=refused.message)
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
    return redirect("/console/access")


@blp.post("/access/keys")
@staff_required(Task.MANAGE_ACCESS)
def issue_key() -> tuple[str, int]:
    form = {name: _field(name) for name in ("table_id", "name")}
    try:
        if not form["table_id"]:
            raise Invalid("name the table", errors={"table_id": ["the table this terminal key is for"]})
        key = carry_out(create_key, CreateKey(Role.TERMINAL, form["table_id"], form["name"] or None,
                                              current_staff().actor))
    except CommandRefused as refused:
        return _page(refused.status, key_errors=_field_errors(refused), key_form=form)
    return _page(201, issued={"what": f"Terminal key {key['key_id']} issued for table {key['table_id']}.",
                              "label": "The key (enter it in the table's terminal; it is not shown again):",
                              "secret": key["secret"]})


@blp.post("/access/keys/<key_id>/revoke")
@staff_required(Task.MANAGE_ACCESS)
def revoke(key_id: str) -> Response | tuple[str, int]:
    try:
        carry_out(revoke_key, RevokeKey(_key_id(key_id), _field("reason") or None, current_staff().actor))
    except CommandRefused as refused:
        return _page(refused.status, refusal=refused.message)
    flash(f"Key {key_id} is revoked: the next request it signs is refused.", "success")
    return redirect("/console/access")


def _key_id(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise Invalid(f"{text!r} is not a key id") from None


def review_rows() -> list[dict[str, Any]]:
    """Every account and every key: who or what, role, created when and by whom, last used, status."""
    uow = request_uow()
    rows = [{"kind": "staff", "id": a["username"], "name": a["display_name"], "role": a["role"], "table_id": None,
             "status": "active" if a["active"] else "deactivated", "created_at": a["created_at"],
             "created_by": a["created_by"], "last_used_at": a["last_sign_in_at"], "ended_at": a["deactivated_at"]}
            for a in list_staff(uow)]
    rows += [{"kind": "key", "id": str(k["key_id"]), "name": k["name"], "role": k["role"], "table_id": k["table_id"],
              "status": "revoked" if k["revoked_at"] else "live", "created_at": k["created_at"],
              "created_by": k["created_by"], "last_used_at": k["last_used_at"], "ended_at": k["revoked_at"]}
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
