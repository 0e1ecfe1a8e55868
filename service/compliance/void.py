"""Voids a round in play (a misdeal, a fault): every stake placed so far goes back to its seat
through the ledger, the round is closed to cards and decisions, and the audit log says why."""
from __future__ import annotations

from typing import Any

from ..audit.log import AuditRecord, append, chain_for
from ..engine.games.canberra import CanberraRound
from ..rounds.errors import Conflict, NotFound
from ..rounds.state import load_game
from ..settlement.ledger import NO_HAND
from ..store.uow import UnitOfWork
from ..traditional.pack import shuffle_after_void
from .commands import VoidRound

REFUND_KIND = "void_refund"


def stakes_placed(game: Any) -> list[dict]:
    """Each seat's stakes so far, bet by bet, as the engine holds them after replaying the round:
    main wager, split wagers, doubles, pair bet and insurance."""
    seats = []
    for seat in game.snapshot()["seats"]:
        bets = []
        for hand in seat["hands"]:
            kind = "main" if hand["hand"] == 0 else "split"
            bets.append({"kind": kind, "hand": hand["hand"], "stake": hand["wager"]})
            if hand["double"]:
                bets.append({"kind": "double", "hand": hand["hand"], "stake": hand["double"]})
        for kind in ("pair_bet", "insurance"):
            if seat.get(kind):
                bets.append({"kind": "pair" if kind == "pair_bet" else kind, "hand": None, "stake": seat[kind]})
        seats.append({"seat": seat["seat"], "bets": bets, "refunded": sum(bet["stake"] for bet in bets)})
    return seats


def void_round(cmd: VoidRound, uow: UnitOfWork) -> dict:
    """Only a round still open (in play) is voided: a complete round has a result and is being
    settled; reversing it would be a correction, not a void."""
    row = uow.rounds.lock(cmd.round_id)
    if row is None:
        raise NotFound(f"no round {cmd.round_id}")
    if cmd.expected_version is not None and cmd.expected_version != row.version:
        raise Conflict(f"the round is at version {row.version}, not {cmd.expected_version}: read it again",
                       code="version_conflict")
    if row.status != "open":
        raise Conflict(f"the round is {row.status}: only a round in play can be voided", code="round_not_open")
    _, game, next_seq = load_game(uow, row)
    # In a player-banked round no money changes hands before settlement (stakes, buys and shoot
    # bets are all paid out then), so voiding it refunds nothing: the round simply never counts.
    refunds = stakes_placed(game) if isinstance(game, CanberraRound) else []
    # The house-banked shoe never deals a card twice; the player-banked pack would, in order.
    shuffled = shuffle_after_void(uow, row.table_id, game) \
        if not isinstance(game, CanberraRound) and row.shoe_mode == "virtual" else []
    with uow.conn.cursor() as cur:
        # Plain INSERT: the round is locked and open, so no refund row can exist; a conflict
        # would be a defect and must stop the void.
        cur.executemany(
            "INSERT INTO ledger_entries (round_id, table_id, shoe_id, rules_ref, paytable_ref, seat, hand, kind, "
            "stake, returned, outcome) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'void')",
            [(row.round_id, row.table_id, row.shoe_id, row.rules_ref, row.paytable_ref, seat["seat"], NO_HAND,
              REFUND_KIND, seat["refunded"], seat["refunded"]) for seat in refunds])
    voided = uow.conn.execute(
        "UPDATE rounds SET status = 'void', voided_at = now(), void_reason = %s, version = version + 1 "
        "WHERE round_id = %s AND status = 'open' AND version = %s RETURNING version, voided_at",
        (cmd.reason, row.round_id, row.version)).fetchone()
    if voided is None:
        raise RuntimeError(f"round {row.round_id} changed under its lock")  # never write past the lock
    version, voided_at = voided
    total = sum(seat["refunded"] for seat in refunds)
    append(uow.conn, chain_for(row.table_id), [AuditRecord("round_voided", {
        "reason": cmd.reason, "shoe_id": row.shoe_id, "refunds": refunds, "total_refunded": total,
        "events_before_void": next_seq,
        "before": {"status": "open", "version": row.version}, "after": {"status": "void", "version": version}},
        actor=cmd.actor, table_id=row.table_id, round_id=str(row.round_id))]
        + [AuditRecord(kind, payload, actor=cmd.actor, table_id=row.table_id, round_id=str(row.round_id))
           for kind, payload in shuffled])
    return {"round_id": row.round_id, "table_id": row.table_id, "status": "void", "version": version,
            "voided_at": voided_at, "reason": cmd.reason, "refunds": refunds, "total_refunded": total}
