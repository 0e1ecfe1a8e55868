"""The table's screen: its shoe, the round in play, and the dealer's every card and decision."""
from __future__ import annotations

from flask import Blueprint

blp = Blueprint("dealer_screen", __name__, url_prefix="/dealer")
