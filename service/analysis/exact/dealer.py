"""The dealer's final totals from a given upcard and remaining shoe, exact for any composition.

The chance of one ordered run of dealer cards depends only on which cards it holds, not their
order, so each upcard's play is enumerated once as the multisets the dealer can finish with and
how many orders of each the dealer really draws; a shoe's outcome chances are then a sum of
falling-factorial products over those multisets (numba), with no recursion per shoe.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numba as nb
import numpy as np

# A dealer outcome vector: index 0 is a dealer Pontoon (blackjack), index t the dealer standing on
# total t (the rules' standing total up to 21), index BUST a dealer over 21.
PONTOON, BUST, OUTCOMES = 0, 22, 23
_DEPTH = 40    # more cards than any dealer hand can draw


@dataclass(frozen=True, slots=True)
class DealerRule:
    """How the dealer draws: stands on this total or more, hits a soft one of it or not."""

    stands_on: int
    hits_soft: bool
    pontoon_on_ten: bool     # an upcard and second card of ace and ten-valued card is dealer Pontoon


@dataclass(frozen=True, slots=True)
class DealerFinals:
    """Every multiset of drawn cards the dealer can finish with from one upcard."""

    cards: np.ndarray        # (finals, 10) cards of each value rank drawn after the upcard
    orders: np.ndarray       # (finals,) how many orders of those cards the dealer draws
    outcome: np.ndarray      # (finals,) the outcome index


def _walk(rule: DealerRule, upcard: int, drawn: list[int], hard: int, ace: bool, tally: Counter) -> None:
    for rank in range(10):
        cards = list(drawn)
        cards[rank] += 1
        if not sum(drawn) and rule.pontoon_on_ten and {upcard, rank} == {0, 9}:
            tally[(tuple(cards), PONTOON)] += 1
            continue
        total_hard, has_ace = hard + rank + 1, ace or rank == 0
        if total_hard > 21:
            tally[(tuple(cards), BUST)] += 1
            continue
        soft = has_ace and total_hard + 10 <= 21
        total = total_hard + 10 if soft else total_hard
        if total > rule.stands_on or (total == rule.stands_on and not (soft and rule.hits_soft)):
            tally[(tuple(cards), total)] += 1
            continue
        _walk(rule, upcard, cards, total_hard, has_ace, tally)


def dealer_finals(rule: DealerRule, upcard: int) -> DealerFinals:
    """The dealer's finishing multisets from `upcard` under `rule`."""
    tally: Counter = Counter()
    _walk(rule, upcard, [0] * 10, upcard + 1, upcard == 0, tally)
    keys = sorted(tally)
    return DealerFinals(np.array([k[0] for k in keys], dtype=np.int64),
                        np.array([tally[k] for k in keys], dtype=np.float64),
                        np.array([k[1] for k in keys], dtype=np.int64))


@nb.njit(cache=True, nogil=True)
def _outcomes(shoe: np.ndarray, cards: np.ndarray, orders: np.ndarray, outcome: np.ndarray,
              out: np.ndarray) -> None:
    left = 0
    for rank in range(10):
        if shoe[rank] < 0:
            return
        left += shoe[rank]
    inverse = np.zeros(_DEPTH)     # inverse[k]: 1 / (left (left-1) ... (left-k+1))
    inverse[0] = 1.0
    for k in range(1, _DEPTH):
        inverse[k] = inverse[k - 1] / (left - k + 1) if left - k + 1 > 0 else 0.0
    for f in range(cards.shape[0]):
        weight = orders[f]
        drawn = 0
        for rank in range(10):
            for j in range(cards[f, rank]):
                weight *= shoe[rank] - j
            drawn += cards[f, rank]
        if weight > 0.0:
            out[outcome[f]] += weight * inverse[drawn]


@nb.njit(cache=True, nogil=True, parallel=True)
def dealer_table(full_shoe: np.ndarray, removals: np.ndarray, upcard: int, cards: np.ndarray,
                 orders: np.ndarray, outcome: np.ndarray) -> np.ndarray:
    """Dealer outcomes for each row of `removals` (cards seen besides the upcard), all at once.

    A row that removes more cards of a rank than the shoe holds gives all zeros.
    """
    rows = removals.shape[0]
    table = np.zeros((rows, OUTCOMES))
    for i in nb.prange(rows):
        shoe = full_shoe - removals[i]
        shoe[upcard] -= 1
        _outcomes(shoe, cards, orders, outcome, table[i])
    return table
