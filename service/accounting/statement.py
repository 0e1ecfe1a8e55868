"""The table games statement of a gaming day, per table (and per shift) and for the floor, from the
table's slips, buy-ins and drop count and from its settled rounds; and its issue into the audit
log, where `audit verify` holds each table's figures to the slips and counts chained before it."""
from __future__ import annotations

import json
from collections import defaultdict
from datetime import date
from typing import Any

from ..reports.table_games import (
    CHECKED,
    BuyIn,
    ChipMove,
    Drop,
    RoundMoney,
    TableBooks,
    TrayCount,
    day_figures,
    floor_figures,
)
from ..store.repositories.accounting import Capacity, Slip
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.uow import UnitOfWork
from .commands import IssueStatement
from .policy import AccountingPolicy
from .slips import awaiting, is_tray_count, is_voided, issued_at

# What each missing signature means for the statement, in a reviewer's words.
_WAITING = {Capacity.CAGE.value: "waits for the cage (not counted)",
            Capacity.DEALER.value: "lacks the dealer's signature",
            Capacity.SUPERVISOR.value: "lacks a supervisor's signature"}


def _notes(slips: list[Slip], entries: int, final: bool) -> list[str]:
    notes = []
    for slip in slips:
        name = f"{slip.row.serial} ({slip.row.kind.replace('_', ' ')})"
        if is_voided(slip):
            continue
        if any(signature.act == "void_asked" for signature in slip.signatures):
            notes.append(f"{name}: a void is asked and not confirmed")
        for capacity in awaiting(slip):
            notes.append(f"{name} {_WAITING[capacity]}")
    if entries and not final:
        notes.append("the drop box is counted once: it waits for a second counter")
    return notes


def table_books(uow: UnitOfWork, policy: AccountingPolicy, day: date) -> list[TableBooks]:
    """Every table's books for the gaming day (tables that existed by its end), by table."""
    starts_at, ends_at = policy.window(day)
    slips: dict[str, list[Slip]] = defaultdict(list)
    for slip in uow.accounting.slips(gaming_days=[day]):
        slips[slip.row.table_id].append(slip)
    buy_ins: dict[str, list[BuyIn]] = defaultdict(list)
    for row in uow.accounting.buy_ins(gaming_day=day):
        buy_ins[row.table_id].append(BuyIn(row.amount, row.method, row.recorded_at))
    entries: dict[str, int] = defaultdict(int)
    for entry in uow.accounting.count_entries(gaming_day=day):
        entries[entry.table_id] += 1
    drops = {final.table_id: Drop(final.cash, final.markers) for final in uow.accounting.final_counts(gaming_day=day)}
    rounds: dict[str, list[RoundMoney]] = defaultdict(list)
    unsettled: dict[str, int] = defaultdict(int)
    for played in uow.accounting.rounds_of_day(starts_at=starts_at, ends_at=ends_at):
        if played.status == "settled":
            rounds[played.table_id].append(RoundMoney(played.opened_at, played.handle,
                                                      played.handle - played.paid_out))
        elif played.status != "void":
            unsettled[played.table_id] += 1
    games = dict(uow.accounting.tables_before(ends_at))
    books = []
    for table_id in sorted(set(games) | set(slips) | set(buy_ins) | set(drops)):
        live = [slip for slip in slips[table_id] if not is_voided(slip)]
        trays = tuple(TrayCount(slip.row.serial, slip.row.kind, slip.row.total, slip.row.created_at)
                      for slip in live if is_tray_count(slip))
        moves = tuple(ChipMove(slip.row.serial, slip.row.kind, slip.row.total, issued_at(slip))
                      for slip in live if not is_tray_count(slip) and issued_at(slip) is not None)
        books.append(TableBooks(table_id, games.get(table_id), trays, moves, tuple(buy_ins[table_id]),
                                drops.get(table_id), tuple(rounds[table_id]), unsettled[table_id],
                                tuple(_notes(slips[table_id], entries[table_id], table_id in drops))))
    return books


def table_games_statement(uow: UnitOfWork, policy: AccountingPolicy, day: date) -> dict[str, Any]:
    """The statement of the gaming day: each table's figures and shifts, the floor's, and the last
    time it was issued."""
    starts_at, ends_at = policy.window(day)
    tables = [day_figures(books, policy.variance_threshold) for books in table_books(uow, policy, day)]
    issued = uow.accounting.statements(day)
    last = issued[-1] if issued else None
    return {"gaming_day": day, "starts_at": starts_at, "ends_at": ends_at, "timezone": policy.zone,
            "gaming_day_starts": policy.day_start.strftime("%H:%M"), "money_unit": "cents",
            "variance_threshold": policy.variance_threshold, "shifts_per_gaming_day": policy.shifts,
            "tables": tables, "floor": floor_figures(tables, policy.variance_threshold),
            "issued": None if last is None else {"statement_id": last.statement_id, "issued_by": last.issued_by,
                                                 "issued_at": last.issued_at}}


def _plain(value: Any) -> Any:
    """The statement as JSON holds it (dates and times as ISO 8601 text, ids as text)."""
    return json.loads(json.dumps(value, default=lambda item: item.isoformat() if hasattr(item, "isoformat")
                                 else str(item)))


def issued_figures(table: dict[str, Any]) -> dict[str, Any]:
    """What a table's statement record carries: the figures `audit verify` works out again, and
    the rounds' side beside them."""
    return {name: table[name] for name in (*CHECKED, "handle", "game_win", "variance", "flagged")}


def issue_statement(cmd: IssueStatement, uow: UnitOfWork, policy: AccountingPolicy) -> dict[str, Any]:
    """Record the gaming day's statement as it stands: kept whole, and each table's figures on its
    chain (a later issue stands in its place, the earlier ones kept). Every table's books are held
    first, in the order of their names, so the figures recorded are those of the slips and counts
    chained before them."""
    _, ends_at = policy.window(cmd.gaming_day)
    uow.accounting.lock_books(None)   # the floor's record's chain: every chain in the order appends take them
    for table_id, _game in uow.accounting.tables_before(ends_at):
        uow.accounting.lock_books(table_id)
    statement = table_games_statement(uow, policy, cmd.gaming_day)
    row = uow.accounting.add_statement(gaming_day=cmd.gaming_day, figures=_plain(statement), issued_by=cmd.actor)
    day = cmd.gaming_day.isoformat()
    records: dict[str, list[AuditRecord]] = {
        chain_for(table["table_id"]): [AuditRecord("table_statement_issued", {
            "statement_id": str(row.statement_id), "gaming_day": day, **issued_figures(table)},
            actor=cmd.actor, table_id=table["table_id"])]
        for table in statement["tables"] if table["activity"] == "active"}
    records[chain_for(None)] = [AuditRecord("floor_statement_issued", {
        "statement_id": str(row.statement_id), "gaming_day": day,
        **{name: statement["floor"][name] for name in (*CHECKED, "handle", "game_win", "variance", "flagged")}},
        actor=cmd.actor)]
    uow.audit.append_by_chain(records)
    statement["issued"] = {"statement_id": row.statement_id, "issued_by": row.issued_by, "issued_at": row.issued_at}
    return statement
