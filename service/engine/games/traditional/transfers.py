"""Money movements of a player-banked round between the banker, the seats and the kitty."""
from __future__ import annotations

from dataclasses import dataclass

BANKER = "banker"
KITTY = "kitty"


def seat_party(seat: int) -> str:
    return f"seat {seat}"


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: `amount` cents from one party to another, and why (the ledger's unit)."""

    from_party: str
    to_party: str
    amount: int
    kind: str              # bust, win, lose, pontoon, five-card-trick, royal-pontoon, banker-pontoon,
    seat: int | None       # banker-five-card-trick, banker-bust, shoot-won, shoot-lost, ...
    hand: int | None

    def as_dict(self) -> dict:
        return {"from": self.from_party, "to": self.to_party, "amount": self.amount, "kind": self.kind,
                "seat": self.seat, "hand": self.hand}


def net_of(party: str, transfers: list[Transfer]) -> int:
    """What `party` gained (negative: lost) over these transfers."""
    return sum(t.amount for t in transfers if t.to_party == party) - \
        sum(t.amount for t in transfers if t.from_party == party)
