"""Odds such as 3:2 as exact integer ratios, and payouts in whole cents rounded by rule."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# No line pays more than this on either side: a payout (a stake up to 10^12 cents times it) stays
# inside 64 bits, where the house-edge simulation and PostgreSQL's bigint both work.
MAX_ODDS_TERM = 10_000


class Rounding(StrEnum):
    """How a payout's fraction of a cent is settled: always down (the house keeps it), always up,
    or to the nearest cent with a half cent up."""

    DOWN = "down"
    UP = "up"
    HALF_UP = "half_up"


@dataclass(frozen=True, slots=True)
class Odds:
    """Winnings per unit staked, as numerator:denominator (3:2 pays 3 for every 2)."""

    numerator: int
    denominator: int

    def __post_init__(self) -> None:
        # `type(x) is int`: a boolean is an int to isinstance, and true:true would be odds of 1:1.
        if type(self.numerator) is not int or type(self.denominator) is not int:
            raise ValueError("odds must be whole numbers, as in 3:2")
        if self.numerator <= 0 or self.denominator <= 0:
            raise ValueError(f"odds {self.numerator}:{self.denominator} must be positive on both sides")
        if self.numerator > MAX_ODDS_TERM or self.denominator > MAX_ODDS_TERM:
            raise ValueError(f"odds {self.numerator}:{self.denominator} must be at most {MAX_ODDS_TERM} on either side")

    @classmethod
    def parse(cls, text: object) -> Odds:
        if isinstance(text, (list, tuple)) and len(text) == 2:
            return cls(text[0], text[1])
        if isinstance(text, str) and ":" in text:
            left, right = (side.strip() for side in text.partition(":")[::2])
            # Plain digits (a minus sign is refused below, by name): int() would also take "1_000"
            # and other scripts' digits.
            if not all(side.removeprefix("-").isascii() and side.removeprefix("-").isdigit() for side in (left, right)):
                raise ValueError(f"{text!r} is not odds: write them as \"3:2\"")
            return cls(int(left), int(right))
        raise ValueError(f"{text!r} is not odds: write them as \"3:2\"")

    def winnings(self, stake: int, rounding: str = Rounding.DOWN) -> int:
        """The amount won on top of the stake, rounded to the cent as the rules say."""
        whole, remainder = divmod(stake * self.numerator, self.denominator)
        if remainder and (rounding == _UP or rounding == _HALF_UP and remainder * 2 >= self.denominator):
            return whole + 1
        return whole

    def __str__(self) -> str:
        return f"{self.numerator}:{self.denominator}"

    def pays_more_than(self, other: Odds) -> bool:
        """Exactly, as integers: two lines' odds are compared to choose the one that pays."""
        return self.numerator * other.denominator > other.numerator * self.denominator

    def as_float(self) -> float:
        return self.numerator / self.denominator


# The choices a payout compares its rounding with, bound once by name (every payout reads them).
_UP, _HALF_UP = Rounding.UP, Rounding.HALF_UP
