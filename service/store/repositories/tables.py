"""Tables: create, read, and lock a table's row to serialise its shoe and round openings."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..pending import Pending


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


class TablesRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def add(self, *, table_id: str, game: str, rules: str, rules_version: int, paytable: str | None,
            paytable_version: int | None, limits: dict, created_by: str | None) -> TableRow | None:
        """The new table, or None when the id is taken."""
        with self.conn.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(
                f"INSERT INTO tables (table_id, game, rules, rules_version, paytable, paytable_version, limits, "
                f"created_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id) DO NOTHING "
                f"RETURNING {_COLUMNS}",
                (table_id, game, rules, rules_version, paytable, paytable_version, Jsonb(limits), created_by),
            ).fetchone()

    def get(self, table_id: str) -> TableRow | None:
        with self.conn.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM tables WHERE table_id = %s", (table_id,)).fetchone()

    def lock(self, table_id: str) -> TableRow | None:
        """The table row, locked until the transaction ends: shoe and round openings queue here."""
        return self.lock_pending(table_id).one()

    def lock_pending(self, table_id: str) -> Pending[TableRow]:
        """lock(), sent now and read later."""
        return Pending(self.conn.cursor(row_factory=class_row(TableRow)).execute(
            f"SELECT {_COLUMNS} FROM tables WHERE table_id = %s FOR UPDATE", (table_id,)))
