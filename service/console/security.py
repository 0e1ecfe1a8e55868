"""The console's browser protections: the cookie-signing key (from outside the database), cookie flags,
CSRF on every console form, and the headers (Content-Security-Policy and the rest) on its pages."""
from __future__ import annotations

from flask import Flask, Response, current_app, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect

from ..config import Settings
from ..staff.keys import StaffKeys

CONSOLE_PREFIX = "/console"

# No inline script at all (htmx is a file of our own); styles may sit in attributes, as a chart's
# bars do; nothing is framed, and forms post only back here.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                           "base-uri 'self'; object-src 'none'")


def is_console_request() -> bool:
    return request.path == CONSOLE_PREFIX or request.path.startswith(CONSOLE_PREFIX + "/")


def install(app: Flask, settings: Settings, keys: StaffKeys) -> CSRFProtect:
    """Cookie flags, the signing key, CSRF checked on console POSTs only (the REST API is
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
    # Flask's signed cookie holds the CSRF token's seed (and a TOTP secret on offer while its
    # person enrols): who is signed in is a server-side session (auth.py).
    app.secret_key = keys.signing_key
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
