"""Expected values of every hand against one dealer upcard: the calculation behind the strategy.

The calculation is total-dependent: for each dealer upcard, the chance of the next card is that of
the full shoe less the upcard, the same at every draw (the player's own cards are not removed).
A hand is named by its total, softness, card count (capped where more cards pay alike) and the
bonus cards it still keeps (6-7 of one suit on the way to 6-7-8, 7-7 towards the super bonus),
and whether it belongs to a seat that has split.

Dealer Pontoon under "one original wager" costs a split seat one wager if any of its hands is
still waiting. The split decision counts that exactly (hands taken as independent); the hands
after a split are played as if each waiting hand risked `lam` wagers, where `lam` is the chance
that the other hand is not waiting (strategy.py iterates it twice from one half).
"""
from __future__ import annotations

import numpy as np

from ..engine.cards import RANKS
from .model import (
    ACE,
    ALL_SPADES,
    DOUBLE,
    FORFEIT,
    HIT,
    MIXED,
    N_RANKS,
    OFF,
    ONE_SUIT,
    ROOT,
    SPLIT_ACE,
    SPLIT_HAND,
    STAND,
    SURRENDER,
    UNSPLIT,
    VALUES,
    GameModel,
    may_resplit,
)

# Two cards' suit classes: the first card is a spade one time in four, the second matches it
# one time in four.
TWO_CARD_CLASSES = ((ALL_SPADES, 1 / 16), (ONE_SUIT, 3 / 16), (MIXED, 12 / 16))
# Order in which equal expected values are broken: the simpler decision first.
_PREFERENCE = (STAND, HIT, DOUBLE, SURRENDER)


class UpcardSolver:
    """Expected values of every hand against one upcard (units: the seat's wager)."""

    def __init__(self, model: GameModel, upcard: int) -> None:
        self.m = model
        self.rules = model.rules
        self.u = upcard
        counts = model.counts.astype(float).copy()
        counts[upcard] -= 1
        self.q = counts / counts.sum()
        self.ranks = [r for r in range(N_RANKS) if self.q[r] > 0]
        self.lam = 1.0
        self.W = model.wager
        self._dealer()
        self.memo: dict = {}

    # ----- the dealer -----------------------------------------------------------------------
    def _dealer(self) -> None:
        rules, q, u = self.rules, self.q, self.u
        finals: dict[int, float] = {}
        p_pontoon = 0.0
        cache: dict = {}

        def finish(hard: int, ace: bool) -> dict[int, float]:
            key = (hard, ace)
            if key in cache:
                return cache[key]
            soft = ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if total > 21:
                out = {22: 1.0}
            elif total < rules.dealer_stands_on or (total == rules.dealer_stands_on and soft
                                                   and rules.dealer_hits_soft_17):
                out = {}
                for c in self.ranks:
                    for t, pr in finish(hard + VALUES[c], ace or c == ACE).items():
                        out[t] = out.get(t, 0.0) + q[c] * pr
            else:
                out = {total: 1.0}
            cache[key] = out
            return out

        for c in self.ranks:
            if self.m.pontoon_mask[u] and c == ACE or u == ACE and self.m.pontoon_mask[c]:
                p_pontoon += q[c]
                continue
            for t, pr in finish(VALUES[u] + VALUES[c], u == ACE or c == ACE).items():
                finals[t] = finals.get(t, 0.0) + q[c] * pr
        self.p_pontoon = p_pontoon
        self.dealer_outcomes = finals
        # Chances (dealer Pontoon excluded) that a waiting total wins or loses.
        self.p_win = [0.0] * 23
        self.p_lose = [0.0] * 23
        for t in range(23):
            for d, pr in finals.items():
                if d == 22 or t > d:
                    self.p_win[t] += pr
                elif t < d:
                    self.p_lose[t] += pr

    # ----- values: (expected value, chance the hand ends waiting for the dealer) ------------
    def wait(self, total: int, doubled: bool, kind: int) -> tuple[float, float]:
        stake = 2.0 if doubled else 1.0
        won = (2 * self.m.doubled_win if doubled else self.m.win) / self.W
        takes = self.rules.dealer_pontoon_takes
        if takes == "all_stakes":
            penalty = stake
        elif takes == "one_wager_per_hand":
            penalty = 1.0
        else:
            penalty = 1.0 if kind == UNSPLIT else self.lam
        return self.p_win[total] * won - self.p_lose[total] * stake - self.p_pontoon * penalty, 1.0

    def pontoon_value(self) -> float:
        paid = self.m.pontoon / self.W
        return paid if self.rules.player_pontoon_paid_at_once else (1 - self.p_pontoon) * paid

    def twenty_one(self, n: int, lid: int, kind: int) -> tuple[float, float]:
        """A 21 that is not Pontoon: paid at once with its bonus, or waiting like any total."""
        if not self.rules.twenty_one_wins_at_once:
            return self.wait(21, False, kind)
        m = self.m
        if kind != UNSPLIT and not self.rules.bonuses_on_split_hands:
            return m.win / self.W, 0.0
        if kind == UNSPLIT and m.super_match[lid] and self.u == m.super_upcard and n == m.super_cards:
            return m.super_prize / self.W, 0.0
        return m.pay21[n, lid] / self.W, 0.0

    def _after_card(self, kind: int, n: int, hard: int, soft: bool, node: int, klass: int) -> tuple[float, float]:
        total = hard + 10 if soft else hard
        if total > 21:
            return -1.0, 0.0
        lid = self.m.bonus.line_id(node, klass) if node > ROOT else 0
        if total == 21:
            return self.twenty_one(n, lid, kind)
        return self.value(kind, n, hard, soft, node, klass)

    def _next_classes(self, node: int, klass: int):
        if node == OFF:
            return ((MIXED, 1.0),)
        if klass == MIXED:
            return ((MIXED, 1.0),)
        return ((klass, 0.25), (MIXED, 0.75))

    def hit(self, kind: int, n: int, hard: int, soft: bool, node: int, klass: int) -> tuple[float, float]:
        ev = w = 0.0
        n2 = min(n + 1, self.m.n_cap)
        nxt = self.m.bonus.next
        for c in self.ranks:
            h2 = hard + VALUES[c]
            s2 = (soft or c == ACE) and h2 <= 11
            node2 = int(nxt[node, c]) if node != OFF else OFF
            for k2, pk in self._next_classes(node2, klass):
                e, ww = self._after_card(kind, n2, h2, s2, node2, k2)
                ev += self.q[c] * pk * e
                w += self.q[c] * pk * ww
        return ev, w

    def after_double(self, total: int, kind: int) -> tuple[int, float, float, float]:
        """(decision, ev, waiting chance, forfeit ev or nan) for a doubled hand on `total`."""
        stand, w = self.wait(total, True, kind)
        if self.rules.forfeit_after_double:
            forfeit = -1.0   # the original wager is lost, the double comes back
            if forfeit > stand:
                return FORFEIT, forfeit, 0.0, forfeit
            return STAND, stand, w, forfeit
        return STAND, stand, w, float("nan")

    def doubled_twenty_one(self, kind: int, n: int, node: int, klass: int, card: int) -> float:
        """What a doubled 21 wins per wager (both stakes): the doubled odds, or a bonus line's where
        the rules pay bonus lines on doubled hands and the line pays more."""
        m = self.m
        doubled = 2 * m.doubled_win / self.W
        if not self.rules.bonuses_on_doubled_hands or kind != UNSPLIT and not self.rules.bonuses_on_split_hands:
            return doubled
        n2 = min(n + 1, m.n_cap)
        node2 = int(m.bonus.next[node, card]) if node != OFF else OFF
        won = 0.0
        for k2, pk in self._next_classes(node2, klass):
            lid = m.bonus.line_id(node2, k2) if node2 > ROOT else 0
            paid = m.pay21[n2, lid] if m.pay21_line[n2, lid] >= 0 else 0
            won += pk * max(2 * paid / self.W, doubled)
        return won

    def double(self, kind: int, n: int, hard: int, soft: bool, node: int, klass: int) -> tuple[float, float]:
        ev = w = 0.0
        for c in self.ranks:
            if self.rules.double_aces_count_one:
                # Aces already held count one; the double's own ace may count eleven.
                total = hard + VALUES[c] + (10 if c == ACE and hard + 11 <= 21 else 0)
            else:
                h2 = hard + VALUES[c]
                total = h2 + 10 if (soft or c == ACE) and h2 <= 11 else h2
            if total > 21:
                e, ww = -2.0, 0.0
            elif total == 21 and self.rules.twenty_one_wins_at_once:
                e, ww = self.doubled_twenty_one(kind, n, node, klass, c), 0.0
            else:
                _, e, ww, _ = self.after_double(total, kind)
            ev += self.q[c] * e
            w += self.q[c] * ww
        return ev, w

    def options(self, kind: int, n: int, hard: int, soft: bool, node: int,
                klass: int) -> dict[int, tuple[float, float]]:
        rules = self.rules
        total = hard + 10 if soft else hard
        out: dict[int, tuple[float, float]] = {}
        if total >= rules.stand_minimum:
            out[STAND] = self.wait(total, False, kind)
        if total < 21:
            out[HIT] = self.hit(kind, n, hard, soft, node, klass)
            if (kind == UNSPLIT or rules.double_after_split) \
                    and (kind != SPLIT_ACE or rules.double_on_split_aces) \
                    and rules.may_double_on(n, hard if rules.double_aces_count_one else total):
                out[DOUBLE] = self.double(kind, n, hard, soft, node, klass)
        if kind == UNSPLIT and n == 2 and RANKS[self.u] in rules.surrender_upcards:
            returned = self.m.surrender_returned / self.W
            if rules.surrender_lost_to_dealer_pontoon:
                out[SURRENDER] = ((1 - self.p_pontoon) * (returned - 1) - self.p_pontoon, 0.0)
            else:
                out[SURRENDER] = (returned - 1, 0.0)
        return out

    def value(self, kind: int, n: int, hard: int, soft: bool, node: int, klass: int) -> tuple[float, float]:
        if node == OFF:
            klass = MIXED
        key = (kind, n, hard, soft, node, klass)
        got = self.memo.get(key)
        if got is not None:
            return got[0], got[1]
        opts = self.options(kind, n, hard, soft, node, klass)
        best = max(_PREFERENCE, key=lambda a: (opts[a][0] if a in opts else -np.inf, -_PREFERENCE.index(a)))
        self.memo[key] = (opts[best][0], opts[best][1], best, opts)
        return opts[best]

    # ----- splits ---------------------------------------------------------------------------
    def split_start(self, r: int, c: int, klass: int) -> tuple[float, float]:
        """A hand after a split holding r, just dealt c (no re-split of it)."""
        rules, m = self.rules, self.m
        kind = SPLIT_ACE if r == ACE else SPLIT_HAND
        hard = VALUES[r] + VALUES[c]
        soft = (r == ACE or c == ACE) and hard <= 11
        total = hard + 10 if soft else hard
        node = self.node2(r, c)
        lid = m.bonus.line_id(node, klass) if node > ROOT else 0
        if total == 21:
            if rules.split_hand_pontoon and (r == ACE and m.pontoon_mask[c] or c == ACE and m.pontoon_mask[r]):
                return self.pontoon_value(), 0.0
            return self.twenty_one(2, lid, kind)
        if kind == SPLIT_ACE and rules.split_aces_one_card:
            return self.wait(total, False, kind)
        return self.value(kind, 2, hard, soft, node, klass)

    def _classes_for(self, r: int, c: int):
        return TWO_CARD_CLASSES if self.node2(r, c) != OFF else ((MIXED, 1.0),)

    def can_resplit(self, r: int) -> bool:
        return may_resplit(self.rules, r)

    def split(self, r: int) -> tuple[float, dict[int, bool], float]:
        """(EV of splitting r-r for the seat, re-split decision by suit class, chance a hand waits)."""
        q, rules = self.q, self.rules
        # One hand after the split, no re-split: by second card and suit class.
        start = {(c, k): self.split_start(r, c, k) for c in self.ranks for k, _ in self._classes_for(r, c)}
        one_ev = sum(q[c] * pk * start[c, k][0] for c in self.ranks for k, pk in self._classes_for(r, c))
        one_w = sum(q[c] * pk * start[c, k][1] for c in self.ranks for k, pk in self._classes_for(r, c))
        again = {}
        for k, _ in self._classes_for(r, r):
            again[k] = self.can_resplit(r) and 2 * one_ev > start[r, k][0]
        a = sum(q[r] * pk for k, pk in self._classes_for(r, r) if again[k])
        if a > 0:
            ev_a = (one_ev - sum(q[r] * pk * start[r, k][0] for k, pk in self._classes_for(r, r) if again[k])) / (1 - a)
            w_a = (one_w - sum(q[r] * pk * start[r, k][1] for k, pk in self._classes_for(r, r) if again[k])) / (1 - a)
        else:
            ev_a, w_a = one_ev, one_w
        # Hands of type A ended without a re-split while more hands were allowed; type B were
        # dealt at the hand limit, whatever their second card.
        outcomes: dict[tuple[int, int], float] = {}
        stack = [(2, 2, 0, 0, 1.0)]
        limit = rules.split_max_hands
        while stack:
            hands, pending, ca, cb, pr = stack.pop()
            if pending == 0:
                outcomes[ca, cb] = outcomes.get((ca, cb), 0.0) + pr
                continue
            if hands < limit:
                if a > 0:
                    stack.append((hands + 1, pending + 1, ca, cb, pr * a))
                stack.append((hands, pending - 1, ca + 1, cb, pr * (1 - a)))
            else:
                stack.append((hands, pending - 1, ca, cb + 1, pr))
        p = self.p_pontoon
        if rules.dealer_pontoon_takes != "one_original_wager":     # each hand carries its own cost
            ev = sum(pr * (ca * ev_a + cb * one_ev) for (ca, cb), pr in outcomes.items())
        else:
            # Take back the per-hand charge and charge the seat one wager if any hand waits.
            np_a, np_b = ev_a + p * self.lam * w_a, one_ev + p * self.lam * one_w
            ev = sum(pr * (ca * np_a + cb * np_b - p * (1 - (1 - w_a) ** ca * (1 - one_w) ** cb))
                     for (ca, cb), pr in outcomes.items())
        return ev, again, one_w

    def node2(self, c1: int, c2: int) -> int:
        """The bonus-card node of a two-card hand."""
        first = int(self.m.bonus.next[ROOT, c1])
        return int(self.m.bonus.next[first, c2]) if first else OFF

    def reset_split_hands(self) -> None:
        self.memo = {k: v for k, v in self.memo.items() if k[0] == UNSPLIT}


def initial_two_cards(solver: UpcardSolver, strat_pairs: dict, split_ev: dict[int, float]) -> float:
    """EV of a round against this upcard, over the player's first two cards."""
    m, q, rules = solver.m, solver.q, solver.rules
    ev = 0.0
    for c1 in solver.ranks:
        for c2 in solver.ranks:
            pr = q[c1] * q[c2]
            if m.pontoon_mask[c1] and c2 == ACE or c1 == ACE and m.pontoon_mask[c2]:
                ev += pr * solver.pontoon_value()
                continue
            hard = VALUES[c1] + VALUES[c2]
            soft = (c1 == ACE or c2 == ACE) and hard <= 11
            node = solver.node2(c1, c2)
            for klass, pk in (TWO_CARD_CLASSES if node != OFF else ((MIXED, 1.0),)):
                lid = m.bonus.line_id(node, klass) if node > ROOT else 0
                if (hard + 10 if soft else hard) == 21:
                    value = solver.twenty_one(2, lid, UNSPLIT)[0]
                else:
                    value = solver.value(UNSPLIT, 2, hard, soft, node, klass)[0]
                    if m.pairable(c1, c2) and rules.split_max_hands >= 2:
                        total = hard + 10 if soft else hard
                        if strat_pairs.get((UNSPLIT, total, int(soft), lid), False):
                            value = split_ev[c1]
                ev += pr * pk * value
    return ev
