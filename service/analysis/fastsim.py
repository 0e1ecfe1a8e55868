"""The fast path: the rules, paytable and strategy flattened into arrays for the kernel, and its runs.

The kernel (kernel.py) settles in integer cents exactly as the engine does. Shoes are shuffled as
they are dealt (Fisher-Yates one card at a time, from a numpy Generator the caller seeds), or
replayed from given shoe orders.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.cards import RANKS, SUITS
from ..engine.games.canberra.rules import DealerPontoonTakes
from . import kernel
from .model import GameModel
from .strategy import Strategy


def card_codes(cards: list[str]) -> np.ndarray:
    """Cards as the kernel holds them: rank index * 4 + suit index."""
    return np.array([RANKS.index(c[0]) * 4 + SUITS.index(c[1]) for c in cards], dtype=np.int8)


def card_names(codes) -> list[str]:
    return [RANKS[int(c) >> 2] + SUITS[int(c) & 3] for c in codes]


@dataclass
class Block:
    """What one run of the kernel measured."""

    rounds: int
    aborted: int
    shoes: int
    net: int            # cents, players' view (negative: the house won)
    staked: int         # cents, every main, split and double stake
    wagered: int        # cents, initial main wagers
    sum_x: float        # sums of each round's net per initial wager, and of its square
    sum_x2: float
    line_hits: np.ndarray
    line_extra: np.ndarray
    orders: np.ndarray | None = None    # recorded shoes (shuffle and record)
    round_shoe: np.ndarray | None = None
    round_net: np.ndarray | None = None


# What a dealer Pontoon takes, as the kernel numbers it.
_PONTOON_TAKES = {DealerPontoonTakes.ONE_ORIGINAL_WAGER: kernel.TAKES_ONE_A_SEAT,
                  DealerPontoonTakes.ONE_WAGER_PER_HAND: kernel.TAKES_ONE_A_HAND,
                  DealerPontoonTakes.ALL_STAKES: kernel.TAKES_ALL}


def parameters(model: GameModel, seats: int, cut: int) -> np.ndarray:
    """The rules, the paytable's prizes and the table's seats as the kernel's integer vector."""
    rules = model.rules
    values = {
        kernel.P_SEATS: seats, kernel.P_WAGER: model.wager, kernel.P_STAND_MIN: rules.stand_minimum,
        kernel.P_WINS21: rules.twenty_one_wins_at_once, kernel.P_SURR_RET: model.surrender_returned,
        kernel.P_SURR_LOST: rules.surrender_lost_to_dealer_pontoon, kernel.P_MAX_HANDS: rules.split_max_hands,
        kernel.P_RESPLIT_ACES: rules.split_aces_resplit, kernel.P_ACES_ONE_CARD: rules.split_aces_one_card,
        kernel.P_SAME_RANK: rules.split_same_rank_only, kernel.P_ACES_COUNT_ONE: rules.double_aces_count_one,
        kernel.P_FORFEIT: rules.forfeit_after_double, kernel.P_STANDS_ON: rules.dealer_stands_on,
        kernel.P_H17: rules.dealer_hits_soft_17, kernel.P_DRAWS_NO_WAIT: rules.dealer_draws_when_no_hand_waiting,
        kernel.P_PONTOON_TAKES: _PONTOON_TAKES[rules.dealer_pontoon_takes],
        kernel.P_BONUS_SPLIT: rules.bonuses_on_split_hands, kernel.P_BONUS_DOUBLED: rules.bonuses_on_doubled_hands,
        kernel.P_PONT_AT_ONCE: rules.player_pontoon_paid_at_once, kernel.P_SPLIT_PONT: rules.split_hand_pontoon,
        kernel.P_WIN: model.win, kernel.P_DWIN: model.doubled_win, kernel.P_PONT: model.pontoon,
        kernel.P_NCAP: model.n_cap, kernel.P_SUPER_UP: model.super_upcard, kernel.P_SUPER_N: model.super_cards,
        kernel.P_SUPER_PRIZE: model.super_prize, kernel.P_ENVY: model.envy, kernel.P_CUT: cut,
        kernel.P_SUPER_LINE: model.SUPER_LINE, kernel.P_ENVY_LINE: model.ENVY_LINE,
        kernel.P_PONT_LINE: model.PONTOON_LINE,
    }
    ip = np.zeros(kernel.N_PARAMS, dtype=np.int64)
    for index, value in values.items():
        ip[index] = value
    return ip


class FastGame:
    """A strategy, the number of seats and the cut, flattened for the kernel."""

    def __init__(self, strategy: Strategy, seats: int = 1, fresh_shoe: bool = False) -> None:
        m = strategy.model
        rules = m.rules
        if not 1 <= seats <= min(rules.max_seats, kernel.MAX_SEATS):
            raise ValueError(f"seats must be from 1 to {min(rules.max_seats, kernel.MAX_SEATS)}")
        if rules.split_max_hands > kernel.MAX_HANDS:
            raise ValueError(f"the fast path plays at most {kernel.MAX_HANDS} hands a seat")
        self.strategy, self.model, self.seats = strategy, m, seats
        self.base_shoe = card_codes(rules.shoe.ordered_cards())
        self.cut = 0 if fresh_shoe else int(len(self.base_shoe) * rules.shoe.penetration)
        self.ip = parameters(m, seats, self.cut)
        self.values = m.values.astype(np.int64)
        self.pmask = m.pontoon_mask.astype(np.int64)
        self.node_next = m.bonus.next.astype(np.int64)
        self.play = strategy.play
        self.pair_split = strategy.pair_split
        self.after_double = strategy.after_double
        self.pay21 = m.pay21
        self.pay21_line = m.pay21_line.astype(np.int64)
        self.super_match = m.super_match.astype(np.int64)

    def run(self, rng: np.random.Generator, n_rounds: int, *, record: bool = False,
            shoes: np.ndarray | None = None) -> Block:
        """Play n_rounds from shoes shuffled as dealt (or through the given shoe orders)."""
        ip = self.ip.copy()
        ip[kernel.P_SHUFFLE] = shoes is None
        ip[kernel.P_RECORD] = record
        size = len(self.base_shoe)
        work = self.base_shoe.copy()
        if shoes is not None and (shoes.ndim != 2 or shoes.shape[1] != size):
            raise ValueError(f"given shoes must be rows of {size} cards")
        given = np.zeros((1, size), dtype=np.int8) if shoes is None else np.ascontiguousarray(shoes, dtype=np.int8)
        n_lines = len(self.model.line_names)
        acc = np.zeros(6, dtype=np.int64)
        sums = np.zeros(2, dtype=np.float64)
        hits = np.zeros(n_lines, dtype=np.int64)
        extra = np.zeros(n_lines, dtype=np.int64)
        # Recording keeps every shoe dealt and every round's net; otherwise the arrays are stubs.
        kept_shoes = (n_rounds + 1 if shoes is None else 1) if record else 1
        rec_orders = np.zeros((kept_shoes, size), dtype=np.int8)
        rec_shoe = np.full(n_rounds if record else 1, -1 if record else 0, dtype=np.int64)
        rec_net = np.zeros(n_rounds if record else 1, dtype=np.int64)
        used = kernel.simulate(rng, work, given, n_rounds, ip, self.values, self.pmask, self.node_next, self.play,
                               self.pair_split, self.after_double, self.pay21, self.pay21_line, self.super_match,
                               acc, sums, hits, extra, rec_orders, rec_shoe, rec_net)
        block = Block(int(acc[kernel.A_ROUNDS]), int(acc[kernel.A_ABORTED]), int(acc[kernel.A_SHOES]),
                      int(acc[kernel.A_NET]), int(acc[kernel.A_STAKED]), int(acc[kernel.A_WAGERED]),
                      float(sums[kernel.S_SUM]), float(sums[kernel.S_SQ]), hits, extra)
        if record:
            block.orders = rec_orders[:used] if shoes is None else None
            block.round_shoe = rec_shoe
            block.round_net = rec_net
        return block
