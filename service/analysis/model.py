"""The rules and paytable at one wager, flattened into the numbers the strategy and fast path share."""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..engine.cards import RANK_POINTS, RANKS, SUITS
from ..engine.games.canberra.paytable import Paytable
from ..engine.games.canberra.rules import CanberraRules

RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
N_RANKS = len(RANKS)
ACE = RANK_INDEX["A"]
SPADE = SUIT_INDEX["S"]
VALUES = tuple(RANK_POINTS[rank] for rank in RANKS)

# Decisions, as the strategy tables store them.
HIT, STAND, DOUBLE, SURRENDER, SPLIT, FORFEIT = range(6)
ACTION_NAMES = ("hit", "stand", "double", "surrender", "split", "forfeit")
ACTION_LETTERS = "HSDRPF"

# What kind of hand is deciding: the first hand of a seat that has not split, a hand of a seat
# that has split, or a split ace (which the rules may treat apart).
UNSPLIT, SPLIT_HAND, SPLIT_ACE = range(3)
KIND_NAMES = ("unsplit", "split", "split ace")

# Suit classes of a hand that still keeps a rank bonus possible: all spades, all one other
# suit, or mixed. The paytable's _spades, _suited and _mixed lines are exactly these three.
ALL_SPADES, ONE_SUIT, MIXED = range(3)
SUIT_CLASS_NAMES = ("spades", "one suit", "mixed")

# Nodes of the bonus-card graph: OFF once the hand can no longer make any rank line,
# ROOT for a hand with no card yet.
OFF, ROOT = 0, 1


def suit_class(suits: list[int]) -> int:
    if len(set(suits)) != 1:
        return MIXED
    return ALL_SPADES if suits[0] == SPADE else ONE_SUIT


def may_resplit(rules: CanberraRules, rank: int) -> bool:
    """Whether a split pair of this rank can be split again (split aces that take one card are
    re-split when that card is an ace)."""
    return rules.split_max_hands > 2 and (rank != ACE or rules.split_aces_resplit)


class BonusCards:
    """The rank multisets a rank line or the super bonus needs, as a graph a hand walks card by card.

    A hand's node is the multiset of its ranks while that multiset is still part of some line's
    ranks (6-7 on the way to 6-7-8); once no line can be made the node is OFF for good.
    """

    def __init__(self, paytable: Paytable) -> None:
        targets = [Counter(line.ranks) for line in paytable.bonuses if line.ranks]
        if paytable.super_bonus is not None:
            targets.append(Counter(paytable.super_bonus.ranks))
        self.multisets: list[tuple[str, ...] | None] = [None, ()]
        index: dict[tuple[str, ...], int] = {(): ROOT}
        edges: list[dict[int, int]] = [{}, {}]
        frontier: list[tuple[str, ...]] = [()]
        while frontier:
            nxt: list[tuple[str, ...]] = []
            for held in frontier:
                node = index[held]
                for r, rank in enumerate(RANKS):
                    grown = tuple(sorted(held + (rank,), key=RANKS.index))
                    count = Counter(grown)
                    if not any(all(count[k] <= t[k] for k in count) for t in targets):
                        continue
                    if grown not in index:
                        index[grown] = len(self.multisets)
                        self.multisets.append(grown)
                        edges.append({})
                        nxt.append(grown)
                    edges[node][r] = index[grown]
            frontier = nxt
        self.index = index
        self.next = np.zeros((len(self.multisets), N_RANKS), dtype=np.int16)
        for node, out in enumerate(edges):
            for r, to in out.items():
                self.next[node, r] = to
        # Line ids name (node, suit class) for nodes holding cards; 0 is "keeps no bonus".
        self.n_line_ids = 1 + 3 * max(0, len(self.multisets) - 2)

    def node_of(self, ranks: list[int]) -> int:
        node = ROOT
        for r in ranks:
            node = int(self.next[node, r])
            if node == OFF:
                break
        return node

    @staticmethod
    def line_id(node: int, klass: int) -> int:
        return 0 if node <= ROOT else 1 + (node - 2) * 3 + klass

    def node_and_class(self, line_id: int) -> tuple[int, int]:
        if line_id == 0:
            return OFF, MIXED
        return 2 + (line_id - 1) // 3, (line_id - 1) % 3

    def describe(self, line_id: int) -> str:
        node, klass = self.node_and_class(line_id)
        held = self.multisets[node]
        if held is None:        # OFF: the hand keeps no bonus
            return ""
        return "-".join(held) + " " + SUIT_CLASS_NAMES[klass]


class GameModel:
    """One rule set and paytable at one wager: payouts in cents, bonus tables and card counts."""

    def __init__(self, rules: CanberraRules, paytable: Paytable, wager: int) -> None:
        if not isinstance(wager, int) or wager <= 0:
            raise ValueError("the wager must be a positive number of cents")
        self.rules, self.paytable, self.wager = rules, paytable, wager
        rounding = rules.rounding
        present = rules.shoe.ranks
        self.counts = np.array([rules.shoe.decks * len(SUITS) if rank in present else 0 for rank in RANKS],
                               dtype=np.int64)
        self.shoe_size = int(self.counts.sum())
        self.values = np.array(VALUES, dtype=np.int64)
        self.pontoon_mask = np.array([rank in rules.pontoon_ranks for rank in RANKS], dtype=np.int8)
        self.bonus = BonusCards(paytable)
        # Card counts past n_cap pay alike on every line, so n_cap means "n_cap cards or more".
        limits = [3]
        for line in paytable.bonuses:
            limits.append(line.min_cards)
            if line.max_cards < 99:
                limits.append(line.max_cards + 1)
        if rules.double_max_cards is not None:
            limits.append(rules.double_max_cards + 1)
        self.n_cap = max(limits)
        # Money at this wager, in cents, rounded as the rules say (a double is the full wager).
        self.win = paytable.win.winnings(wager, rounding)
        self.doubled_win = paytable.doubled_win.winnings(wager, rounding)
        self.pontoon = paytable.pontoon.winnings(wager, rounding)
        self.surrender_returned = rules.surrender_returns.winnings(wager, rounding)
        # Stats lines: each bonus line, then the super bonus, the envy payment and Pontoon.
        self.line_names = [line.name for line in paytable.bonuses] + ["super_bonus", "envy", "pontoon"]
        self.SUPER_LINE = len(paytable.bonuses)
        self.ENVY_LINE = self.SUPER_LINE + 1
        self.PONTOON_LINE = self.SUPER_LINE + 2
        self._build_twenty_one_table()
        self._build_super_bonus()

    def _build_twenty_one_table(self) -> None:
        """Winnings of an undoubled winning 21 by (card count, line id), and which line paid."""
        pay = self.paytable
        shape = (self.n_cap + 1, self.bonus.n_line_ids)
        self.pay21 = np.full(shape, self.win, dtype=np.int64)
        self.pay21_line = np.full(shape, -1, dtype=np.int16)
        for n in range(self.n_cap + 1):
            for lid in range(self.bonus.n_line_ids):
                node, klass = self.bonus.node_and_class(lid)
                best, best_i = None, -1
                for i, line in enumerate(pay.bonuses):
                    if not line.min_cards <= n <= line.max_cards:
                        continue
                    if line.ranks:
                        if node == OFF or self.bonus.multisets[node] != line.ranks:
                            continue
                        wanted = {"mixed": MIXED, "suited": ONE_SUIT, "spades": ALL_SPADES}[line.suits]
                        if klass != wanted:
                            continue
                    # Where two lines fit, the higher pays (the engine keeps the first of equals).
                    if best is None or line.odds.pays_more_than(best.odds):
                        best, best_i = line, i
                if best is not None and best.odds.pays_more_than(pay.win):
                    self.pay21[n, lid] = best.odds.winnings(self.wager, self.rules.rounding)
                    self.pay21_line[n, lid] = best_i

    def _build_super_bonus(self) -> None:
        sb = self.paytable.super_bonus
        self.super_match = np.zeros(self.bonus.n_line_ids, dtype=np.int8)
        self.super_upcard = -1
        self.super_cards = 0
        self.super_prize = 0
        self.envy = 0
        if sb is None:
            return
        self.super_upcard = RANK_INDEX[sb.upcard]
        self.super_cards = len(sb.ranks)
        self.super_prize = sb.prize_for(self.wager)
        self.envy = sb.envy
        node = self.bonus.index[tuple(sorted(sb.ranks, key=RANKS.index))]
        for klass in (ALL_SPADES, ONE_SUIT, MIXED):
            if klass != MIXED or not sb.one_suit:
                self.super_match[self.bonus.line_id(node, klass)] = 1

    # ----- a hand as the strategy names it ------------------------------------------------
    def hand_key(self, ranks: list[int], suits: list[int]) -> tuple[int, int, int, int]:
        """(card count index, total, soft, line id) of a hand's cards."""
        hard = sum(VALUES[r] for r in ranks)
        soft = ACE in ranks and hard <= 11
        node = self.bonus.node_of(ranks)
        lid = self.bonus.line_id(node, suit_class(suits)) if node > ROOT else 0
        return min(len(ranks), self.n_cap), hard + 10 * soft, int(soft), lid

    def pairable(self, r1: int, r2: int) -> bool:
        return r1 == r2 or (not self.rules.split_same_rank_only and VALUES[r1] == VALUES[r2])
