"""Table games accounting: chip slips (tray counts, fills, credits) and each step signed on them,
buy-ins at a seat, the drop boxes' counts, the money of a gaming day's settled rounds, and the
statements issued. Rows are only ever added: a slip's state is what its signatures say."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from psycopg import sql
from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from ..audit_hash import GENESIS
from ..transaction import Statements, returned
from .audit import HEAD_LOCK, chain_for


class SlipKind(StrEnum):
    OPENER = "opener"               # the tray counted as the table opens for the gaming day
    SHIFT_CHANGE = "shift_change"   # counted as one shift hands the table to the next
    CLOSER = "closer"               # counted as the table closes
    FILL = "fill"                   # chips from the cage to the table
    CREDIT = "credit"               # chips from the table back to the cage


TRAY_COUNTS = (SlipKind.OPENER, SlipKind.SHIFT_CHANGE, SlipKind.CLOSER)
CHIP_MOVES = (SlipKind.FILL, SlipKind.CREDIT)
# Each kind's serial numbers: T-000001 (a tray count), F- (a fill), C- (a credit).
PREFIX = {SlipKind.OPENER: "T", SlipKind.SHIFT_CHANGE: "T", SlipKind.CLOSER: "T", SlipKind.FILL: "F",
          SlipKind.CREDIT: "C"}


class Act(StrEnum):
    SIGNED = "signed"               # a tray's count signed (its counter signs as they write it)
    REQUESTED = "requested"         # a fill or credit asked for at the table
    ISSUED = "issued"               # the cage's: a fill's chips sent, a credit's taken
    RECEIVED = "received"           # at the table: a fill's chips (or a credit's slip) taken in
    VOID_ASKED = "void_asked"       # a first person voids a mistaken slip, with a reason
    VOIDED = "voided"               # a second person confirms it


class Capacity(StrEnum):
    """Whose signature a step is: the dealer's (at the screen, or the table's terminal key for
    them), a supervisor's, the cage's."""
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    CAGE = "cage"


@dataclass(frozen=True, slots=True)
class SignatureRow:
    slip_id: uuid.UUID
    act: str
    capacity: str
    actor: str
    screen: str | None
    reason: str | None
    at: datetime


@dataclass(frozen=True, slots=True)
class SlipRow:
    slip_id: uuid.UUID
    serial: str
    kind: str
    table_id: str
    gaming_day: date
    chips: dict[str, int]           # denomination in cents (as text, a JSON key) -> chips
    total: int
    replaces: uuid.UUID | None
    replaces_serial: str | None
    created_by: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Slip:
    """A slip with every step signed on it, in the order they were signed."""
    row: SlipRow
    signatures: tuple[SignatureRow, ...]


@dataclass(frozen=True, slots=True)
class BuyInRow:
    buy_in_id: uuid.UUID
    table_id: str
    gaming_day: date
    seat: int
    amount: int
    method: str
    recorded_by: str
    screen: str | None
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class CountEntryRow:
    entry_id: uuid.UUID
    table_id: str
    gaming_day: date
    cash: int
    markers: int
    counted_by: str
    outcome: str                    # entered | agreed | disagreed
    counted_at: datetime


@dataclass(frozen=True, slots=True)
class FinalCountRow:
    table_id: str
    gaming_day: date
    cash: int
    markers: int
    entered_by: str
    verified_by: str
    final_at: datetime


@dataclass(frozen=True, slots=True)
class RoundMoneyRow:
    """A round of a gaming day: settled ones with their money, others only counted."""
    table_id: str
    round_id: uuid.UUID
    status: str
    opened_at: datetime
    handle: int                     # every stake (a void's refunds left out)
    paid_out: int                   # every return


@dataclass(frozen=True, slots=True)
class StatementRow:
    statement_id: uuid.UUID
    gaming_day: date
    figures: dict[str, Any]
    issued_by: str
    issued_at: datetime


# The table a slip is at, for a terminal's key to be held to its own table (auth's TableOf).
TABLE_OF_SLIP = sql.SQL("SELECT table_id FROM chip_slips WHERE serial = %(subject)s")

_SLIP_COLUMNS = ("s.slip_id, s.serial, s.kind, s.table_id, s.gaming_day, s.chips, s.total, s.replaces, "
                 "(SELECT r.serial FROM chip_slips r WHERE r.slip_id = s.replaces) AS replaces_serial, "
                 "s.created_by, s.created_at")
_SIGNATURE_COLUMNS = "slip_id, act, capacity, actor, screen, reason, at"
_BUY_IN_COLUMNS = "buy_in_id, table_id, gaming_day, seat, amount, method, recorded_by, screen, recorded_at"
_ENTRY_COLUMNS = "entry_id, table_id, gaming_day, cash, markers, counted_by, outcome, counted_at"
_FINAL_COLUMNS = "table_id, gaming_day, cash, markers, entered_by, verified_by, final_at"

# The rounds of a gaming day at each table (or the one named), each with its stakes and returns
# from the ledger: a round belongs to the gaming day it opened in, as in the table report.
_ROUNDS_OF_DAY = """
SELECT r.table_id, r.round_id, r.status, r.opened_at,
       coalesce(sum(l.stake) FILTER (WHERE l.kind <> 'void_refund'), 0)::bigint AS handle,
       coalesce(sum(l.returned) FILTER (WHERE l.kind <> 'void_refund'), 0)::bigint AS paid_out
FROM rounds r LEFT JOIN ledger_entries l ON l.round_id = r.round_id AND r.status = 'settled'
WHERE r.opened_at >= %(starts_at)s AND r.opened_at < %(ends_at)s
  AND (%(table_id)s::text IS NULL OR r.table_id = %(table_id)s)
GROUP BY r.table_id, r.round_id, r.status, r.opened_at
ORDER BY r.table_id, r.opened_at, r.round_id
"""


def _slip_row(row: dict[str, Any]) -> SlipRow:
    return SlipRow(**row)


class AccountingRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def lock_books(self, table_id: str | None) -> None:
        """Hold the table's books until the transaction ends: its chain's head, which every slip,
        signature, buy-in and count appends to, locked first, so that two steps on one table's
        slips or box are taken one after the other and each sees the other's. None: the system
        chain (the floor's)."""
        self.db.execute(HEAD_LOCK, {"chain": chain_for(table_id), "genesis": GENESIS})

    # Slips

    def take_serial(self, kind: SlipKind) -> str:
        """The kind's next serial number, its counter locked until the transaction ends (a slip
        rolled back gives its number back: the numbers run without a gap)."""
        prefix = PREFIX[kind]
        with self.db.cursor(row_factory=dict_row) as cur:
            row = returned(cur.execute("UPDATE slip_serials SET last_number = last_number + 1 WHERE prefix = %s "
                                       "RETURNING last_number", (prefix,)).fetchone())
        return f"{prefix}-{row['last_number']:06d}"

    def add_slip(self, *, serial: str, kind: SlipKind, table_id: str, gaming_day: date, chips: dict[int, int],
                 total: int, replaces: uuid.UUID | None, created_by: str) -> SlipRow:
        slip_id = uuid.uuid4()
        self.db.execute(
            "INSERT INTO chip_slips (slip_id, serial, kind, table_id, gaming_day, chips, total, replaces, created_by) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (slip_id, serial, kind.value, table_id, gaming_day,
             Jsonb({str(denomination): count for denomination, count in sorted(chips.items())}), total, replaces,
             created_by))
        found = self.slip_by_id(slip_id)
        if found is None:
            raise LookupError(f"slip {serial} was not written")
        return found.row

    def add_signature(self, *, slip_id: uuid.UUID, act: Act, capacity: Capacity, actor: str,
                      screen: str | None = None, reason: str | None = None) -> SignatureRow | None:
        """The step signed, or None when it was signed in that capacity already."""
        with self.db.cursor(row_factory=class_row(SignatureRow)) as cur:
            return cur.execute(
                "INSERT INTO slip_signatures (slip_id, act, capacity, actor, screen, reason) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING "
                f"RETURNING {_SIGNATURE_COLUMNS}",
                (slip_id, act.value, capacity.value, actor, screen, reason)).fetchone()

    def slip(self, serial: str) -> Slip | None:
        found = self._slips(sql.SQL("s.serial = %(serial)s"), {"serial": serial})
        return found[0] if found else None

    def slip_by_id(self, slip_id: uuid.UUID) -> Slip | None:
        found = self._slips(sql.SQL("s.slip_id = %(slip_id)s"), {"slip_id": slip_id})
        return found[0] if found else None

    def slips(self, *, gaming_days: list[date] | None = None, table_id: str | None = None,
              kinds: tuple[SlipKind, ...] | None = None) -> list[Slip]:
        """The slips of those gaming days (all of them: None), at one table or all, of those kinds,
        in the order they were written."""
        conditions: list[sql.Composable] = [sql.SQL("true")]
        params: dict[str, Any] = {}
        if gaming_days is not None:
            conditions.append(sql.SQL("s.gaming_day = ANY(%(days)s)"))
            params["days"] = gaming_days
        if table_id is not None:
            conditions.append(sql.SQL("s.table_id = %(table_id)s"))
            params["table_id"] = table_id
        if kinds is not None:
            conditions.append(sql.SQL("s.kind = ANY(%(kinds)s)"))
            params["kinds"] = [kind.value for kind in kinds]
        return self._slips(sql.SQL(" AND ").join(conditions), params)

    def _slips(self, condition: sql.Composable, params: dict[str, Any]) -> list[Slip]:
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(sql.SQL("SELECT {columns} FROM chip_slips s WHERE {condition} "
                                       "ORDER BY s.created_at, s.serial").format(
                columns=sql.SQL(_SLIP_COLUMNS), condition=condition), params).fetchall()
        if not rows:
            return []
        with self.db.cursor(row_factory=class_row(SignatureRow)) as cur:
            signatures = cur.execute(f"SELECT {_SIGNATURE_COLUMNS} FROM slip_signatures WHERE slip_id = ANY(%s) "
                                     "ORDER BY at, act", ([row["slip_id"] for row in rows],)).fetchall()
        by_slip: dict[uuid.UUID, list[SignatureRow]] = {}
        for signature in signatures:
            by_slip.setdefault(signature.slip_id, []).append(signature)
        return [Slip(_slip_row(row), tuple(by_slip.get(row["slip_id"], []))) for row in rows]

    def replaced(self, slip_id: uuid.UUID) -> str | None:
        """The serial of the slip issued in place of this one, if any."""
        found = self.db.execute("SELECT serial FROM chip_slips WHERE replaces = %s", (slip_id,)).fetchone()
        return None if found is None else str(found[0])

    # Buy-ins

    def add_buy_in(self, *, table_id: str, gaming_day: date, seat: int, amount: int, method: str,
                   recorded_by: str, screen: str | None) -> BuyInRow:
        with self.db.cursor(row_factory=class_row(BuyInRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO buy_ins (buy_in_id, table_id, gaming_day, seat, amount, method, recorded_by, screen) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING {_BUY_IN_COLUMNS}",
                (uuid.uuid4(), table_id, gaming_day, seat, amount, method, recorded_by, screen)).fetchone())

    def buy_ins(self, *, gaming_day: date | None = None, table_id: str | None = None) -> list[BuyInRow]:
        with self.db.cursor(row_factory=class_row(BuyInRow)) as cur:
            return cur.execute(
                f"SELECT {_BUY_IN_COLUMNS} FROM buy_ins WHERE (%(day)s::date IS NULL OR gaming_day = %(day)s) "
                "AND (%(table_id)s::text IS NULL OR table_id = %(table_id)s) ORDER BY recorded_at, buy_in_id",
                {"day": gaming_day, "table_id": table_id}).fetchall()

    # The soft count

    def add_count_entry(self, *, table_id: str, gaming_day: date, cash: int, markers: int, counted_by: str,
                        outcome: str) -> CountEntryRow:
        with self.db.cursor(row_factory=class_row(CountEntryRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO drop_count_entries (entry_id, table_id, gaming_day, cash, markers, counted_by, outcome) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {_ENTRY_COLUMNS}",
                (uuid.uuid4(), table_id, gaming_day, cash, markers, counted_by, outcome)).fetchone())

    def count_entries(self, *, gaming_day: date | None = None, table_id: str | None = None) -> list[CountEntryRow]:
        """The entries of a day's boxes (or of every day), in the order they were made."""
        with self.db.cursor(row_factory=class_row(CountEntryRow)) as cur:
            return cur.execute(
                f"SELECT {_ENTRY_COLUMNS} FROM drop_count_entries "
                "WHERE (%(day)s::date IS NULL OR gaming_day = %(day)s) "
                "AND (%(table_id)s::text IS NULL OR table_id = %(table_id)s) ORDER BY counted_at, entry_id",
                {"day": gaming_day, "table_id": table_id}).fetchall()

    def add_final_count(self, *, table_id: str, gaming_day: date, cash: int, markers: int, entered_by: str,
                        verified_by: str) -> FinalCountRow:
        with self.db.cursor(row_factory=class_row(FinalCountRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO drop_counts (table_id, gaming_day, cash, markers, entered_by, verified_by) "
                f"VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_FINAL_COLUMNS}",
                (table_id, gaming_day, cash, markers, entered_by, verified_by)).fetchone())

    def final_counts(self, *, gaming_day: date | None = None, table_id: str | None = None) -> list[FinalCountRow]:
        with self.db.cursor(row_factory=class_row(FinalCountRow)) as cur:
            return cur.execute(
                f"SELECT {_FINAL_COLUMNS} FROM drop_counts WHERE (%(day)s::date IS NULL OR gaming_day = %(day)s) "
                "AND (%(table_id)s::text IS NULL OR table_id = %(table_id)s) ORDER BY gaming_day, table_id",
                {"day": gaming_day, "table_id": table_id}).fetchall()

    # The rounds and the tables of a gaming day

    def rounds_of_day(self, *, starts_at: datetime, ends_at: datetime,
                      table_id: str | None = None) -> list[RoundMoneyRow]:
        with self.db.cursor(row_factory=class_row(RoundMoneyRow)) as cur:
            return cur.execute(_ROUNDS_OF_DAY, {"starts_at": starts_at, "ends_at": ends_at,
                                                "table_id": table_id}).fetchall()

    def tables_before(self, ends_at: datetime) -> list[tuple[str, str]]:
        """(table_id, game) of every table created before `ends_at`, by id."""
        return [(str(table_id), str(game)) for table_id, game in self.db.execute(
            "SELECT table_id, game FROM tables WHERE created_at < %s ORDER BY table_id", (ends_at,)).fetchall()]

    # Statements

    def add_statement(self, *, gaming_day: date, figures: dict[str, Any], issued_by: str) -> StatementRow:
        with self.db.cursor(row_factory=class_row(StatementRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO table_statements (statement_id, gaming_day, figures, issued_by) VALUES (%s, %s, %s, %s) "
                "RETURNING statement_id, gaming_day, figures, issued_by, issued_at",
                (uuid.uuid4(), gaming_day, Jsonb(figures), issued_by)).fetchone())

    def statements(self, gaming_day: date) -> list[StatementRow]:
        """The day's statements as issued, the latest last."""
        with self.db.cursor(row_factory=class_row(StatementRow)) as cur:
            return cur.execute("SELECT statement_id, gaming_day, figures, issued_by, issued_at FROM table_statements "
                               "WHERE gaming_day = %s ORDER BY issued_at, statement_id", (gaming_day,)).fetchall()
