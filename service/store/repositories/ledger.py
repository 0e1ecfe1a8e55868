"""The ledger as the back office reads and writes it outside settlement: a void's refunds, and the
bets a recall shows."""
from __future__ import annotations

import uuid
from typing import Any

from ..transaction import Statements
from .rounds import RoundRow

# The ledger's hand for seat-level bets (a refund, a pair bet, insurance, envy): the column is NOT NULL.
NO_HAND = -1


class LedgerRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add_refund(self, row: RoundRow, seat: int, amount: int, kind: str) -> None:
        """A stake given back to a seat of a voided round (outcome 'void'). Plain INSERT: the round
        is locked and open, so no refund row can exist; a conflict would be a defect and must stop
        the void."""
        self.db.execute(
            "INSERT INTO ledger_entries (round_id, table_id, shoe_id, rules_ref, paytable_ref, seat, hand, kind, "
            "stake, returned, outcome) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'void')",
            (row.round_id, row.table_id, row.shoe_id, row.rules_ref, row.paytable_ref, seat, NO_HAND, kind,
             amount, amount))

    def bets_of(self, round_ids: list[uuid.UUID]) -> list[tuple[Any, ...]]:
        """(round_id, seat, hand, kind, stake, returned, outcome) of every bet of the rounds, in
        round, seat, hand and entry order."""
        return self.db.execute(
            "SELECT round_id, seat, hand, kind, stake, returned, outcome FROM ledger_entries "
            "WHERE round_id = ANY(%s) ORDER BY round_id, seat, hand, id", (round_ids,)).fetchall()
