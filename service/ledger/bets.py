"""The ledger rows of a house-banked round's bet lines, one per bet."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..store.repositories.ledger import NO_HAND, LedgerRow


def rows_for_bets(round_id: str, table_id: str, shoe_id: str | None, rules_ref: str, paytable_ref: str | None,
                  bets: Iterable[Any]) -> list[LedgerRow]:
    """The ledger rows of a round's bet lines (the engine's BetLines)."""
    return [LedgerRow(round_id, table_id, shoe_id, rules_ref, paytable_ref, bet.seat,
                      NO_HAND if bet.hand is None else bet.hand, bet.kind, bet.stake, bet.returned, bet.outcome)
            for bet in bets]
