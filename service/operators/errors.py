"""The one refusal the round errors lack: a caller who may use the endpoint but not on this item."""
from __future__ import annotations

from ..refusals import CommandRefused


class Forbidden(CommandRefused):
    """Refused for who the caller is (the API answers 403), e.g. approving one's own draft."""

    code = "forbidden"
