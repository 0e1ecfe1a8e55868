"""/dealer/sign-in and /dealer/sign-out: a dealer signs in on the enrolled screen with a username
and a PIN, and out again; relief is one dealer's sign-out and the next one's sign-in."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session
from werkzeug.wrappers import Response

from ..screens.commands import DealerSignIn, DealerSignOut
from ..screens.sign_in import DealerOutcome, sign_in_dealer, sign_out_dealer
from ..web.request_scope import request_uow
from .device import (
    ENROL_PATH,
    HOME_PATH,
    SCREEN_COOKIE,
    SESSION_COOKIE,
    SIGN_IN_PATH,
    delete_cookie,
    enrolled_screen,
    go_to,
    policy,
    set_cookie,
    signed_in_dealer,
)

blp = Blueprint("dealer_sign_in", __name__, url_prefix="/dealer")

FIELD_LIMIT = 1024      # longer than any username or PIN: refused as a failure
FAILED = ("Sign-in failed: check your username and PIN. After repeated failures, wait 15 minutes or ask an admin "
          "for a new PIN.")
NOT_A_DEALER = ("Console staff cannot deal: only a dealer's account signs in at a table's screen. Sign in to the "
                "console instead.")


def _page(*, username: str = "", errors: dict[str, str] | None = None, message: str | None = None,
          status: int = 200) -> tuple[str, int]:
    return render_template("dealer/sign_in.html", username=username, errors=errors or {}, message=message,
                           signed_out=request.args.get("signed_out") == "1",
                           enrolled_now=request.args.get("enrolled") == "1"), status


@blp.get("/sign-in")
def form() -> Response | tuple[str, int]:
    if enrolled_screen() is None:
        return redirect(ENROL_PATH)
    if signed_in_dealer() is not None:
        return redirect(HOME_PATH)
    return _page()


@blp.post("/sign-in")
def submit() -> Response | tuple[str, int]:
    username = request.form.get("username", "")[:FIELD_LIMIT].strip()
    pin = request.form.get("pin", "")[:FIELD_LIMIT].strip()
    errors: dict[str, str] = {}
    if not username:
        errors["username"] = "Enter your username."
    if not pin:
        errors["pin"] = "Enter your PIN."
    if errors:
        return _page(username=username, errors=errors, status=422)
    uow = request_uow()
    # Committed whatever the outcome: a failure's count and its record are kept too.
    with uow.transaction():
        result = sign_in_dealer(DealerSignIn(request.cookies.get(SCREEN_COOKIE, ""), username, pin,
                                             request.remote_addr), uow, policy())
    if result.outcome is DealerOutcome.NO_SCREEN:
        return go_to(ENROL_PATH)
    if result.outcome is DealerOutcome.NOT_A_DEALER:
        return _page(username=username, message=NOT_A_DEALER, status=403)
    if result.outcome is not DealerOutcome.SIGNED_IN or result.token is None:
        # A lock is answered as any failure is: a stranger learns nothing of which accounts exist or are locked.
        return _page(username=username, message=FAILED, status=401)
    # A new dealer gets a new form seed: nothing issued to the one before carries over.
    session.clear()
    response = redirect(HOME_PATH, code=303)
    set_cookie(response, SESSION_COOKIE, result.token)
    return response


@blp.post("/sign-out")
def sign_out() -> Response:
    """The dealer's session ends on the server at once; the screen stays enrolled for the next."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        uow = request_uow()
        with uow.transaction():
            sign_out_dealer(DealerSignOut(token, request.remote_addr), uow, policy())
    session.clear()
    response = go_to(SIGN_IN_PATH + "?signed_out=1")
    delete_cookie(response, SESSION_COOKIE)
    return response
