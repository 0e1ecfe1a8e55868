"""The house-banked game's rules as a frozen record: every choice the spec calls a rule."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from ...cards import ACES, RANK_OF, RANKS
from ...limits import Limits
from ...odds import Odds, Rounding
from ...rule_errors import RuleFieldError
from ...shoe import ShoeSpec

# Limits is re-exported: the rules loader and older callers import it from here.
__all__ = ["CanberraRules", "DealerPontoonTakes", "DoubleMaximum", "DoubleMinimum", "Limits", "Rounding"]


class DoubleMinimum(StrEnum):
    """The least a double may stake: the table minimum, the whole wager, or any amount."""

    TABLE_MINIMUM = "table_minimum"
    WAGER = "wager"
    ONE_CENT = "one_cent"


class DoubleMaximum(StrEnum):
    """The most a double may stake (the wager: doubling never stakes more than the hand's bet)."""

    WAGER = "wager"


class DealerPontoonTakes(StrEnum):
    """What a dealer's Pontoon takes from the hands still waiting for it: one original wager of
    the seat's (busted bets plus one, BB+1), each waiting hand's original wager (original and
    busted bets only, OBBO), or every stake on them, doubles included. Whatever a hand staked
    beyond what is taken comes back."""

    ONE_ORIGINAL_WAGER = "one_original_wager"
    ONE_WAGER_PER_HAND = "one_wager_per_hand"
    ALL_STAKES = "all_stakes"


def _check_ranks(name: str, ranks: tuple[str, ...]) -> None:
    bad = [r for r in ranks if r not in RANKS]
    if bad:
        raise RuleFieldError(name, f"names unknown ranks {bad}; ranks are {' '.join(RANKS)}")


def _check_choice(name: str, value: object, choice: type[StrEnum]) -> None:
    """A rule choice is its enum's member (the rules loader turns the file's text into it)."""
    if not isinstance(value, choice):
        raise RuleFieldError(name, f"must be one of {', '.join(choice)}, not {value!r}")


@dataclass(frozen=True, slots=True)
class CanberraRules:
    """Rules of a house-banked Pontoon game (Canberra and its variants, blackjack-like games)."""

    game: ClassVar[str] = "canberra"   # the game family that plays these rules

    name: str
    shoe: ShoeSpec
    max_seats: int
    main_limits: Limits                      # a side bet's limits are declared with it, in the paytable
    pontoon_ranks: tuple[str, ...]          # an ace with one of these is Pontoon (and dealer Pontoon)
    split_hand_pontoon: bool                 # does ace + picture after a split count as Pontoon
    stand_minimum: int
    twenty_one_wins_at_once: bool
    surrender_upcards: tuple[str, ...]      # empty: no surrender
    surrender_returns: Odds                  # fraction of the wager returned (1:2 is half)
    surrender_lost_to_dealer_pontoon: bool
    double_after_split: bool
    double_on_split_aces: bool
    double_max_cards: int | None             # None: any number of cards
    double_minimum: DoubleMinimum
    double_maximum: DoubleMaximum
    double_aces_count_one: bool
    forfeit_after_double: bool
    split_max_hands: int
    split_aces_resplit: bool
    split_aces_one_card: bool
    split_same_rank_only: bool
    insurance_upcards: tuple[str, ...]
    insurance_minimum: int
    insurance_max_fraction: Odds             # of the main wager, rounded down
    insurance_pays: Odds
    dealer_stands_on: int
    dealer_hits_soft_17: bool
    dealer_draws_when_no_hand_waiting: bool
    dealer_pontoon_takes: DealerPontoonTakes
    player_pontoon_paid_at_once: bool        # False: a player's Pontoon waits and pushes a dealer Pontoon
    rounding: Rounding
    double_totals: frozenset[int] | None = None   # the totals a hand may double on (None: any under 21)
    bonuses_on_split_hands: bool = True      # a split hand's winning 21 is paid by the paytable's bonus lines
    bonuses_on_doubled_hands: bool = False   # a doubled 21 is paid by a bonus line (on its whole stake)
    # Derived from pontoon_ranks once, for the deal: every card an ace makes Pontoon with.
    pontoon_cards: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.max_seats <= 9:
            raise RuleFieldError("max_seats", "must be from 1 to 9")
        for name in ("pontoon_ranks", "surrender_upcards", "insurance_upcards"):
            _check_ranks(name, getattr(self, name))
        if not self.pontoon_ranks:
            raise RuleFieldError("pontoon_ranks", "must name at least one rank: an ace with one of them is Pontoon")
        removed = [r for r in self.pontoon_ranks if r in self.shoe.ranks_removed]
        if removed:
            raise RuleFieldError("pontoon_ranks", f"names ranks the shoe removes: {removed}")
        if not 2 <= self.stand_minimum <= 21:
            raise RuleFieldError("stand_minimum", "must be from 2 to 21")
        if self.double_max_cards is not None and self.double_max_cards < 2:
            raise RuleFieldError("double_max_cards", "must be at least 2, or null for any number")
        if self.double_totals is not None and (not self.double_totals
                                               or not all(type(t) is int and 2 <= t <= 20 for t in self.double_totals)):
            raise RuleFieldError("double_totals", "must list totals from 2 to 20 (such as [9, 10, 11]), or be null "
                                                  "for any total")
        _check_choice("double_minimum", self.double_minimum, DoubleMinimum)
        _check_choice("double_maximum", self.double_maximum, DoubleMaximum)
        if not 1 <= self.split_max_hands <= 8:
            raise RuleFieldError("split_max_hands", "must be from 1 to 8")
        # A split ace that takes one card is finished with it: a rule for a later decision on it
        # could never apply, and a file that names one would say the game is other than it is.
        # (Re-splitting aces that take one card each is such a game: the one card is an ace.)
        one_card = "cannot be true while split aces take one card each (split.aces_one_card): a split ace takes"
        if self.split_aces_one_card and self.double_on_split_aces:
            raise RuleFieldError("double_on_split_aces", f"{one_card} no decision to double")
        if self.insurance_minimum < 1:
            raise RuleFieldError("insurance_minimum", "must be at least 1 cent")
        if self.surrender_returns.numerator > self.surrender_returns.denominator:
            raise RuleFieldError("surrender_returns", "cannot give back more than the wager")
        if not 12 <= self.dealer_stands_on <= 21:
            raise RuleFieldError("dealer_stands_on", "must be from 12 to 21")
        _check_choice("dealer_pontoon_takes", self.dealer_pontoon_takes, DealerPontoonTakes)
        _check_choice("rounding", self.rounding, Rounding)
        # A derived table, not a choice: set as a frozen dataclass's own __init__ sets its fields.
        object.__setattr__(self, "pontoon_cards",
                           frozenset(card for card, rank in RANK_OF.items() if rank in self.pontoon_ranks))

    def may_double_on(self, cards: int, total: int) -> bool:
        """Whether the number of cards and the total (aces counted as a double counts them) allow
        a double."""
        return ((self.double_max_cards is None or cards <= self.double_max_cards)
                and (self.double_totals is None or total in self.double_totals))

    def is_pontoon(self, first: str, second: str) -> bool:
        """Whether two cards are Pontoon: an ace and a card of a Pontoon rank."""
        pontoon_cards = self.pontoon_cards
        return first in ACES and second in pontoon_cards or second in ACES and first in pontoon_cards

    def is_pontoon_pair(self, rank_a: str, rank_b: str) -> bool:
        return (rank_a == "A" and rank_b in self.pontoon_ranks) or (rank_b == "A" and rank_a in self.pontoon_ranks)
