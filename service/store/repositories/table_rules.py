"""A table's rules changes: proposed, decided under four eyes, and applied when the next shoe opens."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..transaction import Statements, returned


class RulesChangeStatus(StrEnum):
    PROPOSED = "proposed"
    APPROVED = "approved"       # waits for the table's next shoe
    REJECTED = "rejected"
    APPLIED = "applied"


WAITING = (RulesChangeStatus.PROPOSED, RulesChangeStatus.APPROVED)


@dataclass(frozen=True, slots=True)
class RulesChangeRow:
    change_id: int
    table_id: str
    from_rules: str
    to_rules: str
    status: RulesChangeStatus
    proposed_by: str
    proposed_at: datetime
    reason: str
    decided_by: str | None
    decided_at: datetime | None
    decision_reason: str | None
    changes: list[dict[str, Any]] | None
    applied_at: datetime | None
    applied_shoe_id: uuid.UUID | None


_COLUMNS = ("change_id, table_id, from_rules, to_rules, status, proposed_by, proposed_at, reason, decided_by, "
            "decided_at, decision_reason, changes, applied_at, applied_shoe_id")


class TableRulesRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def _rows(self, where: str, params: tuple) -> list[RulesChangeRow]:
        with self.db.cursor(row_factory=class_row(RulesChangeRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM table_rules_changes WHERE {where} ORDER BY change_id",
                               params).fetchall()

    def of_table(self, table_id: str) -> list[RulesChangeRow]:
        return self._rows("table_id = %s", (table_id,))

    def get(self, table_id: str, change_id: int) -> RulesChangeRow | None:
        rows = self._rows("table_id = %s AND change_id = %s", (table_id, change_id))
        return rows[0] if rows else None

    def waiting(self, table_id: str) -> RulesChangeRow | None:
        """The table's change proposed or approved and not applied yet (at most one)."""
        rows = self._rows("table_id = %s AND status IN ('proposed', 'approved')", (table_id,))
        return rows[0] if rows else None

    def add(self, *, table_id: str, from_rules: str, to_rules: str, proposed_by: str,
            reason: str) -> RulesChangeRow:
        with self.db.cursor(row_factory=class_row(RulesChangeRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO table_rules_changes (table_id, from_rules, to_rules, proposed_by, reason) "
                f"VALUES (%s, %s, %s, %s, %s) RETURNING {_COLUMNS}",
                (table_id, from_rules, to_rules, proposed_by, reason)).fetchone())

    def decide(self, *, change_id: int, status: RulesChangeStatus, decided_by: str, reason: str,
               changes: list[dict[str, Any]] | None, waiting: tuple[str, ...]) -> RulesChangeRow | None:
        """The change decided, if it is still in one of the `waiting` statuses (None: decided meanwhile)."""
        with self.db.cursor(row_factory=class_row(RulesChangeRow)) as cur:
            return cur.execute(
                "UPDATE table_rules_changes SET status = %s, decided_by = %s, decided_at = now(), "
                "decision_reason = %s, changes = coalesce(%s, changes) "
                f"WHERE change_id = %s AND status = ANY(%s) RETURNING {_COLUMNS}",
                (status, decided_by, reason, Jsonb(changes) if changes is not None else None, change_id,
                 list(waiting))).fetchone()

    def mark_applied(self, change_id: int, shoe_id: uuid.UUID) -> RulesChangeRow | None:
        with self.db.cursor(row_factory=class_row(RulesChangeRow)) as cur:
            return cur.execute(
                "UPDATE table_rules_changes SET status = 'applied', applied_at = now(), applied_shoe_id = %s "
                f"WHERE change_id = %s AND status = 'approved' RETURNING {_COLUMNS}",
                (shoe_id, change_id)).fetchone()
