"""The house-banked game's rules as a frozen object: every choice the spec calls a rule."""
from __future__ import annotations

from ...cards import RANKS
from ...frozen import FrozenRecord
from ...limits import Limits  # moved to the core; re-exported here for existing imports
from ...odds import ROUNDING_MODES, Odds
from ...rule_errors import RuleFieldError
from ...shoe import ShoeSpec


def _check_ranks(field: str, ranks: tuple[str, ...]) -> None:
    bad = [r for r in ranks if r not in RANKS]
    if bad:
        raise RuleFieldError(field, f"names unknown ranks {bad}; ranks are {' '.join(RANKS)}")


class CanberraRules(FrozenRecord):
    """Rules of a house-banked Pontoon game (Canberra and its variants, blackjack-like games)."""

    name: str
    shoe: ShoeSpec
    max_seats: int
    main_limits: Limits
    pair_limits: Limits
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
    double_minimum: str                      # "table_minimum" or "wager"
    double_maximum: str                      # "wager"
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
    dealer_pontoon_takes: str                # "one_original_wager" or "all_stakes"
    player_pontoon_paid_at_once: bool        # False: a player's Pontoon waits and pushes a dealer Pontoon
    rounding: str

    def __post_init__(self) -> None:
        if not 1 <= self.max_seats <= 9:
            raise RuleFieldError("max_seats", "must be from 1 to 9")
        for field in ("pontoon_ranks", "surrender_upcards", "insurance_upcards"):
            _check_ranks(field, getattr(self, field))
        if not self.pontoon_ranks:
            raise RuleFieldError("pontoon_ranks", "must name at least one rank: an ace with one of them is Pontoon")
        removed = [r for r in self.pontoon_ranks if r in self.shoe.ranks_removed]
        if removed:
            raise RuleFieldError("pontoon_ranks", f"names ranks the shoe removes: {removed}")
        if not 2 <= self.stand_minimum <= 21:
            raise RuleFieldError("stand_minimum", "must be from 2 to 21")
        if self.double_max_cards is not None and self.double_max_cards < 2:
            raise RuleFieldError("double_max_cards", "must be at least 2, or null for any number")
        if self.double_minimum not in ("table_minimum", "wager", "one_cent"):
            raise RuleFieldError("double_minimum", "must be table_minimum, wager or one_cent")
        if self.double_maximum not in ("wager",):
            raise RuleFieldError("double_maximum", "must be wager")
        if not 1 <= self.split_max_hands <= 8:
            raise RuleFieldError("split_max_hands", "must be from 1 to 8")
        # A split ace that takes one card is finished with it: a rule for a later decision on it
        # could never apply, and a file that names one would say the game is other than it is.
        one_card = "cannot be true while split aces take one card each (split.aces_one_card): a split ace takes"
        if self.split_aces_one_card and self.split_aces_resplit:
            raise RuleFieldError("split_aces_resplit", f"{one_card} no decision to re-split")
        if self.split_aces_one_card and self.double_on_split_aces:
            raise RuleFieldError("double_on_split_aces", f"{one_card} no decision to double")
        if self.insurance_minimum < 1:
            raise RuleFieldError("insurance_minimum", "must be at least 1 cent")
        if self.surrender_returns.numerator > self.surrender_returns.denominator:
            raise RuleFieldError("surrender_returns", "cannot give back more than the wager")
        if not 12 <= self.dealer_stands_on <= 21:
            raise RuleFieldError("dealer_stands_on", "must be from 12 to 21")
        if self.dealer_pontoon_takes not in ("one_original_wager", "all_stakes"):
            raise RuleFieldError("dealer_pontoon_takes", "must be one_original_wager or all_stakes")
        if self.rounding not in ROUNDING_MODES:
            raise RuleFieldError("rounding", f"must be one of {', '.join(ROUNDING_MODES)}")

    def is_pontoon_pair(self, rank_a: str, rank_b: str) -> bool:
        return (rank_a == "A" and rank_b in self.pontoon_ranks) or (rank_b == "A" and rank_a in self.pontoon_ranks)
