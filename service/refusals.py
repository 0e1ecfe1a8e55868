"""What a command can be refused for; each carries a stable code a terminal can act on."""
from __future__ import annotations

from typing import Any

from .store.repositories.audit import AuditRecord


class CommandRefused(Exception):
    """A command that changed nothing. `audit` names a record to keep even so (in a transaction
    of its own, since the command's transaction is rolled back)."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None, errors: dict[str, Any] | None = None,
                 legal_actions: list[dict] | None = None, audit: AuditRecord | None = None,
                 locations: dict[str, dict[str, int]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.errors = errors
        self.legal_actions = legal_actions
        self.audit = audit
        self.locations = locations      # field -> {"line", "column"} where a submitted document writes it


class NotFound(CommandRefused):
    code = "not_found"


class Conflict(CommandRefused):
    """Not allowed in the state things are in now (rules, phase, shoe, version)."""

    code = "conflict"


class Invalid(CommandRefused):
    """Not allowed whatever the state: a value outside what the rules or the table accept."""

    code = "invalid"
