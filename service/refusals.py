"""What a command can be refused for; each carries a stable code a terminal can act on, and the
HTTP status every adapter answers it with."""
from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from .store.repositories.audit import AuditRecord


class CommandRefused(Exception):
    """A command that changed nothing. `audit` names a record to keep even so (in a transaction
    of its own, since the command's transaction is rolled back); `keep(uow)`, when given, is run
    in a transaction of its own too (a failed confirmation's count toward the sign-in lock)."""

    code = "refused"
    status = HTTPStatus.CONFLICT

    def __init__(self, message: str, *, code: str | None = None, errors: dict[str, Any] | None = None,
                 legal_actions: list[dict] | None = None, audit: AuditRecord | None = None,
                 locations: dict[str, dict[str, int]] | None = None,
                 keep: Callable[[Any], None] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.errors = errors
        self.legal_actions = legal_actions
        self.audit = audit
        self.locations = locations      # field -> {"line", "column"} where a submitted document writes it
        self.keep = keep                # what the refusal writes even so, given the unit of work


class NotFound(CommandRefused):
    code = "not_found"
    status = HTTPStatus.NOT_FOUND


class Conflict(CommandRefused):
    """Not allowed in the state things are in now (rules, phase, shoe, version)."""

    code = "conflict"
    status = HTTPStatus.CONFLICT


class Invalid(CommandRefused):
    """Not allowed whatever the state: a value outside what the rules or the table accept."""

    code = "invalid"
    status = HTTPStatus.UNPROCESSABLE_ENTITY


class Forbidden(CommandRefused):
    """Refused for who the caller is, though the caller may use the command: e.g. an operator
    approving their own draft (four eyes)."""

    code = "forbidden"
    status = HTTPStatus.FORBIDDEN
