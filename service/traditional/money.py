"""Money of the player-banked game as the ledger sees it: each participant's payments and receipts."""
from __future__ import annotations

from collections.abc import Iterable

from ..engine.games.traditional import Transfer
from .seating import party_seat


def participant_totals(transfers: Iterable[Transfer]) -> dict[int, tuple[int, int]]:
    """{seat: (paid, received)} with the banker as seat 0 and the kitty as -1."""
    totals: dict[int, tuple[int, int]] = {}
    for transfer in transfers:
        payer, payee = party_seat(transfer.from_party), party_seat(transfer.to_party)
        paid, received = totals.get(payer, (0, 0))
        totals[payer] = (paid + transfer.amount, received)
        paid, received = totals.get(payee, (0, 0))
        totals[payee] = (paid, received + transfer.amount)
    return totals
