"""Which screen this is and who deals at it: the screen's device cookie names an enrolled screen
bound to one table, and a dealer's session on that screen names the dealer (device.py checks both
once per request). The screen's views put dealer_required before them and read current_dealer()."""
from __future__ import annotations

from typing import Any

from flask import Flask

from ..web import browser
from . import calls, enrolment, sign_in
from .device import DealerAtScreen, ScreenAtTable, dealer_required, enrolled_screen, signed_in_dealer

__all__ = ["DealerAtScreen", "ScreenAtTable", "current_dealer", "dealer_required", "enrolled_screen", "install",
           "signed_in_dealer"]


def current_dealer() -> DealerAtScreen:
    """The dealer at the screen, in a view behind dealer_required."""
    dealer = signed_in_dealer()
    if dealer is None:
        raise LookupError("current_dealer() outside a view behind dealer_required")
    return dealer


def install(app: Flask) -> None:
    """The enrolment and sign-in pages, the call for a supervisor, and what every screen page's
    layout (dealer/base.html) shows: the table, the screen's name and the dealer signed in."""
    for page in (enrolment, sign_in, calls):
        app.register_blueprint(page.blp)

    @app.context_processor
    def layout() -> dict[str, Any]:
        if not browser.is_dealer_request():
            return {}
        # The table's open call is read only by the page that shows it (dealer/_call_supervisor.html).
        return {"this_screen": enrolled_screen(), "this_dealer": signed_in_dealer(),
                "supervisor_call": calls.open_call_here}
