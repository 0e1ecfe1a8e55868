"""What a repository sends its statements through, and the check that a statement gave its row."""
from __future__ import annotations

from typing import Any, TypeAlias, TypeVar

import psycopg

# A connection in autocommit mode: a statement outside a `with conn.transaction()` block is a
# transaction of its own; the statements inside one commit or roll back together.
Statements: TypeAlias = psycopg.Connection[Any]
T = TypeVar("T")


def returned(row: T | None) -> T:
    """The row a statement that always gives one gave (an aggregate, an INSERT ... RETURNING of a
    row it must write, an UPDATE of a row the caller holds locked)."""
    if row is None:
        raise psycopg.DataError("the statement gave no row")
    return row
