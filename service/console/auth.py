"""Who is signed in to the console: the server-side session named by the cookie, checked on every
request (so a sign-out, a deactivation or a password reset ends it at the next click), and the
decorator a page puts before its view to name its task (service/web/access.py says which roles
may do it)."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from flask import current_app, g, redirect, render_template, request
from werkzeug.wrappers import Response

from ..roles import CONSOLE_ROLES, Role
from ..staff.commands import TouchSession
from ..staff.policy import StaffPolicy
from ..staff.sessions import staff_actor, touch_session
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.uow import unit_of_work
from ..web import access
from ..web.access import Task, roles_for
from ..web.request_scope import request_uow

SESSION_COOKIE = "pontoon_console_session"
LOGIN_PATH = "/console/login"
ACCOUNT_PATH = "/console/account"

# The console's pages in the nav and the task each one's view names. Reading a paytable is open to
# all; changing one is the operators' (the page offers it per action).
NAV: tuple[tuple[str, str, Task], ...] = (
    ("Floor", "/console/floor", Task.SEE_TABLES),
    ("Paytables", "/console/paytables", Task.SEE_PAYTABLES),
    ("Recall", "/console/recall", Task.RECALL_ROUNDS),
    ("Cage", "/console/cage", Task.ISSUE_CHIPS),
    ("Count", "/console/count", Task.COUNT_DROP),
    ("Statement", "/console/statement", Task.READ_STATEMENT),
    ("Reports", "/console/reports", Task.CHART_REPORTS),
    ("Audit", "/console/audit", Task.AUDIT),
    ("Access", "/console/access", Task.MANAGE_ACCESS),
)
# Each page with the roles that may open it: the nav shows a person only theirs.
PAGES: tuple[tuple[str, str, tuple[Role, ...]], ...] = tuple(
    (label, path, roles_for(task, CONSOLE_ROLES)) for label, path, task in NAV)


@dataclass(frozen=True, slots=True)
class CurrentStaff:
    """The person signed in: `actor` is what their actions are recorded under and what a handler
    command's actor is."""
    user_id: uuid.UUID
    username: str
    display_name: str
    role: str
    actor: str
    session_id: uuid.UUID
    totp_enrolled: bool
    must_enrol_totp: bool       # their role needs a second factor they have not enrolled yet
    must_change_password: bool = False   # an admin set their password: they set their own before anything else


def policy() -> StaffPolicy:
    found: StaffPolicy = current_app.extensions["pontoon.staff_policy"]
    return found


def signed_in() -> CurrentStaff | None:
    """The person whose session the request's cookie names, if it is live (checked, and marked
    seen, once per request); None otherwise."""
    if "console_staff" in g:
        known: CurrentStaff | None = g.console_staff
        return known
    token = request.cookies.get(SESSION_COOKIE, "")
    staff = None
    if token:
        # The session's check is committed in a unit of work of its own: the request's may be
        # inside a page's transaction block, which would then keep or drop the check with its work.
        with unit_of_work(current_app.extensions["pontoon.pool"]) as uow, uow.transaction():
            # A page polling for itself (htmx's GET) is not the person at the screen.
            holder = touch_session(TouchSession(token, activity=not (is_htmx() and request.method == "GET")), uow,
                                   policy())
        if holder is not None:
            staff = CurrentStaff(holder.user_id, holder.username, holder.display_name, holder.role,
                                 staff_actor(holder.username), holder.session_id, holder.totp_enrolled,
                                 holder.role in policy().totp_roles and not holder.totp_enrolled,
                                 holder.password_not_own)
    g.console_staff = staff
    return staff


def current_staff() -> CurrentStaff:
    """The person signed in, in a view behind staff_required."""
    staff = signed_in()
    if staff is None:
        raise LookupError("current_staff() outside a view behind staff_required")
    return staff


def staff_required(task: Task, *, second_factor_pending: bool = False
                   ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator for a console view doing `task`: nobody signed in goes to the sign-in page (and
    back here after); a person whose role may not do it gets the 403 page. A person whose role
    needs a second factor they have not enrolled, or whose password an admin set (they set their
    own first), is sent to their account page, unless the view is one that lets them enrol or
    change it (`second_factor_pending`)."""
    allowed = roles_for(task, CONSOLE_ROLES)

    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            staff = signed_in()
            if staff is None:
                return to_sign_in()
            if (staff.must_enrol_totp or staff.must_change_password) and not second_factor_pending:
                return redirect(ACCOUNT_PATH)
            if staff.role not in allowed:
                record_refusal(staff, allowed)
                return error_page(403, "Not for your role",
                                  f"This page is for {_roles_text(allowed)}; you are signed in as "
                                  f"{staff.display_name} ({staff.role}).")
            return view(*args, **kwargs)

        return wrapper

    return decorator


def may(task: Task) -> bool:
    """Whether the person signed in may do `task` (a page offers only the actions they may)."""
    return access.may(current_staff().role, task)


def record_refusal(staff: CurrentStaff, allowed: tuple[Role, ...]) -> None:
    """A person sent away from a page their role may not see is recorded, as a known key's refusal
    is: who, in which role, tried what. Repeated attempts at pages beyond a role are what an access
    review looks for."""
    uow = request_uow()
    with uow.transaction():
        uow.audit.append(chain_for(None), [AuditRecord("access_denied", {
            "status": 403, "reason": "forbidden", "user_id": str(staff.user_id), "role": staff.role,
            "allowed": [role.value for role in allowed], "method": request.method,
            "path": request.path.replace("\x00", "\\x00")[:512]}, actor=staff.actor)])


def to_sign_in() -> Response:
    """To the sign-in page, coming back to this page afterwards. An htmx request (a page polling)
    is told to load the sign-in page in full rather than swap it into a fragment."""
    back = request.full_path.rstrip("?") if request.method == "GET" and not is_htmx() else ""
    target = LOGIN_PATH + (f"?{urlencode({'next': back})}" if back and back != LOGIN_PATH else "")
    if is_htmx():
        response = Response(status=200)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target)


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def error_page(status: int, title: str, message: str) -> tuple[str, int]:
    """The console's page for a refusal or a missing thing (the REST API answers JSON instead)."""
    return render_template("console/error.html", status=status, title=title, message=message), status


# The people of each role, as the casino says it: "compliance" is a department, not a count.
PEOPLE_OF_ROLE = {Role.ADMIN: "admins", Role.OPERATOR: "operators", Role.SUPERVISOR: "supervisors",
                  Role.COMPLIANCE: "compliance staff"}


def _roles_text(roles: tuple[Role, ...]) -> str:
    names = [PEOPLE_OF_ROLE.get(role, f"{role} staff") for role in roles]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def nav_for(staff: CurrentStaff | None) -> list[tuple[str, str]]:
    """The pages this person may open: (label, path)."""
    if staff is None:
        return []
    return [(label, path) for label, path, roles in PAGES if staff.role in roles]
