"""The strategy chart from the exact values, in the tables the simulation and `strategy.py`'s charts use.

The recursion decides by composition; a chart decides by what it names a hand (kind, cards,
total, softness, bonus cards and their suit class). Each named hand takes the decision whose
value, averaged over every composition it names (weighted by the chance those cards are dealt),
is highest; the two-card hands take theirs from the exact hand values, surrender and split
included. Re-splitting is always taken where the rules allow it, as the recursion counts splits.
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from ...engine.cards import RANKS
from ...engine.games.canberra.paytable import Paytable
from ...engine.games.canberra.rules import CanberraRules
from ..model import (
    ALL_SPADES,
    DOUBLE,
    FORFEIT,
    HIT,
    MIXED,
    N_RANKS,
    ONE_SUIT,
    ROOT,
    SPLIT_ACE,
    SPLIT_HAND,
    STAND,
    SURRENDER,
    UNSPLIT,
    GameModel,
    may_resplit,
)
from ..strategy import MAX_TOTAL_INDEX, Strategy
from . import canberra_game
from .blackjack import GameValues, HandValues, analyse_even_money, graph_values, is_even_money
from .canberra_player import composition_weights, decision_values, forfeit_margins
from .canberra_suits import by_suits
from .shoe import VALUE_RANKS

ACTIONS = {"stand": STAND, "hit": HIT, "double": DOUBLE, "surrender": SURRENDER}
SUIT_CLASSES = {"mixed": MIXED, "suited": ONE_SUIT, "spades": ALL_SPADES}
COLUMNS = ("stand", "hit", "double")     # the order of decision_values' columns


def engine_ranks(model: GameModel, value_rank: int) -> list[int]:
    """The engine's ranks (indices into RANKS) of one value rank that the shoe holds."""
    names = ("T", "J", "Q", "K") if value_rank == 9 else (VALUE_RANKS[value_rank],)
    return [RANKS.index(name) for name in names if model.counts[RANKS.index(name)] > 0]


def _engine_cards(first_ranks: list[int], counts: np.ndarray) -> list[int]:
    cards = []
    for value_rank, held in enumerate(counts):
        cards += [first_ranks[value_rank]] * int(held)
    return cards


class ChartBuilder:
    """Collects weighted decision values by named hand for each upcard, then fills the tables."""

    def __init__(self, rules: CanberraRules, paytable: Paytable, wager: int) -> None:
        self.model = GameModel(rules, paytable, wager)
        shape = (N_RANKS, 3, self.model.n_cap + 1, MAX_TOTAL_INDEX, 2, self.model.bonus.n_line_ids)
        self.strategy = Strategy(self.model, np.full(shape, HIT, dtype=np.int8),
                                 np.zeros((N_RANKS, 3, MAX_TOTAL_INDEX, 2, self.model.bonus.n_line_ids), dtype=np.int8),
                                 np.full((N_RANKS, 3, 32), STAND, dtype=np.int8))
        self.sums: dict[tuple, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.weights: dict[tuple, float] = defaultdict(float)
        # One engine rank stands for each value rank: a ten-valued card never makes a bonus line.
        self.first_ranks = [engine_ranks(self.model, v)[0] if engine_ranks(self.model, v) else 0 for v in range(10)]
        self.keys: dict[tuple, tuple[int, int, int, int, int]] = {}
        self.bonus_nodes: dict[tuple[int, ...], int] = {}

    def _bonus_node(self, counts: np.ndarray) -> int:
        held = tuple(counts.tolist())
        if held not in self.bonus_nodes:
            self.bonus_nodes[held] = self.model.bonus.node_of(_engine_cards(self.first_ranks, counts))
        return self.bonus_nodes[held]

    def key(self, kind: int, counts: np.ndarray, klass: int) -> tuple[int, int, int, int, int]:
        memo = (kind, klass, *counts.tolist())
        if memo not in self.keys:
            hard = int(sum((r + 1) * c for r, c in enumerate(counts)))
            soft = bool(counts[0]) and hard <= 11
            node = self._bonus_node(counts)
            lid = self.model.bonus.line_id(node, klass) if node > ROOT else 0
            self.keys[memo] = kind, min(int(counts.sum()), self.model.n_cap), hard + 10 * soft, int(soft), lid
        return self.keys[memo]

    def bonus_relevant(self, counts: np.ndarray) -> bool:
        return self._bonus_node(counts) > ROOT

    def add(self, upcard: int, key: tuple, weight: float, values: dict[str, float]) -> None:
        if weight <= 0.0:
            return
        full_key = (upcard, *key)
        self.weights[full_key] += weight
        for action, value in values.items():
            if math.isfinite(value):
                self.sums[full_key][action] += weight * value

    def add_root(self, hand: HandValues) -> None:
        """A two-card hand from the exact values: its play (split apart) and whether to split."""
        counts = np.zeros(10, dtype=np.int64)
        counts[hand.first] += 1
        counts[hand.second] += 1
        klass = SUIT_CLASSES.get(hand.suits, MIXED)
        key = self.key(UNSPLIT, counts, klass)
        played = {a: v for a, v in hand.values.items() if a in ACTIONS}
        self.add(hand.upcard, key, hand.probability, played)
        if "split" in hand.values:
            pair_key = (hand.upcard, UNSPLIT, key[2], key[3], key[4])
            for r in engine_ranks(self.model, hand.upcard):
                split = hand.values["split"] > max(played.values())
                self.strategy.pair_split[r, UNSPLIT, key[2], key[3], key[4]] = split
                self.strategy.pairs[(r, *pair_key[1:])] = {"split": hand.values["split"], "play": max(played.values())}
            kind_after = SPLIT_ACE if hand.first == 0 else SPLIT_HAND
            resplit = may_resplit(self.model.rules, engine_ranks(self.model, hand.first)[0])
            for r in engine_ranks(self.model, hand.upcard):
                self.strategy.pair_split[r, kind_after, key[2], key[3], key[4]] = resplit

    def fill(self) -> Strategy:
        """Each named hand's best decision into the play table (and its values into `states`)."""
        for (upcard, kind, n, total, soft, lid), weight in self.weights.items():
            sums = self.sums[(upcard, kind, n, total, soft, lid)]
            if not sums:
                continue
            values = {a: s / weight for a, s in sums.items()}
            best = max(values, key=values.__getitem__)
            for r in engine_ranks(self.model, upcard):
                self.strategy.play[r, kind, n, total, soft, lid] = ACTIONS[best]
                self.strategy.states[r, kind, n, total, soft, lid] = values
        return self.strategy

    def after_double(self, upcard: int, margins: np.ndarray) -> None:
        for r in engine_ranks(self.model, upcard):
            self.strategy.after_double[r] = np.where(margins < 0.0, FORFEIT, STAND)

    def kinds(self, graph_unsplit: np.ndarray, extra: np.ndarray) -> np.ndarray:
        """The chart's kind of each node: unsplit, a split hand, or a split ace."""
        kinds = np.where(graph_unsplit, UNSPLIT, SPLIT_HAND)
        kinds[(~graph_unsplit) & (extra[:, 0] > 0)] = SPLIT_ACE
        return kinds


__all__ = ["COLUMNS", "ChartBuilder", "VALUE_RANKS"]


def _node_values(builder: ChartBuilder, upcard: int, graph, weights: np.ndarray, kinds: np.ndarray,
                 columns: np.ndarray, suit_values) -> None:
    """Every node with a decision (two cards or more, under 21) adds its values to its named hand."""
    totals = np.where(graph.has_ace & (graph.hard + 10 <= 21), graph.hard + 10, graph.hard)
    extra = graph.removals[graph.removal] - graph.counts
    wanted = (graph.cards >= 2) & (totals < 21) & (weights > 0) & (extra.sum(axis=1) <= 1)
    wanted &= ~(graph.unsplit & (graph.cards == 2))          # two-card hands come from the exact values
    if builder.model.rules.split_aces_one_card:
        wanted &= kinds != SPLIT_ACE                          # a split ace takes its card and stands
    for node in np.flatnonzero(wanted):
        counts = graph.counts[node]
        values = dict(zip(COLUMNS, columns[node].tolist()))
        if not builder.bonus_relevant(counts):
            builder.add(upcard, builder.key(int(kinds[node]), counts, MIXED), float(weights[node]), values)
            continue
        for suits, share, hit in suit_values(int(node)):
            builder.add(upcard, builder.key(int(kinds[node]), counts, SUIT_CLASSES.get(suits, MIXED)),
                        float(weights[node]) * share, {**values, "hit": hit})


def exact_strategy(rules: CanberraRules, paytable: Paytable, wager: int | None = None) -> Strategy:
    """The chart (a `Strategy` the simulation plays) from the exact values of these rules."""
    wager = wager or rules.main_limits.minimum
    builder = ChartBuilder(rules, paytable, wager)
    full = np.array(builder.model.counts[[RANKS.index(r) for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9")]]
                    .tolist() + [int(sum(builder.model.counts[RANKS.index(r)] for r in ("T", "J", "Q", "K")))])
    game: GameValues | canberra_game.CanberraValues
    if is_even_money(rules, paytable):
        game = analyse_even_money(rules, paytable)
        graph, by_upcard = graph_values(rules)
        for values in by_upcard:
            if values is None:
                continue
            weights = composition_weights(graph.counts, graph.removal, graph.removals, full, values.upcard)
            kinds = builder.kinds(graph.unsplit, graph.removals[graph.removal] - graph.counts)
            columns = np.stack([values.stand, values.hit, values.double], axis=1)
            columns[graph.cards > (rules.double_max_cards or 99), 2] = -np.inf
            if not rules.double_after_split:
                columns[~graph.unsplit, 2] = -np.inf
            _node_values(builder, values.upcard, graph, weights, kinds, columns,
                         lambda node, c=columns: [("", 1.0, float(c[node, 1]))])
    else:
        game = canberra_game.analyse_canberra(rules, paytable, wager)
        for up in canberra_game.upcard_sweeps(rules, paytable, wager):
            graph = up.graph
            weights = composition_weights(graph.counts, graph.removal, graph.removals, full, up.upcard)
            kinds = builder.kinds(graph.unsplit, graph.removals[graph.removal] - graph.counts)
            columns = decision_values(up.g, up.d, up.best, up.may_double, rules.stand_minimum)

            def suit_values(node: int, up=up) -> list[tuple[str, float, float]]:
                played = canberra_game.played_decisions(rules, up, node)
                return [(suits, share, decisions["hit"][0].value)
                        for suits, share, decisions in by_suits(up, node, played)]

            _node_values(builder, up.upcard, graph, weights, kinds, columns, suit_values)
            if rules.forfeit_after_double:
                builder.after_double(up.upcard, forfeit_margins(up.g, up.d, weights, kinds))
    for hand in game.hands:
        builder.add_root(hand)
    strategy = builder.fill()
    strategy.estimate = game.expected_return
    return strategy
