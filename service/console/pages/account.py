"""/console/account: a person's own account: change the password, enrol in or remove the TOTP
second factor, sign out."""
from __future__ import annotations

import segno
from flask import Blueprint, flash, redirect, render_template, request, session
from werkzeug.wrappers import Response

from ...refusals import CommandRefused
from ...staff.commands import ChangePassword, EnrolTotp, RemoveTotp
from ...staff.credentials import change_password, enrol_totp, remove_totp
from ...staff.passwords import new_totp_secret, totp_uri
from ...web.access import Task
from ...web.request_scope import request_uow
from ..auth import current_staff, policy, staff_required
from ..commands import carry_out
from ..fields import Most, over_limits

blp = Blueprint("console_account", __name__, url_prefix="/console")

# The TOTP secret on offer to the person, in the console's signed cookie: made by the server, shown
# on the page, and the one enrolment checks the code against (the form never carries it).
TOTP_OFFER = "totp_offer"


def _field(name: str) -> str:
    return request.form.get(name, "")


def _too_long(fields: dict[str, str]) -> dict[str, list[str]]:
    """The page's fields (by their names on the page) longer than any password or code can be."""
    return over_limits({shown: _field(posted) for shown, posted in fields.items()},
                       {shown: Most.CODE if posted == "code" else Most.PASSWORD for shown, posted in fields.items()})


def _page(errors: dict[str, list[str]] | None = None, status: int = 200) -> tuple[str, int]:
    """The page; a person not enrolled is offered a secret the server made (the same one until
    they enrol, so a reload does not undo what their authenticator holds)."""
    staff = current_staff()
    account = request_uow().staff.get_by_id(staff.user_id)
    enrolled = account is not None and account.totp_secret is not None
    secret = None
    if not enrolled:
        secret = session.get(TOTP_OFFER) or new_totp_secret()
        session[TOTP_OFFER] = secret
    uri = totp_uri(secret, staff.username) if secret else None
    return render_template("console/account.html", account=account, errors=errors or {},
                           totp_secret=secret, totp_uri=uri, totp_qr=qr_code(uri) if uri else None,
                           totp_required=staff.role in policy().totp_roles), status


def qr_code(uri: str) -> str:
    """The enrolment link as a QR code an authenticator app scans, drawn here (the link holds the
    secret: it never leaves for a service elsewhere), as an SVG data URI for an <img>."""
    return segno.make(uri, error="m").svg_data_uri(scale=5, border=4, dark="#000", light="#fff")


def _refused(refused: CommandRefused, rename: dict[str, str] | None = None) -> dict[str, list[str]]:
    """A handler's field errors under the page's field names (the message alone when it names none)."""
    names = rename or {}
    errors = {names.get(field, field): [str(m) for m in messages]
              for field, messages in (refused.errors or {}).items()}
    return errors or {"_form": [refused.message]}


@blp.get("/account")
@staff_required(Task.OWN_ACCOUNT, second_factor_pending=True)
def page() -> tuple[str, int]:
    return _page()


@blp.post("/account/password")
@staff_required(Task.OWN_ACCOUNT, second_factor_pending=True)
def password() -> Response | tuple[str, int]:
    staff = current_staff()
    new, confirm = _field("new_password"), _field("confirm_password")
    if errors := _too_long({name: name for name in ("current_password", "new_password", "confirm_password")}):
        return _page(errors, status=422)
    if new != confirm:
        return _page({"confirm_password": ["does not match the new password"]}, status=422)
    try:
        carry_out(change_password, ChangePassword(staff.user_id, _field("current_password"), new, staff.session_id))
    except CommandRefused as refused:
        return _page(_refused(refused), status=refused.status)
    flash("Your password is changed. Any other session of yours has ended.", "success")
    return redirect("/console/account")


@blp.post("/account/totp")
@staff_required(Task.OWN_ACCOUNT, second_factor_pending=True)
def enrol() -> Response | tuple[str, int]:
    staff = current_staff()
    if errors := _too_long({"enrol_password": "password", "code": "code"}):
        return _page(errors, status=422)
    try:
        carry_out(enrol_totp, EnrolTotp(staff.user_id, session.get(TOTP_OFFER, ""), _field("code"), _field("password")),
                  policy())
    except CommandRefused as refused:
        return _page(_refused(refused, {"password": "enrol_password", "secret": "code"}), status=refused.status)
    session.pop(TOTP_OFFER, None)
    flash("Your authenticator is enrolled: signing in now asks for its code.", "success")
    return redirect("/console/account")


@blp.post("/account/totp/remove")
@staff_required(Task.OWN_ACCOUNT, second_factor_pending=True)
def remove() -> Response | tuple[str, int]:
    staff = current_staff()
    if errors := _too_long({"remove_password": "password"}):
        return _page(errors, status=422)
    try:
        carry_out(remove_totp, RemoveTotp(staff.user_id, _field("password")), policy())
    except CommandRefused as refused:
        return _page(_refused(refused, {"password": "remove_password"}), status=refused.status)
    flash("Your second factor is removed.", "success")
    return redirect("/console/account")
