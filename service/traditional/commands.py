"""The commands a terminal sends about the bank between rounds, as plain immutable values."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChangeKitty:
    table_id: str
    action: str                     # put_up | top_up
    amount: int
    actor: str | None = None


@dataclass(frozen=True, slots=True)
class SellBank:
    table_id: str
    to_seat: int                    # the buyer, counted from the banker's left as in a round
    price: int
    actor: str | None = None
