"""Exact values of every two-card hand against every upcard under Canberra's rules and a bonus paytable.

A dealer Pontoon takes what the rules say from the hands still waiting. Where it takes each
waiting hand's wager, or every stake, each hand carries its own cost. Where it takes one original
wager of the seat's (Canberra's rule), the other stakes come back: an unsplit hand carries that
cost itself; split hands are played as if each carried half of it (`SPLIT_PONTOON_COST`), and the
split's value then counts the seat's cost once: the chance of a dealer Pontoon times the chance
that some hand is waiting, the hands' waiting taken as independent.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache

import numpy as np

from ...engine.games.canberra.paytable import Paytable
from ...engine.games.canberra.rules import CanberraRules, DealerPontoonTakes
from .blackjack import HandValues, deal_chance
from .canberra_pay import DOUBLED_WIN_LINE, PONTOON_LINE, LinePay, line_pay
from .canberra_player import (
    DOUBLE,
    DOUBLE_LEAST,
    HIT,
    STAND,
    TWENTY_ONE,
    doubled_total,
    hand_total,
    standing,
    standing_by_outcome,
)
from .canberra_suits import by_suits
from .canberra_sweep import Stats, UpcardSweep, hand_graph, one_wager_a_seat, split_pontoon_cost
from .player import draw_chances
from .shoe import ACE, TEN, value_index, value_shoe

DECISIONS = {STAND: "stand", HIT: "hit", DOUBLE: "double", DOUBLE_LEAST: "double_least"}


@dataclass(frozen=True, slots=True)
class AfterDouble:
    """A two-card hand doubled for the wager against an upcard, once the double's card is known:
    standing (stake doubled) or forfeiting (the wager lost, the double returned), per wager."""

    upcard: int
    first: int
    second: int
    card: int
    stand: float
    forfeit: float = -1.0

    @property
    def best(self) -> str:
        return "forfeit" if self.forfeit > self.stand else "stand"


@dataclass(frozen=True, slots=True)
class CanberraValues:
    """Every starting hand's values, the best play's statistics and the paytable's lines."""

    hands: tuple[HandValues, ...]
    pay: LinePay
    expected_return: float
    variance: float
    line_chance: np.ndarray
    line_won: np.ndarray
    after_double: tuple[AfterDouble, ...] = ()


def _split_hand(rules: CanberraRules, up: UpcardSweep, pair: int, hands: int, rank: int,
                pair_pontoon: float) -> tuple[Stats, float]:
    """A split hand's statistics once its second card is `rank`, and the chance it is not left
    waiting into a dealer Pontoon (relative to the pair's chance of one)."""
    graph = up.graph
    one_card = pair == ACE and rules.split_aces_one_card
    node = int(graph.child[graph.split_roots[(pair, hands)], rank])
    choice = int(up.choice[node])
    if one_card and choice != TWENTY_ONE:
        choice = STAND
    if choice == TWENTY_ONE or one_card:
        stats, _, exposure = up.stats(node, choice)
    else:
        stats, exposure = _best_over_suits(up, node, played_decisions(rules, up, node))
    unexposed = 1.0 - (exposure / pair_pontoon if pair_pontoon > 0 else 0.0)
    by_outcome = up.by_outcome[node]
    cost = split_pontoon_cost(rules)
    if one_card and choice == STAND:
        total = int(graph.hard[node]) + (10 if graph.has_ace[node] and graph.hard[node] <= 11 else 0)
        by_outcome = standing_by_outcome(total, up.dealer[graph.removal[node]], 1.0, up.pay.win, cost)
    if not one_wager_a_seat(rules):
        return replace(stats, by_outcome=by_outcome), unexposed
    # The hand's own share of a dealer Pontoon is put back; the seat's cost is counted once by _split.
    return replace(stats, value=stats.value + cost * exposure, by_outcome=by_outcome), unexposed


def _split(rules: CanberraRules, up: UpcardSweep, pair: int, lines: int) -> Stats:
    graph = up.graph
    resplit = rules.split_aces_resplit if pair == ACE else True
    seen = np.zeros(10, dtype=np.int64)
    seen[pair] = 2
    pair_pontoon = _pontoon_after(up, seen)

    pair_node = graph.roots[tuple(2 * int(r == pair) for r in range(10))]
    dealer = up.dealer[graph.removal[pair_node]]
    inverse = np.divide(1.0, dealer, out=np.zeros_like(dealer), where=dealer > 0)
    nothing = Stats(0.0, 0.0, np.zeros(lines), np.zeros(lines), np.zeros_like(dealer))

    @cache
    def waiting(hands: int, left: int) -> tuple[Stats, float]:
        # Given the dealer's outcome, split hands are taken as independent: E[X Y] is the sum over
        # outcomes of E[X; d] E[Y; d] / P(d).
        if left == 0:
            return nothing, 1.0
        seen_now = np.zeros(10, dtype=np.int64)
        seen_now[pair] = hands
        p = draw_chances(up.full, seen_now, up.upcard)
        value = square = none_waiting = 0.0
        chance, won, by_outcome = np.zeros(lines), np.zeros(lines), np.zeros_like(dealer)
        for rank in range(10):
            if p[rank] == 0.0:
                continue
            if rank == pair and resplit and hands < rules.split_max_hands:
                rest, rest_none = waiting(hands + 1, left + 1)
                this, this_none = nothing, 1.0
            else:
                this, this_none = _split_hand(rules, up, pair, hands, rank, pair_pontoon)
                rest, rest_none = waiting(hands, left - 1)
            together = float(np.sum(this.by_outcome * rest.by_outcome * inverse))    # type: ignore[operator]
            value += p[rank] * (this.value + rest.value)
            square += p[rank] * (this.square + 2 * together + rest.square)
            none_waiting += p[rank] * this_none * rest_none
            chance += p[rank] * (this.chance + rest.chance)
            won += p[rank] * (this.won + rest.won)
            by_outcome += p[rank] * (this.by_outcome + rest.by_outcome)    # type: ignore[operator]
        return Stats(value, square, chance, won, by_outcome), none_waiting

    total, none_waiting = waiting(2, 2)
    if not one_wager_a_seat(rules):
        return total
    return replace(total, value=total.value - pair_pontoon * (1.0 - none_waiting))


def after_double(up: UpcardSweep, first: int, second: int) -> list[AfterDouble]:
    """Stand or forfeit after doubling an unsplit two-card hand, for each card the double can draw
    that leaves the hand neither bust nor on 21 (a doubled 21 is paid at once)."""
    graph = up.graph
    node = graph.roots[tuple(int(r == first) + int(r == second) for r in range(10))]
    hard, aces_one = int(graph.hard[node]), up.rules.double_aces_count_one
    if hand_total(hard, bool(graph.has_ace[node])) >= 21:
        return []
    lines = len(up.pay.names)
    rows = []
    for rank, chance in enumerate(draw_chances(up.full, graph.removals[graph.removal[node]], up.upcard)):
        after = int(graph.child[node, rank])
        if chance == 0.0 or after < 0:
            continue
        total = doubled_total(hard, bool(graph.has_ace[node]), rank, aces_one)
        if total >= 21:
            continue
        taken = 2.0 if up.rules.dealer_pontoon_takes is DealerPontoonTakes.ALL_STAKES else 1.0
        stood = standing(total, up.dealer[graph.removal[after]], 2.0, up.pay.doubled_win, taken,
                          up.pay.index(DOUBLED_WIN_LINE), lines)[0]
        rows.append(AfterDouble(up.upcard, first, second, rank, float(stood)))
    return rows


def _pontoon_after(up: UpcardSweep, seen: np.ndarray) -> float:
    if up.upcard not in (ACE, TEN):
        return 0.0
    return float(draw_chances(up.full, seen, up.upcard)[TEN if up.upcard == ACE else ACE])


def played_decisions(rules: CanberraRules, up: UpcardSweep, node: int) -> dict[str, tuple[Stats, float, float]]:
    """Stand (where allowed), hit and double (where allowed) at a node, with their waiting chances."""
    graph = up.graph
    total = int(graph.hard[node]) + (10 if graph.has_ace[node] and graph.hard[node] <= 11 else 0)
    out = {}
    for choice, name in DECISIONS.items():
        if choice == STAND and total < rules.stand_minimum:
            continue
        if choice in (DOUBLE, DOUBLE_LEAST) and not up.may_double[node]:
            continue
        if choice == DOUBLE_LEAST and up.d[-1] >= 1.0:     # no double for less than the wager
            continue
        out[name] = up.stats(node, choice)
    return out


def _best_over_suits(up: UpcardSweep, node: int, played: dict[str, tuple[Stats, float, float]]) -> tuple[Stats, float]:
    """The best play's statistics averaged over the hand's suits, each suit class played its best way."""
    lines = len(up.pay.names)
    value = square = exposure = 0.0
    chance, won = np.zeros(lines), np.zeros(lines)
    for _, weight, decisions in by_suits(up, node, played):
        stats, _, exposed = max(decisions.values(), key=lambda d: d[0].value)
        value += weight * stats.value
        square += weight * stats.square
        exposure += weight * exposed
        chance += weight * stats.chance
        won += weight * stats.won
    return Stats(value, square, chance, won), exposure


def _root(rules: CanberraRules, pay: LinePay, up: UpcardSweep, first: int,
          second: int) -> list[tuple[str, float, dict[str, Stats]]]:
    """Every decision the rules allow on an unsplit two-card hand, by suit class where suits matter."""
    lines = len(pay.names)
    node = up.graph.roots[tuple(int(r == first) + int(r == second) for r in range(10))]
    if {first, second} == {ACE, TEN} and value_shoe(rules).tens_all_pontoon:
        chance, won = np.zeros(lines), np.zeros(lines)
        chance[pay.index(PONTOON_LINE)], won[pay.index(PONTOON_LINE)] = 1.0, pay.pontoon
        if not rules.player_pontoon_paid_at_once:    # it waits, and pushes a dealer Pontoon
            no_pontoon = 1.0 - up.pontoon_chance(node)
            return [("", 1.0, {"pontoon": Stats(pay.pontoon * no_pontoon, pay.pontoon ** 2 * no_pontoon,
                                                 chance * no_pontoon, won * no_pontoon)})]
        return [("", 1.0, {"pontoon": Stats(pay.pontoon, pay.pontoon ** 2, chance, won)})]
    out: dict[str, tuple[Stats, float, float]] = dict(played_decisions(rules, up, node))
    if up.upcard in {value_index(rank) for rank in rules.surrender_upcards}:
        # What comes back at this wager, in whole cents rounded as the rules say.
        back = rules.surrender_returns.winnings(pay.wager, rules.rounding) / pay.wager
        pontoon = up.pontoon_chance(node) if rules.surrender_lost_to_dealer_pontoon else 0.0
        out["surrender"] = (Stats(-(1 - back) * (1 - pontoon) - pontoon, (1 - back) ** 2 * (1 - pontoon) + pontoon,
                                  np.zeros(lines), np.zeros(lines)), 0.0, 0.0)
    if first == second and rules.split_max_hands >= 2:
        out["split"] = (_split(rules, up, first, lines), 0.0, 0.0)
    return [(suits, weight, {name: d[0] for name, d in decisions.items()})
            for suits, weight, decisions in by_suits(up, node, out)]


def refuse_unless_covered(rules: CanberraRules, paytable: Paytable) -> None:
    """Name any choice of the rules or paytable that this recursion does not cover."""
    unsupported = []
    if not rules.twenty_one_wins_at_once:
        unsupported.append("twenty_one_wins_at_once: false with doubling at any point")
    if rules.bonuses_on_doubled_hands:
        unsupported.append("bonuses.on_doubled_hands")
    if rules.double_on_split_aces:
        unsupported.append("double.on_split_aces")
    if rules.split_hand_pontoon:
        unsupported.append("pontoon.on_split_hands")
    if not value_shoe(rules).tens_all_pontoon:
        unsupported.append("a ten-valued card the shoe holds (shoe.ranks_removed) that pontoon.ranks leave out")
    for line in paytable.bonuses:
        if any(rank in ("T", "J", "Q", "K") for rank in line.ranks):
            unsupported.append(f"bonus line {line.name} (a picture card's rank is not tracked)")
    if unsupported:
        raise ValueError(f"the exact analysis does not cover {rules.name} with {paytable.name}: "
                         + ", ".join(unsupported))


@lru_cache(maxsize=2)
def upcard_sweeps(rules: CanberraRules, paytable: Paytable, wager: int) -> tuple[UpcardSweep, ...]:
    """The sweep against each upcard the shoe holds (the last two rules, paytables and wagers'
    are kept: the report and the chart both read them)."""
    refuse_unless_covered(rules, paytable)
    pay = line_pay(rules, paytable, wager)
    graph = hand_graph(rules.split_max_hands)
    full = value_shoe(rules).array()
    return tuple(UpcardSweep(rules, paytable, pay, graph, upcard) for upcard in range(10) if full[upcard] > 0)


def analyse_canberra(rules: CanberraRules, paytable: Paytable, wager: int | None = None) -> CanberraValues:
    """Values of every two-card hand and upcard, the return, the variance and the lines' shares,
    at `wager` cents (default: the table minimum)."""
    return _analysed(rules, paytable, wager or rules.main_limits.minimum)


@lru_cache(maxsize=2)
def _analysed(rules: CanberraRules, paytable: Paytable, wager: int) -> CanberraValues:
    # The last two analyses are kept for the process, by the wager they were made at.
    sweeps = upcard_sweeps(rules, paytable, wager)
    pay = sweeps[0].pay
    full = value_shoe(rules).array()
    hands, lines, doubled = [], len(pay.names), []
    expected = square = 0.0
    chance, won = np.zeros(lines), np.zeros(lines)
    for up in sweeps:
        upcard = up.upcard
        for first in range(9, -1, -1):
            for second in range(first, -1, -1):
                if full[first] - (first == upcard) <= 0 or full[second] - (second == upcard) - (first == second) <= 0:
                    continue
                if rules.forfeit_after_double:
                    doubled.extend(after_double(up, first, second))
                for suits, weight, decisions in _root(rules, pay, up, first, second):
                    probability = deal_chance(full, upcard, first, second) * weight
                    hand = HandValues(upcard, first, second, probability, {k: v.value for k, v in decisions.items()},
                                      {k: v.square for k, v in decisions.items()}, suits)
                    hands.append(hand)
                    best = decisions[hand.best]
                    expected += probability * best.value
                    square += probability * best.square
                    chance += probability * best.chance
                    won += probability * best.won
    return CanberraValues(tuple(hands), pay, expected, square - expected ** 2, chance, won, tuple(doubled))
