"""The error a frozen rules object raises for a value it cannot play, naming the field at fault."""
from __future__ import annotations


class RuleFieldError(ValueError):
    """A rules value the game cannot play, with the name of the field it belongs to (as the
    object names it: the loader files the reason under the field's path in the file)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field} {reason}")
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[type[RuleFieldError], tuple[str, str]]:
        # The two arguments, not the one message ValueError would pickle.
        return type(self), (self.field, self.reason)
