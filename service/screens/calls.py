"""A dealer's call for a supervisor (a misdeal, a dispute) from the table's screen: kept open, and
shown on the console's floor and table page, until a supervisor voids the round (the void answers
it) or dismisses it with a reason. Each step is an audit record on the table's chain."""
from __future__ import annotations

from typing import Any

from ..refusals import Conflict, Invalid, NotFound
from ..staff.accounts import UNPRINTABLE
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.screens import CallRow
from ..store.uow import UnitOfWork
from .commands import CallSupervisor, DismissCall

CALL_REASON_MAX = 200
DISMISS_REASON_MAX = 500


def call_view(row: CallRow) -> dict[str, Any]:
    return {"call_id": row.call_id, "table_id": row.table_id, "screen_id": row.screen_id, "screen": row.screen_name,
            "round_id": row.round_id, "called_by": row.called_by, "reason": row.reason, "called_at": row.called_at,
            "closed_at": row.closed_at, "closed_by": row.closed_by, "outcome": row.outcome,
            "closing_reason": row.closing_reason}


def _reason(text: str | None, limit: int, *, required: bool) -> str | None:
    reason = (text or "").strip()
    problem = None
    if not reason and required:
        problem = "give a reason (it is kept in the audit log)"
    elif len(reason) > limit:
        problem = f"at most {limit} characters"
    elif UNPRINTABLE.search(reason):
        problem = "no control characters, line breaks or bidirectional marks"
    if problem is not None:
        raise Invalid("the reason cannot be used", code="invalid_reason", errors={"reason": [problem]})
    return reason or None


def call_supervisor(cmd: CallSupervisor, uow: UnitOfWork) -> dict[str, Any]:
    """A call for a supervisor at the table, naming the round open there (if any). The table has
    one open call at a time: calling again while it is open (a double tap, a second reason) gives
    that call back, `already` set, and records nothing more."""
    reason = _reason(cmd.reason, CALL_REASON_MAX, required=False)
    if uow.tables.get(cmd.table_id) is None:
        raise NotFound(f"no table {cmd.table_id!r}")
    round_id = uow.rounds.open_on_table(cmd.table_id)
    call = uow.screens.add_call(table_id=cmd.table_id, screen_id=cmd.screen_id, round_id=round_id,
                                called_by=cmd.actor, reason=reason)
    if call is None:
        return {**call_view(uow.screens.open_calls(cmd.table_id)[0]), "already": True}
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord("supervisor_called", {
        "call_id": str(call.call_id), "screen_id": str(call.screen_id), "screen": call.screen_name,
        "reason": reason, "round_id": str(round_id) if round_id else None},
        actor=cmd.actor, table_id=cmd.table_id, round_id=str(round_id) if round_id else None)])
    return {**call_view(call), "already": False}


def dismiss_call(cmd: DismissCall, uow: UnitOfWork) -> dict[str, Any]:
    """A supervisor closes the call without a void, saying why."""
    reason = _reason(cmd.reason, DISMISS_REASON_MAX, required=True)
    call = uow.screens.lock_call(cmd.call_id)
    if call is None or call.table_id != cmd.table_id:
        raise NotFound(f"no call {cmd.call_id} at table {cmd.table_id!r}")
    if call.closed_at is not None:
        raise Conflict(f"the call was {call.outcome} already", code="call_closed")
    closed = uow.screens.close_call(call.call_id, by=cmd.actor, outcome="dismissed", reason=reason)
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord("supervisor_call_dismissed", {
        "call_id": str(call.call_id), "called_by": call.called_by, "reason": reason,
        "round_id": str(call.round_id) if call.round_id else None},
        actor=cmd.actor, table_id=cmd.table_id, round_id=str(call.round_id) if call.round_id else None)])
    return call_view(closed)


def open_calls(uow: UnitOfWork, table_id: str | None = None) -> list[dict[str, Any]]:
    """The calls waiting for a supervisor (at every table, or at the one named), oldest first."""
    return [call_view(row) for row in uow.screens.open_calls(table_id)]


def answered_by_void(uow: UnitOfWork, table_id: str, round_id: Any, actor: str, reason: str) -> list[AuditRecord]:
    """Close the table's open calls the void of `round_id` answers (those about it or about no
    round in particular); the records saying so, for the void's own append."""
    return [AuditRecord("supervisor_call_answered", {
        "call_id": str(call.call_id), "called_by": call.called_by, "outcome": "voided", "reason": reason},
        actor=actor, table_id=table_id, round_id=str(round_id))
        for call in uow.screens.answer_calls(table_id, round_id, by=actor, reason=reason)]
