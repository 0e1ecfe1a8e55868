"""Money movements of a player-banked round between the banker, the seats and the kitty."""
from __future__ import annotations

from dataclasses import dataclass

BANKER = "banker"
KITTY = "kitty"


def seat_party(seat: int) -> str:
    return f"seat {seat}"


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: `amount` cents from one party to another, and why (the ledger's unit).

    `kind` says why: a hand's outcome (bust, win, lose, pontoon, five-card-trick, royal-pontoon,
    natural-beats-plain, banker-pontoon, banker-five-card-trick, banker-bust), a shoot bet's
    (shoot-won, shoot-lost), or a movement between rounds (kitty-put-up, kitty-taken, bank-sale)."""

    from_party: str
    to_party: str
    amount: int
    kind: str
    seat: int | None
    hand: int | None

    def as_dict(self) -> dict[str, object]:
        return {"from": self.from_party, "to": self.to_party, "amount": self.amount, "kind": self.kind,
                "seat": self.seat, "hand": self.hand}
