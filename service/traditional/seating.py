"""Chairs and seats: a table's chairs (places) are fixed, a round's seats count from the banker's left."""
from __future__ import annotations

from ..engine.games.traditional import TraditionalRules

BANKER_SEAT = 0
KITTY_SEAT = -1      # the kitty's "seat" in the ledger and in table transfers


def places(rules: TraditionalRules) -> int:
    """Chairs round the table: the banker's and one for each player seat the rules allow."""
    return rules.max_seats + 1


def place_of(seat: int, banker_place: int, rules: TraditionalRules) -> int:
    """The chair of round seat `seat` (0: the banker) while the bank is at `banker_place`."""
    return (banker_place + seat) % places(rules)


def party_seat(party: str) -> int:
    """A Transfer's party ("banker", "kitty", "seat N") as a ledger seat: 0, -1 or N."""
    if party == "banker":
        return BANKER_SEAT
    if party == "kitty":
        return KITTY_SEAT
    name, _, number = party.partition(" ")
    if name != "seat" or not number.isdigit():
        raise ValueError(f"unknown party {party!r}")
    return int(number)
