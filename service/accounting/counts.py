"""The soft count: the count team counts each table's drop box of a gaming day (its cash and its
markers) and enters the figures; a second counter counts it again and enters theirs. Two people's
figures that agree make the count final, and a final count is never changed. Until then a counter
sees only that a box waits for a second count, never the first counter's figures, so that the
second count is a count and not a copy. Each entry is an audit record on the table's chain."""
from __future__ import annotations

from datetime import date
from enum import StrEnum
from typing import Any

from ..refusals import Conflict, Invalid, NotFound
from ..staff.people import one_pair_of_eyes
from ..store.repositories.accounting import CountEntryRow, FinalCountRow
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.uow import UnitOfWork
from .commands import EnterCount
from .policy import AccountingPolicy

MAX_AMOUNT = 10**12


class CountStatus(StrEnum):
    NOT_COUNTED = "not_counted"
    AWAITING_SECOND = "awaiting_second_count"   # entered once (or the last two disagreed): a second counter next
    FINAL = "final"


class Outcome(StrEnum):
    ENTERED = "entered"         # the first figures (or a counter's own recount of them)
    AGREED = "agreed"           # a second counter's figures, the same: the count is final
    DISAGREED = "disagreed"     # a second counter's figures, not the same: they wait for a third


def count_view(table_id: str, day: date, entries: list[CountEntryRow], final: FinalCountRow | None) -> dict[str, Any]:
    """A box's count as anyone may see it: its figures once final, and before that only who
    entered the figures that wait for a second count."""
    last = entries[-1] if entries else None
    status = (CountStatus.FINAL if final is not None else
              CountStatus.AWAITING_SECOND if last is not None else CountStatus.NOT_COUNTED)
    return {"table_id": table_id, "gaming_day": day, "status": status,
            "cash": final.cash if final else None, "markers": final.markers if final else None,
            "drop": final.cash + final.markers if final else None,
            "entered_by": final.entered_by if final else (last.counted_by if last else None),
            "verified_by": final.verified_by if final else None,
            "final_at": final.final_at if final else None,
            "disagreements": sum(1 for entry in entries if entry.outcome == Outcome.DISAGREED),
            "entries": [{"counted_by": entry.counted_by, "outcome": entry.outcome, "counted_at": entry.counted_at,
                         **({"cash": entry.cash, "markers": entry.markers} if final else {})}
                        for entry in entries]}


def enter_count(cmd: EnterCount, uow: UnitOfWork, policy: AccountingPolicy) -> dict[str, Any]:
    """A counter's figures for the box. The first figures wait for a second counter; a second
    counter's that agree make the count final; ones that disagree wait in their turn for another
    counter. A counter entering again while their own figures wait recounts them."""
    errors: dict[str, list[str]] = {}
    for name, value in (("cash", cmd.cash), ("markers", cmd.markers)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AMOUNT:
            errors[name] = ["whole cents, 0 or more"]
    if errors:
        raise Invalid("the count cannot be entered as given", code="invalid_count", errors=errors)
    if cmd.gaming_day > policy.gaming_day():
        raise Conflict(f"gaming day {cmd.gaming_day} has not begun: its box is counted after it",
                       code="not_this_gaming_day", errors={"gaming_day": ["a gaming day that has begun"]})
    if uow.tables.get(cmd.table_id) is None:
        raise NotFound(f"no table {cmd.table_id!r}", code="table_not_found")
    uow.accounting.lock_books(cmd.table_id)
    if uow.accounting.final_counts(gaming_day=cmd.gaming_day, table_id=cmd.table_id):
        raise Conflict(f"the drop box of table {cmd.table_id} for gaming day {cmd.gaming_day} is counted: the count "
                       "is final", code="count_final")
    entries = uow.accounting.count_entries(gaming_day=cmd.gaming_day, table_id=cmd.table_id)
    standing = entries[-1] if entries else None
    if standing is None or one_pair_of_eyes(uow, standing.counted_by, cmd.actor):   # a count is two people's
        outcome = Outcome.ENTERED
    elif (standing.cash, standing.markers) == (cmd.cash, cmd.markers):
        outcome = Outcome.AGREED
    else:
        outcome = Outcome.DISAGREED
    entry = uow.accounting.add_count_entry(table_id=cmd.table_id, gaming_day=cmd.gaming_day, cash=cmd.cash,
                                           markers=cmd.markers, counted_by=cmd.actor, outcome=outcome)
    records = [AuditRecord("drop_counted", {
        "gaming_day": cmd.gaming_day.isoformat(), "cash": cmd.cash, "markers": cmd.markers, "outcome": outcome,
        "entry_id": str(entry.entry_id)}, actor=cmd.actor, table_id=cmd.table_id)]
    final = None
    if outcome == Outcome.AGREED and standing is not None:
        final = uow.accounting.add_final_count(table_id=cmd.table_id, gaming_day=cmd.gaming_day, cash=cmd.cash,
                                               markers=cmd.markers, entered_by=standing.counted_by,
                                               verified_by=cmd.actor)
        records.append(AuditRecord("drop_count_final", {
            "gaming_day": cmd.gaming_day.isoformat(), "cash": final.cash, "markers": final.markers,
            "drop": final.cash + final.markers, "entered_by": final.entered_by, "verified_by": final.verified_by},
            actor=cmd.actor, table_id=cmd.table_id))
    uow.audit.append(chain_for(cmd.table_id), records)
    return {**count_view(cmd.table_id, cmd.gaming_day, [*entries, entry], final), "outcome": outcome}


def counts_of_day(uow: UnitOfWork, day: date, policy: AccountingPolicy) -> list[dict[str, Any]]:
    """Every table's box for the gaming day (tables that existed by its end), by table."""
    entries: dict[str, list[CountEntryRow]] = {}
    for entry in uow.accounting.count_entries(gaming_day=day):
        entries.setdefault(entry.table_id, []).append(entry)
    finals = {final.table_id: final for final in uow.accounting.final_counts(gaming_day=day)}
    _, ends_at = policy.window(day)
    tables = {table_id for table_id, _ in uow.accounting.tables_before(ends_at)} | set(entries) | set(finals)
    return [count_view(table_id, day, entries.get(table_id, []), finals.get(table_id)) for table_id in sorted(tables)]
