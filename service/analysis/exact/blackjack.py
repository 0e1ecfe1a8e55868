"""Exact values of every two-card hand against every upcard, for rules with even-money wins.

This is the published analyses' game: doubling on two cards for the wager, splits by the count
of hands split so far, a dealer Pontoon taking what the rules say. Bonus paytables and the
Canberra choices (doubling later, forfeit, a 21 paid at once) are in `canberra_game`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ...engine.games.canberra.paytable import Paytable
from ...engine.games.canberra.rules import CanberraRules, DealerPontoonTakes, DoubleMinimum
from .dealer import PONTOON, DealerRule, dealer_finals, dealer_table
from .hands import HandGraph, build_hand_graph
from .player import by_dealer_outcome, draw_chances, sweep
from .shoe import ACE, TEN, value_index, value_shoe
from .splits import split_value


@dataclass(frozen=True, slots=True)
class HandValues:
    """One starting hand against one upcard: the chance it is dealt and each decision's value."""

    upcard: int
    first: int                       # value ranks, the higher first
    second: int
    probability: float               # chance of this upcard and these two cards
    values: dict[str, float] = field(default_factory=dict)   # decision -> expected result per wager
    squares: dict[str, float] = field(default_factory=dict)  # decision -> mean squared result
    suits: str = ""                  # where a paytable line looks at suits: mixed, suited or spades

    @property
    def best(self) -> str:
        return max(self.values, key=self.values.__getitem__)


@dataclass(frozen=True, slots=True)
class UpcardValues:
    """Node values on the hand graph for one upcard."""

    upcard: int
    stand: np.ndarray
    hit: np.ndarray
    best: np.ndarray
    double: np.ndarray
    stand_square: np.ndarray
    hit_square: np.ndarray
    best_square: np.ndarray
    double_square: np.ndarray
    dealer: np.ndarray
    by_outcome: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]   # split hands' (stand, best, double)


def refuse_unless_even_money(rules: CanberraRules, paytable: Paytable) -> None:
    """This recursion is the published analyses' game; name any choice it does not cover."""
    unsupported = [name for name, off in (
        (f"dealer.pontoon_takes: {rules.dealer_pontoon_takes}",
         rules.dealer_pontoon_takes is DealerPontoonTakes.ALL_STAKES),
        ("twenty_one_wins_at_once", not rules.twenty_one_wins_at_once),
        ("pontoon.paid_at_once", not rules.player_pontoon_paid_at_once),
        ("double.max_cards other than 2", rules.double_max_cards == 2),
        ("double.totals", rules.double_totals is None),
        ("double.minimum other than wager", rules.double_minimum is DoubleMinimum.WAGER),
        ("double.aces_count_one", not rules.double_aces_count_one),
        ("double.forfeit", not rules.forfeit_after_double),
        ("pontoon.on_split_hands", not rules.split_hand_pontoon),
        ("bonus lines", not paytable.bonuses),
        ("super bonus", paytable.super_bonus is None),
        ("wins other than 1:1", (paytable.win.numerator, paytable.doubled_win.numerator)
         == (paytable.win.denominator, paytable.doubled_win.denominator)),
    ) if not off]
    if unsupported:
        raise ValueError(f"the exact analysis does not yet cover {rules.name} with {paytable.name}: "
                         + ", ".join(unsupported))


def even_money_gaps(rules: CanberraRules, paytable: Paytable) -> str:
    """What keeps this recursion from the rules and paytable, in words ('' when nothing does)."""
    try:
        refuse_unless_even_money(rules, paytable)
    except ValueError as exc:
        return str(exc).partition(": ")[2]
    return ""


def is_even_money(rules: CanberraRules, paytable: Paytable) -> bool:
    """Whether this recursion (rather than Canberra's) covers the rules and paytable."""
    try:
        refuse_unless_even_money(rules, paytable)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=2)
def _graph_values(counts: tuple[int, ...], dealer_rule: DealerRule, stand_minimum: int,
                  max_split_hands: int) -> tuple[HandGraph, tuple[UpcardValues | None, ...]]:
    # Kept for the last shoes and dealers analysed: the same values serve both ways of doubling
    # after a split and any paytable of even-money wins.
    graph = build_hand_graph(max_split_hands)
    full = np.array(counts, dtype=np.int64)
    values: list[UpcardValues | None] = []
    for upcard in range(10):
        if full[upcard] == 0:
            values.append(None)
            continue
        finals = dealer_finals(dealer_rule, upcard)
        dealer = dealer_table(full, graph.removals, upcard, finals.cards, finals.orders, finals.outcome)
        swept = sweep(graph.hard, graph.has_ace, graph.child, graph.removal, graph.removals, dealer, full,
                      upcard, stand_minimum)
        stand, hit, best, double, stand_sq, hit_sq, best_sq, double_sq = swept
        keep = np.unique(graph.child[list(graph.split_roots.values())].ravel())
        keep = keep[keep >= 0]
        m_stand, m_best, m_double = by_dealer_outcome(graph.hard, graph.has_ace, graph.child, graph.removal,
                                                      graph.removals, dealer, full, upcard, stand, hit,
                                                      stand_minimum, keep)
        by_outcome = {int(node): (m_stand[k], m_best[k], m_double[k]) for k, node in enumerate(keep)}
        values.append(UpcardValues(upcard, stand, hit, best, double, stand_sq, hit_sq, best_sq, double_sq, dealer,
                                   by_outcome))
    return graph, tuple(values)


def graph_values(rules: CanberraRules) -> tuple[HandGraph, tuple[UpcardValues | None, ...]]:
    """The hand graph and its values against each upcard (None for a rank not in the shoe)."""
    shoe = value_shoe(rules)
    rule = DealerRule(rules.dealer_stands_on, rules.dealer_hits_soft_17, shoe.tens_all_pontoon)
    return _graph_values(shoe.counts, rule, rules.stand_minimum, rules.split_max_hands)


def _split(rules: CanberraRules, graph: HandGraph, values: UpcardValues, pair: int,
           after_split: bool) -> tuple[float, float]:
    full = value_shoe(rules).array()
    aces_one_card = pair == ACE and rules.split_aces_one_card
    resplit = rules.split_aces_resplit if pair == ACE else True
    may_double = after_split and (pair != ACE or rules.double_on_split_aces)

    def chances(hands: int) -> np.ndarray:
        seen = np.zeros(10, dtype=np.int64)
        seen[pair] = hands
        return draw_chances(full, seen, values.upcard)

    def hand_value(hands: int, rank: int) -> tuple[float, float, np.ndarray]:
        node = int(graph.child[graph.split_roots[(pair, hands)], rank])
        m_stand, m_best, m_double = values.by_outcome[node]
        if aces_one_card:
            return float(values.stand[node]), float(values.stand_square[node]), m_stand
        if may_double and values.double[node] > values.best[node]:
            return float(values.double[node]), float(values.double_square[node]), m_double
        return float(values.best[node]), float(values.best_square[node]), m_best

    pair_node = graph.roots[tuple(2 * int(r == pair) for r in range(10))]
    return split_value(pair, rules.split_max_hands, resplit, chances, hand_value,
                       values.dealer[graph.removal[pair_node]])


def deal_chance(full: np.ndarray, upcard: int, first: int, second: int) -> float:
    """Chance of the upcard and the two player cards (either order)."""
    left = full.astype(np.float64).copy()
    n = left.sum()
    p = left[upcard] / n
    left[upcard] -= 1
    p *= left[first] / (n - 1)
    left[first] -= 1
    p *= left[second] / (n - 2)
    return float(p * (1 if first == second else 2))


def hand_values(rules: CanberraRules, paytable: Paytable, graph: HandGraph, values: UpcardValues,
                first: int, second: int) -> HandValues:
    """Every decision's value for one two-card hand against the upcard."""
    full = value_shoe(rules).array()
    node = graph.roots[tuple(int(r == first) + int(r == second) for r in range(10))]
    chance = deal_chance(full, values.upcard, first, second)
    if {first, second} == {ACE, TEN} and value_shoe(rules).tens_all_pontoon:
        pays = paytable.pontoon.numerator / paytable.pontoon.denominator
        dealer_pontoon = values.dealer[graph.removal[node], PONTOON]
        return HandValues(values.upcard, first, second, chance, {"pontoon": pays * (1.0 - dealer_pontoon)},
                          {"pontoon": pays * pays * (1.0 - dealer_pontoon)})
    out = {"stand": float(values.stand[node]), "hit": float(values.hit[node]),
           "double": float(values.double[node])}
    squares = {"stand": float(values.stand_square[node]), "hit": float(values.hit_square[node]),
               "double": float(values.double_square[node])}
    if first == second and rules.split_max_hands >= 2:
        out["split"], squares["split"] = _split(rules, graph, values, first, rules.double_after_split)
    if values.upcard in {value_index(rank) for rank in rules.surrender_upcards}:
        back = rules.surrender_returns.numerator / rules.surrender_returns.denominator
        dealer_pontoon = values.dealer[graph.removal[node], PONTOON] if rules.surrender_lost_to_dealer_pontoon else 0.0
        out["surrender"] = -(1.0 - back) * (1.0 - dealer_pontoon) - dealer_pontoon
        squares["surrender"] = (1.0 - back) ** 2 * (1.0 - dealer_pontoon) + dealer_pontoon
    if rules.stand_minimum > (graph.hard[node] + (10 if graph.has_ace[node] and graph.hard[node] <= 11 else 0)):
        del out["stand"]
    return HandValues(values.upcard, first, second, chance, out, squares)


@dataclass(frozen=True, slots=True)
class GameValues:
    """Every starting hand's values and the game's expected return per initial wager."""

    hands: tuple[HandValues, ...]

    @property
    def expected_return(self) -> float:
        return sum(h.probability * h.values[h.best] for h in self.hands)

    @property
    def variance(self) -> float:
        """Variance of one round's result per initial wager, each hand played its best way."""
        square = sum(h.probability * h.squares[h.best] for h in self.hands)
        return square - self.expected_return ** 2


def analyse_even_money(rules: CanberraRules, paytable: Paytable) -> GameValues:
    """Values of every two-card hand and upcard under rules whose wins all pay even money."""
    refuse_unless_even_money(rules, paytable)
    graph, by_upcard = graph_values(rules)
    full = value_shoe(rules).array()
    hands = []
    for values in by_upcard:
        if values is None:
            continue
        upcard = values.upcard
        for first in range(9, -1, -1):
            for second in range(first, -1, -1):
                if full[first] - (first == upcard) > 0 and full[second] - (second == upcard) - (first == second) > 0:
                    hands.append(hand_values(rules, paytable, graph, values, first, second))
    return GameValues(tuple(hands))


__all__ = ["GameValues", "HandValues", "analyse_even_money", "value_index"]
