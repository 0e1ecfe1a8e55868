"""The request's unit of work: opened on first use, closed (rolled back if uncommitted) when the
request ends."""
from __future__ import annotations

from contextlib import ExitStack

from flask import Flask, current_app, g

from ..metrics.collectors import connection_returned, connection_taken
from ..store.uow import UnitOfWork, unit_of_work


def request_uow() -> UnitOfWork:
    """The request's unit of work; its connection goes back to the pool when the request ends."""
    if "uow" not in g:
        stack = ExitStack()
        g.uow = stack.enter_context(unit_of_work(current_app.extensions["pontoon.pool"]))
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


def install(app: Flask) -> None:
    app.teardown_appcontext(close_request_uow)
