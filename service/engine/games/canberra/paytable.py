"""The paytable: named hands and their odds, the super bonus, and the side bets it offers."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...cards import RANKS
from ...odds import Odds
from ...rule_errors import RuleFieldError
from .side_bets import SideBet

# Hand names are a small grammar rather than a fixed list, so a new bonus line is data:
#   N_card_21, N_plus_card_21        a winning 21 of exactly N (or at least N) cards (N one digit)
#   RRR_mixed|suited|spades          exactly those ranks, 2 to 7 of them (e.g. 678, 777): mixed
#                                    suits, one suit other than spades, or all spades
FIXED_LINES = ("pontoon", "win")
_DIGITS = frozenset("0123456789")
_RANK_LETTERS = frozenset(RANKS)


class SuitRule(StrEnum):
    """What a ranks line asks of the suits: none (a card-count line), mixed suits, one suit other
    than spades, or all spades."""

    ANY = ""
    MIXED = "mixed"
    SUITED = "suited"
    SPADES = "spades"


_SUIT_RULES = (SuitRule.MIXED, SuitRule.SUITED, SuitRule.SPADES)


def _card_count(name: str) -> tuple[int, bool] | None:
    """(N, at least N?) for N_card_21 and N_plus_card_21; None for any other name."""
    count, _, rest = name.partition("_")
    if len(count) == 1 and count in _DIGITS and rest in ("card_21", "plus_card_21"):
        return int(count), rest == "plus_card_21"
    return None


def _ranks_line(name: str) -> tuple[str, SuitRule] | None:
    """(ranks, suit rule) for names such as 678_suited; None for any other name."""
    ranks, _, suits = name.partition("_")
    if 2 <= len(ranks) <= 7 and _RANK_LETTERS.issuperset(ranks) and suits in _SUIT_RULES:
        return ranks, SuitRule(suits)
    return None


@dataclass(frozen=True, slots=True)
class BonusLine:
    """A named winning 21 that pays better than even money."""

    name: str
    odds: Odds
    min_cards: int = 0
    max_cards: int = 99
    ranks: tuple[str, ...] = ()
    suits: SuitRule = SuitRule.ANY

    @classmethod
    def from_name(cls, name: str, odds: Odds) -> BonusLine:
        card_count = _card_count(name)
        if card_count is not None:
            count, at_least = card_count
            return cls(name, odds, min_cards=count, max_cards=99 if at_least else count)
        ranks_line = _ranks_line(name)
        if ranks_line is not None:
            ranks = tuple(sorted(ranks_line[0], key=RANKS.index))
            return cls(name, odds, min_cards=len(ranks), max_cards=len(ranks), ranks=ranks, suits=ranks_line[1])
        raise ValueError(
            f"unknown hand name {name!r}: use pontoon, win, N_card_21, N_plus_card_21 "
            "or ranks with _mixed, _suited or _spades (e.g. 678_suited)")

    def matches(self, ranks: list[str], suits: list[str]) -> bool:
        n = len(ranks)
        if n < self.min_cards or n > self.max_cards:
            return False
        if self.ranks:
            if tuple(sorted(ranks, key=RANKS.index)) != self.ranks:
                return False
            one_suit = len(set(suits)) == 1
            if self.suits == SuitRule.MIXED:
                return not one_suit
            if self.suits == SuitRule.SUITED:
                return one_suit and suits[0] != "S"
            return one_suit and suits[0] == "S"
        return True


@dataclass(frozen=True, slots=True)
class SuperBonusPrize:
    """One super bonus prize: what it pays, for wagers below a threshold (or any wager)."""

    wager_below: int | None     # None: any wager not caught by an earlier prize
    prize: int


@dataclass(frozen=True, slots=True)
class SuperBonus:
    """A fixed prize for a suited three-card hand against a named upcard, plus the envy payment."""

    ranks: tuple[str, ...]
    upcard: str
    one_suit: bool
    prizes: tuple[SuperBonusPrize, ...]
    envy: int

    def __post_init__(self) -> None:
        if not self.prizes:
            raise RuleFieldError("prizes", "needs at least one prize")
        for prize in self.prizes:
            if not isinstance(prize.prize, int) or prize.prize <= 0:
                raise RuleFieldError("prizes", "each prize must be a positive amount of cents")
            if prize.wager_below is not None and (not isinstance(prize.wager_below, int) or prize.wager_below <= 0):
                raise RuleFieldError("prizes", "each threshold wager_below must be a positive amount of cents")
        if self.prizes[-1].wager_below is not None:
            raise RuleFieldError("prizes", "the last prize must have no wager_below, so every wager has a prize")
        if not isinstance(self.envy, int) or self.envy < 0:
            raise RuleFieldError("envy", "must be zero or a positive amount of cents")

    def prize_for(self, wager: int) -> int:
        for prize in self.prizes:
            if prize.wager_below is None or wager < prize.wager_below:
                return prize.prize
        raise AssertionError("validated: the last prize catches every wager")

    def matches(self, ranks: list[str], suits: list[str], upcard_rank: str) -> bool:
        if upcard_rank != self.upcard or len(ranks) != len(self.ranks):
            return False
        if tuple(sorted(ranks, key=RANKS.index)) != self.ranks:
            return False
        return not self.one_suit or len(set(suits)) == 1


@dataclass(frozen=True, slots=True)
class Paytable:
    """What the house pays: Pontoon, a win, a doubled win, the bonus lines and the super bonus, each
    as odds or a fixed prize; and the side bets it offers, each settled by its own evaluator."""

    name: str
    pontoon: Odds
    win: Odds
    doubled_win: Odds
    bonuses: tuple[BonusLine, ...]
    super_bonus: SuperBonus | None
    side_bets: tuple[SideBet, ...] = ()
    measured_under: str = "canberra"   # the rules whose house edge an approved version records

    def __post_init__(self) -> None:
        for line in self.bonuses:
            if not line.odds.pays_more_than(self.win):
                # A winning 21 is paid by the line only where the line beats a win.
                raise RuleFieldError("bonuses", f"{line.name} pays {line.odds}, no more than a win ({self.win}), "
                                                "so it would never be paid: a bonus line must pay more than a win")
        names = [bet.name for bet in self.side_bets]
        if len(set(names)) != len(names):
            raise RuleFieldError("side_bets", "two side bets have one name")

    def side_bet(self, name: str) -> SideBet | None:
        """The side bet offered under this name, if any."""
        for bet in self.side_bets:
            if bet.name == name:
                return bet
        return None

    def best_bonus(self, ranks: list[str], suits: list[str]) -> BonusLine | None:
        """The highest-paying line a winning 21 fits, if any (where two fit, the higher pays)."""
        best: BonusLine | None = None
        for line in self.bonuses:
            if line.matches(ranks, suits) and (best is None or line.odds.pays_more_than(best.odds)):
                best = line
        return best
