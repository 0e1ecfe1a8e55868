"""Paytable versions and table assignments (migration 0004): rows in, typed rows out."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, fields
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from psycopg import sql
from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from ..transaction import Statements, returned

# Lock class for pg_advisory_xact_lock(int, int): numbering a paytable's versions one at a time.
_NUMBERING_LOCK = 0x7A7B


class VersionStatus(StrEnum):
    """A paytable version is a draft until a second operator approves or rejects it; then it never
    changes (migration 0004's trigger)."""

    DRAFT = "draft"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class VersionRow:
    name: str
    version: int
    content: dict[str, Any]
    source: str
    source_format: str              # yaml | json | file
    based_on_version: int | None
    status: VersionStatus
    author: str
    reason: str
    created_at: datetime
    decided_by: str | None
    decided_at: datetime | None
    decision_reason: str | None
    house_edge_percent: Decimal | None
    rtp_percent: Decimal | None
    evaluation: dict[str, Any] | None

    def __post_init__(self) -> None:
        # Rows are built from the database's text; the status is named by the enum from then on.
        object.__setattr__(self, "status", VersionStatus(self.status))


@dataclass(frozen=True, slots=True)
class ApprovedRow:
    """What playing a version needs to know of its row: its status, its content as JSON text,
    and whether this very transaction wrote the row (a version approved here might still roll back)."""
    status: VersionStatus
    content: str
    decided_here: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", VersionStatus(self.status))


@dataclass(frozen=True, slots=True)
class AssignmentRow:
    id: int
    table_id: str
    paytable: str
    version: int
    previous_version: int | None
    assigned_by: str
    reason: str
    assigned_at: datetime
    applied_round_id: uuid.UUID | None
    applied_at: datetime | None
    superseded_at: datetime | None



def _columns(row: type) -> sql.Composed:
    """The row class's fields as the column list a statement selects or returns, in their order."""
    return sql.SQL(", ").join(sql.Identifier(column.name) for column in fields(row))


class PaytablesRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    # ----- versions -------------------------------------------------------------------------
    def _versions(self, where: sql.SQL, params: tuple) -> list[VersionRow]:
        with self.db.cursor(row_factory=class_row(VersionRow)) as cur:
            return cur.execute(sql.SQL("SELECT {columns} FROM paytable_versions {where}").format(
                columns=_columns(VersionRow), where=where), params).fetchall()

    def database(self) -> tuple[str, int | str, str]:
        """Which database the rows come from (host, port, name): what an approved version read once
        per process is kept under, as tests and tools talk to several databases."""
        info = self.db.info
        return info.host, info.port, info.dbname

    def approved_row(self, name: str, version: int) -> ApprovedRow | None:
        """A version's status and content, and whether this very transaction wrote its row."""
        with self.db.cursor(row_factory=class_row(ApprovedRow)) as cur:
            return cur.execute("SELECT status, content::text AS content, "
                               "xmin::text::bigint = txid_current_if_assigned() %% 4294967296 AS decided_here "
                               "FROM paytable_versions WHERE name = %s AND version = %s",
                               (name, version)).fetchone()

    def seeded_names(self, names: list[str]) -> set[str]:
        """Which of `names` have their version 1 in the database."""
        with self.db.cursor(row_factory=dict_row) as cur:
            return {row["name"] for row in cur.execute(
                "SELECT name FROM paytable_versions WHERE version = 1 AND name = ANY(%s)", (names,))}

    def lock_numbering(self, name: str) -> None:
        """Serialise submissions to one paytable until this transaction ends, so two drafts
        submitted together get consecutive numbers instead of one failing on the key."""
        self.db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_NUMBERING_LOCK, name))

    def get(self, name: str, version: int) -> VersionRow | None:
        rows = self._versions(sql.SQL("WHERE name = %s AND version = %s"), (name, version))
        return rows[0] if rows else None

    def all(self, name: str | None = None) -> list[VersionRow]:
        if name is None:
            return self._versions(sql.SQL("ORDER BY name, version"), ())
        return self._versions(sql.SQL("WHERE name = %s ORDER BY version"), (name,))

    def latest_number(self, name: str) -> int | None:
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT max(version) AS latest FROM paytable_versions WHERE name = %s",
                                (name,)).fetchone()
        number: int | None = returned(found)["latest"]
        return number

    def latest_approved(self, name: str) -> VersionRow | None:
        rows = self._versions(sql.SQL("WHERE name = %s AND status = 'approved' ORDER BY version DESC LIMIT 1"),
                              (name,))
        return rows[0] if rows else None

    def add(self, *, name: str, version: int, content: dict, source: str, source_format: str,
            based_on_version: int | None, author: str, reason: str) -> VersionRow:
        with self.db.cursor(row_factory=class_row(VersionRow)) as cur:
            return returned(cur.execute(sql.SQL(
                "INSERT INTO paytable_versions (name, version, content, source, source_format, based_on_version, "
                "author, reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING {columns}").format(
                columns=_columns(VersionRow)),
                (name, version, Jsonb(content), source, source_format, based_on_version, author, reason)).fetchone())

    def seed(self, *, name: str, content: dict, source: str, reason: str) -> VersionRow | None:
        """Version 1 from its file, approved by 'system'; None when it is there already."""
        with self.db.cursor(row_factory=class_row(VersionRow)) as cur:
            return cur.execute(sql.SQL(
                "INSERT INTO paytable_versions (name, version, content, source, source_format, status, author, "
                "reason, decided_by, decided_at, decision_reason) "
                "VALUES (%s, 1, %s, %s, 'file', 'approved', 'system', %s, 'system', now(), %s) "
                "ON CONFLICT (name, version) DO NOTHING RETURNING {columns}").format(columns=_columns(VersionRow)),
                (name, Jsonb(content), source, reason, reason)).fetchone()

    def decide(self, *, name: str, version: int, status: str, decided_by: str, reason: str,
               house_edge_percent: float | None, rtp_percent: float | None,
               evaluation: dict | None) -> VersionRow | None:
        """Approve or reject a draft. The WHERE is the guard: only a draft, and never approved by
        its own author; None when the row is not (or no longer) such a draft."""
        with self.db.cursor(row_factory=class_row(VersionRow)) as cur:
            return cur.execute(sql.SQL(
                "UPDATE paytable_versions SET status = %(status)s, decided_by = %(by)s, decided_at = now(), "
                "decision_reason = %(reason)s, house_edge_percent = %(edge)s, rtp_percent = %(rtp)s, "
                "evaluation = %(evaluation)s "
                "WHERE name = %(name)s AND version = %(version)s AND status = 'draft' "
                "AND (%(status)s <> 'approved' OR author <> %(by)s) RETURNING {columns}").format(
                columns=_columns(VersionRow)),
                {"status": status, "by": decided_by, "reason": reason, "edge": house_edge_percent,
                 "rtp": rtp_percent, "evaluation": Jsonb(evaluation) if evaluation is not None else None,
                 "name": name, "version": version}).fetchone()

    # ----- assignments ----------------------------------------------------------------------
    def _assignments(self, where: sql.SQL, params: tuple) -> list[AssignmentRow]:
        with self.db.cursor(row_factory=class_row(AssignmentRow)) as cur:
            return cur.execute(sql.SQL("SELECT {columns} FROM table_paytable_assignments {where}").format(
                columns=_columns(AssignmentRow), where=where), params).fetchall()

    def assignments_of_table(self, table_id: str) -> list[AssignmentRow]:
        return self._assignments(sql.SQL("WHERE table_id = %s ORDER BY id"), (table_id,))

    def assignments_of_version(self, name: str, version: int) -> list[AssignmentRow]:
        return self._assignments(sql.SQL("WHERE paytable = %s AND version = %s ORDER BY id"), (name, version))

    def tables_running(self, name: str, version: int) -> list[str]:
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT table_id FROM tables WHERE paytable = %s "
                               "AND coalesce(paytable_version, 1) = %s ORDER BY table_id", (name, version)).fetchall()
        return [row["table_id"] for row in rows]

    def supersede_waiting(self, table_id: str) -> None:
        """Assignments still waiting for a round give way to a newer one (the table row is locked)."""
        self.db.execute("UPDATE table_paytable_assignments SET superseded_at = now() "
                          "WHERE table_id = %s AND applied_at IS NULL AND superseded_at IS NULL", (table_id,))

    def add_assignment(self, *, table_id: str, paytable: str, version: int, previous_version: int | None,
                       assigned_by: str, reason: str, in_force_now: bool) -> AssignmentRow:
        with self.db.cursor(row_factory=class_row(AssignmentRow)) as cur:
            return returned(cur.execute(sql.SQL(
                "INSERT INTO table_paytable_assignments (table_id, paytable, version, previous_version, "
                "assigned_by, reason, applied_at) VALUES (%s, %s, %s, %s, %s, %s, "
                "CASE WHEN %s THEN now() END) RETURNING {columns}").format(columns=_columns(AssignmentRow)),
                (table_id, paytable, version, previous_version, assigned_by, reason, in_force_now)).fetchone())

    def set_pending(self, table_id: str, version: int | None) -> None:
        """The version the table's next round opens under (None: the current one). The caller
        holds the table row's lock."""
        self.db.execute("UPDATE tables SET pending_paytable_version = %s WHERE table_id = %s", (version, table_id))
