"""Voids a round in play (a misdeal, a fault): every stake placed so far goes back to its seat
through the ledger, the round is closed to cards and decisions, the dealer's call for a supervisor
it answers is closed, and the audit log says why."""
from __future__ import annotations

from ..games import family_of
from ..refusals import Conflict, NotFound
from ..rounds.state import load_game
from ..screens.calls import answered_by_void
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.rounds import RoundStatus
from ..store.uow import UnitOfWork
from .commands import VoidRound

REFUND_KIND = "void_refund"


def void_round(cmd: VoidRound, uow: UnitOfWork) -> dict:
    """Only a round still open (in play) is voided: a complete round has a result and is being
    settled; reversing it would be a correction, not a void."""
    row = uow.rounds.lock(cmd.round_id)
    if row is None:
        raise NotFound(f"no round {cmd.round_id}")
    if cmd.expected_revision is not None and cmd.expected_revision != row.version:
        raise Conflict(f"the round is at revision {row.version}, not {cmd.expected_revision}: read it again",
                       code="revision_conflict")
    if row.status != RoundStatus.OPEN:
        raise Conflict(f"the round is {row.status}: only a round in play can be voided", code="round_not_open")
    game_rules, game, next_seq = load_game(uow, row)
    # What the game gives back (the stakes placed so far, or nothing where no money has moved yet)
    # and what it must change about its cards (a pack that would deal the seen cards again).
    refunds, shuffled = family_of(game_rules.rules).void(uow, row, game)
    for seat in refunds:
        uow.ledger.add_refund(row, seat["seat"], seat["refunded"], REFUND_KIND)
    voided = uow.rounds.void(row, cmd.reason)
    if voided is None:
        raise RuntimeError(f"round {row.round_id} changed under its lock")  # never write past the lock
    version, voided_at = voided
    total = sum(seat["refunded"] for seat in refunds)
    uow.audit.append(chain_for(row.table_id), [AuditRecord("round_voided", {
        "reason": cmd.reason, "shoe_id": row.shoe_id, "refunds": refunds, "total_refunded": total,
        "events_before_void": next_seq,
        "before": {"status": RoundStatus.OPEN, "version": row.version},
        "after": {"status": RoundStatus.VOID, "version": version}},
        actor=cmd.actor, table_id=row.table_id, round_id=str(row.round_id))]
        + [AuditRecord(kind, payload, actor=cmd.actor, table_id=row.table_id, round_id=str(row.round_id))
           for kind, payload in shuffled]
        + answered_by_void(uow, row.table_id, row.round_id, cmd.actor, cmd.reason))
    return {"round_id": row.round_id, "table_id": row.table_id, "status": RoundStatus.VOID, "version": version,
            "voided_at": voided_at, "reason": cmd.reason, "refunds": refunds, "total_refunded": total}
