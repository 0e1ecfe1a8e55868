"""The records a settled house-banked round is read as: bet lines, their kinds and outcomes, and
the dealer's final hand."""
from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class BetKind(StrEnum):
    """Which bet a line settles: a hand's wager (main, or split for a split's new hand), its
    double, the seat's insurance, and the super bonus's prize and envy payment. A side bet's line
    takes the side bet's name (`pair`, `21+3`) as its kind instead."""

    MAIN = "main"
    SPLIT = "split"
    DOUBLE = "double"
    INSURANCE = "insurance"
    SUPER_BONUS = "super_bonus"
    ENVY = "envy"


class Outcome(StrEnum):
    """How a bet ended. A winning 21 paid by a bonus line takes the line's name instead, and a
    side bet the hand it paid (`pair`) or its kind's losing outcome (`no-pair`)."""

    WIN = "win"
    DEALER_BUST = "dealer-bust"
    PUSH = "push"
    LOSE = "lose"
    BUST = "bust"
    PONTOON = "pontoon"
    TWENTY_ONE = "twenty-one"
    FORFEIT = "forfeit"
    SURRENDER = "surrender"
    SURRENDER_DEALER_PONTOON = "surrender-dealer-pontoon"
    DEALER_PONTOON = "dealer-pontoon"
    SUPER_BONUS = "super-bonus"
    ENVY = "envy"
    INSURANCE_WON = "insurance-won"
    INSURANCE_LOST = "insurance-lost"


class BetLine(NamedTuple):
    """One bet's stake and return at settlement: the unit the ledger records. `hand` is None for
    a seat's own bet (a side bet, insurance, envy)."""

    seat: int
    hand: int | None
    kind: BetKind | str           # a side bet's line: the side bet's name
    stake: int
    returned: int
    outcome: str


class DealerResult(NamedTuple):
    """The dealer's finished hand as settlement read it."""

    total: int
    pontoon: bool
