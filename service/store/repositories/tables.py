"""Tables: create, read, and lock a table's row to serialise its shoe and round openings."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..transaction import Statements


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


class TablesRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, *, table_id: str, game: str, rules: str, rules_version: int, paytable: str | None,
            paytable_version: int | None, limits: dict, created_by: str | None) -> TableRow | None:
        """The new table, or None when the id is taken."""
        with self.db.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(
                "INSERT INTO tables (table_id, game, rules, rules_version, paytable, paytable_version, limits, "
                "created_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id) DO NOTHING "
                "RETURNING table_id, game, rules, rules_version, paytable, paytable_version, pending_paytable_version, "
                "limits, created_by, created_at",
                (table_id, game, rules, rules_version, paytable, paytable_version, Jsonb(limits), created_by),
            ).fetchone()

    def get(self, table_id: str) -> TableRow | None:
        with self.db.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(
                "SELECT table_id, game, rules, rules_version, paytable, paytable_version, pending_paytable_version, "
                "limits, created_by, created_at FROM tables WHERE table_id = %s", (table_id,)).fetchone()

    def lock(self, table_id: str) -> TableRow | None:
        """The table row, locked until the transaction ends: shoe and round openings queue here."""
        with self.db.cursor(row_factory=class_row(TableRow)) as cur:
            return cur.execute(
                "SELECT table_id, game, rules, rules_version, paytable, paytable_version, pending_paytable_version, "
                "limits, created_by, created_at FROM tables WHERE table_id = %s FOR UPDATE", (table_id,)).fetchone()

    def set_rules(self, table_id: str, rules: str) -> None:
        """The table plays another rules file of its game from now on (its row is locked)."""
        self.db.execute("UPDATE tables SET rules = %s, rules_version = 1 WHERE table_id = %s", (rules, table_id))
