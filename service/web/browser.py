"""The browser adapters' protections (the staff console and the dealer's screen): the cookie-signing
key (from outside the database), cookie flags, CSRF on every form, the headers
(Content-Security-Policy and the rest) on their pages, and the static files they share (htmx)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect

from ..config import Settings
from ..games import TEMPLATES_FOLDER, game_view, seat_name
from ..staff.keys import StaffKeys
from . import format as page_format

CONSOLE_PREFIX = "/console"
DEALER_PREFIX = "/dealer"
ASSETS_PREFIX = "/assets"
# Where a person works in a browser: the staff's console and the dealer's screen at a table.
BROWSER_PREFIXES = (CONSOLE_PREFIX, DEALER_PREFIX)

# No inline script at all (htmx is a file of our own); styles may sit in attributes, as a chart's
# bars do; nothing is framed, and forms post only back here.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                           "base-uri 'self'; object-src 'none'")


def _under(prefix: str) -> bool:
    return request.path == prefix or request.path.startswith(prefix + "/")


def is_console_request() -> bool:
    return _under(CONSOLE_PREFIX)


def is_dealer_request() -> bool:
    return _under(DEALER_PREFIX)


def is_browser_request() -> bool:
    """A request of the console's or the dealer's screen (not the REST API's)."""
    return any(_under(prefix) for prefix in BROWSER_PREFIXES) or _under(ASSETS_PREFIX)


def install(app: Flask, settings: Settings, keys: StaffKeys) -> CSRFProtect:
    """Cookie flags, the signing key, CSRF checked on the browser adapters' POSTs only (the REST
    API is called with bearer keys, which a browser never sends on its own), their headers, and
    the shared static files under /assets."""
    app.config.update(
        SESSION_COOKIE_NAME="pontoon_console_form",
        # The form cookie holds only the CSRF token's seed (and a TOTP secret on offer): the console's
        # and the dealer's screen's forms both need it, so it is sent to both and to nothing else's
        # advantage (the REST API never reads it).
        SESSION_COOKIE_PATH="/",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.secure_cookies,
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
        if (is_console_request() or is_dealer_request()) and request.method not in ("GET", "HEAD", "OPTIONS"):
            csrf.protect()

    app.after_request(_browser_headers)
    app.register_error_handler(CSRFError, _csrf_refused)
    app.register_blueprint(Blueprint("assets", __name__, static_folder=str(Path(__file__).parent / "static"),
                                     static_url_path=ASSETS_PREFIX, template_folder="templates"))
    # What both adapters' pages draw with: the filters (money, cards, times), the cards' partials,
    # and each game's own parts of the pages (its hands, its bank), found by the game's name.
    page_format.install(app)
    app.register_blueprint(Blueprint("game_views", "service.games", template_folder=TEMPLATES_FOLDER))
    app.add_template_global(game_view, "game_view")
    app.add_template_global(seat_name, "seat_name")
    return csrf


def _browser_headers(response: Response) -> Response:
    if is_browser_request():
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "same-origin"
        if not request.path.startswith((CONSOLE_PREFIX + "/static/", ASSETS_PREFIX + "/")):
            # Pages show who played what and for how much: no copy kept by the browser or a proxy.
            response.headers["Cache-Control"] = "no-store"
    return response


def _csrf_refused(error: CSRFError) -> tuple[str, int]:
    current_app.logger.info("form refused: %s", error.description)
    if is_dealer_request():
        return render_template("dealer/form_refused.html"), 400
    return render_template("console/error.html", status=400, title="Form refused",
                           message="The form was refused because it was stale or did not come from this "
                                   "console. Go back, reload the page and try again."), 400
