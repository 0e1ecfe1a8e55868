"""One upcard's sweep of the hand graph under Canberra's rules: every composition's best play, and
any one decision's statistics asked again (by the splits, the suits and the chart)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from ...engine.games.canberra.paytable import Paytable
from ...engine.games.canberra.rules import CanberraRules, DealerPontoonTakes, DoubleMinimum
from .canberra_pay import DOUBLED_WIN_LINE, WIN_LINE, LinePay, twenty_one_table
from .canberra_player import TWENTY_ONE, decision, sweep
from .canberra_player import by_dealer_outcome as outcome_by_node
from .dealer import PONTOON, DealerRule, dealer_finals, dealer_table
from .hands import HandGraph, build_hand_graph
from .shoe import ACE, value_shoe

# Where a dealer Pontoon takes one wager a seat, a split hand carries half that cost
# (canberra_game says how the split's value then counts it once).
SPLIT_PONTOON_COST = 0.5


def one_wager_a_seat(rules: CanberraRules) -> bool:
    """Whether a dealer Pontoon takes one wager of a seat's, however many of its hands wait."""
    return rules.dealer_pontoon_takes is DealerPontoonTakes.ONE_ORIGINAL_WAGER


def split_pontoon_cost(rules: CanberraRules) -> float:
    """What a dealer Pontoon costs a waiting split hand as it is played, per wager (times its
    stake where the Pontoon takes every stake)."""
    return SPLIT_PONTOON_COST if one_wager_a_seat(rules) else 1.0


def doubling_allowed(rules: CanberraRules, graph: HandGraph) -> np.ndarray:
    """Per node, whether the rules let the hand double: its number of cards and its total (the
    aces held counted as a double counts them), after a split, on a split ace."""
    totals = graph.hard if rules.double_aces_count_one else np.where(graph.has_ace & (graph.hard <= 11),
                                                                     graph.hard + 10, graph.hard)
    allowed = np.array([rules.may_double_on(int(cards), int(total)) for cards, total in zip(graph.cards, totals)],
                       dtype=np.bool_)
    if not rules.double_after_split:
        allowed &= graph.unsplit
    if not rules.double_on_split_aces:
        allowed &= ~_grown_from(graph, [node for (pair, _), node in graph.split_roots.items() if pair == ACE])
    return allowed


def _grown_from(graph: HandGraph, roots: list[int]) -> np.ndarray:
    """Per node, whether it grows from one of `roots` (the roots included)."""
    reached = np.zeros(graph.hard.shape[0], dtype=np.bool_)
    stack = list(roots)
    while stack:
        node = stack.pop()
        if reached[node]:
            continue
        reached[node] = True
        stack.extend(int(child) for child in graph.child[node] if child >= 0)
    return reached


def least_double(rules: CanberraRules, wager: int) -> float:
    """The least a double may add, as a fraction of the wager (1: only for the whole wager)."""
    least = {DoubleMinimum.WAGER: wager, DoubleMinimum.TABLE_MINIMUM: rules.main_limits.minimum,
             DoubleMinimum.ONE_CENT: 1}[DoubleMinimum(rules.double_minimum)]
    return min(least, wager) / wager


@dataclass(frozen=True, slots=True)
class Stats:
    """One decision's expected result, mean square and paytable lines, per initial wager."""

    value: float
    square: float
    chance: np.ndarray
    won: np.ndarray
    by_outcome: np.ndarray | None = None    # the value split by the dealer's outcome (split hands)


@cache
def hand_graph(max_split_hands: int) -> HandGraph:
    """The hand graph for this many split hands, built once a process."""
    return build_hand_graph(max_split_hands)


@lru_cache(maxsize=10)
def _dealer_chances(counts: tuple[int, ...], rule: DealerRule, upcard: int, max_split_hands: int) -> np.ndarray:
    # The dealer's outcome chances behind every composition of the hand graph depend on the shoe
    # and the dealer's rule alone, not on the paytable or the wager: kept, one upcard each, so a
    # second paytable under the same rules is analysed without them.
    finals = dealer_finals(rule, upcard)
    return dealer_table(np.array(counts, dtype=np.int64), hand_graph(max_split_hands).removals, upcard, finals.cards,
                        finals.orders, finals.outcome)


class UpcardSweep:
    """The sweep's results for one upcard and how to ask one node's decision again."""

    def __init__(self, rules: CanberraRules, paytable: Paytable, pay: LinePay, graph: HandGraph, upcard: int):
        shoe = value_shoe(rules)
        self.full, self.upcard, self.graph = shoe.array(), upcard, graph
        self.rules, self.paytable, self.pay = rules, paytable, pay
        rule = DealerRule(rules.dealer_stands_on, rules.dealer_hits_soft_17, shoe.tens_all_pontoon)
        self.dealer = _dealer_chances(shoe.counts, rule, upcard, rules.split_max_hands)
        pay21, chance21, won21 = twenty_one_table(rules, paytable, pay, graph.counts, graph.hard, graph.has_ace,
                                                  graph.unsplit, upcard)
        cost = np.where(graph.unsplit, 1.0, split_pontoon_cost(rules))
        self.g = (graph.hard, graph.has_ace, graph.child, graph.removal, graph.removals)
        self.d = (self.dealer, self.full, upcard, cost, pay.win, pay.doubled_win, rules.double_aces_count_one,
                  rules.forfeit_after_double, pay.index(WIN_LINE), pay.index(DOUBLED_WIN_LINE),
                  rules.dealer_pontoon_takes is DealerPontoonTakes.ALL_STAKES, least_double(rules, pay.wager))
        self.may_double = doubling_allowed(rules, graph)
        choice, value, square, wait, exposure, chance, won = sweep(
            self.g, self.d, self.may_double, rules.stand_minimum, pay21, chance21, won21)
        self.choice, self.best = choice, (value, square, wait, exposure, chance, won)
        keep = np.unique(graph.child[list(graph.split_roots.values())].ravel())
        keep = keep[keep >= 0]
        rows = outcome_by_node(self.g, self.d, choice, pay21, keep)
        self.by_outcome = {int(node): rows[k] for k, node in enumerate(keep)}

    def stats(self, node: int, choice: int) -> tuple[Stats, float, float]:
        """(stats, chance left waiting, chance left waiting into a dealer Pontoon) of a decision."""
        if choice == TWENTY_ONE:
            value, square, wait, exposure, chance, won = (array[node] for array in self.best)
        else:
            value, square, wait, exposure, chance, won = decision(node, choice, self.g, self.d, self.best)
        return Stats(float(value), float(square), chance, won), float(wait), float(exposure)

    def pontoon_chance(self, node: int) -> float:
        return float(self.dealer[self.graph.removal[node], PONTOON])
