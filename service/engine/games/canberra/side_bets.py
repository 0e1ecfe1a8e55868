"""Side bets: what a paytable declares of each (name, kind, pays, limits) and the kinds' evaluators,
which read the hands a seat's first two cards and the dealer's first card make."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ...cards import RANK_OF, SUIT_OF
from ...limits import Limits
from ...odds import Odds, Rounding
from ...rule_errors import RuleFieldError


class SideBetKind(StrEnum):
    """The evaluators the engine has: a paytable names one as a side bet's `kind`."""

    PAIR = "pair"
    TWENTY_ONE_PLUS_THREE = "twenty_one_plus_three"


# An evaluator reads the seat's first two cards, the dealer's first card and the ranks the shoe
# holds (in rank order, for the games whose hands run in sequence), and gives every hand they make
# of its kind's hands: a suited three of a kind is also a three of a kind and a flush, and the
# paytable's best-paying line among them is the one paid.
Evaluator = Callable[[str, str, str, tuple[str, ...]], frozenset[str]]

_PAIR_MADE = frozenset({"pair"})
_NONE_MADE: frozenset[str] = frozenset()


def pair_hands(first: str, second: str, upcard: str, shoe_ranks: tuple[str, ...]) -> frozenset[str]:
    """The pair bet: the seat's first two cards are one rank (a king and a jack are not a pair)."""
    return _PAIR_MADE if RANK_OF[first] == RANK_OF[second] else _NONE_MADE


class ThreeCardHand(StrEnum):
    """The three-card poker hands 21+3 pays, best first."""

    SUITED_THREE_OF_A_KIND = "suited_three_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"


def is_straight(ranks: tuple[str, str, str], shoe_ranks: tuple[str, ...]) -> bool:
    """Three ranks in sequence among the ranks the shoe holds, the ace low (A-2-3) or high (Q-K-A)
    and never both (K-A-2 is no straight). A sequence skips no rank the shoe holds: with the tens
    taken out, 9-J-Q and 8-9-J are straights (see docs/decisions.md)."""
    if len(set(ranks)) != 3:
        return False
    places = sorted(shoe_ranks.index(rank) for rank in ranks)
    if places[2] - places[0] == 2:
        return True
    top = len(shoe_ranks) - 1     # the ace high: after the last rank the shoe holds
    return places[0] == 0 and places[1] == top - 1 and places[2] == top


def three_card_hands(first: str, second: str, upcard: str, shoe_ranks: tuple[str, ...]) -> frozenset[str]:
    """21+3: the seat's first two cards and the dealer's first card as a three-card poker hand.
    Every hand they make is named (a suited three of a kind is also a three of a kind and a flush,
    a straight flush a straight and a flush), and the paytable's best-paying one is paid."""
    ranks = (RANK_OF[first], RANK_OF[second], RANK_OF[upcard])
    suits = {SUIT_OF[first], SUIT_OF[second], SUIT_OF[upcard]}
    flush = len(suits) == 1
    made: set[str] = set()
    if flush:
        made.add(ThreeCardHand.FLUSH)
    if ranks[0] == ranks[1] == ranks[2]:
        made.add(ThreeCardHand.THREE_OF_A_KIND)
        if flush:
            made.add(ThreeCardHand.SUITED_THREE_OF_A_KIND)
    elif is_straight(ranks, shoe_ranks):
        made.add(ThreeCardHand.STRAIGHT)
        if flush:
            made.add(ThreeCardHand.STRAIGHT_FLUSH)
    return frozenset(made)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A kind's evaluator, the hands it names (the lines a paytable may pay, best first) and the
    outcome a losing bet's ledger line records."""

    evaluate: Evaluator
    hands: tuple[str, ...]
    losing_outcome: str


EVALUATIONS: Mapping[SideBetKind, Evaluation] = {
    SideBetKind.PAIR: Evaluation(pair_hands, ("pair",), "no-pair"),
    SideBetKind.TWENTY_ONE_PLUS_THREE: Evaluation(three_card_hands, tuple(hand.value for hand in ThreeCardHand),
                                                  "no-hand"),
}
KINDS = tuple(kind.value for kind in SideBetKind)


def _checked_name(name: object) -> str:
    """A side bet's name as wagers, limits and the ledger write it: short text of letters, digits
    and `+ _ -`, not `main` (the main wager's) nor `pair_bet` (the pair bet's field in old wagers)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        raise RuleFieldError("name", f"a side bet's name must be text of 1 to 32 characters, not {name!r}")
    if not all(ch.isascii() and (ch.isalnum() or ch in "+_-") for ch in name):
        raise RuleFieldError("name", f"a side bet's name may hold letters, digits, +, _ and -, not {name!r}")
    if name in ("main", "pair_bet", "insurance"):
        raise RuleFieldError("name", f"{name!r} names another bet: choose another name for the side bet")
    return name


@dataclass(frozen=True, slots=True)
class SideBet:
    """One side bet a paytable offers: its name, its kind's evaluator, what each hand pays and its
    limits (a table may set its own)."""

    name: str
    kind: SideBetKind
    pays: tuple[tuple[str, Odds], ...]       # (hand, odds), as the paytable lists them
    limits: Limits

    def __post_init__(self) -> None:
        _checked_name(self.name)
        hands = EVALUATIONS[self.kind].hands
        if not self.pays:
            raise RuleFieldError("pays", f"must pay at least one of the {self.kind} hands: {', '.join(hands)}")
        for hand, _ in self.pays:
            if hand not in hands:
                raise RuleFieldError("pays", f"{hand!r} is not a {self.kind} hand: the hands are {', '.join(hands)}")

    @property
    def losing_outcome(self) -> str:
        return EVALUATIONS[self.kind].losing_outcome

    def hands_made(self, first_two: tuple[str, ...], upcard: str, shoe_ranks: tuple[str, ...]) -> frozenset[str]:
        return EVALUATIONS[self.kind].evaluate(first_two[0], first_two[1], upcard, shoe_ranks)

    def paid_hand(self, made: frozenset[str]) -> tuple[str, Odds] | None:
        """The best-paying line among the hands made (where two fit, the higher pays), if any."""
        best: tuple[str, Odds] | None = None
        for hand, odds in self.pays:
            if hand in made and (best is None or odds.pays_more_than(best[1])):
                best = (hand, odds)
        return best

    def settle(self, stake: int, first_two: tuple[str, ...], upcard: str, shoe_ranks: tuple[str, ...],
               rounding: Rounding | str) -> tuple[int, str]:
        """(what the stake returns, the outcome the ledger records): the stake and its winnings at
        the paid hand's odds, the hand's name as the outcome; nothing and the losing outcome else."""
        paid = self.paid_hand(self.hands_made(first_two, upcard, shoe_ranks))
        if paid is None:
            return 0, self.losing_outcome
        hand, odds = paid
        return stake + odds.winnings(stake, rounding), hand
