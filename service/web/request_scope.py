"""The request's unit of work: opened on first use, closed (rolled back if uncommitted) when the
request ends."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack

from flask import Flask, current_app, g
from psycopg_pool import ConnectionPool

from ..metrics.collectors import connection_returned, connection_taken
from ..store.uow import UnitOfWork, unit_of_work

# Opens a unit of work on a connection of the pool, given back when its block ends.
OpenUnitOfWork = Callable[[ConnectionPool], AbstractContextManager[UnitOfWork]]
_OPEN = "pontoon.open_unit_of_work"


def request_uow() -> UnitOfWork:
    """The request's unit of work; its connection goes back to the pool when the request ends."""
    if "uow" not in g:
        stack = ExitStack()
        g.uow = stack.enter_context(current_app.extensions[_OPEN](current_app.extensions["pontoon.pool"]))
        g.uow_scope = stack
        connection_taken()
    uow: UnitOfWork = g.uow
    return uow


def close_request_uow(_exc: BaseException | None = None) -> None:
    g.pop("uow", None)
    stack: ExitStack | None = g.pop("uow_scope", None)
    if stack is not None:
        try:
            stack.close()
        finally:
            connection_returned()


def install(app: Flask, open_unit_of_work: OpenUnitOfWork = unit_of_work) -> None:
    """Requests of `app` work through units of work `open_unit_of_work` opens."""
    app.extensions[_OPEN] = open_unit_of_work
    app.teardown_appcontext(close_request_uow)
