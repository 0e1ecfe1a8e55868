"""Settling the player-banked game: ledger rows and payout records from a round's transfers."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..engine.games.traditional import Transfer
from ..store.repositories.audit import AuditRecord
from ..store.repositories.ledger import NO_HAND, LedgerRow
from ..traditional.money import participant_totals
from ..traditional.seating import BANKER_SEAT, KITTY_SEAT, party_seat

ACTOR = "settlement"


def ledger_rows_for(round_: Any, transfers: list[Transfer]) -> list[LedgerRow]:
    """Money between the banker (seat 0), the players and the kitty (seat -1), summing to zero.
    One row per participant, hand and kind of transfer: `stake` is what the participant paid
    under it, `returned` what it received, so returned - stake is its net and the rows of a round
    sum to zero. The banker's and the kitty's rows gather every seat's (hand -1); the audit's
    payout records keep each transfer."""
    sums: dict[tuple[int, int, str], list[int]] = defaultdict(lambda: [0, 0])
    for transfer in transfers:
        payer, payee = party_seat(transfer.from_party), party_seat(transfer.to_party)
        sums[payer, _hand(payer, transfer), transfer.kind][0] += transfer.amount
        sums[payee, _hand(payee, transfer), transfer.kind][1] += transfer.amount
    rows = [LedgerRow(round_.round_id, round_.table_id, round_.shoe_id, round_.rules_ref, None, seat, hand, kind,
                      paid, received, "received" if received > paid else "paid" if paid > received else "even")
            for (seat, hand, kind), (paid, received) in sorted(sums.items())]
    imbalance = sum(row.returned - row.stake for row in rows)
    if imbalance:
        raise ValueError(f"the round's transfers do not sum to zero (off by {imbalance})")
    return rows


def _hand(seat: int, transfer: Transfer) -> int:
    if seat in (BANKER_SEAT, KITTY_SEAT) or transfer.hand is None:
        return NO_HAND
    return transfer.hand


def audit_records_for(round_: Any, transfers: list[Transfer]) -> list[AuditRecord]:
    """One payout record per participant: what it paid and received, and each transfer it was in."""
    totals = participant_totals(transfers)
    records = []
    for seat in sorted(totals):
        paid, received = totals[seat]
        mine = [t.as_dict() for t in transfers if seat in (party_seat(t.from_party), party_seat(t.to_party))]
        records.append(AuditRecord("payout", {
            "seat": seat, "staked": paid, "returned": received, "net": received - paid,
            "shoe_id": round_.shoe_id, "rules": round_.rules_ref, "paytable": None, "transfers": mine,
        }, ACTOR, round_.table_id, round_.round_id))
    return records


def money_of(result: dict) -> tuple[int, dict[int, int], int]:
    """(banker's net, {seat: net}, kitty after) from a player-banked round's result."""
    return (result["banker"]["net"], {p["seat"]: p["net"] for p in result["players"]}, result["kitty"])


def check_stored_result(stored: dict | None, replayed: dict) -> None:
    """The result stored when the round completed must be the replay's money."""
    if stored is not None and money_of(stored) != money_of(replayed):
        raise ValueError(f"the stored result {money_of(stored)} disagrees with the replay {money_of(replayed)}")
