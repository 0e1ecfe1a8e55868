"""The player's hands as a graph of compositions: each node a multiset of cards, each edge a card drawn.

A node knows the cards it holds and the cards seen besides them (the other split hands' pair
cards), so the dealer's chances behind it come from that exact remaining shoe. Nodes are numbered
so that every child comes after its parent: values are filled in one backward sweep.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NO_CHILD = -1    # the card busts the hand


@dataclass(frozen=True, slots=True)
class HandGraph:
    """Every composition a hand can reach, from its starting cards, in each split context."""

    hard: np.ndarray          # (nodes,) total counting aces one
    has_ace: np.ndarray       # (nodes,) bool
    cards: np.ndarray         # (nodes,) number of cards in the hand
    child: np.ndarray         # (nodes, 10) node after drawing each value rank, NO_CHILD on a bust
    removal: np.ndarray       # (nodes,) row of `removals`: every card seen besides the upcard
    removals: np.ndarray      # (rows, 10) distinct removals
    counts: np.ndarray        # (nodes, 10) the hand's cards by value rank
    unsplit: np.ndarray       # (nodes,) bool: a hand that was never split (Pontoon and super bonus apply)
    roots: dict[tuple[int, ...], int]                # unsplit two-card hands (counts by rank) -> node
    split_roots: dict[tuple[int, int], int]          # (pair rank, hands so far) -> node of one pair card


class _Builder:
    def __init__(self) -> None:
        self.hard: list[int] = []
        self.has_ace: list[bool] = []
        self.cards: list[int] = []
        self.child: list[list[int]] = []
        self.removal: list[int] = []
        self.unsplit: list[bool] = []
        self.counts: list[tuple[int, ...]] = []
        self.in_unsplit_context = True
        self.removal_rows: dict[tuple[int, ...], int] = {}

    def _node(self, comp: tuple[int, ...], extra: tuple[int, ...]) -> int:
        seen = tuple(c + e for c, e in zip(comp, extra))
        row = self.removal_rows.setdefault(seen, len(self.removal_rows))
        self.hard.append(sum((r + 1) * c for r, c in enumerate(comp)))
        self.has_ace.append(comp[0] > 0)
        self.cards.append(sum(comp))
        self.child.append([NO_CHILD] * 10)
        self.removal.append(row)
        self.unsplit.append(self.in_unsplit_context)
        self.counts.append(comp)
        return len(self.hard) - 1

    def context(self, starts: list[tuple[int, ...]], extra: tuple[int, ...]) -> list[int]:
        """Nodes for every hand reachable from `starts`, breadth first (children after parents)."""
        index: dict[tuple[int, ...], int] = {}
        layer = []
        for comp in starts:
            index[comp] = self._node(comp, extra)
            layer.append(comp)
        while layer:
            following = []
            for comp in layer:
                parent, hard = index[comp], self.hard[index[comp]]
                for rank in range(10):
                    if hard + rank + 1 > 21:
                        continue
                    grown = comp[:rank] + (comp[rank] + 1,) + comp[rank + 1:]
                    if grown not in index:
                        index[grown] = self._node(grown, extra)
                        following.append(grown)
                    self.child[parent][rank] = index[grown]
            layer = following
        return [index[comp] for comp in starts]


def _one(rank: int, count: int = 1) -> tuple[int, ...]:
    return tuple(count if r == rank else 0 for r in range(10))


def build_hand_graph(max_split_hands: int) -> HandGraph:
    """The graph for unsplit hands and for split hands of each pair with 2..max hands so far."""
    builder = _Builder()
    starts = sorted({tuple(a + b for a, b in zip(_one(i), _one(j))) for i in range(10) for j in range(10)})
    roots = dict(zip(starts, builder.context(starts, (0,) * 10)))
    split_roots = {}
    builder.in_unsplit_context = False
    for pair in range(10):
        for hands in range(2, max(max_split_hands, 2) + 1):
            (node,) = builder.context([_one(pair)], _one(pair, hands - 1))
            split_roots[(pair, hands)] = node
    removals = np.array(sorted(builder.removal_rows, key=builder.removal_rows.__getitem__), dtype=np.int64)
    return HandGraph(np.array(builder.hard, dtype=np.int64), np.array(builder.has_ace, dtype=np.bool_),
                     np.array(builder.cards, dtype=np.int64), np.array(builder.child, dtype=np.int64),
                     np.array(builder.removal, dtype=np.int64), removals, np.array(builder.counts, dtype=np.int64),
                     np.array(builder.unsplit, dtype=np.bool_), roots, split_roots)
