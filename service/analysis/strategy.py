"""Player strategy derived by expected value: every decision of every hand, for any rules and paytable.

Each hand, named as solver.py names it, gets the decision with the best expected value against
each upcard; the simulation then measures the house edge of exactly that table. The hands after a
split see dealer Pontoon through `lam` (solver.py), iterated here from one half.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..engine.cards import RANKS
from ..engine.games.canberra.paytable import Paytable
from ..engine.games.canberra.rules import CanberraRules
from .model import (
    ACE,
    HIT,
    MIXED,
    N_RANKS,
    OFF,
    ROOT,
    SPLIT,
    SPLIT_ACE,
    SPLIT_HAND,
    STAND,
    UNSPLIT,
    VALUES,
    GameModel,
    may_resplit,
)
from .solver import TWO_CARD_CLASSES, UpcardSolver, initial_two_cards

MAX_TOTAL_INDEX = 22        # table index of totals 0..21


@dataclass
class Strategy:
    """A derived strategy: decision tables the players (fast and reference) look up, and the EVs."""

    model: GameModel
    play: np.ndarray            # [upcard, kind, cards, total, soft, line id] -> HIT/STAND/DOUBLE/SURRENDER
    pair_split: np.ndarray      # [upcard, kind, total, soft, line id] -> 1: split this pair when allowed
    after_double: np.ndarray    # [upcard, kind, total] -> STAND or FORFEIT after a double's card
    states: dict = field(default_factory=dict)   # (upcard, kind, cards, total, soft, lid) -> {action: ev}
    pairs: dict = field(default_factory=dict)    # (upcard, kind, total, soft, lid) -> {"split": ev, "play": ev}
    doubles: dict = field(default_factory=dict)  # (upcard, kind, total) -> {"stand": ev, "forfeit": ev}
    pair_hands: list = field(default_factory=list)  # (rank, total, soft, lid) of every two-card pair
    upcard_ev: dict = field(default_factory=dict)  # upcard rank -> EV of a round per wager (estimate)
    estimate: float = 0.0       # EV of a round per wager, by this (approximate) calculation

    @property
    def rules(self) -> CanberraRules:
        return self.model.rules

    @property
    def paytable(self) -> Paytable:
        return self.model.paytable

    def may_resplit(self, rank: int) -> bool:
        return may_resplit(self.rules, rank)

    def decide(self, upcard: int, kind: int, ranks: list[int], suits: list[int],
               after_double_total: int | None, may_split: bool) -> int:
        """The decision for a hand, named from its cards as the fast path names it."""
        if after_double_total is not None:
            return int(self.after_double[upcard, kind, after_double_total])
        n, total, soft, lid = self.model.hand_key(ranks, suits)
        if may_split and self.pair_split[upcard, kind, total, soft, lid]:
            return SPLIT
        if kind == SPLIT_ACE and self.rules.split_aces_one_card:
            return STAND        # its one card is an ace it does not re-split
        return int(self.play[upcard, kind, n, total, soft, lid])


def derive(rules: CanberraRules, paytable: Paytable, wager: int | None = None) -> Strategy:
    """The strategy for these rules and paytable at this wager (default: the table minimum)."""
    return _derive_cached(rules, paytable, wager or rules.main_limits.minimum)


@lru_cache(maxsize=16)
def _derive_cached(rules: CanberraRules, paytable: Paytable, wager: int) -> Strategy:
    model = GameModel(rules, paytable, wager)
    n_lid = model.bonus.n_line_ids
    play = np.full((N_RANKS, 3, model.n_cap + 1, MAX_TOTAL_INDEX, 2, n_lid), HIT, dtype=np.int8)
    pair_split = np.zeros((N_RANKS, 3, MAX_TOTAL_INDEX, 2, n_lid), dtype=np.int8)
    after_double = np.full((N_RANKS, 3, 32), STAND, dtype=np.int8)
    strategy = Strategy(model, play, pair_split, after_double)
    present = [r for r in range(N_RANKS) if model.counts[r] > 0]
    total_ev = 0.0
    for u in present:
        solver = UpcardSolver(model, u)
        split_results = _splits(solver, present)
        decided_pairs = _decide_pairs(strategy, solver, split_results, first_upcard=u == present[0])
        upcard_ev = initial_two_cards(solver, decided_pairs, {r: res[0] for r, res in split_results.items()})
        strategy.upcard_ev[RANKS[u]] = upcard_ev
        total_ev += model.counts[u] / model.shoe_size * upcard_ev
        _record_hands(strategy, solver)
    strategy.estimate = total_ev
    return strategy


def _splits(solver: UpcardSolver, present: list[int]) -> dict[int, tuple[float, dict[int, bool], float]]:
    """Each rank's pair split against this upcard: (EV, re-split by suit class, chance not waiting)."""
    rules = solver.rules
    # Hands after a split see dealer Pontoon through lam (see solver.py's docstring): start at one
    # half, then take the chance that another split hand is not waiting.
    passes = 1
    if rules.dealer_pontoon_takes == "one_original_wager" and solver.p_pontoon > 0:
        solver.lam, passes = 0.5, 3
    split_results: dict = {}
    for i in range(passes):
        solver.reset_split_hands()
        if rules.split_max_hands >= 2:
            split_results = {r: solver.split(r) for r in present}
        if i < passes - 1 and split_results:
            solver.lam = 1.0 - sum(res[2] for res in split_results.values()) / len(split_results)
    return split_results


def _decide_pairs(strategy: Strategy, solver: UpcardSolver, split_results: dict, *, first_upcard: bool) -> dict:
    """Pair decisions against this upcard: split first time (against the best other play) and
    re-split; returns {(kind, total, soft, line id): split first time}."""
    model, u = strategy.model, solver.u
    decided_pairs: dict = {}
    for r, (ev_split, again, _) in split_results.items():
        hard = 2 * VALUES[r]
        soft = r == ACE and hard <= 11
        total = hard + 10 if soft else hard
        node = solver.node2(r, r)
        kind_after = SPLIT_ACE if r == ACE else SPLIT_HAND
        for klass, _ in (TWO_CARD_CLASSES if node != OFF else ((MIXED, 1.0),)):
            lid = model.bonus.line_id(node, klass) if node > ROOT else 0
            play_ev = solver.value(UNSPLIT, 2, hard, soft, node, klass)[0]
            first = ev_split > play_ev
            decided_pairs[UNSPLIT, total, int(soft), lid] = first
            if first_upcard:
                strategy.pair_hands.append((r, total, int(soft), lid))
            strategy.pair_split[u, UNSPLIT, total, int(soft), lid] = first
            strategy.pairs[u, UNSPLIT, total, int(soft), lid] = {"split": ev_split, "play": play_ev}
            strategy.pair_split[u, kind_after, total, int(soft), lid] = again.get(klass, again.get(MIXED, False))
    return decided_pairs


def _record_hands(strategy: Strategy, solver: UpcardSolver) -> None:
    """Every hand the calculation reached against this upcard becomes a row of the tables."""
    model, rules, u = strategy.model, strategy.rules, solver.u
    for (kind, n, hard, soft, node, klass), (_, _, best, opts) in solver.memo.items():
        total = hard + 10 if soft else hard
        lid = model.bonus.line_id(node, klass) if node > ROOT else 0
        strategy.play[u, kind, n, total, int(soft), lid] = best
        strategy.states[u, kind, n, total, int(soft), lid] = {a: opts[a][0] for a in opts}
    for kind in (UNSPLIT, SPLIT_HAND, SPLIT_ACE):
        for total in range(2, 22):
            decision, _, _, forfeit = solver.after_double(total, kind)
            strategy.after_double[u, kind, total] = decision
            if rules.forfeit_after_double:
                strategy.doubles[u, kind, total] = {"stand": solver.wait(total, True, kind)[0],
                                                    "forfeit": forfeit}


__all__ = ["Strategy", "derive"]
