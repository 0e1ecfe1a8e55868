"""Voiding a round: the reason asked for, by the API's body and the console's form alike."""
from __future__ import annotations

from .base import RequestSchema
from .paytables import reason_field


class VoidRoundSchema(RequestSchema):
    reason = reason_field(required=True)
