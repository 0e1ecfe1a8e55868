"""Rounds and their events: open, lock, append events, record completion."""
from __future__ import annotations

import dataclasses
import functools
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, NamedTuple

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ...audit.log import HEAD_LOCK_EXISTING, LockedHead
from ..pending import Pending
from .keys import KeyGuard, key_allows
from .shoes import ShoeRow


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


class LockedRound(NamedTuple):
    """What lock_with_events() read under the round's lock."""
    row: RoundRow | None
    events: list[RoundEvent]
    limits: dict[str, Any] | None
    shoe: ShoeRow | None            # its virtual shoe, locked (a shoe-dealt game's)
    head: LockedHead | None         # its table's audit chain head, locked (a shoe-dealt game's, once it has one)


# The table a round is played at (its one parameter: the round id), for key checks.
TABLE_OF_ROUND = "SELECT table_id FROM rounds WHERE round_id = %s"

_SELECT = ("SELECT r.round_id, r.table_id, r.shoe_id, s.mode AS shoe_mode, r.status, r.rules_ref, r.paytable_ref, "
           "r.wagers, r.version, r.result, r.opened_at, r.completed_at, r.settled_at, r.voided_at "
           "FROM rounds r LEFT JOIN shoes s ON s.shoe_id = r.shoe_id ")


class RoundsRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn
        self._sent: tuple[uuid.UUID, tuple[str, ...], psycopg.Cursor] | None = None   # send_lock_with_events()'s

    def _one(self, query: str, params: tuple) -> RoundRow | None:
        with self.conn.cursor(row_factory=class_row(RoundRow)) as cur:
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
            self.conn.execute(insert, params)
            return RoundRow(round_id, table_id, shoe_id, shoe_mode, "open", rules_ref, paytable_ref, wagers,
                            0, None, now, None, None, None)
        return self._one(
            insert + " RETURNING round_id, table_id, shoe_id, %s::text AS shoe_mode, status, rules_ref, "
            "paytable_ref, wagers, version, result, opened_at, completed_at, settled_at, voided_at",
            (*params, shoe_mode))

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

    def lock_with_events(self, round_id: uuid.UUID, *, shoe_games: tuple[str, ...] = ()) -> LockedRound:
        """The round locked (as lock() does), its events in order, its table's limits and, when its
        table plays one of `shoe_games`, that table's audit chain head locked and, from a virtual
        shoe, that shoe locked too (after the round, then the shoe, then the head: the order every
        writer takes them in), in one statement. The round is locked by the statement's own query;
        the rest is read by pontoon_round_under_lock() (migration 0011) once that lock is granted,
        each of its queries with a snapshot taken then: so the events are whatever a previous
        holder of the round's lock committed, and the shoe and the head are read as they stand once
        their own locks are granted."""
        found = None
        sent, self._sent = self._sent, None
        if sent is not None and sent[:2] == (round_id, tuple(shoe_games)):
            with sent[2] as cursor:
                found = cursor.fetchone()
            # None: the key's guard failed, the key revoked since its check passed; the check stands
            # for the whole request, as it does for any other, so the round is asked for again.
        if found is None:
            found = self.conn.execute(_LOCK_WITH_EVENTS, {"round_id": round_id, "games": list(shoe_games)}).fetchone()
        if found is None:
            return LockedRound(None, [], None, None, None)
        row = RoundRow(*found[:-1])
        under_lock, head = found[-1]
        if under_lock is None:
            return LockedRound(row, [], None, None, None)
        limits, events, shoe = under_lock
        return LockedRound(row, [RoundEvent(*event) for event in events or ()], limits,
                           _shoe_of_json(shoe) if shoe is not None else None,
                           LockedHead((head[0], head[1]), datetime.fromisoformat(head[2])) if head else None)

    def send_lock_with_events(self, round_id: uuid.UUID, *, shoe_games: tuple[str, ...] = (),
                              guard: KeyGuard) -> None:
        """lock_with_events(), sent now with the request's key check and read by this transaction's
        next lock_with_events() of the same round and games: in pipeline mode, the key check, the
        round's lock and the reads under it go to the server in one round trip. The round (and with
        it the shoe and the head) is locked only if `guard` allows the request's key, so a key the
        check refuses locks nothing."""
        self._sent = (round_id, tuple(shoe_games), self.conn.execute(
            _LOCK_WITH_EVENTS_GUARDED, {"round_id": round_id, "games": list(shoe_games), **guard.params()}))

    def forget_sent(self) -> None:
        """The transaction has ended, and with it any lock sent ahead."""
        self._sent = None

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
             audit_chain: str | None = None, now: datetime | None = None
             ) -> tuple[Callable[[], RoundRow], Callable[[], tuple[int, str] | None]]:
        """One request's change to a locked round, in one statement: its new events from `first_seq`
        on, the position a virtual shoe dealt up to (the shoe's row locked by the caller), and the
        version bump (checked against the one `row` was read with under the lock; the statement
        fails, and with it the transaction, if that check does) with, on completion, the result.

        Either `now`: the caller locked the audit chain's head already, and read the transaction's
        time with it, so the round as saved is known without reading the statement, which can go
        with the commit. Or `audit_chain`: that chain's head is locked by this statement (None if
        the chain has none yet), for the records describing the change (log.append's `head`), and
        the statement gives it back with the round as saved (RETURNING: no second read); in pipeline
        mode it is read only when asked for, so what the caller sends in between shares its round
        trip.

        Returns the functions that give the round as saved and the head as locked."""
        if (now is None) == (audit_chain is None):
            raise TypeError("save() takes one of now (the head locked already) and audit_chain")
        shoe_id, position = shoe_position or (None, None)
        saving = Pending(self.conn.execute(_SAVE if audit_chain is None else _SAVE_LOCKING_HEAD, {
            "round_id": row.round_id, "version": row.version, "first_seq": first_seq,
            "events": json.dumps(events),
            "shoe_id": shoe_id, "position": position,
            "complete": complete, "result": Jsonb(result) if result is not None else None,
            "chain": audit_chain,
            # A row locked cannot change under the lock, so this means a caller forgot the lock.
            "lost": f"round {row.round_id} changed under its lock (version {row.version})"}))

        @functools.cache   # the statement's row, read once for both functions below
        def returned() -> tuple:
            return saving.one()

        def saved() -> RoundRow:
            if now is not None:   # what the statement writes (now() is the transaction's time)
                if not complete:
                    return dataclasses.replace(row, version=row.version + 1)
                return dataclasses.replace(row, version=row.version + 1, status="complete", result=result,
                                           completed_at=now)
            status, version, result_saved, completed_at, settled_at, voided_at = returned()[1:7]
            # The shoe's mode (joined in by the read) is not a column of rounds and never changes.
            return dataclasses.replace(row, status=status, version=version, result=result_saved,
                                       completed_at=completed_at, settled_at=settled_at, voided_at=voided_at)

        def head() -> tuple[int, str] | None:
            if audit_chain is None:
                raise RuntimeError("no audit chain's head was locked with this save")
            seq, hash_ = returned()[7:9]
            return None if seq is None else (seq, hash_)

        return saved, head


# The round locked by the CTE, which the function then reads under (a CTE is run before the query
# that reads it, and MATERIALIZED keeps it one): its row, and what the function gives back as
# JSON, [[limits, events, shoe], head], one value for the client to read rather than three results.
_LOCK_WITH_EVENTS = ("WITH locked AS MATERIALIZED (" + _SELECT + "WHERE r.round_id = %(round_id)s FOR UPDATE OF r) "
                     "SELECT locked.*, pontoon_round_under_lock(locked.round_id, %(games)s) FROM locked")
# The same, the round found (and locked) only for a key allowed to act on its table.
_LOCK_WITH_EVENTS_GUARDED = _LOCK_WITH_EVENTS.replace(
    "WHERE r.round_id = %(round_id)s FOR UPDATE", f"WHERE r.round_id = %(round_id)s AND {key_allows('r.table_id')} FOR UPDATE")


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
