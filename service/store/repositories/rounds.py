"""Rounds and their events: open, lock, append events, record completion."""
from __future__ import annotations

import dataclasses
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from psycopg import sql
from psycopg.rows import class_row, dict_row, kwargs_row
from psycopg.types.json import Jsonb

from ..transaction import Statements, returned
from .audit import LockedHead
from .shoes import ShoeRow


class RoundStatus(StrEnum):
    """Where a round is in its life: dealt to (open), played out (complete), its money in the
    ledger (settled), or voided by a supervisor (void). The rounds table's own check names the same."""

    OPEN = "open"
    COMPLETE = "complete"
    SETTLED = "settled"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class RoundRow:
    round_id: uuid.UUID
    table_id: str
    shoe_id: uuid.UUID | None
    shoe_mode: str | None
    status: RoundStatus
    rules_ref: str
    paytable_ref: str | None
    wagers: list[dict[str, Any]]
    version: int
    result: dict[str, Any] | None
    opened_at: datetime
    completed_at: datetime | None
    settled_at: datetime | None
    voided_at: datetime | None

    def __post_init__(self) -> None:
        # Rows are built from the database's text; the status is named by the enum from then on.
        object.__setattr__(self, "status", RoundStatus(self.status))


@dataclass(frozen=True, slots=True)
class RoundEvent:
    seq: int
    kind: str                       # card | action
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class WrittenEvent:
    """A round's event as recall and the screen read it: with its round and when it was written."""
    round_id: uuid.UUID
    event: RoundEvent
    written_at: datetime


@dataclass(frozen=True, slots=True)
class LockedRound:
    """What lock_with_events() read under the round's lock."""
    row: RoundRow | None
    events: list[RoundEvent]
    limits: dict[str, Any] | None
    shoe: ShoeRow | None            # its virtual shoe, locked (a shoe-dealt game's)
    head: LockedHead | None         # its table's audit chain head, locked (a shoe-dealt game's, once it has one)


@dataclass(frozen=True, slots=True)
class SavedRound:
    """A round as save() left it, and its audit chain's head as save() locked it (None: the chain
    has no head yet, or the caller had locked it before)."""
    row: RoundRow
    head: tuple[int, str] | None


# The table a round is played at (its parameter: the round id), for key checks.
TABLE_OF_ROUND = sql.SQL("SELECT table_id FROM rounds WHERE round_id = %(subject)s")


class RoundsRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, *, table_id: str, shoe_id: uuid.UUID, shoe_mode: str | None, rules_ref: str,
            paytable_ref: str | None, wagers: list[dict]) -> RoundRow:
        """The new open round, as stored (RETURNING: no second read; the shoe's mode is not a
        column of rounds, and is given back as passed)."""
        with self.db.cursor(row_factory=class_row(RoundRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO rounds (round_id, table_id, shoe_id, status, rules_ref, paytable_ref, wagers) "
                "VALUES (%(round_id)s, %(table_id)s, %(shoe_id)s, 'open', %(rules_ref)s, %(paytable_ref)s, %(wagers)s) "
                "RETURNING round_id, table_id, shoe_id, %(shoe_mode)s::text AS shoe_mode, status, rules_ref, "
                "paytable_ref, wagers, version, result, opened_at, completed_at, settled_at, voided_at",
                {"round_id": uuid.uuid4(), "table_id": table_id, "shoe_id": shoe_id, "rules_ref": rules_ref,
                 "paytable_ref": paytable_ref, "wagers": Jsonb(wagers), "shoe_mode": shoe_mode}).fetchone())

    def get(self, round_id: uuid.UUID) -> RoundRow | None:
        with self.db.cursor(row_factory=class_row(RoundRow)) as cur:
            return cur.execute(
                "SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, "
                "r.paytable_ref, r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, "
                "r.voided_at FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id WHERE r.round_id = %s",
                (round_id,)).fetchone()

    def lock(self, round_id: uuid.UUID) -> RoundRow | None:
        """The round, locked until the transaction ends: one change at a time per round."""
        with self.db.cursor(row_factory=class_row(RoundRow)) as cur:
            return cur.execute(
                "SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, "
                "r.paytable_ref, r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, "
                "r.voided_at FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id WHERE r.round_id = %s "
                "FOR UPDATE OF r", (round_id,)).fetchone()

    def open_on_table(self, table_id: str) -> uuid.UUID | None:
        """The round open on the table, if one is."""
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT round_id FROM rounds WHERE table_id = %s AND status = 'open'",
                                (table_id,)).fetchone()
        return found["round_id"] if found is not None else None

    def lock_with_events(self, round_id: uuid.UUID, *, shoe_games: tuple[str, ...] = ()) -> LockedRound:
        """The round locked (as lock() does), its events in order, its table's limits and, when its
        table plays one of `shoe_games`, that table's audit chain head locked and, from a virtual
        shoe, that shoe locked too (after the round, then the shoe, then the head: the order every
        writer takes them in), in one statement. The round is locked by the statement's own query;
        the rest is read by pontoon_round_under_lock() (migration 0021) once that lock is granted,
        each of its queries with a snapshot taken then: so the events are whatever a previous
        holder of the round's lock committed, and the shoe and the head are read as they stand once
        their own locks are granted."""
        with self.db.cursor(row_factory=kwargs_row(_locked_round)) as cur:
            found = cur.execute(_LOCK_WITH_EVENTS, {"round_id": round_id, "games": list(shoe_games)}).fetchone()
        return found if found is not None else LockedRound(None, [], None, None, None)

    def void(self, row: RoundRow, reason: str) -> tuple[int, datetime] | None:
        """Void the open round at the version it was read with under its lock: (its new version,
        when), or None if it changed under the lock (which a caller holding the lock never sees)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            voided = cur.execute(
                "UPDATE rounds SET status = 'void', voided_at = now(), void_reason = %s, version = version + 1 "
                "WHERE round_id = %s AND status = 'open' AND version = %s RETURNING version, voided_at",
                (reason, row.round_id, row.version)).fetchone()
        return (voided["version"], voided["voided_at"]) if voided is not None else None

    def last_on_table(self, table_id: str, last: int) -> list[tuple[RoundRow, str | None]]:
        """The table's last `last` rounds by opening time (the index rounds_table_opened), oldest
        first, each with why it was voided (None unless it was)."""
        with self.db.cursor(row_factory=kwargs_row(_with_void_reason)) as cur:
            return cur.execute(
                "SELECT * FROM ("
                "SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, "
                "r.paytable_ref, r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, "
                "r.voided_at, r.void_reason FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id "
                "WHERE r.table_id = %s ORDER BY r.opened_at DESC, r.round_id DESC LIMIT %s"
                ") last_rounds ORDER BY opened_at, round_id", (table_id, last)).fetchall()

    def events_of(self, round_ids: list[uuid.UUID]) -> list[WrittenEvent]:
        """The rounds' events, each with its round and when it was written, in round and seq order."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT round_id, seq, kind, payload, created_at FROM round_events "
                               "WHERE round_id = ANY(%s) ORDER BY round_id, seq", (round_ids,)).fetchall()
        return [WrittenEvent(row["round_id"], RoundEvent(row["seq"], row["kind"], row["payload"]), row["created_at"])
                for row in rows]

    def events_and_limits(self, round_id: uuid.UUID, table_id: str) -> tuple[list[RoundEvent], dict[str, Any]]:
        """The round's events in order and its table's limits, in one round trip."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(
                "SELECT e.seq, e.kind, e.payload, t.limits FROM tables t "
                "LEFT JOIN round_events e ON e.round_id = %s WHERE t.table_id = %s ORDER BY e.seq",
                (round_id, table_id)).fetchall()
        if not rows:
            raise LookupError(f"round {round_id}: no table {table_id!r}")
        events = [RoundEvent(row["seq"], row["kind"], row["payload"]) for row in rows if row["seq"] is not None]
        return events, rows[0]["limits"]

    def save(self, row: RoundRow, *, events: list[tuple[str, dict]], first_seq: int,
             shoe_position: tuple[uuid.UUID, int] | None, complete: bool, result: dict | None,
             audit_chain: str | None = None) -> SavedRound:
        """One request's change to a locked round, in one statement: its new events from `first_seq`
        on, the position a virtual shoe dealt up to (the shoe's row locked by the caller), and the
        version bump (checked against the one `row` was read with under the lock; the statement
        fails, and with it the transaction, if that check does) with, on completion, the result.
        With `audit_chain`, that chain's head is locked by the same statement, for the records
        describing the change (AuditRepository.append's `head`; None if the chain has none yet),
        for a caller that did not lock it before."""
        shoe_id, position = shoe_position or (None, None)
        with self.db.cursor(row_factory=dict_row) as cur:
            saved = returned(cur.execute(_SAVE, {
                "round_id": row.round_id, "version": row.version, "first_seq": first_seq,
                "events": json.dumps(events), "shoe_id": shoe_id, "position": position,
                "complete": complete, "result": Jsonb(result) if result is not None else None,
                "chain": audit_chain,
                # A row locked cannot change under the lock, so this means a caller forgot the lock.
                "lost": f"round {row.round_id} changed under its lock (version {row.version})"}).fetchone())
        # The shoe's mode (joined in by the read) is not a column of rounds and never changes.
        return SavedRound(
            dataclasses.replace(row, status=saved["status"], version=saved["version"], result=saved["result"],
                                completed_at=saved["completed_at"], settled_at=saved["settled_at"],
                                voided_at=saved["voided_at"]),
            (saved["head_seq"], saved["head_hash"]) if saved["head_seq"] is not None else None)


def _with_void_reason(*, void_reason: str | None, **columns: Any) -> tuple[RoundRow, str | None]:
    return RoundRow(**columns), void_reason


def _locked_round(*, under_lock: dict[str, Any], **columns: Any) -> LockedRound:
    """The round's row and what pontoon_round_under_lock() read under its lock, by name."""
    row = RoundRow(**columns)
    shoe, head = under_lock["shoe"], under_lock["head"]
    return LockedRound(
        row, [RoundEvent(event["seq"], event["kind"], event["payload"]) for event in under_lock["events"] or ()],
        under_lock["limits"], _shoe_of_json(shoe) if shoe is not None else None,
        LockedHead((head["seq"], head["hash"]), datetime.fromisoformat(head["now"])) if head is not None else None)


def _shoe_of_json(shoe: dict[str, Any]) -> ShoeRow:
    """A shoe as pontoon_round_under_lock() gives it: its columns by name, as JSON writes them."""
    return ShoeRow(uuid.UUID(shoe["shoe_id"]), shoe["table_id"], shoe["mode"], shoe["commitment"],
                   shoe["card_order"], shoe["salt"], shoe["position"], shoe["dealt"],
                   datetime.fromisoformat(shoe["opened_at"]),
                   datetime.fromisoformat(shoe["closed_at"]) if shoe["closed_at"] else None)


# The round locked by the CTE, which the function then reads under (a CTE is run before the query
# that reads it, and MATERIALIZED keeps it one): its row, and what the function reads under the lock.
_LOCK_WITH_EVENTS = """
WITH locked AS MATERIALIZED (
    SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, r.paytable_ref,
           r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, r.voided_at
      FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id
     WHERE r.round_id = %(round_id)s
       FOR UPDATE OF r)
SELECT locked.*, pontoon_round_under_lock(locked.round_id, %(games)s) AS under_lock FROM locked"""

# The CTEs write other tables than the UPDATE's, so their order within the statement does not
# matter. The SELECT has no FROM, so it gives one row, and its check runs, whether the UPDATE
# matched or not: should the version check fail, the statement fails. With %(chain)s, that audit
# chain's head is locked (it is another table again) and given back; with none, no head is read.
_SAVE = """
WITH added AS (
    INSERT INTO round_events (round_id, seq, kind, payload)
    SELECT %(round_id)s, %(first_seq)s + e.n - 1, e.event->>0, e.event->1
      FROM jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY AS e (event, n)
), dealt AS (
    UPDATE shoes SET position = %(position)s WHERE shoe_id = %(shoe_id)s::uuid
), saved AS (
    UPDATE rounds SET version = version + 1,
           status = CASE WHEN %(complete)s THEN 'complete' ELSE status END,
           result = CASE WHEN %(complete)s THEN %(result)s ELSE result END,
           completed_at = CASE WHEN %(complete)s THEN now() ELSE completed_at END
     WHERE round_id = %(round_id)s AND version = %(version)s AND status = 'open'
    RETURNING status, version, result, completed_at, settled_at, voided_at
), head AS (
    SELECT seq, hash FROM audit_chain_heads WHERE chain = %(chain)s::text FOR UPDATE
)
SELECT pontoon_assert(EXISTS (SELECT FROM saved), %(lost)s) AS checked,
       (SELECT status FROM saved) AS status, (SELECT version FROM saved) AS version,
       (SELECT result FROM saved) AS result, (SELECT completed_at FROM saved) AS completed_at,
       (SELECT settled_at FROM saved) AS settled_at, (SELECT voided_at FROM saved) AS voided_at,
       (SELECT seq FROM head) AS head_seq, (SELECT hash FROM head) AS head_hash"""
