"""A unit of work held in memory: the repositories' methods the handlers call, over plain dicts, so
that a handler's rules are tested without PostgreSQL. The store's own SQL is tested elsewhere."""
from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from service.store.audit_hash import GENESIS
from service.store.repositories.audit import AuditRecord, LockedHead
from service.store.repositories.paytables import VersionRow
from service.store.repositories.rounds import LockedRound, RoundEvent, RoundRow, SavedRound
from service.store.repositories.shoes import ShoeRow
from service.store.repositories.tables import TableRow


class FakeTables:
    def __init__(self) -> None:
        self.rows: dict[str, TableRow] = {}

    def add(self, *, table_id: str, game: str, rules: str, rules_version: int, paytable: str | None,
            paytable_version: int | None, limits: dict, created_by: str | None) -> TableRow | None:
        if table_id in self.rows:
            return None
        self.rows[table_id] = TableRow(table_id, game, rules, rules_version, paytable, paytable_version, None,
                                       limits, created_by, datetime.now(UTC))
        return self.rows[table_id]

    def get(self, table_id: str) -> TableRow | None:
        return self.rows.get(table_id)

    lock = get


class FakeShoes:
    def __init__(self) -> None:
        self.rows: dict[uuid.UUID, ShoeRow] = {}

    def add(self, *, table_id: str, mode: str, commitment: str | None, card_order: list[str] | None,
            salt: str | None) -> ShoeRow:
        row = ShoeRow(uuid.uuid4(), table_id, mode, commitment, card_order, salt, 0, [], datetime.now(UTC), None)
        self.rows[row.shoe_id] = row
        return row

    def lock_current(self, table_id: str) -> ShoeRow | None:
        return next((s for s in self.rows.values() if s.table_id == table_id and s.closed_at is None), None)

    def lock(self, shoe_id: uuid.UUID) -> ShoeRow | None:
        return self.rows.get(shoe_id)

    def close(self, shoe_id: uuid.UUID) -> ShoeRow:
        self.rows[shoe_id] = dataclasses.replace(self.rows[shoe_id], closed_at=datetime.now(UTC))
        return self.rows[shoe_id]


class FakeAudit:
    def __init__(self, tables: FakeTables) -> None:
        self.heads: dict[str, tuple[int, str]] = {}
        self.records: dict[str, list[AuditRecord]] = {}
        self._tables = tables

    def lock_table_head(self, table_id: str, games: tuple[str, ...]) -> LockedHead | None:
        table, head = self._tables.rows.get(table_id), self.heads.get(f"table:{table_id}")
        if table is None or table.game not in games or head is None:
            return None
        return LockedHead(head, datetime.now(UTC))

    def append(self, chain: str, records: list[AuditRecord], head: tuple[int, str] | None = None) -> None:
        if not records:
            return
        seq, _ = head or self.heads.get(chain, (0, GENESIS))
        self.records.setdefault(chain, []).extend(records)
        self.heads[chain] = (seq + len(records), f"hash-{seq + len(records)}")

    def kinds(self, chain: str) -> list[str]:
        return [record.kind for record in self.records.get(chain, [])]


class FakeRounds:
    def __init__(self, tables: FakeTables, shoes: FakeShoes, audit: FakeAudit) -> None:
        self.rows: dict[uuid.UUID, RoundRow] = {}
        self.events: dict[uuid.UUID, list[RoundEvent]] = {}
        self._tables, self._shoes, self._audit = tables, shoes, audit

    def add(self, *, table_id: str, shoe_id: uuid.UUID, shoe_mode: str | None, rules_ref: str,
            paytable_ref: str | None, wagers: list[dict]) -> RoundRow:
        row = RoundRow(uuid.uuid4(), table_id, shoe_id, shoe_mode, "open", rules_ref, paytable_ref, wagers, 0, None,
                       datetime.now(UTC), None, None, None)
        self.rows[row.round_id], self.events[row.round_id] = row, []
        return row

    def open_on_table(self, table_id: str) -> uuid.UUID | None:
        return next((r.round_id for r in self.rows.values() if r.table_id == table_id and r.status == "open"), None)

    def lock(self, round_id: uuid.UUID) -> RoundRow | None:
        return self.rows.get(round_id)

    def events_and_limits(self, round_id: uuid.UUID, table_id: str) -> tuple[list[RoundEvent], dict]:
        return list(self.events[round_id]), self._tables.rows[table_id].limits

    def lock_with_events(self, round_id: uuid.UUID, *, shoe_games: tuple[str, ...] = ()) -> LockedRound:
        row = self.rows.get(round_id)
        if row is None:
            return LockedRound(None, [], None, None, None)
        events, limits = self.events_and_limits(round_id, row.table_id)
        dealt_here = self._tables.rows[row.table_id].game in shoe_games
        shoe = self._shoes.rows.get(row.shoe_id) if dealt_here and row.shoe_mode == "virtual" else None
        head = self._audit.lock_table_head(row.table_id, shoe_games)
        return LockedRound(row, events, limits, shoe, head)

    def save(self, row: RoundRow, *, events: list[tuple[str, dict]], first_seq: int,
             shoe_position: tuple[uuid.UUID, int] | None, complete: bool, result: dict | None,
             audit_chain: str | None = None) -> SavedRound:
        assert self.rows[row.round_id].version == row.version, "changed under its lock"
        self.events[row.round_id] += [RoundEvent(first_seq + n, kind, payload)
                                      for n, (kind, payload) in enumerate(events)]
        if shoe_position is not None:
            shoe_id, position = shoe_position
            self._shoes.rows[shoe_id] = dataclasses.replace(self._shoes.rows[shoe_id], position=position)
        saved = dataclasses.replace(row, version=row.version + 1)
        if complete:
            saved = dataclasses.replace(saved, status="complete", result=result, completed_at=datetime.now(UTC))
        self.rows[row.round_id] = saved
        head = self._audit.heads.get(audit_chain) if audit_chain else None
        return SavedRound(saved, head)

    def void(self, row: RoundRow, reason: str) -> tuple[int, datetime] | None:
        voided = dataclasses.replace(row, status="void", version=row.version + 1, voided_at=datetime.now(UTC))
        self.rows[row.round_id] = voided
        return voided.version, voided.voided_at


class FakePaytables:
    """Version 1 of a paytable is its file (as before the start-up seed); drafts are put in `rows`."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, int], VersionRow] = {}

    def database(self) -> tuple[str, int, str]:
        return "fake", id(self), "fake"   # the catalog keeps approved versions per database

    def approved_row(self, name: str, version: int) -> None:
        return None

    def seeded_names(self, names: list[str]) -> set[str]:
        return set(names)   # nothing to seed: the files stand for version 1

    def get(self, name: str, version: int) -> VersionRow | None:
        return self.rows.get((name, version))

    def decide(self, *, name: str, version: int, status: str, decided_by: str, reason: str, **measured: Any
               ) -> VersionRow | None:
        draft = self.rows.get((name, version))
        if draft is None or draft.status != "draft" or (status == "approved" and draft.author == decided_by):
            return None
        self.rows[(name, version)] = dataclasses.replace(
            draft, status=status, decided_by=decided_by, decided_at=datetime.now(UTC), decision_reason=reason,
            **measured)
        return self.rows[(name, version)]

    def assignments_of_version(self, name: str, version: int) -> list[Any]:
        return []

    def tables_running(self, name: str, version: int) -> list[str]:
        return []


class FakeLedger:
    def __init__(self) -> None:
        self.refunds: list[tuple[uuid.UUID, int, int, str]] = []

    def add_refund(self, row: RoundRow, seat: int, amount: int, kind: str) -> None:
        self.refunds.append((row.round_id, seat, amount, kind))


class FakeOutbox:
    def __init__(self) -> None:
        self.items: list[tuple[str, Any]] = []

    def add(self, topic: str, round_id: uuid.UUID | None = None, payload: dict | None = None) -> None:
        self.items.append((topic, round_id))


class FakeUnitOfWork:
    """What a handler sees of a unit of work: the same repositories, in memory; transaction() counts
    the blocks that ended without raising (it has nothing to roll back)."""

    def __init__(self) -> None:
        self.tables, self.shoes = FakeTables(), FakeShoes()
        self.audit = FakeAudit(self.tables)
        self.rounds = FakeRounds(self.tables, self.shoes, self.audit)
        self.paytables, self.ledger, self.outbox = FakePaytables(), FakeLedger(), FakeOutbox()
        self.commits = 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        yield
        self.commits += 1
