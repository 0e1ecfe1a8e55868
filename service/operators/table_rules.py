"""A table's rules under the same four-eyes control as a paytable: an operator proposes another
rules file of the table's game with a reason, a different operator approves it (or any operator
rejects it), and it applies when the table's next shoe opens (service.rounds.table_rules); every
step is in the table's audit chain, with the knobs that change."""
from __future__ import annotations

import os
from typing import Any

from ..games.table_rules import rules_choices, rules_for_table
from ..refusals import Conflict, Forbidden, NotFound
from ..rules import Ref, RulesError
from ..rules.registry import rules_dir, rules_document
from ..staff.people import one_pair_of_eyes, person_of
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.table_rules import WAITING, RulesChangeRow, RulesChangeStatus
from ..store.repositories.tables import TableRow
from ..store.uow import UnitOfWork
from .commands import DecideTableRules, ProposeTableRules
from .documents import changes

APPLIES_FROM = "the table's next shoe (never a shoe or a round already in play)"


def propose_rules(cmd: ProposeTableRules, uow: UnitOfWork) -> dict:
    """A proposed change of the table's rules to another rules file of its game, which must take the
    table's own limits; one change waits at a time."""
    table = _lock_table(uow, cmd.table_id)
    if cmd.rules == table.rules:
        raise Conflict(f"table {cmd.table_id!r} plays {cmd.rules} already", code="same_rules",
                       errors={"rules": [f"the table plays {cmd.rules} already"]})
    waiting = uow.table_rules.waiting(cmd.table_id)
    if waiting is not None:
        raise Conflict(f"change {waiting.change_id} to {waiting.to_rules} is {waiting.status} and waiting: approve or "
                       "reject it first", code="rules_change_waiting", errors={"rules": [
                           f"change {waiting.change_id} to {waiting.to_rules} is waiting"]})
    rules_for_table(table, cmd.rules)
    row = uow.table_rules.add(table_id=cmd.table_id, from_rules=table.rules, to_rules=cmd.rules,
                              proposed_by=cmd.actor, reason=cmd.reason)
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord("table_rules_proposed", {
        "change_id": row.change_id, "from_rules": row.from_rules, "to_rules": row.to_rules, "reason": cmd.reason,
        "applies_from": APPLIES_FROM, "changes": knob_changes(row.from_rules, row.to_rules)},
        actor=cmd.actor, table_id=cmd.table_id)])
    return table_rules(uow, cmd.table_id)


def decide_rules(cmd: DecideTableRules, uow: UnitOfWork) -> dict:
    """Approve a proposed change (never its own proposer's: four eyes) or reject one still waiting
    (its proposer may withdraw it this way). An approved change waits for the table's next shoe."""
    table = _lock_table(uow, cmd.table_id)
    change = uow.table_rules.get(cmd.table_id, cmd.change_id)
    if change is None:
        raise NotFound(f"no rules change {cmd.change_id} at table {cmd.table_id!r}")
    approving = cmd.decision == RulesChangeStatus.APPROVED
    allowed = (RulesChangeStatus.PROPOSED,) if approving else WAITING
    if change.status not in allowed:
        raise Conflict(f"rules change {cmd.change_id} is {change.status}: only a "
                       + ("proposed" if approving else "waiting") + " change can be "
                       + ("approved" if approving else "rejected"), code="not_waiting")
    approver = person_of(uow, cmd.actor) if approving else None
    if approving and one_pair_of_eyes(uow, change.proposed_by, cmd.actor):
        raise Forbidden("four eyes: a different person must approve this change, not its proposer "
                        "(through any identity of theirs)", code="own_proposal",
                        audit=AuditRecord("table_rules_approval_refused", {
                            "change_id": change.change_id, "to_rules": change.to_rules, "reason": "own_proposal",
                            "proposed_by": change.proposed_by}, actor=cmd.actor, table_id=cmd.table_id))
    if approver is not None and approver.password_set_by is not None:
        raise Forbidden(f"{approver.username}'s password was set by an admin: they set their own (at the console's "
                        "Your account) before they approve anything", code="password_not_own")
    knobs = knob_changes(change.from_rules, change.to_rules)
    if approving:
        rules_for_table(table, change.to_rules)   # still a file the table can play, limits and all
    decided = uow.table_rules.decide(change_id=change.change_id, status=cmd.decision, decided_by=cmd.actor,
                                     reason=cmd.reason, changes=knobs if approving else None, waiting=allowed)
    if decided is None:
        raise Conflict(f"rules change {cmd.change_id} was decided meanwhile: read it again", code="not_waiting")
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord(f"table_rules_{decided.status}", {
        "change_id": decided.change_id, "from_rules": decided.from_rules, "to_rules": decided.to_rules,
        "reason": cmd.reason, "proposed_by": decided.proposed_by, "before": {"status": change.status},
        "after": {"status": decided.status, "decided_by": cmd.actor},
        "applies_from": APPLIES_FROM if approving else None, "changes": knobs},
        actor=cmd.actor, table_id=cmd.table_id)])
    return table_rules(uow, cmd.table_id)


def knob_changes(before: str, after: str) -> list[dict[str, Any]]:
    """The knobs that differ between two rules files, by path, with their values before and after
    (the files' names left out: they differ by definition)."""
    return [change for change in changes(rules_document(before), rules_document(after)) if change["path"] != "name"]


def _lock_table(uow: UnitOfWork, table_id: str) -> TableRow:
    table = uow.tables.lock(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


# ----- views ----------------------------------------------------------------------------------
def table_rules(uow: UnitOfWork, table_id: str) -> dict:
    """The table's rules in force, the change waiting (proposed, or approved for the next shoe),
    every change with who proposed and decided it, when and why, and the rules files it may
    change to."""
    table = uow.tables.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    history = uow.table_rules.of_table(table_id)
    waiting = next((row for row in history if row.status in WAITING), None)
    approved = waiting if waiting is not None and waiting.status == RulesChangeStatus.APPROVED else None
    choices = [name for name in rules_choices(table.game, _stems()) if name != table.rules]
    return {"table_id": table_id, "game": table.game, "rules": str(Ref(table.rules, table.rules_version)),
            "next_shoe_rules": approved.to_rules if approved else table.rules,
            "waiting": change_view(waiting) if waiting else None,
            "changes": [change_view(row) for row in history], "choices": choices}


def change_view(row: RulesChangeRow) -> dict:
    """A change, with the knobs it changes: kept with its approval, else read from the two files."""
    knobs = row.changes
    if knobs is None and row.status == RulesChangeStatus.PROPOSED:
        try:
            knobs = knob_changes(row.from_rules, row.to_rules)
        except RulesError:   # a file gone since: the change cannot be approved, and shows none
            knobs = None
    return {"change_id": row.change_id, "from_rules": row.from_rules, "to_rules": row.to_rules,
            "status": row.status, "proposed_by": row.proposed_by, "proposed_at": row.proposed_at,
            "reason": row.reason, "decided_by": row.decided_by, "decided_at": row.decided_at,
            "decision_reason": row.decision_reason, "changes": knobs, "applied_at": row.applied_at,
            "applied_shoe_id": row.applied_shoe_id}


def _stems() -> list[str]:
    return sorted(entry[:-len(".yaml")] for entry in os.listdir(rules_dir()) if entry.endswith(".yaml"))
