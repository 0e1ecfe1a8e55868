"""Chip slips: a tray counted by denomination (opener, shift change, closer) and signed by the
dealer and a supervisor; a fill or a credit requested by a supervisor, issued by the cage and
received at the table by the dealer and a supervisor. A slip is never changed: each step is a
signature of its own, and a mistaken slip is voided with a reason by two people and issued again
in its place. Every slip and step is an audit record on its table's chain."""
from __future__ import annotations

from datetime import date, timedelta
from enum import StrEnum
from typing import Any

from ..refusals import Conflict, Forbidden, Invalid, NotFound
from ..staff.accounts import UNPRINTABLE
from ..staff.people import one_pair_of_eyes
from ..store.repositories.accounting import (
    CHIP_MOVES,
    TRAY_COUNTS,
    Act,
    Capacity,
    SignatureRow,
    Slip,
    SlipKind,
)
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.uow import UnitOfWork
from .chips import counted_chips, total_of
from .commands import CountTray, IssueChips, RequestChips, SignSlip, VoidSlip
from .policy import AccountingPolicy

REASON_MAX = 500
# Who signs a tray's count, and who receives a fill or a credit at the table.
AT_THE_TABLE = (Capacity.DEALER, Capacity.SUPERVISOR)
VOIDERS = (Capacity.SUPERVISOR, Capacity.CAGE)


class SlipStatus(StrEnum):
    """Where a slip stands, from its signatures, as the API and the console show it."""
    AWAITING_SIGNATURE = "awaiting_signature"   # a tray's count: the dealer's or the supervisor's missing
    SIGNED = "signed"
    REQUESTED = "requested"                     # a fill or a credit the cage has not issued yet
    ISSUED = "issued"                           # the cage has; not yet received at the table by both
    RECEIVED = "received"
    VOIDED = "voided"


def _signed(slip: Slip, act: Act) -> dict[str, SignatureRow]:
    return {signature.capacity: signature for signature in slip.signatures if signature.act == act}


def is_voided(slip: Slip) -> bool:
    return bool(_signed(slip, Act.VOIDED))


def is_tray_count(slip: Slip) -> bool:
    return slip.row.kind in TRAY_COUNTS


def issued_at(slip: Slip) -> Any:
    issued = _signed(slip, Act.ISSUED)
    return issued[Capacity.CAGE].at if Capacity.CAGE in issued else None


def awaiting(slip: Slip) -> list[str]:
    """The capacities whose signature the slip waits for next (none once complete or voided)."""
    if is_voided(slip):
        return []
    if is_tray_count(slip):
        signed = _signed(slip, Act.SIGNED)
        return [capacity.value for capacity in AT_THE_TABLE if capacity not in signed]
    if not _signed(slip, Act.ISSUED):
        return [Capacity.CAGE.value]
    received = _signed(slip, Act.RECEIVED)
    return [capacity.value for capacity in AT_THE_TABLE if capacity not in received]


def status_of(slip: Slip) -> SlipStatus:
    if is_voided(slip):
        return SlipStatus.VOIDED
    waiting = awaiting(slip)
    if is_tray_count(slip):
        return SlipStatus.AWAITING_SIGNATURE if waiting else SlipStatus.SIGNED
    if Capacity.CAGE.value in waiting:
        return SlipStatus.REQUESTED
    return SlipStatus.ISSUED if waiting else SlipStatus.RECEIVED


def slip_view(slip: Slip, replaced_by: str | None = None) -> dict[str, Any]:
    row = slip.row
    void_asked = _signed(slip, Act.VOID_ASKED)
    voided = _signed(slip, Act.VOIDED)
    return {"serial": row.serial, "kind": row.kind, "table_id": row.table_id, "gaming_day": row.gaming_day,
            "chips": {str(denomination): count for denomination, count in
                      sorted(((int(key), value) for key, value in row.chips.items()))},
            "total": row.total, "status": status_of(slip), "awaiting": awaiting(slip),
            "replaces": row.replaces_serial, "replaced_by": replaced_by,
            "void_asked": next(iter(void_asked.values())).reason if void_asked and not voided else None,
            "void_reason": next(iter(voided.values())).reason if voided else None,
            "created_by": row.created_by, "created_at": row.created_at,
            "signatures": [{"act": signature.act, "capacity": signature.capacity, "actor": signature.actor,
                            "screen": signature.screen, "reason": signature.reason, "at": signature.at}
                           for signature in slip.signatures]}


def _reason(text: str) -> str:
    reason = (text or "").strip()
    problem = None
    if not reason:
        problem = "give a reason (it is kept in the audit log)"
    elif len(reason) > REASON_MAX:
        problem = f"at most {REASON_MAX} characters"
    elif UNPRINTABLE.search(reason):
        problem = "no control characters, line breaks or bidirectional marks"
    if problem is not None:
        raise Invalid("the reason cannot be used", code="invalid_reason", errors={"reason": [problem]})
    return reason


def _slip_record(kind: str, slip: Slip, actor: str, **payload: Any) -> AuditRecord:
    """A slip's record on its table's chain: what it is and, in `payload`, what happened to it."""
    return AuditRecord(kind, {"slip_id": str(slip.row.slip_id), "serial": slip.row.serial, "slip_kind": slip.row.kind,
                              "gaming_day": slip.row.gaming_day.isoformat(), **payload},
                       actor=actor, table_id=slip.row.table_id)


def _written(slip: Slip, actor: str) -> AuditRecord:
    row = slip.row
    return _slip_record("slip_written", slip, actor, chips=dict(row.chips), total=row.total,
                        replaces=row.replaces_serial)


def _signature_record(slip: Slip, signature: SignatureRow) -> AuditRecord:
    return _slip_record("slip_signed", slip, signature.actor, act=signature.act, capacity=signature.capacity,
                        screen=signature.screen, total=slip.row.total)


def _table(uow: UnitOfWork, table_id: str) -> None:
    if uow.tables.get(table_id) is None:
        raise NotFound(f"no table {table_id!r}", code="table_not_found")


def _gaming_day(given: date | None, policy: AccountingPolicy) -> date:
    """The gaming day a tray is counted for: the current one, or (a closer counted just after the
    day turned) the one before."""
    today = policy.gaming_day()
    if given is None:
        return today
    if given not in (today, today - timedelta(days=1)):
        raise Conflict("a tray is counted for the current gaming day or the one before", code="not_this_gaming_day",
                       errors={"gaming_day": [f"{today} or {today - timedelta(days=1)}"]})
    return given


def _replacing(uow: UnitOfWork, serial: str | None, table_id: str, kind: SlipKind) -> Slip | None:
    """The voided slip a new one is issued in place of: of the same table and kind, and issued
    again only once."""
    if serial is None:
        return None
    old = uow.accounting.slip(serial)
    if old is None or old.row.table_id != table_id:
        raise NotFound(f"no slip {serial} at table {table_id}", code="slip_not_found",
                       errors={"replaces": [f"no slip {serial} at this table"]})
    if old.row.kind != kind:
        raise Conflict(f"slip {serial} is a {old.row.kind}, not a {kind}", code="not_the_same_kind",
                       errors={"replaces": [f"a {old.row.kind}: a slip is issued again as the same kind"]})
    if not is_voided(old):
        raise Conflict(f"slip {serial} is not voided: void it (two people) before issuing it again",
                       code="slip_not_voided", errors={"replaces": ["not voided"]})
    again = uow.accounting.replaced(old.row.slip_id)
    if again is not None:
        raise Conflict(f"slip {serial} was issued again already, as {again}", code="slip_replaced",
                       errors={"replaces": [f"issued again already as {again}"]})
    return old


def _live(slips: list[Slip], kind: SlipKind) -> list[Slip]:
    return [slip for slip in slips if slip.row.kind == kind and not is_voided(slip)]


def _check_tray_order(uow: UnitOfWork, cmd: CountTray, kind: SlipKind, day: date, policy: AccountingPolicy) -> None:
    """One opener and one closer a gaming day, the shift changes between them, no more of them than
    the day's shifts allow."""
    trays = uow.accounting.slips(gaming_days=[day], table_id=cmd.table_id, kinds=TRAY_COUNTS)
    openers, changes, closers = (_live(trays, SlipKind.OPENER), _live(trays, SlipKind.SHIFT_CHANGE),
                                 _live(trays, SlipKind.CLOSER))
    where = f"table {cmd.table_id} on gaming day {day}"
    if kind == SlipKind.OPENER and openers:
        raise Conflict(f"{where} has its opener already ({openers[0].row.serial}): void it to count again",
                       code="opened_already", errors={"kind": [f"opener {openers[0].row.serial} stands"]})
    if kind != SlipKind.OPENER and not openers:
        raise Conflict(f"{where} has no opener: count the tray as the table opens first", code="not_opened",
                       errors={"kind": ["the table's opener comes first"]})
    if kind != SlipKind.OPENER and closers:
        raise Conflict(f"{where} is closed ({closers[0].row.serial})", code="closed_already",
                       errors={"kind": [f"closer {closers[0].row.serial} stands"]})
    if kind == SlipKind.SHIFT_CHANGE and len(changes) >= policy.shifts - 1:
        raise Conflict(f"{where} has had its {policy.shifts - 1} shift changes: a gaming day has {policy.shifts} "
                       "shifts", code="no_more_shifts", errors={"kind": ["the day's last shift is under way"]})


def count_tray(cmd: CountTray, uow: UnitOfWork, policy: AccountingPolicy) -> dict[str, Any]:
    """A tray's count by denomination, signed as it is written by whoever counted it (the dealer or
    a supervisor); the other signs it next."""
    if cmd.kind not in TRAY_COUNTS:
        raise Invalid("a tray is counted as an opener, a shift change or a closer", code="invalid_kind",
                      errors={"kind": [f"one of {', '.join(TRAY_COUNTS)}"]})
    if cmd.capacity not in AT_THE_TABLE:
        raise Forbidden("a tray is counted by the table's dealer or a supervisor", code="not_at_the_table")
    kind = SlipKind(cmd.kind)
    chips = counted_chips(cmd.chips, policy)
    _table(uow, cmd.table_id)
    day = _gaming_day(cmd.gaming_day, policy)
    uow.accounting.lock_books(cmd.table_id)
    replaced = _replacing(uow, cmd.replaces, cmd.table_id, kind)
    _check_tray_order(uow, cmd, kind, day, policy)
    row = uow.accounting.add_slip(serial=uow.accounting.take_serial(kind), kind=kind, table_id=cmd.table_id,
                                  gaming_day=day, chips=chips, total=total_of(chips),
                                  replaces=replaced.row.slip_id if replaced else None, created_by=cmd.actor)
    signature = uow.accounting.add_signature(slip_id=row.slip_id, act=Act.SIGNED, capacity=cmd.capacity,
                                             actor=cmd.actor, screen=cmd.screen)
    return _written_and_signed(uow, row.serial, cmd.actor, signature)


def request_chips(cmd: RequestChips, uow: UnitOfWork, policy: AccountingPolicy) -> dict[str, Any]:
    """A supervisor's fill (chips the table needs from the cage) or credit (chips it sends back),
    by denomination: the cage issues it next."""
    if cmd.kind not in CHIP_MOVES:
        raise Invalid("chips move to a table by a fill and from it by a credit", code="invalid_kind",
                      errors={"kind": [f"one of {', '.join(CHIP_MOVES)}"]})
    kind = SlipKind(cmd.kind)
    chips = counted_chips(cmd.chips, policy, some=True)
    _table(uow, cmd.table_id)
    uow.accounting.lock_books(cmd.table_id)
    replaced = _replacing(uow, cmd.replaces, cmd.table_id, kind)
    row = uow.accounting.add_slip(serial=uow.accounting.take_serial(kind), kind=kind, table_id=cmd.table_id,
                                  gaming_day=policy.gaming_day(), chips=chips, total=total_of(chips),
                                  replaces=replaced.row.slip_id if replaced else None, created_by=cmd.actor)
    signature = uow.accounting.add_signature(slip_id=row.slip_id, act=Act.REQUESTED, capacity=Capacity.SUPERVISOR,
                                             actor=cmd.actor)
    return _written_and_signed(uow, row.serial, cmd.actor, signature)


def _written_and_signed(uow: UnitOfWork, serial: str, actor: str, signature: SignatureRow | None) -> dict[str, Any]:
    slip = uow.accounting.slip(serial)
    if slip is None or signature is None:
        raise LookupError(f"slip {serial} was not written whole")
    uow.audit.append(chain_for(slip.row.table_id), [_written(slip, actor), _signature_record(slip, signature)])
    return slip_view(slip)


def _locked_slip(uow: UnitOfWork, serial: str, table_id: str | None = None) -> Slip:
    """The slip, its table's books held (found first by its number, then read again under the lock)."""
    found = uow.accounting.slip(serial)
    if found is None or (table_id is not None and found.row.table_id != table_id):
        where = f" at table {table_id}" if table_id is not None else ""
        raise NotFound(f"no slip {serial}{where}", code="slip_not_found")
    uow.accounting.lock_books(found.row.table_id)
    slip = uow.accounting.slip(serial)
    if slip is None:
        raise LookupError(f"slip {serial} went missing")
    if is_voided(slip):
        raise Conflict(f"slip {serial} is voided", code="slip_voided")
    return slip


def _sign(uow: UnitOfWork, slip: Slip, act: Act, capacity: Capacity, actor: str, screen: str | None = None,
          reason: str | None = None) -> dict[str, Any]:
    signature = uow.accounting.add_signature(slip_id=slip.row.slip_id, act=act, capacity=capacity, actor=actor,
                                             screen=screen, reason=reason)
    if signature is None:
        raise Conflict(f"slip {slip.row.serial} is {act.value} by the {capacity.value} already", code="signed_already")
    signed = uow.accounting.slip(slip.row.serial)
    if signed is None:
        raise LookupError(f"slip {slip.row.serial} went missing")
    uow.audit.append(chain_for(slip.row.table_id), [_signature_record(signed, signature)])
    return slip_view(signed, uow.accounting.replaced(slip.row.slip_id))


def issue_chips(cmd: IssueChips, uow: UnitOfWork) -> dict[str, Any]:
    """The cage issues a fill's chips (or takes a credit's): from now on they are the table's."""
    slip = _locked_slip(uow, cmd.serial)
    if is_tray_count(slip):
        raise Conflict(f"slip {cmd.serial} is a tray's count: the cage issues fills and credits", code="not_a_fill")
    if _signed(slip, Act.ISSUED):
        raise Conflict(f"slip {cmd.serial} was issued already", code="issued_already")
    return _sign(uow, slip, Act.ISSUED, Capacity.CAGE, cmd.actor)


def sign_slip(cmd: SignSlip, uow: UnitOfWork) -> dict[str, Any]:
    """At the table: the dealer's or a supervisor's signature on a tray's count, or their receipt of
    a fill (its chips into the tray) or a credit (its slip back from the cage). The dealer's and the
    supervisor's are two people's."""
    if cmd.capacity not in AT_THE_TABLE:
        raise Forbidden("slips are signed at the table by its dealer and a supervisor", code="not_at_the_table")
    slip = _locked_slip(uow, cmd.serial, cmd.table_id)
    act = Act.SIGNED if is_tray_count(slip) else Act.RECEIVED
    if act == Act.RECEIVED and not _signed(slip, Act.ISSUED):
        raise Conflict(f"the cage has not issued slip {cmd.serial} yet", code="not_issued")
    signed = _signed(slip, act)
    if cmd.capacity in signed:
        raise Conflict(f"slip {cmd.serial} is {act.value} by the {cmd.capacity.value} already", code="signed_already")
    if any(one_pair_of_eyes(uow, signature.actor, cmd.actor) for signature in signed.values()):
        raise Forbidden(f"slip {cmd.serial} needs two people's signatures: you signed it already (as yourself or "
                        "with a key of yours)",
                        code="same_person")
    return _sign(uow, slip, act, cmd.capacity, cmd.actor, cmd.screen)


def void_slip(cmd: VoidSlip, uow: UnitOfWork) -> dict[str, Any]:
    """A mistaken slip voided, with a reason: the first person asks, a second confirms (then it
    counts no more, and may be issued again in its place)."""
    if cmd.capacity not in VOIDERS:
        raise Forbidden("a slip is voided by supervisors and the cage", code="not_a_voider")
    reason = _reason(cmd.reason)
    slip = _locked_slip(uow, cmd.serial)
    asked = _signed(slip, Act.VOID_ASKED)
    if not asked:
        return _sign(uow, slip, Act.VOID_ASKED, cmd.capacity, cmd.actor, reason=reason)
    if any(one_pair_of_eyes(uow, signature.actor, cmd.actor) for signature in asked.values()):
        raise Forbidden(f"a second person confirms the void of slip {cmd.serial}: you asked for it",
                        code="same_person")
    return _sign(uow, slip, Act.VOIDED, cmd.capacity, cmd.actor, reason=reason)


def slip(uow: UnitOfWork, serial: str, table_id: str | None = None) -> dict[str, Any]:
    found = uow.accounting.slip(serial)
    if found is None or (table_id is not None and found.row.table_id != table_id):
        raise NotFound(f"no slip {serial}", code="slip_not_found")
    return slip_view(found, uow.accounting.replaced(found.row.slip_id))


def slips_of_day(uow: UnitOfWork, day: date, table_id: str | None = None) -> list[dict[str, Any]]:
    if table_id is not None:
        _table(uow, table_id)
    return [slip_view(found) for found in uow.accounting.slips(gaming_days=[day], table_id=table_id)]


def waiting_for(uow: UnitOfWork, capacity: Capacity, policy: AccountingPolicy,
                table_id: str | None = None) -> list[dict[str, Any]]:
    """The slips of the current and the last gaming day that wait for a signature in `capacity`
    (the cage's queue, the dealer's and the supervisor's at a table), oldest first."""
    today = policy.gaming_day()
    found = uow.accounting.slips(gaming_days=[today - timedelta(days=1), today], table_id=table_id)
    return [slip_view(slip) for slip in found if capacity.value in awaiting(slip)]
