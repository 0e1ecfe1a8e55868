"""The value of splitting a pair, as the published analyses count it.

A split hand's play knows how many hands have been split so far (their pair cards are out of the
shoe) but not the other cards drawn to them. Hands are dealt their second card in order; a pair
card drawn while re-splitting is allowed makes one more hand. For the mean square (the variance)
the split hands face one dealer: given the dealer's outcome their results are taken as
independent, E[X Y] = sum over outcomes d of E[X; d] E[Y; d] / P(d).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

HandValue = tuple[float, float, np.ndarray]    # value, mean square, value split by dealer outcome


def split_value(pair: int, max_hands: int, resplit: bool, chances: Callable[[int], np.ndarray],
                hand_value: Callable[[int, int], HandValue], dealer: np.ndarray) -> tuple[float, float]:
    """(expected result, mean squared result) of splitting, per initial wager.

    `chances(hands)` is the next card's chance by rank with `hands` pair cards out of the shoe;
    `hand_value(hands, rank)` is a split hand's value, mean square and value by dealer outcome
    once its second card is `rank`; `dealer` the dealer's outcome chances behind the pair.
    """
    inverse = np.divide(1.0, dealer, out=np.zeros_like(dealer), where=dealer > 0)

    @cache
    def waiting(hands: int, left: int) -> HandValue:
        # `left` hands still wait for their second card while `hands` hands are on the table.
        if left == 0:
            return 0.0, 0.0, np.zeros_like(dealer)
        p = chances(hands)
        may_resplit = resplit and hands < max_hands
        mean = square = 0.0
        by_outcome = np.zeros_like(dealer)
        for rank in range(10):
            if p[rank] == 0.0:
                continue
            if rank == pair and may_resplit:
                rest_mean, rest_square, rest_by = waiting(hands + 1, left + 1)
                mean += p[rank] * rest_mean
                square += p[rank] * rest_square
                by_outcome += p[rank] * rest_by
            else:
                value, value_square, value_by = hand_value(hands, rank)
                rest_mean, rest_square, rest_by = waiting(hands, left - 1)
                mean += p[rank] * (value + rest_mean)
                square += p[rank] * (value_square + 2.0 * float(np.sum(value_by * rest_by * inverse)) + rest_square)
                by_outcome += p[rank] * (value_by + rest_by)
        return mean, square, by_outcome

    mean, square, _ = waiting(2, 2)
    return mean, square
