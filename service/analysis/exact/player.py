"""Player values on the hand graph for one upcard: stand, hit (played on as best), double (numba)."""
from __future__ import annotations

import numba as nb
import numpy as np

from .dealer import BUST, PONTOON


@nb.njit(cache=True, nogil=True)
def stand_value(total: int, outcome: np.ndarray) -> float:
    """Per unit staked, standing on `total` against the dealer's outcome chances (a dealer
    Pontoon takes the stake)."""
    value = outcome[BUST] - outcome[PONTOON]
    for dealer_total in range(1, 22):
        if total > dealer_total:
            value += outcome[dealer_total]
        elif total < dealer_total:
            value -= outcome[dealer_total]
    return value


@nb.njit(cache=True, nogil=True)
def stand_square(total: int, outcome: np.ndarray) -> float:
    """Mean square of the result per unit staked when standing on `total` (1 unless a push)."""
    push = 0.0
    for dealer_total in range(1, 22):
        if total == dealer_total:
            push += outcome[dealer_total]
    return 1.0 - push


@nb.njit(cache=True, nogil=True)
def draw_chances(full_shoe: np.ndarray, seen: np.ndarray, upcard: int) -> np.ndarray:
    """Chance of each value rank as the next card, the upcard and `seen` out of the shoe."""
    left = full_shoe - seen
    left[upcard] -= 1
    total = 0
    for rank in range(10):
        if left[rank] < 0:
            return np.zeros(10)
        total += left[rank]
    return left / total


@nb.njit(cache=True, nogil=True)
def sweep(hard: np.ndarray, has_ace: np.ndarray, child: np.ndarray, removal: np.ndarray,
          removals: np.ndarray, dealer: np.ndarray, full_shoe: np.ndarray, upcard: int,
          stand_minimum: int) -> tuple[np.ndarray, ...]:
    """(stand, hit, best, double) and their mean squares, per node per unit staked.

    `hit` draws one card and plays on as best; `best` is the better of standing (where the rules
    allow it) and hitting; `double` doubles the stake for exactly one card. The squares are the
    mean squared result under that play, for the variance of a round.
    """
    nodes = hard.shape[0]
    stand = np.full(nodes, -np.inf)
    hit = np.full(nodes, -np.inf)
    best = np.full(nodes, -np.inf)
    double = np.full(nodes, -np.inf)
    best_square = np.zeros(nodes)
    hit_square = np.zeros(nodes)
    double_square = np.zeros(nodes)
    stand_sq = np.zeros(nodes)
    for i in range(nodes - 1, -1, -1):
        total = hard[i] + 10 if has_ace[i] and hard[i] + 10 <= 21 else hard[i]
        outcome = dealer[removal[i]]
        stand[i] = stand_value(total, outcome)
        stand_sq[i] = stand_square(total, outcome)
        chances = draw_chances(full_shoe, removals[removal[i]], upcard)
        on_hit, on_double, hit_sq, on_double_sq = 0.0, 0.0, 0.0, 0.0
        for rank in range(10):
            if chances[rank] == 0.0:
                continue
            nxt = child[i, rank]
            on_hit += chances[rank] * (-1.0 if nxt < 0 else best[nxt])
            on_double += chances[rank] * (-1.0 if nxt < 0 else stand[nxt])
            hit_sq += chances[rank] * (1.0 if nxt < 0 else best_square[nxt])
            on_double_sq += chances[rank] * (1.0 if nxt < 0 else stand_sq[nxt])
        hit[i] = on_hit
        hit_square[i] = hit_sq
        double[i] = 2.0 * on_double
        double_square[i] = 4.0 * on_double_sq
        if total >= stand_minimum and stand[i] >= hit[i]:
            best[i], best_square[i] = stand[i], stand_sq[i]
        else:
            best[i], best_square[i] = hit[i], hit_sq
    return stand, hit, best, double, stand_sq, hit_square, best_square, double_square


@nb.njit(cache=True, nogil=True)
def by_dealer_outcome(hard: np.ndarray, has_ace: np.ndarray, child: np.ndarray, removal: np.ndarray,
                      removals: np.ndarray, dealer: np.ndarray, full_shoe: np.ndarray, upcard: int,
                      stand: np.ndarray, hit: np.ndarray, stand_minimum: int,
                      keep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the nodes in `keep`: the result times the indicator of each dealer outcome (standing,
    played best, doubled), so split hands facing one dealer can be correlated in the variance."""
    nodes = hard.shape[0]
    m_stand = np.zeros((nodes, dealer.shape[1]))
    m_best = np.zeros((nodes, dealer.shape[1]))
    m_double = np.zeros((nodes, dealer.shape[1]))
    lowest = keep.min()
    for i in range(nodes - 1, lowest - 1, -1):
        total = hard[i] + 10 if has_ace[i] and hard[i] + 10 <= 21 else hard[i]
        outcome = dealer[removal[i]]
        m_stand[i, PONTOON] = -outcome[PONTOON]
        m_stand[i, BUST] = outcome[BUST]
        for dealer_total in range(1, 22):
            if total > dealer_total:
                m_stand[i, dealer_total] = outcome[dealer_total]
            elif total < dealer_total:
                m_stand[i, dealer_total] = -outcome[dealer_total]
        chances = draw_chances(full_shoe, removals[removal[i]], upcard)
        for rank in range(10):
            p = chances[rank]
            if p == 0.0:
                continue
            nxt = child[i, rank]
            if nxt < 0:
                m_best[i] -= p * outcome
                m_double[i] -= 2.0 * p * outcome
            else:
                m_best[i] += p * m_best[nxt]
                m_double[i] += 2.0 * p * m_stand[nxt]
        if total >= stand_minimum and stand[i] >= hit[i]:
            m_best[i] = m_stand[i]
    return m_stand[keep], m_best[keep], m_double[keep]
