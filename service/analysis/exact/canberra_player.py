"""Player values on the hand graph under Canberra's rules, for one upcard (numba).

A 21 wins at once (its line's odds, or even money doubled); a player may stand from the
standing minimum, hit below 21, and double at any point for the wager or, where the rules allow,
for less (`least`, the least extra stake as a fraction of the wager): aces held count one, the
double's card may count eleven, and then the hand stands or is forfeited (the wager lost, the
double returned). A dealer Pontoon costs a waiting hand `cost` wagers (one for an unsplit hand),
or, where it takes every stake (`by_stake`), `cost` times what the hand has staked.
Besides each decision's value it follows the best play for the variance (mean square), the
chance the hand is left waiting for the dealer, and each paytable line's chance and winnings.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from .dealer import BUST, PONTOON
from .player import draw_chances

STAND, HIT, DOUBLE, TWENTY_ONE, DOUBLE_LEAST = 0, 1, 2, 3, 4


@nb.njit(cache=True, nogil=True)
def standing(total: int, outcome: np.ndarray, stake: float, won_per_unit: float, cost: float, win_line: int,
              lines: int) -> tuple[float, float, float, float, np.ndarray, np.ndarray]:
    win, lose = outcome[BUST], 0.0
    for dealer_total in range(1, 22):
        if total > dealer_total:
            win += outcome[dealer_total]
        elif total < dealer_total:
            lose += outcome[dealer_total]
    pontoon = outcome[PONTOON]
    won = stake * won_per_unit
    chance, winnings = np.zeros(lines), np.zeros(lines)
    chance[win_line], winnings[win_line] = win, win * won
    value = win * won - lose * stake - pontoon * cost
    square = win * won * won + lose * stake * stake + pontoon * cost * cost
    return value, square, 1.0, pontoon, chance, winnings


@nb.njit(cache=True, nogil=True)
def hand_total(hard: int, has_ace: bool) -> int:
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


@nb.njit(cache=True, nogil=True)
def doubled_total(hard: int, has_ace: bool, rank: int, aces_one: bool) -> int:
    """The hand's total once a double's card (value rank `rank`) comes. Where the rules count the
    aces held as one, only an ace the double draws may count eleven; elsewhere the hand counts as
    any other."""
    return hand_total(hard + rank + 1, rank == 0 or (has_ace and not aces_one))


@nb.njit(cache=True, nogil=True)
def decision(i: int, choice: int, g: tuple, d: tuple, best: tuple) -> tuple[float, float, float, float,
                                                                          np.ndarray, np.ndarray]:
    """(value, mean square, chance left waiting, chance left waiting into a dealer Pontoon, line
    chances, line winnings) of one decision at node i, the children played their best way."""
    hard, has_ace, child, removal, removals = g
    dealer, full, upcard, cost, win_units, doubled_units, aces_one, forfeit, win_line, doubled_line, by_stake, least = d
    best_value, best_square, best_wait, best_exposure, best_chance, best_won = best
    lines = best_chance.shape[1]
    if choice == STAND:
        return standing(hand_total(hard[i], has_ace[i]), dealer[removal[i]], 1.0, win_units, cost[i], win_line, lines)
    stake = 1.0 + (least if choice == DOUBLE_LEAST else 1.0)    # what a double leaves on the hand
    chances = draw_chances(full, removals[removal[i]], upcard)
    value = square = wait = exposure = 0.0
    chance, winnings = np.zeros(lines), np.zeros(lines)
    for rank in range(10):
        p = chances[rank]
        if p == 0.0:
            continue
        nxt = child[i, rank]
        if choice == HIT:
            if nxt < 0:
                value -= p
                square += p
                continue
            value += p * best_value[nxt]
            square += p * best_square[nxt]
            wait += p * best_wait[nxt]
            exposure += p * best_exposure[nxt]
            chance += p * best_chance[nxt]
            winnings += p * best_won[nxt]
            continue
        total = doubled_total(hard[i], has_ace[i], rank, aces_one)
        if total > 21 or nxt < 0:
            value -= stake * p
            square += stake * stake * p
        elif total == 21:
            value += p * stake * doubled_units
            square += p * stake * stake * doubled_units * doubled_units
            chance[doubled_line] += p
            winnings[doubled_line] += p * stake * doubled_units
        else:
            v, s, w, e, c, won = standing(total, dealer[removal[nxt]], stake, doubled_units,
                                           cost[i] * stake if by_stake else cost[i], doubled_line, lines)
            if forfeit and v < -1.0:
                v, s, w, e, c, won = -1.0, 1.0, 0.0, 0.0, np.zeros(lines), np.zeros(lines)
            value += p * v
            square += p * s
            wait += p * w
            exposure += p * e
            chance += p * c
            winnings += p * won
    return value, square, wait, exposure, chance, winnings


@nb.njit(cache=True, nogil=True)
def sweep(g: tuple, d: tuple, may_double: np.ndarray, stand_minimum: int,
          pay21: np.ndarray, chance21: np.ndarray, won21: np.ndarray) -> tuple:
    """Best play at every node, children first: (choice, value, square, wait, exposure, line
    chances, line winnings); a 21 is paid at once (pay21 and its lines)."""
    hard, has_ace = g[0], g[1]
    nodes, lines = hard.shape[0], chance21.shape[1]
    choice = np.zeros(nodes, dtype=np.int64)
    value, square = np.zeros(nodes), np.zeros(nodes)
    wait, exposure = np.zeros(nodes), np.zeros(nodes)
    chance, won = np.zeros((nodes, lines)), np.zeros((nodes, lines))
    best = (value, square, wait, exposure, chance, won)
    for i in range(nodes - 1, -1, -1):
        total = hand_total(hard[i], has_ace[i])
        if total == 21:
            choice[i], value[i], square[i] = TWENTY_ONE, pay21[i], 0.0
            for line in range(lines):
                if chance21[i, line] > 0.0:
                    square[i] += won21[i, line] * won21[i, line] / chance21[i, line]
            chance[i], won[i] = chance21[i], won21[i]
            continue
        top = -np.inf
        for option in (STAND, HIT, DOUBLE, DOUBLE_LEAST):
            if option == STAND and total < stand_minimum:
                continue
            if option >= DOUBLE and not may_double[i]:
                continue
            if option == DOUBLE_LEAST and d[-1] >= 1.0:     # no double for less than the wager
                continue
            v, s, w, e, c, x = decision(i, option, g, d, best)
            if v > top:
                top = v
                choice[i], value[i], square[i], wait[i], exposure[i] = option, v, s, w, e
                chance[i], won[i] = c, x
    return choice, value, square, wait, exposure, chance, won


@nb.njit(cache=True, nogil=True)
def decision_values(g: tuple, d: tuple, best: tuple, may_double: np.ndarray, stand_minimum: int) -> np.ndarray:
    """(nodes, 3) value of standing, hitting and doubling at every node; -inf where the rules
    do not allow it or the hand is a 21, already paid."""
    hard, has_ace = g[0], g[1]
    nodes = hard.shape[0]
    out = np.full((nodes, 3), -np.inf)
    for i in range(nodes):
        total = hand_total(hard[i], has_ace[i])
        if total == 21:
            continue
        for option in (STAND, HIT, DOUBLE):
            if option == STAND and total < stand_minimum:
                continue
            if option == DOUBLE and not may_double[i]:
                continue
            out[i, option] = decision(i, option, g, d, best)[0]
    return out


@nb.njit(cache=True, nogil=True)
def forfeit_margins(g: tuple, d: tuple, weights: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """(kinds, 32): by the total after a double's card, the weighted amount by which standing
    beats forfeiting, over every node a double can be made from."""
    hard, has_ace, child, removal, removals = g
    dealer, full, upcard, cost, win_units, doubled_units, aces_one, forfeit, win_line, doubled_line, by_stake, least = d
    margins = np.zeros((3, 32))
    for i in range(hard.shape[0]):
        if weights[i] == 0.0 or hand_total(hard[i], has_ace[i]) >= 21:
            continue
        chances = draw_chances(full, removals[removal[i]], upcard)
        for rank in range(10):
            nxt = child[i, rank]
            if chances[rank] == 0.0 or nxt < 0:
                continue
            total = doubled_total(hard[i], has_ace[i], rank, aces_one)
            if total >= 21:
                continue
            lines = doubled_line + 1
            v = standing(total, dealer[removal[nxt]], 2.0, doubled_units, cost[i] * 2.0 if by_stake else cost[i],
                         doubled_line, lines)[0]
            margins[kinds[i], total] += weights[i] * chances[rank] * (v + 1.0)
    return margins


@nb.njit(cache=True, nogil=True)
def composition_weights(counts: np.ndarray, removal: np.ndarray, removals: np.ndarray, full: np.ndarray,
                        upcard: int) -> np.ndarray:
    """Chance that a hand's cards are the first ones drawn to it (in any order), the upcard and
    the other split hands' pair cards out of the shoe."""
    nodes = counts.shape[0]
    weights = np.zeros(nodes)
    for i in range(nodes):
        shoe = full - (removals[removal[i]] - counts[i])
        shoe[upcard] -= 1
        left = 0
        for rank in range(10):
            left += shoe[rank]
        w, drawn = 1.0, 0
        for rank in range(10):
            for j in range(counts[i, rank]):
                w *= (shoe[rank] - j) / (left - drawn)
                drawn += 1
                w *= drawn / (j + 1)      # orders of the cards: n! / (c_A! c_2! ...)
        weights[i] = max(w, 0.0)
    return weights


@nb.njit(cache=True, nogil=True)
def standing_by_outcome(total: int, outcome: np.ndarray, stake: float, won_per_unit: float,
                         cost: float) -> np.ndarray:
    out = np.zeros(outcome.shape[0])
    out[PONTOON] = -cost * outcome[PONTOON]
    out[BUST] = stake * won_per_unit * outcome[BUST]
    for dealer_total in range(1, 22):
        if total > dealer_total:
            out[dealer_total] = stake * won_per_unit * outcome[dealer_total]
        elif total < dealer_total:
            out[dealer_total] = -stake * outcome[dealer_total]
    return out


@nb.njit(cache=True, nogil=True)
def by_dealer_outcome(g: tuple, d: tuple, choice: np.ndarray, pay21: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """For the nodes in `keep`, under the best play: the result times the indicator of each dealer
    outcome, so split hands facing one dealer can be correlated in the variance."""
    hard, has_ace, child, removal, removals = g
    dealer, full, upcard, cost, win_units, doubled_units, aces_one, forfeit, win_line, doubled_line, by_stake, least = d
    nodes = hard.shape[0]
    m = np.zeros((nodes, dealer.shape[1]))
    for i in range(nodes - 1, keep.min() - 1, -1):
        outcome = dealer[removal[i]]
        total = hand_total(hard[i], has_ace[i])
        if choice[i] == TWENTY_ONE:
            m[i] = pay21[i] * outcome
            continue
        if choice[i] == STAND:
            m[i] = standing_by_outcome(total, outcome, 1.0, win_units, cost[i])
            continue
        chances = draw_chances(full, removals[removal[i]], upcard)
        stake = 1.0 + (least if choice[i] == DOUBLE_LEAST else 1.0)
        for rank in range(10):
            p = chances[rank]
            nxt = child[i, rank]
            if p == 0.0:
                continue
            if choice[i] == HIT:
                m[i] += p * (-outcome if nxt < 0 else m[nxt])
                continue
            after = doubled_total(hard[i], has_ace[i], rank, aces_one)
            if after > 21 or nxt < 0:
                m[i] -= stake * p * outcome
            elif after == 21:
                m[i] += stake * doubled_units * p * dealer[removal[nxt]]
            else:
                taken = cost[i] * stake if by_stake else cost[i]
                stood = standing(after, dealer[removal[nxt]], stake, doubled_units, taken, doubled_line,
                                  doubled_line + 1)[0]
                if forfeit and stood < -1.0:
                    m[i] -= p * dealer[removal[nxt]]
                else:
                    m[i] += p * standing_by_outcome(after, dealer[removal[nxt]], stake, doubled_units, taken)
    return m[keep]
