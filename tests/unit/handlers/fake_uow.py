"""A unit of work held in memory: the repositories' methods the handlers call, over plain dicts, so
that a handler's rules are tested without PostgreSQL. The store's own SQL is tested elsewhere."""
from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from service.rules.registry import paytables_dir
from service.store.audit_hash import GENESIS
from service.store.repositories.audit import AuditRecord, LockedHead
from service.store.repositories.evaluations import EvaluationRow, EvaluationStatus
from service.store.repositories.keys import KeyRow
from service.store.repositories.paytables import ApprovedRow, AssignmentRow, VersionRow, VersionStatus
from service.store.repositories.rounds import LockedRound, RoundEvent, RoundRow, SavedRound
from service.store.repositories.shoes import ShoeRow
from service.store.repositories.table_rules import WAITING, RulesChangeRow, RulesChangeStatus
from service.store.repositories.table_transfers import TableTransferRow
from service.store.repositories.tables import TableRow
from service.store.repositories.traditional import RoundSetup
from service.store.repositories.verifications import UNDER_WAY, Verification, VerificationStatus

from .fake_accounting import FakeAccounting
from .fake_screens import FakeScreens
from .fake_staff import FakeStaff


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

    def set_rules(self, table_id: str, rules: str) -> None:
        self.rows[table_id] = dataclasses.replace(self.rows[table_id], rules=rules, rules_version=1)


class FakeTableRules:
    """A table's rules changes, in memory, as TableRulesRepository keeps them."""

    def __init__(self) -> None:
        self.rows: list[RulesChangeRow] = []

    def of_table(self, table_id: str) -> list[RulesChangeRow]:
        return [row for row in self.rows if row.table_id == table_id]

    def get(self, table_id: str, change_id: int) -> RulesChangeRow | None:
        return next((row for row in self.of_table(table_id) if row.change_id == change_id), None)

    def waiting(self, table_id: str) -> RulesChangeRow | None:
        return next((row for row in self.of_table(table_id) if row.status in WAITING), None)

    def add(self, *, table_id: str, from_rules: str, to_rules: str, proposed_by: str, reason: str) -> RulesChangeRow:
        row = RulesChangeRow(len(self.rows) + 1, table_id, from_rules, to_rules, RulesChangeStatus.PROPOSED,
                             proposed_by, datetime.now(UTC), reason, None, None, None, None, None, None)
        self.rows.append(row)
        return row

    def _replace(self, change_id: int, **changes: Any) -> RulesChangeRow:
        index = next(i for i, row in enumerate(self.rows) if row.change_id == change_id)
        self.rows[index] = dataclasses.replace(self.rows[index], **changes)
        return self.rows[index]

    def decide(self, *, change_id: int, status: RulesChangeStatus, decided_by: str, reason: str,
               changes: list | None, waiting: tuple[str, ...]) -> RulesChangeRow | None:
        row = next(row for row in self.rows if row.change_id == change_id)
        if row.status not in waiting:
            return None
        return self._replace(change_id, status=status, decided_by=decided_by, decided_at=datetime.now(UTC),
                             decision_reason=reason, changes=changes if changes is not None else row.changes)

    def mark_applied(self, change_id: int, shoe_id: uuid.UUID) -> RulesChangeRow | None:
        return self._replace(change_id, status=RulesChangeStatus.APPLIED, applied_at=datetime.now(UTC),
                             applied_shoe_id=shoe_id)


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

    def record_dealt(self, shoe_id: uuid.UUID, card: str) -> None:
        row = self.rows[shoe_id]
        self.rows[shoe_id] = dataclasses.replace(row, dealt=[*row.dealt, card], position=row.position + 1)

    def advance(self, shoe_id: uuid.UUID, position: int) -> None:
        self.rows[shoe_id] = dataclasses.replace(self.rows[shoe_id], position=position)

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

    def append_by_chain(self, records_by_chain: dict[str, list[AuditRecord]]) -> None:
        for chain in sorted(records_by_chain):
            self.append(chain, records_by_chain[chain])

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
    """Paytable versions and their assignments to tables. Version 1 of a paytable is its file until
    `seed_file` puts it in `rows`, as `pontoon migrate` does; drafts are put in `rows` too."""

    def __init__(self, tables: FakeTables) -> None:
        self.rows: dict[tuple[str, int], VersionRow] = {}
        self.assignments: list[AssignmentRow] = []
        self._tables = tables

    def seed_file(self, name: str) -> VersionRow:
        text = (Path(paytables_dir()) / f"{name}.yaml").read_text(encoding="utf-8")
        content = {**yaml.safe_load(text), "name": name, "version": 1}
        self.rows[(name, 1)] = VersionRow(name, 1, content, text, "file", None, VersionStatus.APPROVED, "system",
                                          "seeded", datetime.now(UTC), "system", datetime.now(UTC), None, None,
                                          None, None)
        return self.rows[(name, 1)]

    def lock_numbering(self, name: str) -> None:
        pass   # one handler at a time in memory

    def latest_number(self, name: str) -> int | None:
        return max((version for (row_name, version) in self.rows if row_name == name), default=None)

    def latest_approved(self, name: str) -> VersionRow | None:
        approved = [row for (row_name, _), row in self.rows.items() if row_name == name and row.status == "approved"]
        return max(approved, key=lambda row: row.version, default=None)

    def add(self, *, name: str, version: int, content: dict, source: str, source_format: str,
            based_on_version: int | None, author: str, reason: str) -> VersionRow:
        row = VersionRow(name, version, content, source, source_format, based_on_version, "draft", author, reason,
                         datetime.now(UTC), None, None, None, None, None, None)
        self.rows[(name, version)] = row
        return row

    def database(self) -> tuple[str, int, str]:
        return "fake", id(self), "fake"   # the catalog keeps approved versions per database

    def approved_row(self, name: str, version: int) -> ApprovedRow | None:
        row = self.rows.get((name, version))
        return None if row is None else ApprovedRow(row.status, json.dumps(row.content), decided_here=False)

    def seeded_names(self, names: list[str]) -> set[str]:
        return set(names)   # nothing to seed in a handler: the files stand for version 1

    def get(self, name: str, version: int) -> VersionRow | None:
        return self.rows.get((name, version))

    def all(self, name: str | None = None) -> list[VersionRow]:
        return [row for key, row in sorted(self.rows.items()) if name is None or row.name == name]

    def decide(self, *, name: str, version: int, status: str, decided_by: str, reason: str, **measured: Any
               ) -> VersionRow | None:
        draft = self.rows.get((name, version))
        if draft is None or draft.status != "draft" or (status == "approved" and draft.author == decided_by):
            return None
        self.rows[(name, version)] = dataclasses.replace(
            draft, status=status, decided_by=decided_by, decided_at=datetime.now(UTC), decision_reason=reason,
            **measured)
        return self.rows[(name, version)]

    def supersede_waiting(self, table_id: str) -> None:
        self.assignments = [dataclasses.replace(a, superseded_at=datetime.now(UTC))
                            if a.table_id == table_id and a.applied_at is None and a.superseded_at is None else a
                            for a in self.assignments]

    def add_assignment(self, *, table_id: str, paytable: str, version: int, previous_version: int | None,
                       assigned_by: str, reason: str, in_force_now: bool) -> AssignmentRow:
        now = datetime.now(UTC)
        row = AssignmentRow(len(self.assignments) + 1, table_id, paytable, version, previous_version, assigned_by,
                            reason, now, None, now if in_force_now else None, None)
        self.assignments.append(row)
        return row

    def set_pending(self, table_id: str, version: int | None) -> None:
        self._tables.rows[table_id] = dataclasses.replace(self._tables.rows[table_id],
                                                          pending_paytable_version=version)

    def assignments_of_table(self, table_id: str) -> list[AssignmentRow]:
        return [a for a in self.assignments if a.table_id == table_id]

    def assignments_of_version(self, name: str, version: int) -> list[AssignmentRow]:
        return [a for a in self.assignments if (a.paytable, a.version) == (name, version)]

    def tables_running(self, name: str, version: int) -> list[str]:
        return sorted(t.table_id for t in self._tables.rows.values()
                      if (t.paytable, t.paytable_version or 1) == (name, version))


class FakeEvaluations:
    """Evaluations by (paytable, version); a test plays the worker by calling finish()."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, int], EvaluationRow] = {}

    def request(self, paytable: str, version: int, requested_by: str, stale_after: float) -> EvaluationRow | None:
        standing = self.rows.get((paytable, version))
        if standing is not None and standing.status != EvaluationStatus.FAILED:
            return None
        self.rows[(paytable, version)] = EvaluationRow(paytable, version, requested_by, datetime.now(UTC),
                                                    EvaluationStatus.QUEUED, 0, None, None, None, None, None,
                                                    None, 0.0)
        return self.rows[(paytable, version)]

    def get(self, paytable: str, version: int) -> EvaluationRow | None:
        return self.rows.get((paytable, version))

    def finish(self, paytable: str, version: int, *, house_edge_percent: float, rtp_percent: float,
               detail: dict[str, Any]) -> None:
        self.rows[(paytable, version)] = dataclasses.replace(
            self.rows[(paytable, version)], status=EvaluationStatus.DONE, attempts=1, finished_at=datetime.now(UTC),
            house_edge_percent=house_edge_percent, rtp_percent=rtp_percent, detail=detail)

    def fail(self, paytable: str, version: int, error: str) -> None:
        self.rows[(paytable, version)] = dataclasses.replace(
            self.rows[(paytable, version)], status=EvaluationStatus.FAILED, attempts=1, finished_at=datetime.now(UTC),
            error=error)


class FakeLedger:
    def __init__(self) -> None:
        self.refunds: list[tuple[uuid.UUID, int, int, str]] = []

    def add_refund(self, row: RoundRow, seat: int, amount: int, kind: str) -> None:
        self.refunds.append((row.round_id, seat, amount, kind))


class FakeOutbox:
    def __init__(self) -> None:
        self.items: list[tuple[str, Any]] = []
        self.payloads: list[tuple[str, dict | None]] = []

    def add(self, topic: str, round_id: uuid.UUID | None = None, payload: dict | None = None) -> None:
        self.items.append((topic, round_id if payload is None else payload))
        self.payloads.append((topic, payload))


class FakeKeys:
    def __init__(self) -> None:
        self.rows: dict[uuid.UUID, KeyRow] = {}

    def create(self, *, role: str, table_id: str | None, name: str | None, created_by: str | None,
               owner_id: uuid.UUID | None = None, secret: str | None = None) -> tuple[KeyRow, str]:
        row = KeyRow(uuid.uuid4(), role, table_id, name, created_by, datetime.now(UTC), None, None, owner_id)
        self.rows[row.key_id] = row
        return row, secret or f"pnt_secret-{row.key_id}"

    def get(self, key_id: uuid.UUID) -> KeyRow | None:
        return self.rows.get(key_id)

    def exists(self, key_id: uuid.UUID) -> bool:
        return key_id in self.rows

    def revoke(self, key_id: uuid.UUID, reason: str | None = None) -> KeyRow | None:
        row = self.rows.get(key_id)
        if row is None or row.revoked_at is not None:
            return None
        self.rows[key_id] = dataclasses.replace(row, revoked_at=datetime.now(UTC), revoke_reason=reason)
        return self.rows[key_id]

    def lock_live(self, role: str) -> list[uuid.UUID]:
        return [row.key_id for row in self.rows.values() if row.role == role and row.revoked_at is None]

    def all(self) -> list[KeyRow]:
        return list(self.rows.values())


class FakeTraditional:
    """A player-banked table's state between rounds (tables.state), per table."""

    def __init__(self) -> None:
        self.states: dict[str, dict] = {}
        self.setups: dict[uuid.UUID, RoundSetup] = {}

    def lock_state(self, table_id: str) -> dict | None:
        return self.states.get(table_id, {})

    state = lock_state

    def save_state(self, table_id: str, state: dict) -> None:
        self.states[table_id] = state

    def add_round(self, round_id: uuid.UUID, table_id: str, setup: RoundSetup) -> None:
        self.setups[round_id] = setup

    def round_setup(self, round_id: uuid.UUID) -> RoundSetup | None:
        return self.setups.get(round_id)


class FakeTableTransfers:
    def __init__(self) -> None:
        self.rows: list[TableTransferRow] = []

    def add(self, *, table_id: str, kind: str, from_seat: int, to_seat: int, from_place: int | None,
            to_place: int | None, amount: int, round_id: uuid.UUID | None, actor: str | None) -> TableTransferRow:
        seq = 1 + sum(row.table_id == table_id for row in self.rows)
        row = TableTransferRow(table_id, seq, kind, from_seat, to_seat, from_place, to_place, amount, round_id,
                               actor, datetime.now(UTC))
        self.rows.append(row)
        return row


class FakeVerifications:
    """The audit log's verifications; `now` is the clock their requests are stamped with."""

    def __init__(self, now: Any) -> None:
        self.rows: dict[uuid.UUID, Verification] = {}
        self._now = now

    def add(self, requested_by: str) -> Verification | None:
        if self.under_way() is not None:
            return None   # one under way at a time (a unique index in the database)
        row = Verification(uuid.uuid4(), requested_by, self._now(), VerificationStatus.QUEUED, 0, None, None, None,
                           0, 0, 0, 0, 0, [], [], None, 0.0)
        self.rows[row.verification_id] = row
        return row

    def under_way(self, *, lock: bool = False) -> Verification | None:
        return next((row for row in self.rows.values() if row.status in UNDER_WAY), None)

    def asked_since(self, moment: datetime) -> bool:
        return any(row.requested_at >= moment for row in self.rows.values())

    def finish(self, verification_id: uuid.UUID, status: VerificationStatus) -> None:
        self.rows[verification_id] = dataclasses.replace(self.rows[verification_id], status=status)

    def quiet(self, verification_id: uuid.UUID, seconds: float) -> None:
        self.rows[verification_id] = dataclasses.replace(self.rows[verification_id], quiet_for=seconds)


class FakeUnitOfWork:
    """What a handler sees of a unit of work: the same repositories, in memory; transaction() counts
    the blocks that ended without raising (it has nothing to roll back). `now` is the clock the fake
    repositories stamp rows with where a handler's rule reads the time."""

    def __init__(self, now: Any = lambda: datetime.now(UTC)) -> None:
        self.tables, self.shoes = FakeTables(), FakeShoes()
        self.audit = FakeAudit(self.tables)
        self.rounds = FakeRounds(self.tables, self.shoes, self.audit)
        self.paytables, self.ledger, self.outbox = FakePaytables(self.tables), FakeLedger(), FakeOutbox()
        self.keys, self.traditional, self.table_transfers = FakeKeys(), FakeTraditional(), FakeTableTransfers()
        self.verifications = FakeVerifications(now)
        self.evaluations = FakeEvaluations()
        self.table_rules = FakeTableRules()
        self.screens = FakeScreens(self)
        self.staff = FakeStaff()
        self.shuffle_source = None   # the house's
        self.now = now
        self.accounting = FakeAccounting(self)
        self.commits = 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        yield
        self.commits += 1
