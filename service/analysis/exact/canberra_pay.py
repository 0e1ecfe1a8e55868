"""What a winning 21 pays under a bonus paytable, node by node, and which line pays it.

Only the value ranks of a hand are in the graph; suits matter for a ranks line (6-7-8, 7-7-7)
and the super bonus. Whatever else has been seen, the suits of a hand's cards are a uniformly
random choice among the cards of their ranks, so the chance that they are all one suit is exact
from the ranks alone: for each rank held m times, C(d, m) / C(4d, m) per suit with d decks.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from ...engine.games.canberra.paytable import Paytable, SuitRule
from ...engine.games.canberra.rules import CanberraRules
from ...engine.odds import Odds
from .shoe import value_index

PONTOON_LINE = "pontoon"
SUPER_BONUS_LINE = "super_bonus"
WIN_LINE = "win"
DOUBLED_WIN_LINE = "doubled_win"


@dataclass(frozen=True, slots=True)
class LinePay:
    """The paytable at one wager, as units of the wager won."""

    names: tuple[str, ...]        # pontoon, each bonus line, super bonus, win, doubled win
    pontoon: float
    win: float
    doubled_win: float            # per unit of a doubled hand's whole stake
    super_bonus: float            # the prize for this wager, 0 without a super bonus
    wager: int

    def index(self, name: str) -> int:
        return self.names.index(name)


def _units(odds: Odds, wager: int, rules: CanberraRules) -> float:
    return odds.winnings(wager, rules.rounding) / wager


def line_pay(rules: CanberraRules, paytable: Paytable, wager: int) -> LinePay:
    names = (PONTOON_LINE, *(line.name for line in paytable.bonuses), SUPER_BONUS_LINE, WIN_LINE, DOUBLED_WIN_LINE)
    prize = paytable.super_bonus.prize_for(wager) / wager if paytable.super_bonus else 0.0
    return LinePay(names, _units(paytable.pontoon, wager, rules), _units(paytable.win, wager, rules),
                   _units(paytable.doubled_win, wager, rules), prize, wager)


def one_suit_each(counts: tuple[int, ...], decks: int) -> float:
    """Chance that the hand's cards are all of one given suit."""
    chance = 1.0
    for held in counts:
        if held:
            chance *= comb(decks, held) / comb(4 * decks, held)
    return chance


@cache
def value_counts(ranks: tuple[str, ...]) -> tuple[int, ...]:
    """How many of each value rank a line's ranks hold."""
    counts = [0] * 10
    for rank in ranks:
        counts[value_index(rank)] += 1
    return tuple(counts)


def pay_by_suits(rules: CanberraRules, paytable: Paytable, pay: LinePay, counts: tuple[int, ...], unsplit: bool,
                 upcard: int) -> dict[SuitRule, tuple[int, float]]:
    """(line, units won) of an undoubled 21 of these cards when its suits are mixed, all one suit
    other than spades, or all spades: the higher line pays, the super bonus instead of any."""
    cards = sum(counts)
    # The rules say whether a split hand's 21 is paid by the bonus lines or at a win's odds.
    lines = paytable.bonuses if unsplit or rules.bonuses_on_split_hands else ()
    by_count = [line for line in lines if not line.ranks and line.min_cards <= cards <= line.max_cards]
    by_ranks = [line for line in lines if line.ranks and value_counts(line.ranks) == counts]
    super_bonus = paytable.super_bonus
    super_fits = (super_bonus is not None and unsplit and value_counts(super_bonus.ranks) == counts
                  and value_index(super_bonus.upcard) == upcard)
    paid = {}
    for suits in (SuitRule.MIXED, SuitRule.SUITED, SuitRule.SPADES):
        if super_fits and (suits is not SuitRule.MIXED or not super_bonus.one_suit):   # type: ignore[union-attr]
            paid[suits] = (pay.index(SUPER_BONUS_LINE), pay.super_bonus)
            continue
        fitting = by_count + [line for line in by_ranks if line.suits is suits]
        best = max(fitting, key=lambda line: _units(line.odds, pay.wager, rules), default=None)
        paid[suits] = ((pay.index(WIN_LINE), pay.win) if best is None
                       else (pay.index(best.name), _units(best.odds, pay.wager, rules)))
    return paid


def suit_chances(counts: tuple[int, ...], decks: int) -> dict[SuitRule, float]:
    """Chance that cards of these ranks are of mixed suits, one suit other than spades, all spades."""
    each = one_suit_each(counts, decks)
    return {SuitRule.MIXED: 1.0 - 4 * each, SuitRule.SUITED: 3 * each, SuitRule.SPADES: each}


def twenty_one_pay(rules: CanberraRules, paytable: Paytable, pay: LinePay, counts: tuple[int, ...],
                   unsplit: bool, upcard: int) -> list[tuple[float, int, float]]:
    """(chance, line, units won) for an undoubled 21 of these cards, over its suits."""
    paid = pay_by_suits(rules, paytable, pay, counts, unsplit, upcard)
    suited = any(paid[suits] != paid[SuitRule.MIXED] for suits in paid)
    if not suited:
        return [(1.0, *paid[SuitRule.MIXED])]
    chances = suit_chances(counts, rules.shoe.decks)
    return [(chances[suits], *paid[suits]) for suits in paid if chances[suits] > 0.0]


def twenty_one_table(rules: CanberraRules, paytable: Paytable, pay: LinePay, graph_counts: np.ndarray,
                     hard: np.ndarray, has_ace: np.ndarray, unsplit: np.ndarray,
                     upcard: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per node: units an undoubled 21 wins, and per line its chance and its winnings."""
    nodes, lines = hard.shape[0], len(pay.names)
    value = np.zeros(nodes)
    line_chance = np.zeros((nodes, lines))
    line_won = np.zeros((nodes, lines))
    totals = np.where(has_ace & (hard + 10 <= 21), hard + 10, hard)
    cache: dict[tuple[tuple[int, ...], bool], list[tuple[float, int, float]]] = {}
    for node in np.flatnonzero(totals == 21):
        counts = tuple(graph_counts[node].tolist())
        key = (counts, bool(unsplit[node]))
        if key not in cache:
            cache[key] = twenty_one_pay(rules, paytable, pay, counts, key[1], upcard)
        for chance, line, won in cache[key]:
            value[node] += chance * won
            line_chance[node, line] += chance
            line_won[node, line] += chance * won
    return value, line_chance, line_won
