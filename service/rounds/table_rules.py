"""A table's approved rules change taking effect as its next shoe opens: between shoes, never in
the middle of one (service.operators.table_rules proposes and decides it)."""
from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from ..games import family_named
from ..games.table_rules import rules_for_table
from ..rules import load_rules
from ..store.repositories.audit import AuditRecord
from ..store.repositories.table_rules import RulesChangeRow, RulesChangeStatus
from ..store.repositories.tables import TableRow
from ..store.uow import UnitOfWork


def apply_approved(uow: UnitOfWork, table: TableRow,
                   actor: str | None) -> tuple[TableRow, RulesChangeRow | None, list[AuditRecord]]:
    """The table as its next shoe opens (its row locked, no round open): under the approved change
    waiting for it, if any, with what the game does about the change (a kitty handed back when the
    new rules have none). Returns the table, the change (to mark applied once the shoe exists) and
    the audit records of what moved."""
    change = uow.table_rules.waiting(table.table_id)
    if change is None or change.status != RulesChangeStatus.APPROVED:
        return table, None, []
    before: Any = load_rules(table.rules)   # the game's own rules objects, as its family reads them
    after = rules_for_table(table, change.to_rules)
    uow.tables.set_rules(table.table_id, change.to_rules)
    notes = family_named(table.game).rules_changed(uow, table.table_id, before, after, actor)
    records = [AuditRecord(kind, payload, actor=actor, table_id=table.table_id) for kind, payload in notes]
    return replace(table, rules=change.to_rules, rules_version=1), change, records


def applied(uow: UnitOfWork, change: RulesChangeRow, shoe_id: uuid.UUID, actor: str | None) -> AuditRecord:
    """The change marked applied with the shoe it took effect with, as an audit record."""
    uow.table_rules.mark_applied(change.change_id, shoe_id)
    return AuditRecord("table_rules_applied", {
        "change_id": change.change_id, "from_rules": change.from_rules, "to_rules": change.to_rules,
        "shoe_id": shoe_id, "proposed_by": change.proposed_by, "approved_by": change.decided_by,
        "before": {"rules": change.from_rules}, "after": {"rules": change.to_rules}, "changes": change.changes},
        actor=actor, table_id=change.table_id)
