"""The screen a request comes from and the dealer at it: the device cookie names an enrolled screen
bound to one table, the session cookie a dealer's session on that screen; both are checked once per
request (the screen marked seen), so a revocation, a sign-out, a deactivation or a new PIN bites at
the next click."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import current_app, g, redirect, request
from werkzeug.wrappers import Response

from ..screens.commands import VisitScreen
from ..screens.sign_in import visit_screen
from ..staff.policy import StaffPolicy
from ..staff.sessions import staff_actor
from ..store.repositories.screens import ScreenVisit
from ..store.uow import unit_of_work

SCREEN_COOKIE = "pontoon_dealer_screen"     # the screen's device token: set at enrolment, kept for long
SESSION_COOKIE = "pontoon_dealer_session"   # the dealer's session token: set at sign-in, gone at sign-out
COOKIE_PATH = "/dealer"
SCREEN_COOKIE_DAYS = 400                    # the longest a browser keeps a cookie (Chromium's cap)
HOME_PATH = "/dealer/"
ENROL_PATH = "/dealer/enrol"
SIGN_IN_PATH = "/dealer/sign-in"


@dataclass(frozen=True, slots=True)
class ScreenAtTable:
    """An enrolled screen, as a request from it finds it: which it is and whose table."""
    screen_id: uuid.UUID
    screen_name: str
    table_id: str


@dataclass(frozen=True, slots=True)
class DealerAtScreen:
    """A dealer signed in on an enrolled screen: what their cards and decisions are recorded under."""
    screen_id: uuid.UUID
    screen_name: str
    table_id: str
    user_id: uuid.UUID
    username: str
    display_name: str

    @property
    def actor(self) -> str:
        return staff_actor(self.username)


def policy() -> StaffPolicy:
    found: StaffPolicy = current_app.extensions["pontoon.staff_policy"]
    return found


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _visit() -> ScreenVisit | None:
    """This request's screen and dealer, checked (and the screen marked seen) on first asking."""
    if "dealer_visit" in g:
        known: ScreenVisit | None = g.dealer_visit
        return known
    token = request.cookies.get(SCREEN_COOKIE, "")
    visit = None
    if token:
        # Checked in a unit of work of its own, committed at once: the request's may be inside a
        # view's transaction, which would keep or drop the check with its own work.
        with unit_of_work(current_app.extensions["pontoon.pool"]) as uow, uow.transaction():
            # A page refreshing itself (htmx's GET) is the screen alive, not the dealer at it.
            visit = visit_screen(VisitScreen(token, request.cookies.get(SESSION_COOKIE),
                                             activity=not (is_htmx() and request.method == "GET")), uow, policy())
    g.dealer_visit = visit
    g.dealer_at_screen = None if visit is None or visit.dealer is None else DealerAtScreen(
        visit.screen.screen_id, visit.screen.name, visit.screen.table_id, visit.dealer.user_id,
        visit.dealer.username, visit.dealer.display_name)
    return visit


def enrolled_screen() -> ScreenAtTable | None:
    """The live enrolled screen this request comes from, if any."""
    visit = _visit()
    return None if visit is None else ScreenAtTable(visit.screen.screen_id, visit.screen.name,
                                                    visit.screen.table_id)


def signed_in_dealer() -> DealerAtScreen | None:
    """The dealer signed in on this request's enrolled screen, if any (checked once per request)."""
    _visit()
    found: DealerAtScreen | None = g.dealer_at_screen
    return found


def go_to(path: str) -> Response:
    """To `path`; an htmx request (a part of a page) is told to load it in full instead."""
    if is_htmx():
        response = Response(status=200)
        response.headers["HX-Redirect"] = path
        return response
    return redirect(path)


def dealer_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a screen's view: a browser that is no live enrolled screen goes to the
    enrolment page, an enrolled screen with nobody signed in to the dealer's sign-in."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        visit = _visit()
        if visit is None:
            return go_to(ENROL_PATH)
        if visit.dealer is None:
            return go_to(SIGN_IN_PATH)
        return view(*args, **kwargs)

    return wrapper


def set_cookie(response: Response, name: str, value: str, *, max_age: int | None = None) -> None:
    """A cookie of the screen's: sent to /dealer only, never to a script, never from another site."""
    response.set_cookie(name, value, max_age=max_age, path=COOKIE_PATH, httponly=True, samesite="Strict",
                        secure=current_app.extensions["pontoon.settings"].secure_cookies)


def delete_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path=COOKIE_PATH, httponly=True, samesite="Strict",
                           secure=current_app.extensions["pontoon.settings"].secure_cookies)
