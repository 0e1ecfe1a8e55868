"""Shoes: open, close, lock, and advance a table's shoe (its order stays secret until it closes)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import LiteralString

from psycopg import sql
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..transaction import Statements, returned


@dataclass(frozen=True, slots=True)
class ShoeRow:
    shoe_id: uuid.UUID
    table_id: str
    mode: str                       # virtual | physical
    commitment: str | None
    card_order: list[str] | None    # virtual shoes; secret until closed_at is set
    salt: str | None
    position: int
    dealt: list[str]                # physical shoes: every card reported so far
    opened_at: datetime
    closed_at: datetime | None


# The table a shoe belongs to (its one parameter: the shoe id), for key checks.
TABLE_OF_SHOE = sql.SQL("SELECT table_id FROM shoes WHERE shoe_id = %(subject)s")


@dataclass(frozen=True, slots=True)
class ClosedVirtualShoe:
    """What a verification of the audit log opens a closed virtual shoe's commitment with."""
    shoe_id: str
    commitment: str | None
    card_order: list[str] | None
    salt: str | None


class ShoesRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def _one(self, query: LiteralString, params: tuple) -> ShoeRow | None:
        with self.db.cursor(row_factory=class_row(ShoeRow)) as cur:
            return cur.execute(query, params).fetchone()

    def add(self, *, table_id: str, mode: str, commitment: str | None, card_order: list[str] | None,
            salt: str | None) -> ShoeRow:
        return returned(self._one(
            "INSERT INTO shoes (shoe_id, table_id, mode, commitment, card_order, salt) "
            "VALUES (%s, %s, %s, %s, %s, %s) "
            "RETURNING shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, closed_at",
            (uuid.uuid4(), table_id, mode, commitment, Jsonb(card_order) if card_order is not None else None, salt)))

    def get(self, shoe_id: uuid.UUID) -> ShoeRow | None:
        return self._one("SELECT shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, "
                         "closed_at FROM shoes WHERE shoe_id = %s", (shoe_id,))

    def current(self, table_id: str) -> ShoeRow | None:
        return self._one("SELECT shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, "
                         "closed_at FROM shoes WHERE table_id = %s AND closed_at IS NULL", (table_id,))

    def lock_current(self, table_id: str) -> ShoeRow | None:
        """The table's open shoe, locked until the transaction ends (None: it has none)."""
        return self._one("SELECT shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, "
                         "closed_at FROM shoes WHERE table_id = %s AND closed_at IS NULL FOR UPDATE", (table_id,))

    def lock(self, shoe_id: uuid.UUID) -> ShoeRow | None:
        return self._one("SELECT shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, "
                         "closed_at FROM shoes WHERE shoe_id = %s FOR UPDATE", (shoe_id,))

    def close(self, shoe_id: uuid.UUID) -> ShoeRow:
        return returned(self._one(
            "UPDATE shoes SET closed_at = now() WHERE shoe_id = %s "
            "RETURNING shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, closed_at",
            (shoe_id,)))

    def advance(self, shoe_id: uuid.UUID, position: int) -> None:
        """A virtual shoe has dealt up to `position` (the row is locked by the caller)."""
        self.db.execute("UPDATE shoes SET position = %s WHERE shoe_id = %s", (position, shoe_id))

    def record_dealt(self, shoe_id: uuid.UUID, card: str) -> None:
        """A physical shoe gave out `card` (the row is locked by the caller)."""
        self.db.execute("UPDATE shoes SET dealt = dealt || %s, position = position + 1 WHERE shoe_id = %s",
                        (Jsonb([card]), shoe_id))

    def closed_virtual(self) -> list[ClosedVirtualShoe]:
        """Every closed virtual shoe, in opening order: what a verification of the audit log opens
        each commitment with."""
        with self.db.cursor(row_factory=class_row(ClosedVirtualShoe)) as cur:
            return cur.execute("SELECT shoe_id::text AS shoe_id, commitment, card_order, salt FROM shoes "
                               "WHERE mode = 'virtual' AND closed_at IS NOT NULL "
                               "ORDER BY opened_at, shoe_id").fetchall()
