"""Rounds and their events: open, lock, append events, record completion."""
from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb


@dataclass(frozen=True, slots=True)
class RoundRow:
    round_id: uuid.UUID
    table_id: str
    shoe_id: uuid.UUID | None
    shoe_mode: str | None
    status: str                     # open | complete | settled | void
    rules_ref: str
    paytable_ref: str | None
    wagers: list[dict[str, Any]]
    version: int
    result: dict[str, Any] | None
    opened_at: datetime
    completed_at: datetime | None
    settled_at: datetime | None
    voided_at: datetime | None


@dataclass(frozen=True, slots=True)
class RoundEvent:
    seq: int
    kind: str                       # card | action
    payload: dict[str, Any]


_SELECT = ("SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, r.paytable_ref, "
           "r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, r.voided_at "
           "FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id ")


class RoundsRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def _one(self, query: str, params: tuple) -> RoundRow | None:
        with self.conn.cursor(row_factory=class_row(RoundRow)) as cur:
            return cur.execute(query, params).fetchone()

    def add(self, *, table_id: str, shoe_id: uuid.UUID, rules_ref: str, paytable_ref: str | None,
            wagers: list[dict]) -> uuid.UUID:
        round_id = uuid.uuid4()
        self.conn.execute(
            "INSERT INTO rounds (round_id, table_id, shoe_id, status, rules_ref, paytable_ref, wagers) "
            "VALUES (%s, %s, %s, 'open', %s, %s, %s)",
            (round_id, table_id, shoe_id, rules_ref, paytable_ref, Jsonb(wagers)))
        return round_id

    def get(self, round_id: uuid.UUID) -> RoundRow | None:
        return self._one(_SELECT + "WHERE r.round_id = %s", (round_id,))

    def lock(self, round_id: uuid.UUID) -> RoundRow | None:
        """The round, locked until the transaction ends: one change at a time per round."""
        return self._one(_SELECT + "WHERE r.round_id = %s FOR UPDATE OF r", (round_id,))

    def table_of(self, round_id: uuid.UUID) -> str | None:
        row = self.conn.execute("SELECT table_id FROM rounds WHERE round_id = %s", (round_id,)).fetchone()
        return row[0] if row else None

    def open_on_table(self, table_id: str) -> uuid.UUID | None:
        row = self.conn.execute("SELECT round_id FROM rounds WHERE table_id = %s AND status = 'open'",
                                (table_id,)).fetchone()
        return row[0] if row else None

    def events_and_limits(self, round_id: uuid.UUID, table_id: str) -> tuple[list[RoundEvent], dict[str, Any]]:
        """The round's events in order and its table's limits, in one round trip."""
        rows = self.conn.execute(
            "SELECT e.seq, e.kind, e.payload, t.limits FROM tables t "
            "LEFT JOIN round_events e ON e.round_id = %s WHERE t.table_id = %s ORDER BY e.seq",
            (round_id, table_id)).fetchall()
        if not rows:
            raise LookupError(f"round {round_id}: no table {table_id!r}")
        events = [RoundEvent(seq, kind, payload) for seq, kind, payload, _ in rows if seq is not None]
        return events, rows[0][3]

    def append_events(self, round_id: uuid.UUID, first_seq: int, events: list[tuple[str, dict]]) -> None:
        if not events:
            return
        with self.conn.cursor() as cur:
            cur.executemany("INSERT INTO round_events (round_id, seq, kind, payload) VALUES (%s, %s, %s, %s)",
                            [(round_id, first_seq + i, kind, Jsonb(payload))
                             for i, (kind, payload) in enumerate(events)])

    def save(self, row: RoundRow, *, complete: bool, result: dict | None) -> RoundRow:
        """Bump the version (checked against the one `row` was read with under the lock); mark
        completion. Returns the round as saved (RETURNING: no second read)."""
        saved = self.conn.execute(
            "UPDATE rounds SET version = version + 1, "
            "status = CASE WHEN %(complete)s THEN 'complete' ELSE status END, "
            "result = CASE WHEN %(complete)s THEN %(result)s ELSE result END, "
            "completed_at = CASE WHEN %(complete)s THEN now() ELSE completed_at END "
            "WHERE round_id = %(round_id)s AND version = %(version)s AND status = 'open' "
            "RETURNING status, version, result, completed_at, settled_at, voided_at",
            {"complete": complete, "result": Jsonb(result) if result is not None else None,
             "round_id": row.round_id, "version": row.version}).fetchone()
        if saved is None:
            # The row is locked, so this means a caller forgot the lock: never write past it.
            raise RuntimeError(f"round {row.round_id} changed under its lock (version {row.version})")
        status, version, result_saved, completed_at, settled_at, voided_at = saved
        # The shoe's mode (joined in by the read) is not a column of rounds and never changes.
        return dataclasses.replace(row, status=status, version=version, result=result_saved,
                                   completed_at=completed_at, settled_at=settled_at, voided_at=voided_at)
