"""Buy-ins at the table, per seat: the player's cash (or a marker, the casino's credit) goes into the
drop box and chips of the same value come out of the tray. Recorded from the dealer's screen, the
REST API and the console's table page alike; each is an audit record on the table's chain."""
from __future__ import annotations

from datetime import date
from typing import Any

from ..catalog import resolve
from ..refusals import Conflict, Invalid, NotFound
from ..rules import Ref
from ..store.repositories.accounting import BuyInRow
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.uow import UnitOfWork
from .commands import RecordBuyIn
from .policy import AccountingPolicy

METHODS = ("cash", "marker")
MAX_AMOUNT = 10**12


def buy_in_view(row: BuyInRow) -> dict[str, Any]:
    return {"buy_in_id": row.buy_in_id, "table_id": row.table_id, "gaming_day": row.gaming_day, "seat": row.seat,
            "amount": row.amount, "method": row.method, "recorded_by": row.recorded_by, "screen": row.screen,
            "recorded_at": row.recorded_at}


def record_buy_in(cmd: RecordBuyIn, uow: UnitOfWork, policy: AccountingPolicy) -> dict[str, Any]:
    """A seat's buy-in of `amount` cents in cash or by marker, on the current gaming day."""
    table = uow.tables.get(cmd.table_id)
    if table is None:
        raise NotFound(f"no table {cmd.table_id!r}", code="table_not_found")
    seats = resolve(uow.paytables, str(Ref(table.rules, table.rules_version)), None).rules.max_seats
    errors: dict[str, list[str]] = {}
    if isinstance(cmd.seat, bool) or not isinstance(cmd.seat, int) or cmd.seat < 1:
        errors["seat"] = [f"a seat of this table: 1 to {seats}"]
    if isinstance(cmd.amount, bool) or not isinstance(cmd.amount, int) or not 1 <= cmd.amount <= MAX_AMOUNT:
        errors["amount"] = ["whole cents, more than 0"]
    if cmd.method not in METHODS:
        errors["method"] = ["cash, or marker (the casino's credit)"]
    if errors:
        raise Invalid("the buy-in cannot be recorded as given", code="invalid_buy_in", errors=errors)
    if cmd.seat > seats:
        # The table's rules say how many seats it has: a seat beyond them is this table's refusal.
        raise Conflict(f"table {cmd.table_id} has seats 1 to {seats}", code="no_such_seat",
                       errors={"seat": [f"a seat of this table: 1 to {seats}"]})
    uow.accounting.lock_books(cmd.table_id)
    row = uow.accounting.add_buy_in(table_id=cmd.table_id, gaming_day=policy.gaming_day(), seat=cmd.seat,
                                    amount=cmd.amount, method=cmd.method, recorded_by=cmd.actor, screen=cmd.screen)
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord("buy_in_recorded", {
        "buy_in_id": str(row.buy_in_id), "gaming_day": row.gaming_day.isoformat(), "seat": row.seat,
        "amount": row.amount, "method": row.method, "screen": row.screen}, actor=cmd.actor, table_id=cmd.table_id)])
    return buy_in_view(row)


def buy_ins_of_day(uow: UnitOfWork, day: date, table_id: str | None = None) -> list[dict[str, Any]]:
    if table_id is not None and uow.tables.get(table_id) is None:
        raise NotFound(f"no table {table_id!r}", code="table_not_found")
    return [buy_in_view(row) for row in uow.accounting.buy_ins(gaming_day=day, table_id=table_id)]
