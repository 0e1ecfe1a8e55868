"""The dealer's screen at /dealer/: a touch screen at one table, on which a dealer signs in and runs
the table's rounds, one more adapter on the same handlers and queries as the REST API and the console."""
from __future__ import annotations

from flask import Blueprint, Flask, redirect
from werkzeug.wrappers import Response

from . import buy_ins, identity, screen, slips, words

__all__ = ["install"]


def _core() -> Blueprint:
    """/dealer/ itself, its static files (its stylesheet and key handling) and its templates."""
    core = Blueprint("dealer", __name__, url_prefix="/dealer", template_folder="templates",
                     static_folder="static", static_url_path="/static")

    @core.get("/")
    def home() -> Response:
        return redirect("/dealer/table")

    return core


def install(app: Flask) -> None:
    """Register the dealer's screen on the app: the way a screen is enrolled and a dealer signs
    in on it (identity), and the table's own screen (screen)."""
    app.register_blueprint(_core())
    words.install(app)
    identity.install(app)
    app.register_blueprint(screen.blp)
    # The table's books at the screen: buy-ins, and the slips the dealer signs.
    buy_ins.install(app)
    app.register_blueprint(slips.blp)
