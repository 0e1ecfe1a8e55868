"""A console form's command carried out in the request's unit of work: committed when the handler
succeeds, rolled back whole when it refuses, so a refused form leaves nothing half-written."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..refusals import CommandRefused
from ..web.request_scope import request_uow


def carry_out(handler: Callable[..., Any], command: Any, *extra: Any) -> Any:
    """`handler(command, uow, *extra)`, committed; a CommandRefused is rolled back and re-raised for
    the page to show beside its fields."""
    uow = request_uow()
    try:
        result = handler(command, uow, *extra)
    except CommandRefused:
        uow.rollback()
        raise
    uow.commit()
    return result
