"""A console form's command carried out in the request's unit of work by run_command: committed
when the handler succeeds, rolled back whole when it refuses (so a refused form leaves nothing
half-written), the refusal's audit record kept as the REST API keeps it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..command_runner import run_command
from ..web.request_scope import request_uow


def carry_out(handler: Callable[..., Any], command: Any, *extra: Any) -> Any:
    """`handler(command, uow, *extra)`, committed; a CommandRefused goes on up for the page to show
    beside its fields, with the status its class carries."""
    uow = request_uow()
    return run_command(uow, lambda: handler(command, uow, *extra))
