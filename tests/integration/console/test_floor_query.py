"""The floor's read: the same few statements however many tables and rounds in play there are."""
from __future__ import annotations

from typing import Any

from service.console.queries.floor import floor
from service.store.uow import UnitOfWork
from tests.support.api_client import ok

from .pit_play import api, new_table  # noqa: F401  (fixtures by name)


class CountingCursor:
    """A cursor that notes each statement it sends."""

    def __init__(self, cursor: Any, sent: list[str]) -> None:
        self.cursor = cursor
        self.sent = sent

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> CountingCursor:
        self.sent.append(str(query))
        self.cursor.execute(query, params, **kwargs)
        return self

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)

    def __iter__(self):
        return iter(self.cursor)

    def __enter__(self) -> CountingCursor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.cursor.close()


class CountingConnection:
    """A psycopg connection that notes every statement sent through it (its own execute() and
    its cursors')."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.sent: list[str] = []

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        self.sent.append(str(query))
        return self.conn.execute(query, params, **kwargs)

    def cursor(self, *args: Any, **kwargs: Any) -> CountingCursor:
        return CountingCursor(self.conn.cursor(*args, **kwargs), self.sent)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def statements_for_floor(app, settings) -> tuple[int, int]:
    """(statements sent, tables shown) for one reading of the floor."""
    with app.extensions["pontoon.pool"].connection() as conn:
        counting = CountingConnection(conn)
        shown = floor(UnitOfWork(counting), settings)
    return len(counting.sent), len(shown.tables)


def open_rounds(new_table, count: int) -> None:
    for _ in range(count):
        table_id, terminal = new_table()
        opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}), 201)
        ok(terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": "9H"}), 200)
    table_id, terminal = new_table("british-traditional")
    ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)


def test_the_floor_reads_in_a_fixed_number_of_statements(app, settings, new_table):
    open_rounds(new_table, 2)
    statements_for_floor(app, settings)    # the paytable versions in play are read once per process
    before, tables_before = statements_for_floor(app, settings)
    open_rounds(new_table, 6)
    after, tables_after = statements_for_floor(app, settings)
    assert tables_after == tables_before + 7
    # The tables with their shoes, rounds in play and gaming day's money, in one statement; the
    # dealers' calls for a supervisor waiting on the floor, in another.
    assert before == after == 2
