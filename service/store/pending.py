"""A query sent now and read later, so that in pipeline mode several reads share one round trip."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

import psycopg

T = TypeVar("T")


class Pending(Generic[T]):
    """The row a query will give. Outside pipeline mode the query has already run; inside it,
    nothing is read until `one()`, and then every query sent before it comes back in the same
    round trip. Each is read once."""

    __slots__ = ("_cursor", "_convert")

    def __init__(self, cursor: psycopg.Cursor, convert: Callable[[Any], T] | None = None) -> None:
        self._cursor = cursor
        self._convert = convert

    def one(self) -> T | None:
        with self._cursor as cur:
            row = cur.fetchone()
        if row is None:
            return None
        if self._convert is None:
            return cast(T, row)
        return self._convert(row)
