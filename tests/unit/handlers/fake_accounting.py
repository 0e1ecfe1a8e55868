"""Chip slips, their signatures, buy-ins, drop counts and statements held in memory, as
AccountingRepository keeps them, for the handlers' fake unit of work (the SQL itself is tested
against PostgreSQL in tests/integration/accounting). Rows are stamped with the unit of work's clock."""
from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from service.store.repositories.accounting import (
    PREFIX,
    Act,
    BuyInRow,
    Capacity,
    CountEntryRow,
    FinalCountRow,
    RoundMoneyRow,
    SignatureRow,
    Slip,
    SlipKind,
    SlipRow,
    StatementRow,
)


class FakeAccounting:
    def __init__(self, uow: Any) -> None:
        self._uow = uow
        self.serials: dict[str, int] = {}
        self.slip_rows: list[SlipRow] = []
        self.signatures: list[SignatureRow] = []
        self.buy_in_rows: list[BuyInRow] = []
        self.entries: list[CountEntryRow] = []
        self.finals: list[FinalCountRow] = []
        self.statement_rows: list[StatementRow] = []
        self.round_rows: list[RoundMoneyRow] = []      # what rounds_of_day gives: a test puts its rounds here
        self.locked: list[str | None] = []

    def _now(self) -> datetime:
        now: datetime = self._uow.now()
        return now

    def lock_books(self, table_id: str | None) -> None:
        self.locked.append(table_id)

    def take_serial(self, kind: SlipKind) -> str:
        prefix = PREFIX[kind]
        self.serials[prefix] = self.serials.get(prefix, 0) + 1
        return f"{prefix}-{self.serials[prefix]:06d}"

    def add_slip(self, *, serial: str, kind: SlipKind, table_id: str, gaming_day: date, chips: dict[int, int],
                 total: int, replaces: uuid.UUID | None, created_by: str) -> SlipRow:
        replaces_serial = next((row.serial for row in self.slip_rows if row.slip_id == replaces), None)
        row = SlipRow(uuid.uuid4(), serial, kind.value, table_id, gaming_day,
                      {str(denomination): count for denomination, count in sorted(chips.items())}, total, replaces,
                      replaces_serial, created_by, self._now())
        self.slip_rows.append(row)
        return row

    def add_signature(self, *, slip_id: uuid.UUID, act: Act, capacity: Capacity, actor: str,
                      screen: str | None = None, reason: str | None = None) -> SignatureRow | None:
        if any((s.slip_id, s.act, s.capacity) == (slip_id, act.value, capacity.value) for s in self.signatures):
            return None
        signature = SignatureRow(slip_id, act.value, capacity.value, actor, screen, reason, self._now())
        self.signatures.append(signature)
        return signature

    def _slip(self, row: SlipRow) -> Slip:
        return Slip(row, tuple(s for s in self.signatures if s.slip_id == row.slip_id))

    def slip(self, serial: str) -> Slip | None:
        return next((self._slip(row) for row in self.slip_rows if row.serial == serial), None)

    def slip_by_id(self, slip_id: uuid.UUID) -> Slip | None:
        return next((self._slip(row) for row in self.slip_rows if row.slip_id == slip_id), None)

    def slips(self, *, gaming_days: list[date] | None = None, table_id: str | None = None,
              kinds: tuple[SlipKind, ...] | None = None) -> list[Slip]:
        return [self._slip(row) for row in self.slip_rows
                if (gaming_days is None or row.gaming_day in gaming_days)
                and (table_id is None or row.table_id == table_id) and (kinds is None or row.kind in kinds)]

    def replaced(self, slip_id: uuid.UUID) -> str | None:
        return next((row.serial for row in self.slip_rows if row.replaces == slip_id), None)

    def add_buy_in(self, *, table_id: str, gaming_day: date, seat: int, amount: int, method: str,
                   recorded_by: str, screen: str | None) -> BuyInRow:
        row = BuyInRow(uuid.uuid4(), table_id, gaming_day, seat, amount, method, recorded_by, screen, self._now())
        self.buy_in_rows.append(row)
        return row

    def buy_ins(self, *, gaming_day: date | None = None, table_id: str | None = None) -> list[BuyInRow]:
        return [row for row in self.buy_in_rows if (gaming_day is None or row.gaming_day == gaming_day)
                and (table_id is None or row.table_id == table_id)]

    def add_count_entry(self, *, table_id: str, gaming_day: date, cash: int, markers: int, counted_by: str,
                        outcome: str) -> CountEntryRow:
        row = CountEntryRow(uuid.uuid4(), table_id, gaming_day, cash, markers, counted_by, outcome, self._now())
        self.entries.append(row)
        return row

    def count_entries(self, *, gaming_day: date | None = None, table_id: str | None = None) -> list[CountEntryRow]:
        return [row for row in self.entries if (gaming_day is None or row.gaming_day == gaming_day)
                and (table_id is None or row.table_id == table_id)]

    def add_final_count(self, *, table_id: str, gaming_day: date, cash: int, markers: int, entered_by: str,
                        verified_by: str) -> FinalCountRow:
        assert entered_by != verified_by, "the database's check: two people"
        assert not self.final_counts(gaming_day=gaming_day, table_id=table_id), "the primary key"
        row = FinalCountRow(table_id, gaming_day, cash, markers, entered_by, verified_by, self._now())
        self.finals.append(row)
        return row

    def final_counts(self, *, gaming_day: date | None = None, table_id: str | None = None) -> list[FinalCountRow]:
        return [row for row in self.finals if (gaming_day is None or row.gaming_day == gaming_day)
                and (table_id is None or row.table_id == table_id)]

    def rounds_of_day(self, *, starts_at: datetime, ends_at: datetime,
                      table_id: str | None = None) -> list[RoundMoneyRow]:
        return [row for row in self.round_rows if starts_at <= row.opened_at < ends_at
                and (table_id is None or row.table_id == table_id)]

    def tables_before(self, ends_at: datetime) -> list[tuple[str, str]]:
        return sorted((row.table_id, row.game) for row in self._uow.tables.rows.values() if row.created_at < ends_at)

    def add_statement(self, *, gaming_day: date, figures: dict[str, Any], issued_by: str) -> StatementRow:
        row = StatementRow(uuid.uuid4(), gaming_day, figures, issued_by, self._now())
        self.statement_rows.append(row)
        return row

    def statements(self, gaming_day: date) -> list[StatementRow]:
        return [row for row in self.statement_rows if row.gaming_day == gaming_day]
