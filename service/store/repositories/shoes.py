"""Shoes: open, close, lock, and advance a table's shoe (its order stays secret until it closes)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..pending import Pending
from ..transaction import Statements, returned
from .keys import KeyGuard, allowed_key


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
TABLE_OF_SHOE = "SELECT table_id FROM shoes WHERE shoe_id = %s"
SHOE_COLUMNS = ("shoe_id", "table_id", "mode", "commitment", "card_order", "salt", "position", "dealt", "opened_at",
                "closed_at")
_COLUMNS = ", ".join(SHOE_COLUMNS)


class ShoesRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def _one(self, query: str, params: tuple) -> ShoeRow | None:
        with self.db.cursor(row_factory=class_row(ShoeRow)) as cur:
            return cur.execute(query, params).fetchone()

    def add(self, *, table_id: str, mode: str, commitment: str | None, card_order: list[str] | None,
            salt: str | None) -> ShoeRow:
        return returned(self._one(
            f"INSERT INTO shoes (shoe_id, table_id, mode, commitment, card_order, salt) "
            f"VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_COLUMNS}",
            (uuid.uuid4(), table_id, mode, commitment, Jsonb(card_order) if card_order is not None else None, salt)))


    def get(self, shoe_id: uuid.UUID) -> ShoeRow | None:
        return self._one(f"SELECT {_COLUMNS} FROM shoes WHERE shoe_id = %s", (shoe_id,))

    def current(self, table_id: str) -> ShoeRow | None:
        return self._one(f"SELECT {_COLUMNS} FROM shoes WHERE table_id = %s AND closed_at IS NULL", (table_id,))

    def lock_current(self, table_id: str) -> ShoeRow | None:
        return self.lock_current_pending(table_id).one()

    def lock_current_pending(self, table_id: str, guard: KeyGuard | None = None) -> Pending[ShoeRow]:
        """lock_current(), sent now and read later; with `guard`, only for a key that may act on
        the table (TablesRepository.lock_pending)."""
        query = f"SELECT {_COLUMNS} FROM shoes WHERE table_id = %(table_id)s AND closed_at IS NULL "
        if guard is not None:
            query += f"AND EXISTS ({allowed_key('shoes.table_id')}) "
        return Pending(self.db.cursor(row_factory=class_row(ShoeRow)).execute(
            query + "FOR UPDATE", {"table_id": table_id, **(guard.params() if guard else {})}))

    def lock(self, shoe_id: uuid.UUID) -> ShoeRow | None:
        return self._one(f"SELECT {_COLUMNS} FROM shoes WHERE shoe_id = %s FOR UPDATE", (shoe_id,))

    def close(self, shoe_id: uuid.UUID) -> ShoeRow:
        return returned(self._one(f"UPDATE shoes SET closed_at = now() WHERE shoe_id = %s RETURNING {_COLUMNS}",
                         (shoe_id,)))


    def advance(self, shoe_id: uuid.UUID, position: int) -> None:
        """A virtual shoe has dealt up to `position` (the row is locked by the caller)."""
        self.db.execute("UPDATE shoes SET position = %s WHERE shoe_id = %s", (position, shoe_id))

    def record_dealt(self, shoe_id: uuid.UUID, card: str) -> None:
        """A physical shoe gave out `card` (the row is locked by the caller)."""
        self.db.execute("UPDATE shoes SET dealt = dealt || %s, position = position + 1 WHERE shoe_id = %s",
                          (Jsonb([card]), shoe_id))

    def closed_virtual(self) -> list[tuple[str, str | None, list[str] | None, str | None]]:
        """(shoe id, commitment, card order, salt) of every closed virtual shoe, in opening order:
        what a verification of the audit log opens each commitment with."""
        return self.db.execute("SELECT shoe_id::text, commitment, card_order, salt FROM shoes "
                               "WHERE mode = 'virtual' AND closed_at IS NOT NULL "
                               "ORDER BY opened_at, shoe_id").fetchall()
