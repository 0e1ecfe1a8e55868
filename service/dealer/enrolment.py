"""/dealer/enrol: a browser at a table becomes that table's screen, with the one-time code an admin
or a supervisor issued in the console (typed, or carried by the link the console showed). The
screen keeps a device token in an HttpOnly cookie from then on."""
from __future__ import annotations

from flask import Blueprint, render_template, request, session
from werkzeug.wrappers import Response

from ..command_runner import run_command
from ..refusals import CommandRefused
from ..screens.commands import EnrolScreen
from ..screens.enrolment import enrol_screen
from ..web.request_scope import request_uow
from .device import (
    SCREEN_COOKIE,
    SCREEN_COOKIE_DAYS,
    SESSION_COOKIE,
    SIGN_IN_PATH,
    delete_cookie,
    enrolled_screen,
    policy,
    set_cookie,
)

blp = Blueprint("dealer_enrolment", __name__, url_prefix="/dealer")

FIELD_LIMIT = 64        # longer than any code, with its dash and spaces


def _page(code: str, errors: dict[str, list[str]], status: int = 200) -> tuple[str, int]:
    return render_template("dealer/enrol.html", code=code, errors=errors, enrolled=enrolled_screen()), status


@blp.get("/enrol")
def form() -> tuple[str, int]:
    """The form, the code filled in when the console's link carried it (nothing is enrolled until
    it is sent: a link opened by a preview or a prefetch spends no code)."""
    return _page(request.args.get("code", "")[:FIELD_LIMIT].strip(), {})


@blp.post("/enrol")
def submit() -> Response | tuple[str, int]:
    code = request.form.get("code", "")[:FIELD_LIMIT].strip()
    if not code:
        return _page(code, {"code": ["Type the code the console showed."]}, 422)
    uow = request_uow()
    try:
        enrolled = run_command(uow, lambda: enrol_screen(
            EnrolScreen(code, request.remote_addr, request.cookies.get(SCREEN_COOKIE)), uow, policy()))
    except CommandRefused as refused:
        errors = {name: [str(m) for m in messages] for name, messages in (refused.errors or {}).items()}
        return _page(code, errors or {"code": [refused.message]}, int(refused.status))
    # A new screen: whoever was signed in on this browser before is no longer, and its forms' seed goes.
    session.clear()
    response = Response(status=303, headers={"Location": SIGN_IN_PATH + "?enrolled=1"})
    set_cookie(response, SCREEN_COOKIE, enrolled.token, max_age=SCREEN_COOKIE_DAYS * 86400)
    delete_cookie(response, SESSION_COOKIE)
    return response
