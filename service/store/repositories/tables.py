"""Tables: create, read, and lock a table's row to serialise its shoe and round openings."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..pending import Pending
from ..transaction import Statements
from .keys import KeyGuard, allowed_key


@dataclass(frozen=True, slots=True)
class TableRow:
    table_id: str
    game: str
    rules: str
    rules_version: int
    paytable: str | None
    paytable_version: int | None
    pending_paytable_version: int | None
    limits: dict[str, Any]
    created_by: str | None
    created_at: datetime


_COLUMNS = ("table_id, game, rules, rules_version, paytable, paytable_version, pending_paytable_version, "
            "limits, created_by, created_at")


class LockedTable(NamedTuple):
    row: TableRow
    key_id: uuid.UUID | None        # the request's key, which a guard found allowed


_LOCK = f"SELECT {_COLUMNS}, NULL::uuid FROM tables WHERE table_id = %(table_id)s FOR UPDATE"
_LOCK_GUARDED = (f"SELECT {_COLUMNS}, allowed.key_id FROM tables "
                 f"CROSS JOIN LATERAL ({allowed_key('tables.table_id')}) AS allowed "
                 "WHERE tables.table_id = %(table_id)s FOR UPDATE OF tables")


class TablesRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, *, table_id: str, game: str, rules: str, rules_version: int, paytable: str | None,
            paytable_version: int | None, limits: dict, created_by: str | None) -> TableRow | None:
        """The new table, or None when the id is taken."""
        with self.db.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(
                f"INSERT INTO tables (table_id, game, rules, rules_version, paytable, paytable_version, limits, "
                f"created_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id) DO NOTHING "
                f"RETURNING {_COLUMNS}",
                (table_id, game, rules, rules_version, paytable, paytable_version, Jsonb(limits), created_by),
            ).fetchone()

    def get(self, table_id: str) -> TableRow | None:
        with self.db.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM tables WHERE table_id = %s", (table_id,)).fetchone()

    def lock(self, table_id: str) -> TableRow | None:
        """The table row, locked until the transaction ends: shoe and round openings queue here."""
        locked = self.lock_pending(table_id).one()
        return locked.row if locked is not None else None

    def lock_pending(self, table_id: str, guard: KeyGuard | None = None) -> Pending[LockedTable]:
        """lock(), sent now and read later. With `guard` (the request's key, its check sent and not
        yet read) the table is found, and locked, only if the key may act on it (key_id: that key),
        so a key its check refuses locks nothing."""
        query = _LOCK if guard is None else _LOCK_GUARDED
        cursor = self.db.execute(query, {"table_id": table_id, **(guard.params() if guard else {})})
        return Pending(cursor, lambda row: LockedTable(TableRow(*row[:-1]), row[-1]))
