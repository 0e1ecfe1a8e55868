"""Rounds and their events: open, lock, append events, record completion."""
from __future__ import annotations

import dataclasses
import functools
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ...audit.log import HEAD_LOCK_EXISTING
from ..pending import Pending
from .shoes import SHOE_COLUMNS, ShoeRow


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


# The table a round is played at (its one parameter: the round id), for key checks.
TABLE_OF_ROUND = "SELECT table_id FROM rounds WHERE round_id = %s"

_SELECT = ("SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, r.paytable_ref, "
           "r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, r.voided_at "
           "FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id ")


class RoundsRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def _one(self, query: str, params: tuple) -> RoundRow | None:
        with self.conn.cursor(row_factory=class_row(RoundRow)) as cur:
            return cur.execute(query, params).fetchone()

    def add(self, *, table_id: str, shoe_id: uuid.UUID, shoe_mode: str | None, rules_ref: str,
            paytable_ref: str | None, wagers: list[dict]) -> RoundRow:
        """The new open round, as stored (RETURNING: no second read)."""
        return self._one(
            "INSERT INTO rounds (round_id, table_id, shoe_id, status, rules_ref, paytable_ref, wagers) "
            "VALUES (%s, %s, %s, 'open', %s, %s, %s) "
            "RETURNING round_id, table_id, shoe_id, %s::text AS shoe_mode, status, rules_ref, paytable_ref, wagers, "
            "version, result, opened_at, completed_at, settled_at, voided_at",
            (uuid.uuid4(), table_id, shoe_id, rules_ref, paytable_ref, Jsonb(wagers), shoe_mode))

    def get(self, round_id: uuid.UUID) -> RoundRow | None:
        return self._one(_SELECT + "WHERE r.round_id = %s", (round_id,))

    def lock(self, round_id: uuid.UUID) -> RoundRow | None:
        """The round, locked until the transaction ends: one change at a time per round."""
        return self.lock_pending(round_id).one()

    def lock_pending(self, round_id: uuid.UUID) -> Pending[RoundRow]:
        """lock(), sent now and read later."""
        return Pending(self.conn.cursor(row_factory=class_row(RoundRow)).execute(
            _SELECT + "WHERE r.round_id = %s FOR UPDATE OF r", (round_id,)))

    def open_on_table(self, table_id: str) -> uuid.UUID | None:
        return self.open_on_table_pending(table_id).one()

    def open_on_table_pending(self, table_id: str) -> Pending[uuid.UUID]:
        """open_on_table(), sent now and read later."""
        return Pending(self.conn.execute("SELECT round_id FROM rounds WHERE table_id = %s AND status = 'open'",
                                         (table_id,)), lambda row: row[0])

    def lock_with_events(self, round_id: uuid.UUID, *, shoe_games: tuple[str, ...] = ()
                         ) -> tuple[RoundRow | None, list[RoundEvent], dict[str, Any] | None, ShoeRow | None]:
        """The round locked (as lock() does), its events in order, its table's limits and, when its
        table plays one of `shoe_games` from a virtual shoe, that shoe locked too (after the round,
        the order every writer takes them in): in pipeline mode, one round trip. The lock is a
        statement of its own and the rest another, which the server runs once the lock is granted,
        with a snapshot taken then, so it sees whatever a previous holder of the round's lock
        committed; the shoe, locked by that second statement, is read as it stands once its own
        lock is granted."""
        locking = self.lock_pending(round_id)
        reading = self.conn.execute(
            f"SELECT t.limits, {_EVENTS}, {', '.join('s.' + c for c in SHOE_COLUMNS)} "
            f"FROM rounds r JOIN tables t ON t.table_id = r.table_id LEFT JOIN LATERAL ("
            f"SELECT * FROM shoes WHERE shoe_id = r.shoe_id AND mode = 'virtual' AND t.game = ANY(%s) "
            f"FOR UPDATE) s ON true WHERE r.round_id = %s", (list(shoe_games), round_id))
        row = locking.one()
        found = reading.fetchone()
        if found is None:
            return row, [], None, None
        limits, events = found[:2]
        shoe = ShoeRow(*found[2:]) if found[2] is not None else None
        return row, [RoundEvent(*event) for event in events or ()], limits, shoe

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

    def save(self, row: RoundRow, *, events: list[tuple[str, dict]], first_seq: int,
             shoe_position: tuple[uuid.UUID, int] | None, complete: bool, result: dict | None,
             audit_chain: str | None = None
             ) -> tuple[Callable[[], RoundRow], Callable[[], tuple[int, str] | None]]:
        """One request's change to a locked round, in one statement: its new events from `first_seq`
        on, the position a virtual shoe dealt up to (the shoe's row locked by the caller), and the
        version bump (checked against the one `row` was read with under the lock) with, on
        completion, the result; with `audit_chain`, that chain's head locked as well (None if the
        chain has none yet), for the records describing the change (log.append's `head`).
        Returns the functions that give the round as saved and the head as locked (RETURNING: no
        second read); in pipeline mode the statement is read only then, so what the caller sends
        in between shares its round trip."""
        shoe_id, position = shoe_position or (None, None)
        saving = Pending(self.conn.execute(_SAVE if audit_chain is None else _SAVE_LOCKING_HEAD, {
            "round_id": row.round_id, "version": row.version, "first_seq": first_seq,
            "events": json.dumps(events),
            "shoe_id": shoe_id, "position": position,
            "complete": complete, "result": Jsonb(result) if result is not None else None,
            "chain": audit_chain}))

        @functools.cache   # the statement's row, read once for both functions below
        def returned() -> tuple:
            found = saving.one()
            if found is None:
                # The row is locked, so this means a caller forgot the lock: never write past it.
                raise RuntimeError(f"round {row.round_id} changed under its lock (version {row.version})")
            return found

        def saved() -> RoundRow:
            status, version, result_saved, completed_at, settled_at, voided_at = returned()[:6]
            # The shoe's mode (joined in by the read) is not a column of rounds and never changes.
            return dataclasses.replace(row, status=status, version=version, result=result_saved,
                                       completed_at=completed_at, settled_at=settled_at, voided_at=voided_at)

        def head() -> tuple[int, str] | None:
            if audit_chain is None:
                raise RuntimeError("no audit chain's head was locked with this save")
            seq, hash_ = returned()[6:8]
            return None if seq is None else (seq, hash_)

        return saved, head


# A round's events as one JSON array of [seq, kind, payload], in order.
_EVENTS = ("(SELECT jsonb_agg(jsonb_build_array(e.seq, e.kind, e.payload) ORDER BY e.seq) "
           "FROM round_events e WHERE e.round_id = r.round_id)")

# The CTEs write other tables than the UPDATE's, so their order within the statement does not
# matter; should the version check fail, the caller raises and the transaction rolls back.
_SAVE = (
    "WITH added AS (INSERT INTO round_events (round_id, seq, kind, payload) "
    "SELECT %(round_id)s, %(first_seq)s + e.n - 1, e.event->>0, e.event->1 "
    "FROM jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY AS e (event, n)), "
    "dealt AS (UPDATE shoes SET position = %(position)s WHERE shoe_id = %(shoe_id)s::uuid) "
    "UPDATE rounds SET version = version + 1, "
    "status = CASE WHEN %(complete)s THEN 'complete' ELSE status END, "
    "result = CASE WHEN %(complete)s THEN %(result)s ELSE result END, "
    "completed_at = CASE WHEN %(complete)s THEN now() ELSE completed_at END "
    "WHERE round_id = %(round_id)s AND version = %(version)s AND status = 'open' "
    "RETURNING status, version, result, completed_at, settled_at, voided_at")
# The same, locking an audit chain's head in the same statement (the head is another table again).
_SAVE_LOCKING_HEAD = (f"WITH head AS ({HEAD_LOCK_EXISTING}), " + _SAVE.removeprefix("WITH ")
                      + ", (SELECT seq FROM head), (SELECT hash FROM head)")
