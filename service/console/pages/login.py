"""/console/login and /console/logout: signing in as oneself (password, and the TOTP code when
enrolled) and signing out, which ends the session on the server at once."""
from __future__ import annotations

from flask import Blueprint, current_app, make_response, redirect, render_template, request, session
from werkzeug.wrappers import Response

from ...staff.commands import SignIn, SignOut
from ...staff.sessions import SignInOutcome, sign_in, sign_out
from ...store.uow import UnitOfWork
from ...web.request_scope import request_uow
from ..auth import SESSION_COOKIE, policy, signed_in

blp = Blueprint("console_login", __name__, url_prefix="/console")

HOME = "/console/floor"
FIELD_LIMIT = 1024          # longer than any username, password or code: refused as a failure


def _next_page(raw: str | None) -> str:
    """Where to go after signing in: a console page of this site, never elsewhere."""
    if raw and raw.startswith("/console/") and not raw.startswith("/console/login") and "\\" not in raw \
            and "//" not in raw and "\n" not in raw and "\r" not in raw:
        return raw
    return HOME


@blp.get("/login")
def form() -> Response | str:
    if signed_in() is not None:
        return redirect(_next_page(request.args.get("next")))
    return render_template("console/login.html", next=_next_page(request.args.get("next")), errors={},
                           username="", message=None, signed_out=request.args.get("signed_out") == "1")


@blp.post("/login")
def submit() -> Response | tuple[str, int]:
    username = request.form.get("username", "")[:FIELD_LIMIT].strip()
    password = request.form.get("password", "")[:FIELD_LIMIT]
    totp = request.form.get("totp", "")[:FIELD_LIMIT]
    next_page = _next_page(request.form.get("next"))
    errors: dict[str, str] = {}
    if not username:
        errors["username"] = "Enter your username."
    if not password:
        errors["password"] = "Enter your password."
    if errors:
        return _again(username, next_page, errors, None, 422)
    uow = request_uow()
    with uow.transaction():
        _end_previous_session(uow)
        result = sign_in(SignIn(username, password, totp, request.remote_addr), uow, policy())
    if result.outcome is SignInOutcome.NOT_FOR_CONSOLE:
        return _again(username, next_page, {}, "Dealers sign in at their table's screen, not in the console.", 403)
    # A lock is answered as any failure is: a stranger learns nothing of which accounts exist or are locked.
    if result.outcome is not SignInOutcome.SIGNED_IN or result.token is None:
        return _again(username, next_page, {}, "Sign-in failed. After repeated failures, wait 15 minutes or "
                                               "ask an admin to reset your password.", 401)
    # A new identity gets a new CSRF seed too: nothing issued before the sign-in carries over.
    session.clear()
    response = redirect(next_page)
    settings = current_app.extensions["pontoon.settings"]
    response.set_cookie(SESSION_COOKIE, result.token, path="/console", httponly=True, samesite="Lax",
                        secure=settings.secure_cookies)
    return response


def _again(username: str, next_page: str, errors: dict[str, str], message: str | None,
           status: int) -> tuple[str, int]:
    return render_template("console/login.html", next=next_page, errors=errors, username=username,
                           message=message, signed_out=False), status


def _end_previous_session(uow: UnitOfWork) -> None:
    """Signing in over a live session (another person at the same browser) ends that one."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        sign_out(SignOut(token, request.remote_addr), uow, policy())


@blp.post("/logout")
def logout() -> Response:
    uow = request_uow()
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        with uow.transaction():
            sign_out(SignOut(token, request.remote_addr), uow, policy())
    session.clear()
    response = make_response(redirect("/console/login?signed_out=1"))
    response.delete_cookie(SESSION_COOKIE, path="/console", httponly=True, samesite="Lax",
                           secure=current_app.extensions["pontoon.settings"].secure_cookies)
    return response
