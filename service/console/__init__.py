"""The back-office console at /console/: server-rendered pages for staff signed in as themselves,
one more adapter on the same handlers and queries as the REST API."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, current_app, redirect, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.wrappers import Response

from ..web import browser as security
from . import actors, fields
from .auth import current_staff, error_page, nav_for, signed_in
from .pages import (
    access,
    account,
    audit,
    cage,
    count,
    floor,
    login,
    paytables,
    recall,
    reports,
    screens,
    statement,
    table_chips,
    tables,
)

# Every page module's blueprint (each `blp`, its routes under /console).
PAGES = (login, account, access, floor, tables, screens, table_chips, cage, count, statement, reports, paytables,
         recall, audit)

__all__ = ["install", "current_staff"]


def _core() -> Blueprint:
    """/console/ itself, the static files (htmx, the stylesheet) and the layout's templates."""
    core = Blueprint("console", __name__, url_prefix="/console", template_folder="templates",
                     static_folder="static", static_url_path="/static")

    @core.get("/")
    def home() -> Response:
        return redirect("/console/floor")

    return core


def install(app: Flask) -> None:
    """Register the console on the app: its pages, the filters its templates use and what every
    page's layout shows (who is signed in, their pages). The browser protections (CSRF, headers)
    are the app's, installed before (service.web.browser)."""
    fields.install(app)
    actors.install(app)
    app.register_blueprint(_core())
    for page in PAGES:
        app.register_blueprint(page.blp)
    # A path no route matches belongs to no blueprint, so these are the app's handlers: the
    # console's page for a person in a browser, the REST API's JSON body everywhere else.
    app.register_error_handler(404, _not_found)
    app.register_error_handler(405, _method_not_allowed)
    app.register_error_handler(413, _too_large)

    @app.context_processor
    def layout() -> dict[str, object]:
        if not security.is_console_request():
            return {}
        staff = signed_in()
        return {"staff": staff, "nav": nav_for(staff)}


def _api_error(error: HTTPException) -> Any:
    return current_app.extensions["pontoon.api"].handle_http_exception(error)


def _not_found(error: HTTPException) -> Any:
    if not security.is_console_request():
        return _api_error(error)
    return error_page(404, "Page not found", f"There is no page at {request.path}. Check the address, or "
                                             "choose a page from the menu.")


def _method_not_allowed(error: HTTPException) -> Any:
    if not security.is_console_request():
        return _api_error(error)
    html, status = error_page(405, "Not done here", "This page does not take that request. Go back and use "
                                                    "the page's own buttons and forms.")
    allowed = error.valid_methods if isinstance(error, MethodNotAllowed) else None
    return html, status, {"Allow": ", ".join(allowed)} if allowed else {}


def _too_large(error: HTTPException) -> Any:
    if not security.is_console_request():
        return _api_error(error)
    return error_page(413, "Too much sent", "The form sent more than the console takes. Go back and shorten what "
                                            "you entered.")
