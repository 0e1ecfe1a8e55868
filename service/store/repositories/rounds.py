"""Rounds and their events: open, lock, append events, record completion."""
from __future__ import annotations

import dataclasses
import functools
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, NamedTuple

from psycopg.rows import class_row, kwargs_row
from psycopg.types.json import Jsonb

from ..pending import Pending
from ..transaction import Statements, returned
from .audit import HEAD_LOCK_EXISTING, LockedHead
from .keys import KeyGuard, allowed_key
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


class LockedRound(NamedTuple):
    """What lock_with_events() read under the round's lock."""
    row: RoundRow | None
    events: list[RoundEvent]
    limits: dict[str, Any] | None
    shoe: ShoeRow | None            # its virtual shoe, locked (a shoe-dealt game's)
    head: LockedHead | None         # its table's audit chain head, locked (a shoe-dealt game's, once it has one)
    key_id: uuid.UUID | None = None  # the request's key, which a guard found allowed


# The table a round is played at (its one parameter: the round id), for key checks.
TABLE_OF_ROUND = "SELECT table_id FROM rounds WHERE round_id = %s"

_SELECT = ("SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, r.paytable_ref, "
           "r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, r.voided_at "
           "FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id ")


class RoundsRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def _one(self, query: str, params: tuple) -> RoundRow | None:
        with self.db.cursor(row_factory=class_row(RoundRow)) as cur:
            return cur.execute(query, params).fetchone()

    def add(self, *, table_id: str, shoe_id: uuid.UUID, shoe_mode: str | None, rules_ref: str,
            paytable_ref: str | None, wagers: list[dict], now: datetime | None = None) -> RoundRow:
        """The new open round, as stored (RETURNING: no second read). With `now` (the transaction's
        time, read already) the row is known without reading the statement, which then goes with
        whatever is sent next (in pipeline mode: no round trip of its own)."""
        round_id = uuid.uuid4()
        insert = ("INSERT INTO rounds (round_id, table_id, shoe_id, status, rules_ref, paytable_ref, wagers) "
                  "VALUES (%s, %s, %s, 'open', %s, %s, %s)")
        params = (round_id, table_id, shoe_id, rules_ref, paytable_ref, Jsonb(wagers))
        if now is not None:   # what the INSERT writes: the defaults are version 0 and now()
            self.db.execute(insert, params)
            return RoundRow(round_id, table_id, shoe_id, shoe_mode, RoundStatus.OPEN, rules_ref, paytable_ref, wagers,
                            0, None, now, None, None, None)
        return returned(self._one(
            insert + " RETURNING round_id, table_id, shoe_id, %s::text AS shoe_mode, status, rules_ref, "
            "paytable_ref, wagers, version, result, opened_at, completed_at, settled_at, voided_at",
            (*params, shoe_mode)))


    def get(self, round_id: uuid.UUID) -> RoundRow | None:
        return self._one(_SELECT + "WHERE r.round_id = %s", (round_id,))

    def lock(self, round_id: uuid.UUID) -> RoundRow | None:
        """The round, locked until the transaction ends: one change at a time per round."""
        return self.lock_pending(round_id).one()

    def lock_pending(self, round_id: uuid.UUID) -> Pending[RoundRow]:
        """lock(), sent now and read later."""
        return Pending(self.db.cursor(row_factory=class_row(RoundRow)).execute(
            _SELECT + "WHERE r.round_id = %s FOR UPDATE OF r", (round_id,)))

    def open_on_table(self, table_id: str) -> uuid.UUID | None:
        return self.open_on_table_pending(table_id).one()

    def open_on_table_pending(self, table_id: str) -> Pending[uuid.UUID]:
        """open_on_table(), sent now and read later."""
        return Pending(self.db.execute("SELECT round_id FROM rounds WHERE table_id = %s AND status = 'open'",
                                         (table_id,)), lambda row: row[0])

    def lock_with_events(self, round_id: uuid.UUID, *, shoe_games: tuple[str, ...] = (),
                         guard: KeyGuard | None = None) -> LockedRound:
        """The round locked (as lock() does), its events in order, its table's limits and, when its
        table plays one of `shoe_games`, that table's audit chain head locked and, from a virtual
        shoe, that shoe locked too (after the round, then the shoe, then the head: the order every
        writer takes them in), in one statement. The round is locked by the statement's own query;
        the rest is read by pontoon_round_under_lock() (migration 0011) once that lock is granted,
        each of its queries with a snapshot taken then: so the events are whatever a previous
        holder of the round's lock committed, and the shoe and the head are read as they stand once
        their own locks are granted.

        With `guard` (the request's key, its check sent already and not yet read) the round is
        found, and locked, only if the key may act on its table (key_id: that key): the key check
        and this statement are then answered in one round trip, and a key the check refuses locks
        nothing."""
        params: dict[str, Any] = {"round_id": round_id, "games": list(shoe_games)}
        key_id = None
        if guard is None:
            found = self.db.execute(_LOCK_WITH_EVENTS, params).fetchone()
        else:
            found = self.db.execute(_LOCK_WITH_EVENTS_GUARDED, {**params, **guard.params()}).fetchone()
            if found is not None:
                *columns, key_id, under = found
                found = (*columns, under)
        if found is None:
            return LockedRound(None, [], None, None, None)
        row = RoundRow(*found[:-1])
        under_lock, head = found[-1]
        if under_lock is None:
            return LockedRound(row, [], None, None, None, key_id)
        limits, events, shoe = under_lock
        return LockedRound(row, [RoundEvent(*event) for event in events or ()], limits,
                           _shoe_of_json(shoe) if shoe is not None else None,
                           LockedHead((head[0], head[1]), datetime.fromisoformat(head[2])) if head else None,
                           key_id)

    def void(self, row: RoundRow, reason: str) -> tuple[int, datetime] | None:
        """Void the open round at the version it was read with under its lock: (its new version,
        when), or None if it changed under the lock (which a caller holding the lock never sees)."""
        voided: tuple[int, datetime] | None = self.db.execute(
            "UPDATE rounds SET status = 'void', voided_at = now(), void_reason = %s, version = version + 1 "
            "WHERE round_id = %s AND status = 'open' AND version = %s RETURNING version, voided_at",
            (reason, row.round_id, row.version)).fetchone()
        return voided

    def last_on_table(self, table_id: str, last: int) -> list[tuple[RoundRow, str | None]]:
        """The table's last `last` rounds by opening time, oldest first, each with why it was
        voided (None unless it was)."""
        with self.db.cursor(row_factory=kwargs_row(_with_void_reason)) as cur:
            return cur.execute(_LAST_ROUNDS, (table_id, last)).fetchall()

    def events_of(self, round_ids: list[uuid.UUID]) -> list[tuple[uuid.UUID, RoundEvent, datetime]]:
        """(round_id, event, when it was written) of the rounds' events, in round and seq order."""
        return [(round_id, RoundEvent(seq, kind, payload), created_at)
                for round_id, seq, kind, payload, created_at in self.db.execute(
                    "SELECT round_id, seq, kind, payload, created_at FROM round_events WHERE round_id = ANY(%s) "
                    "ORDER BY round_id, seq", (round_ids,))]

    def events_and_limits(self, round_id: uuid.UUID, table_id: str) -> tuple[list[RoundEvent], dict[str, Any]]:
        """The round's events in order and its table's limits, in one round trip."""
        rows = self.db.execute(
            "SELECT e.seq, e.kind, e.payload, t.limits FROM tables t "
            "LEFT JOIN round_events e ON e.round_id = %s WHERE t.table_id = %s ORDER BY e.seq",
            (round_id, table_id)).fetchall()
        if not rows:
            raise LookupError(f"round {round_id}: no table {table_id!r}")
        events = [RoundEvent(seq, kind, payload) for seq, kind, payload, _ in rows if seq is not None]
        return events, rows[0][3]

    def save(self, row: RoundRow, *, events: list[tuple[str, dict]], first_seq: int,
             shoe_position: tuple[uuid.UUID, int] | None, complete: bool, result: dict | None,
             audit_chain: str | None = None, now: datetime | None = None
             ) -> tuple[Callable[[], RoundRow], Callable[[], tuple[int, str] | None]]:
        """One request's change to a locked round, in one statement: its new events from `first_seq`
        on, the position a virtual shoe dealt up to (the shoe's row locked by the caller), and the
        version bump (checked against the one `row` was read with under the lock; the statement
        fails, and with it the transaction, if that check does) with, on completion, the result.

        Either `now`: the caller locked the audit chain's head already, and read the transaction's
        time with it, so the round as saved is known without reading the statement, which can go
        with the commit. Or `audit_chain`: that chain's head is locked by this statement (None if
        the chain has none yet), for the records describing the change (AuditRepository.append's `head`), and
        the statement gives it back with the round as saved (RETURNING: no second read); in pipeline
        mode it is read only when asked for, so what the caller sends in between shares its round
        trip.

        Returns the functions that give the round as saved and the head as locked."""
        if (now is None) == (audit_chain is None):
            raise TypeError("save() takes one of now (the head locked already) and audit_chain")
        shoe_id, position = shoe_position or (None, None)
        statement = _SAVE if audit_chain is None else _SAVE_LOCKING_HEAD
        saving: Pending[tuple[Any, ...]] = Pending(self.db.execute(statement, {
            "round_id": row.round_id, "version": row.version, "first_seq": first_seq,
            "events": json.dumps(events),
            "shoe_id": shoe_id, "position": position,
            "complete": complete, "result": Jsonb(result) if result is not None else None,
            "chain": audit_chain,
            # A row locked cannot change under the lock, so this means a caller forgot the lock.
            "lost": f"round {row.round_id} changed under its lock (version {row.version})"}))

        @functools.cache   # the statement's row, read once for both functions below
        def row_saved() -> tuple[Any, ...]:
            return returned(saving.one())

        def saved() -> RoundRow:
            if now is not None:   # what the statement writes (now() is the transaction's time)
                if not complete:
                    return dataclasses.replace(row, version=row.version + 1)
                return dataclasses.replace(row, version=row.version + 1, status=RoundStatus.COMPLETE, result=result,
                                           completed_at=now)
            status, version, result_saved, completed_at, settled_at, voided_at = row_saved()[1:7]
            # The shoe's mode (joined in by the read) is not a column of rounds and never changes.
            return dataclasses.replace(row, status=status, version=version, result=result_saved,
                                       completed_at=completed_at, settled_at=settled_at, voided_at=voided_at)

        def head() -> tuple[int, str] | None:
            if audit_chain is None:
                raise RuntimeError("no audit chain's head was locked with this save")
            seq, hash_ = row_saved()[7:9]
            return None if seq is None else (seq, hash_)

        return saved, head


def _with_void_reason(*, void_reason: str | None, **columns: Any) -> tuple[RoundRow, str | None]:
    return RoundRow(**columns), void_reason


# The last N by opening time (the index rounds_table_opened), returned oldest first.
_LAST_ROUNDS = (
    "SELECT * FROM (" + _SELECT.replace(" FROM rounds r", ", r.void_reason FROM rounds r")
    + "WHERE r.table_id = %s ORDER BY r.opened_at DESC, r.round_id DESC LIMIT %s"
    ") last_rounds ORDER BY opened_at, round_id")

# The round locked by the CTE, which the function then reads under (a CTE is run before the query
# that reads it, and MATERIALIZED keeps it one): its row, and what the function gives back as
# JSON, [[limits, events, shoe], head], one value for the client to read rather than three results.
_LOCK_WITH_EVENTS = ("WITH locked AS MATERIALIZED (" + _SELECT + "WHERE r.round_id = %(round_id)s FOR UPDATE OF r) "
                     "SELECT locked.*, pontoon_round_under_lock(locked.round_id, %(games)s) FROM locked")
# The same, the round found (and locked) only for a key allowed to act on its table.
_LOCK_WITH_EVENTS_GUARDED = (
    "WITH locked AS MATERIALIZED (" + _SELECT.replace(" FROM rounds r", ", allowed.key_id FROM rounds r")
    + f"CROSS JOIN LATERAL ({allowed_key('r.table_id')}) AS allowed "
    "WHERE r.round_id = %(round_id)s FOR UPDATE OF r) "
    "SELECT locked.*, pontoon_round_under_lock(locked.round_id, %(games)s) FROM locked")


def _shoe_of_json(values: list) -> ShoeRow:
    """A shoe as pontoon_round_under_lock() gives it: its columns in order, as JSON writes them."""
    shoe_id, table_id, mode, commitment, card_order, salt, position, dealt, opened_at, closed_at = values
    return ShoeRow(uuid.UUID(shoe_id), table_id, mode, commitment, card_order, salt, position, dealt,
                   datetime.fromisoformat(opened_at), datetime.fromisoformat(closed_at) if closed_at else None)


# The CTEs write other tables than the UPDATE's, so their order within the statement does not
# matter. The SELECT has no FROM, so it gives one row, and its check runs, whether the UPDATE
# matched or not: should the version check fail, the statement fails.
_SAVE = (
    "WITH added AS (INSERT INTO round_events (round_id, seq, kind, payload) "
    "SELECT %(round_id)s, %(first_seq)s + e.n - 1, e.event->>0, e.event->1 "
    "FROM jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY AS e (event, n)), "
    "dealt AS (UPDATE shoes SET position = %(position)s WHERE shoe_id = %(shoe_id)s::uuid), "
    "saved AS (UPDATE rounds SET version = version + 1, "
    "status = CASE WHEN %(complete)s THEN 'complete' ELSE status END, "
    "result = CASE WHEN %(complete)s THEN %(result)s ELSE result END, "
    "completed_at = CASE WHEN %(complete)s THEN now() ELSE completed_at END "
    "WHERE round_id = %(round_id)s AND version = %(version)s AND status = 'open' "
    "RETURNING status, version, result, completed_at, settled_at, voided_at) "
    "SELECT pontoon_assert(EXISTS (SELECT FROM saved), %(lost)s)")
# The same, locking an audit chain's head in the same statement (the head is another table again),
# and giving the round as saved and the head as locked.
_SAVE_LOCKING_HEAD = (
    f"WITH head AS ({HEAD_LOCK_EXISTING}), " + _SAVE.removeprefix("WITH ") + ", "
    + ", ".join(f"(SELECT {column} FROM saved)"
                for column in ("status", "version", "result", "completed_at", "settled_at", "voided_at"))
    + ", (SELECT seq FROM head), (SELECT hash FROM head)")
