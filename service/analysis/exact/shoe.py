"""The shoe as the recursion sees it: card counts by value (A, 2-9, ten-valued) and draw chances."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine.cards import SUITS, TEN_VALUED
from ...engine.games.canberra.rules import CanberraRules

# Value ranks as the published analyses write them: index 0 is the ace, 9 any ten-valued card.
VALUE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
ACE, TEN = 0, 9


def value_index(rank: str) -> int:
    """The value rank (0 = ace ... 9 = ten-valued) of an engine rank."""
    if rank in TEN_VALUED:
        return TEN
    return ACE if rank == "A" else int(rank) - 1


@dataclass(frozen=True, slots=True)
class ValueShoe:
    """A full shoe counted by value rank; whether an ace with each ten-valued card is Pontoon."""

    counts: tuple[int, ...]          # cards of each value rank, ace first
    tens_all_pontoon: bool           # every ten-valued card makes Pontoon with an ace

    @property
    def size(self) -> int:
        return sum(self.counts)

    def array(self) -> np.ndarray:
        return np.array(self.counts, dtype=np.int64)


def value_shoe(rules: CanberraRules) -> ValueShoe:
    """The rules' shoe by value rank (suits are tracked only where a paytable line needs them)."""
    counts = [0] * 10
    for rank in rules.shoe.ranks:
        counts[value_index(rank)] += rules.shoe.decks * len(SUITS)
    tens_in_shoe = {rank for rank in rules.shoe.ranks if rank in TEN_VALUED}
    return ValueShoe(tuple(counts), tens_in_shoe <= set(rules.pontoon_ranks))
