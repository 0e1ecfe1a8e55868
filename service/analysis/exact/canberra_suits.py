"""Decisions that look at suits: a hand one card short of a ranks line (6-7 towards 6-7-8, 7-7
towards 7-7-7 and the super bonus) is worth more when its cards share a suit.

Only hitting changes: the completing card matches the hand's suit with chance
(d - m) / (4d - m), d decks and m cards of its rank already in the hand (whatever else has been
seen, unseen suits are a uniformly random choice). Each suit class (mixed, one suit other than
spades, spades) then takes its own best decision.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ...engine.games.canberra.paytable import SuitRule
from .canberra_pay import pay_by_suits, suit_chances, value_counts
from .canberra_sweep import Stats, UpcardSweep
from .player import draw_chances

HIT_NAME = "hit"


def completing_ranks(up: UpcardSweep, counts: tuple[int, ...]) -> list[int]:
    """Ranks that would complete a ranks line or the super bonus from these cards."""
    targets = [line.ranks for line in up.paytable.bonuses if line.ranks]
    if up.paytable.super_bonus is not None:
        targets.append(up.paytable.super_bonus.ranks)
    found = set()
    for ranks in targets:
        short = [want - held for want, held in zip(value_counts(ranks), counts)]
        if min(short) >= 0 and sum(short) == 1:
            found.add(short.index(1))
    return sorted(found)


def _twenty_one(up: UpcardSweep, line: int, won: float) -> Stats:
    lines = len(up.pay.names)
    chance, winnings = np.zeros(lines), np.zeros(lines)
    chance[line], winnings[line] = 1.0, won
    return Stats(won, won * won, chance, winnings)


def _mix(a: Stats, b: Stats, weight: float) -> Stats:
    """weight * a + (1 - weight) * b."""
    return replace(a, value=weight * a.value + (1 - weight) * b.value,
                   square=weight * a.square + (1 - weight) * b.square,
                   chance=weight * a.chance + (1 - weight) * b.chance, won=weight * a.won + (1 - weight) * b.won)


def by_suits(up: UpcardSweep, node: int, decisions: dict[str, Any]) -> list[tuple[str, float, dict[str, Any]]]:
    """(suit class, its chance, the decisions with hitting valued for that class); one class ""
    when suits cannot matter. Each decision is a tuple whose first item is its Stats."""
    counts = tuple(int(c) for c in up.graph.counts[node])
    ranks = completing_ranks(up, counts) if sum(counts) >= 2 and HIT_NAME in decisions else []
    if not ranks:
        return [("", 1.0, decisions)]
    decks = up.rules.shoe.decks
    chances = draw_chances(up.full, up.graph.removals[up.graph.removal[node]], up.upcard)
    unsplit = bool(up.graph.unsplit[node])
    out = []
    for suits, weight in suit_chances(counts, decks).items():
        if weight <= 0.0:
            continue
        hit, *rest = decisions[HIT_NAME]
        for rank in ranks:
            child = int(up.graph.child[node, rank])
            grown = tuple(c + (r == rank) for r, c in enumerate(counts))
            paid = pay_by_suits(up.rules, up.paytable, up.pay, grown, unsplit, up.upcard)
            average = up.stats(child, 3)[0]
            mixed = _twenty_one(up, *paid[SuitRule.MIXED])
            if suits is SuitRule.MIXED:
                mine = mixed
            else:
                match = (decks - counts[rank]) / (4 * decks - counts[rank])
                mine = _mix(_twenty_one(up, *paid[suits]), mixed, match)
            p = float(chances[rank])
            hit = replace(hit, value=hit.value + p * (mine.value - average.value),
                          square=hit.square + p * (mine.square - average.square),
                          chance=hit.chance + p * (mine.chance - average.chance),
                          won=hit.won + p * (mine.won - average.won))
        out.append((suits.value, weight, {**decisions, HIT_NAME: (hit, *rest)}))
    return out
