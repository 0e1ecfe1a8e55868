"""The console's browser protections: the cookie-signing key every process shares, cookie flags,
CSRF on every console form, and the headers (Content-Security-Policy and the rest) on its pages."""
from __future__ import annotations

import secrets

from flask import Flask, Response, current_app, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError, CSRFProtect
from itsdangerous import URLSafeTimedSerializer

from ..config import Settings
from ..store.uow import unit_of_work

CONSOLE_PREFIX = "/console"
SIGNING_SECRET_NAME = "console_signing_key"

# No inline script at all (htmx is a file of our own); styles may sit in attributes, as a chart's
# bars do; nothing is framed, and forms post only back here.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                           "base-uri 'self'; object-src 'none'")


def is_console_request() -> bool:
    return request.path == CONSOLE_PREFIX or request.path.startswith(CONSOLE_PREFIX + "/")


class ConsoleCookieSession(SecureCookieSessionInterface):
    """Flask's signed-cookie session, for console requests only (the REST API has none), with the
    signing key fetched the first time a console request needs it. The cookie holds nothing but
    the CSRF token's seed: who is signed in is a server-side session (auth.py), so the key's
    reach is forms, not identities."""

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not is_console_request():
            return None
        if not app.secret_key:
            app.secret_key = shared_signing_key(app)
        return super().get_signing_serializer(app)


def shared_signing_key(app: Flask) -> str:
    """The key from the database, made by the first process that asked: every gunicorn worker, on
    every host of the service and after every restart, signs and checks cookies with the same one,
    with nothing to configure or keep on disk. (PONTOON_SECRET_KEY, when set, is used instead.)"""
    pool = app.extensions.get("pontoon.pool")
    if pool is None:
        return secrets.token_urlsafe(48)   # an app with no database serves no console
    with unit_of_work(pool) as uow, uow.transaction():
        key = uow.staff.generated_secret(SIGNING_SECRET_NAME)
    return key


def install(app: Flask, settings: Settings) -> CSRFProtect:
    """Cookie flags, the session interface, CSRF checked on console POSTs only (the REST API is
    called with bearer keys, which a browser never sends on its own), and the console's headers."""
    app.config.update(
        SESSION_COOKIE_NAME="pontoon_console_form",
        SESSION_COOKIE_PATH=CONSOLE_PREFIX,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.console_secure_cookies,
        WTF_CSRF_CHECK_DEFAULT=False,
        # A form left open stays good as long as the session it belongs to could.
        WTF_CSRF_TIME_LIMIT=int(settings.console_session_hours * 3600),
    )
    if settings.secret_key:
        app.secret_key = settings.secret_key
    app.session_interface = ConsoleCookieSession()
    csrf = CSRFProtect(app)

    @app.before_request
    def check_console_form() -> None:
        if is_console_request() and request.method not in ("GET", "HEAD", "OPTIONS"):
            csrf.protect()

    app.after_request(_console_headers)
    app.register_error_handler(CSRFError, _csrf_refused)
    return csrf


def _console_headers(response: Response) -> Response:
    if is_console_request():
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "same-origin"
        if not request.path.startswith(CONSOLE_PREFIX + "/static/"):
            # Pages show who played what and for how much: no copy kept by the browser or a proxy.
            response.headers["Cache-Control"] = "no-store"
    return response


def _csrf_refused(error: CSRFError) -> tuple[str, int]:
    current_app.logger.info("console form refused: %s", error.description)
    return render_template("console/error.html", status=400, title="Form refused",
                           message="The form was refused because it was stale or did not come from this "
                                   "console. Go back, reload the page and try again."), 400
