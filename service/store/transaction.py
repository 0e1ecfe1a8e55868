"""The unit of work's connection with its transaction opened and ended by explicit statements."""
from __future__ import annotations

from typing import Any, LiteralString, Protocol, TypeVar, overload

import psycopg
from psycopg.rows import RowFactory

Params = tuple[Any, ...] | dict[str, Any] | list[Any] | None
T = TypeVar("T")


class Statements(Protocol):
    """What a repository sends its statements through: a Transaction, or a plain psycopg
    connection (a worker's, a command-line tool's) that runs its own transactions."""

    def execute(self, query: LiteralString, params: Params = None, *,
                prepare: bool | None = None) -> psycopg.Cursor[Any]: ...

    @overload
    def cursor(self, *, row_factory: RowFactory[Any]) -> psycopg.Cursor[Any]: ...

    @overload
    def cursor(self, name: str, *, row_factory: RowFactory[Any]) -> psycopg.ServerCursor[Any]: ...

    @property
    def info(self) -> psycopg.ConnectionInfo: ...


class Transaction:
    """An autocommit connection whose transaction is opened with `BEGIN`, sent before the first
    statement after each commit or rollback, and ended with `COMMIT`. In pipeline mode both are
    ordinary statements of the pipeline: BEGIN travels with the statement after it and COMMIT with
    the last writes, so neither costs a wait of its own (psycopg's own transactions wait for their
    BEGIN in pipeline mode). A statement that fails in a pipeline leaves the transaction aborted
    when the pipeline syncs: rollback() ends it."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        if not conn.autocommit:
            raise psycopg.ProgrammingError("a Transaction needs an autocommit connection")
        self.conn = conn
        self._begun = False

    @property
    def info(self) -> psycopg.ConnectionInfo:
        """Which server and database the connection is to (psycopg's ConnectionInfo)."""
        return self.conn.info

    def begin(self) -> None:
        if not self._begun:
            self.conn.execute("BEGIN", prepare=False)
            self._begun = True

    def execute(self, query: LiteralString, params: Params = None, *,
                prepare: bool | None = None) -> psycopg.Cursor[Any]:
        self.begin()
        return self.conn.execute(query, params, prepare=prepare)

    @overload
    def cursor(self, *, row_factory: RowFactory[Any]) -> psycopg.Cursor[Any]: ...

    @overload
    def cursor(self, name: str, *, row_factory: RowFactory[Any]) -> psycopg.ServerCursor[Any]: ...

    def cursor(self, name: str = "", *,
               row_factory: RowFactory[Any]) -> psycopg.Cursor[Any] | psycopg.ServerCursor[Any]:
        """A cursor in the transaction; with `name`, a server-side one (psycopg's ServerCursor)."""
        self.begin()
        if name:
            return self.conn.cursor(name, row_factory=row_factory)
        return self.conn.cursor(row_factory=row_factory)

    def commit(self) -> None:
        """COMMIT: outside a pipeline it is done on return; in one, a failure of it or of any
        statement before it is raised at the pipeline's next read or sync."""
        if self._begun:
            self._begun = False
            self.conn.execute("COMMIT", prepare=False)

    def rollback(self) -> None:
        """Ends whatever transaction the server holds for the connection (in a pipeline, after
        syncing it), aborted or not."""
        self._begun = False
        self.conn.rollback()


def returned(row: T | None) -> T:
    """The row a statement that always gives one gave (an aggregate, an INSERT ... RETURNING of a
    row it must write, an UPDATE of a row the caller holds locked)."""
    if row is None:
        raise psycopg.DataError("the statement gave no row")
    return row
