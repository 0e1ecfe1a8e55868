"""The fast path's kernel: rounds of Canberra Pontoon dealt, played by a strategy and settled in cents.

One numba function plays as many rounds as asked. It mirrors CanberraRound for the decisions a
derived strategy takes (no insurance, no pair bet, doubles for the full wager); the differential
test holds it to the reference engine round by round. The arrays it reads are laid out as the
constants below say; fastsim.FastGame builds them.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from .model import (
    ACE,
    ALL_SPADES,
    DOUBLE,
    FORFEIT,
    MIXED,
    ONE_SUIT,
    ROOT,
    SPADE,
    SPLIT,
    SPLIT_ACE,
    SPLIT_HAND,
    STAND,
    SURRENDER,
    UNSPLIT,
)

# Hand statuses, as in the engine's round.
PLAYING, STOOD, WON21, PONTOON, BUST, FORFEITED, SURRENDERED = range(7)

# Fields of one hand in the kernel's hand array H[seat, hand, field].
F_N, F_HARD, F_ACE, F_NODE, F_SUIT0, F_SAME, F_R0, F_S0, F_R1, F_S1, F_DOUBLE, F_STATUS, F_SA, F_AFTER, \
    F_DTOTAL, F_BASE = range(16)
N_FIELDS = 16
MAX_SEATS, MAX_HANDS = 9, 8

# Indices of the integer parameter vector.
(P_SEATS, P_WAGER, P_STAND_MIN, P_WINS21, P_SURR_RET, P_SURR_LOST, P_MAX_HANDS, P_RESPLIT_ACES,
 P_ACES_ONE_CARD, P_SAME_RANK, P_ACES_COUNT_ONE, P_FORFEIT, P_STANDS_ON, P_H17, P_DRAWS_NO_WAIT,
 P_PONTOON_TAKES, P_PONT_AT_ONCE, P_SPLIT_PONT, P_WIN, P_DWIN, P_PONT, P_NCAP, P_SUPER_UP, P_SUPER_N,
 P_SUPER_PRIZE, P_ENVY, P_CUT, P_SHUFFLE, P_RECORD, P_SUPER_LINE, P_ENVY_LINE, P_PONT_LINE, P_BONUS_SPLIT,
 P_BONUS_DOUBLED) = range(34)
N_PARAMS = 34
# What a dealer Pontoon takes (ip[P_PONTOON_TAKES]): one wager a seat, each waiting hand's wager, every stake.
TAKES_ONE_A_SEAT, TAKES_ONE_A_HAND, TAKES_ALL = range(3)

# Accumulators: integer money and counts, then float sums of the per-round result per wager.
A_NET, A_STAKED, A_ROUNDS, A_ABORTED, A_SHOES, A_WAGERED = range(6)
S_SUM, S_SQ = range(2)


@nb.njit(cache=True, nogil=True, inline="always")
def _total(hard, ace):
    if ace and hard <= 11:
        return hard + 10
    return hard


@nb.njit(cache=True, nogil=True, inline="always")
def _line_id(node, same, suit0):
    """The strategy's line id of a hand from its bonus-card node and suits (0: keeps no bonus)."""
    if node <= ROOT:
        return 0
    if same == 0:
        klass = MIXED
    elif suit0 == SPADE:
        klass = ALL_SPADES
    else:
        klass = ONE_SUIT
    return 1 + (node - 2) * 3 + klass


# One function from the deal to the settlement; its helpers take scalars only. numba keeps a
# reference count on each array (and on the generator) that a called function receives, inlined or
# not, and on the path every card takes that bookkeeping would weigh more than the game's own
# arithmetic. That is why the card-drawing block (a card off the shoe, shuffled as it is dealt, or
# the round voided when the shoe runs out) is written out where the deal, the players and the
# dealer draw, rather than called.
@nb.njit(cache=True, nogil=True)
def simulate(rng, work, given, n_rounds, ip, values, pmask, node_next, play, pair_split, after_double,
             pay21, pay21_line, super_match, acc, sums, line_hits, line_extra, rec_orders, rec_shoe, rec_net):
    """Play n_rounds (or until the given shoes run out), cutting each shoe at ip[P_CUT].

    Returns the number of shoes used. A round the shoe cannot finish (many seats, deep cut) is
    played out on dummy cards and then voided; the shoe is reshuffled.
    """
    shuffle = ip[P_SHUFFLE] != 0
    record = ip[P_RECORD] != 0
    cut = ip[P_CUT]
    seats = ip[P_SEATS]
    wager = ip[P_WAGER]
    ncap = ip[P_NCAP]
    win, dwin, pont = ip[P_WIN], ip[P_DWIN], ip[P_PONT]
    size = work.shape[0]
    H = np.zeros((MAX_SEATS, MAX_HANDS, N_FIELDS), dtype=np.int64)
    n_hands = np.zeros(MAX_SEATS, dtype=np.int64)
    super_seat = np.zeros(MAX_SEATS, dtype=np.int64)
    pos = size
    shoe = -1
    per_round = seats * wager
    for i in range(n_rounds):
        if shoe < 0 or pos >= cut:
            if record and shuffle and shoe >= 0:
                rec_orders[shoe, :] = work
            shoe += 1
            if not shuffle:
                if shoe >= given.shape[0]:
                    break
                work[:] = given[shoe]
            pos = 0
            acc[A_SHOES] += 1
        aborted = False

        # ----- the deal: a card to each seat, the upcard, a second card to each seat --------
        up = 0
        for k in range(2 * seats + 1):
            if pos >= size:
                aborted = True
                c = 0
            else:
                if shuffle:
                    j = pos + int(rng.random() * (size - pos))
                    if j >= size:
                        j = size - 1
                    tmp = work[pos]
                    work[pos] = work[j]
                    work[j] = tmp
                c = work[pos]
                pos += 1
            if k == seats:
                up = c >> 2
                continue
            r = c >> 2
            su = c & 3
            if k < seats:
                s = k
                for f in range(N_FIELDS):
                    H[s, 0, f] = 0
                n_hands[s] = 1
                H[s, 0, F_R0] = r
                H[s, 0, F_S0] = su
                H[s, 0, F_SUIT0] = su
                H[s, 0, F_SAME] = 1
                H[s, 0, F_NODE] = node_next[ROOT, r]
            else:
                s = k - seats - 1
                H[s, 0, F_R1] = r
                H[s, 0, F_S1] = su
                if su != H[s, 0, F_SUIT0]:
                    H[s, 0, F_SAME] = 0
                H[s, 0, F_NODE] = node_next[H[s, 0, F_NODE], r]
            H[s, 0, F_N] += 1
            H[s, 0, F_HARD] += values[r]
            if r == ACE:
                H[s, 0, F_ACE] = 1
        for s in range(seats):
            r0, r1 = H[s, 0, F_R0], H[s, 0, F_R1]
            if (r0 == ACE and pmask[r1]) or (r1 == ACE and pmask[r0]):
                H[s, 0, F_STATUS] = PONTOON
            elif _total(H[s, 0, F_HARD], H[s, 0, F_ACE]) == 21:
                H[s, 0, F_STATUS] = WON21 if ip[P_WINS21] else STOOD

        # ----- the players, seat by seat, each hand to the end -------------------------------
        for s in range(seats):
            h = 0
            while h < n_hands[s]:
                while H[s, h, F_STATUS] == PLAYING:
                    doubling = False
                    if H[s, h, F_N] >= 2:
                        # The decision, looked up as Strategy.decide looks it up.
                        if H[s, h, F_SA]:
                            kind = SPLIT_ACE
                        elif n_hands[s] > 1:
                            kind = SPLIT_HAND
                        else:
                            kind = UNSPLIT
                        if H[s, h, F_AFTER]:
                            action = after_double[up, kind, H[s, h, F_DTOTAL]]
                        else:
                            hard, n = H[s, h, F_HARD], H[s, h, F_N]
                            soft = 1 if (H[s, h, F_ACE] and hard <= 11) else 0
                            total = hard + 10 * soft
                            lid = _line_id(H[s, h, F_NODE], H[s, h, F_SAME], H[s, h, F_SUIT0])
                            action = -1
                            if n == 2 and n_hands[s] < ip[P_MAX_HANDS]:
                                r0, r1 = H[s, h, F_R0], H[s, h, F_R1]
                                if (r0 == r1 or (not ip[P_SAME_RANK] and values[r0] == values[r1])) and \
                                        not (r0 == ACE and H[s, h, F_SA] and not ip[P_RESPLIT_ACES]) and \
                                        pair_split[up, kind, total, soft, lid]:
                                    action = SPLIT
                            if action < 0:
                                action = play[up, kind, min(n, ncap), total, soft, lid]
                            if H[s, h, F_SA] and ip[P_ACES_ONE_CARD] and action != SPLIT:
                                action = STAND      # a split ace's one card is an ace it does not re-split
                        if action == STAND:
                            H[s, h, F_STATUS] = STOOD
                            H[s, h, F_AFTER] = 0
                            continue
                        if action == SURRENDER:
                            H[s, h, F_STATUS] = SURRENDERED
                            continue
                        if action == FORFEIT:
                            H[s, h, F_STATUS] = FORFEITED
                            H[s, h, F_AFTER] = 0
                            continue
                        if action == SPLIT:
                            # The second card starts a new hand at the next index; this hand
                            # keeps its first card and takes its next card straight away.
                            k = n_hands[s]
                            n_hands[s] = k + 1
                            aces = 1 if H[s, h, F_R0] == ACE else 0
                            for target, r, su in ((h, H[s, h, F_R0], H[s, h, F_S0]),
                                                  (k, H[s, h, F_R1], H[s, h, F_S1])):
                                for f in range(N_FIELDS):
                                    H[s, target, f] = 0
                                H[s, target, F_N] = 1
                                H[s, target, F_HARD] = values[r]
                                H[s, target, F_ACE] = 1 if r == ACE else 0
                                H[s, target, F_R0] = r
                                H[s, target, F_S0] = su
                                H[s, target, F_SUIT0] = su
                                H[s, target, F_SAME] = 1
                                H[s, target, F_NODE] = node_next[ROOT, r]
                                H[s, target, F_SA] = aces
                            continue
                        if action == DOUBLE:
                            doubling = True
                            H[s, h, F_DOUBLE] = wager
                            H[s, h, F_BASE] = H[s, h, F_HARD]
                    # A card for this hand: its second after a split, a hit, or a double's card.
                    if pos >= size:
                        aborted = True
                        c = 0
                    else:
                        if shuffle:
                            j = pos + int(rng.random() * (size - pos))
                            if j >= size:
                                j = size - 1
                            tmp = work[pos]
                            work[pos] = work[j]
                            work[j] = tmp
                        c = work[pos]
                        pos += 1
                    r = c >> 2
                    su = c & 3
                    n = H[s, h, F_N]
                    if n == 1:
                        H[s, h, F_R1] = r
                        H[s, h, F_S1] = su
                    if su != H[s, h, F_SUIT0]:
                        H[s, h, F_SAME] = 0
                    H[s, h, F_NODE] = node_next[H[s, h, F_NODE], r]
                    H[s, h, F_N] = n + 1
                    H[s, h, F_HARD] += values[r]
                    if r == ACE:
                        H[s, h, F_ACE] = 1
                    if doubling:
                        base = H[s, h, F_BASE]
                        if ip[P_ACES_COUNT_ONE]:
                            # Aces held before the double count one; its own ace may count eleven.
                            if r == ACE and base + 11 <= 21:
                                total = base + 11
                            else:
                                total = H[s, h, F_HARD]
                        else:
                            total = _total(H[s, h, F_HARD], H[s, h, F_ACE])
                        H[s, h, F_DTOTAL] = total
                        if total > 21:
                            H[s, h, F_STATUS] = BUST
                        elif total == 21 and ip[P_WINS21]:
                            H[s, h, F_STATUS] = WON21
                        elif ip[P_FORFEIT]:
                            H[s, h, F_AFTER] = 1
                        else:
                            H[s, h, F_STATUS] = STOOD
                    else:
                        total = _total(H[s, h, F_HARD], H[s, h, F_ACE])
                        if total > 21:
                            H[s, h, F_STATUS] = BUST
                        elif total == 21:
                            r0, r1 = H[s, h, F_R0], H[s, h, F_R1]
                            if H[s, h, F_N] == 2 and n_hands[s] > 1 and ip[P_SPLIT_PONT] and \
                                    ((r0 == ACE and pmask[r1]) or (r1 == ACE and pmask[r0])):
                                H[s, h, F_STATUS] = PONTOON
                            elif ip[P_WINS21]:
                                H[s, h, F_STATUS] = WON21
                            else:
                                H[s, h, F_STATUS] = STOOD
                        elif H[s, h, F_SA] and ip[P_ACES_ONE_CARD] and H[s, h, F_N] == 2 and \
                                not (r == ACE and ip[P_RESPLIT_ACES] and n_hands[s] < ip[P_MAX_HANDS]):
                            H[s, h, F_STATUS] = STOOD
                h += 1

        # ----- the dealer: the second card, then to 17 if any hand waits -----------------------
        d_hard = values[up]
        d_ace = 1 if up == ACE else 0
        d_n = 1
        dealer_pontoon = False
        while True:
            if d_n == 2:
                second = c >> 2
                dealer_pontoon = (up == ACE and pmask[second] != 0) or (second == ACE and pmask[up] != 0)
                if dealer_pontoon:
                    break
                waiting = ip[P_DRAWS_NO_WAIT] != 0
                if not waiting:
                    for s in range(seats):
                        for h in range(n_hands[s]):
                            if H[s, h, F_STATUS] == STOOD:
                                waiting = True
                if not waiting:
                    break
            if d_n >= 2:
                total = _total(d_hard, d_ace)
                soft = d_ace and d_hard <= 11
                if not (total < ip[P_STANDS_ON] or (total == ip[P_STANDS_ON] and soft and ip[P_H17])):
                    break
            if pos >= size:
                aborted = True
                c = 0
            else:
                if shuffle:
                    j = pos + int(rng.random() * (size - pos))
                    if j >= size:
                        j = size - 1
                    tmp = work[pos]
                    work[pos] = work[j]
                    work[j] = tmp
                c = work[pos]
                pos += 1
            d_hard += values[c >> 2]
            if (c >> 2) == ACE:
                d_ace = 1
            d_n += 1
        if aborted:
            acc[A_ABORTED] += 1
            pos = size
            if record:
                rec_shoe[i] = -1
            continue
        d_total = _total(d_hard, d_ace)
        d_bust = d_total > 21

        # ----- settlement in cents, as the engine settles ------------------------------------
        net = 0
        staked = 0
        n_super = 0
        for s in range(seats):
            taken = False
            super_seat[s] = 0
            for h in range(n_hands[s]):
                d = H[s, h, F_DOUBLE]
                status = H[s, h, F_STATUS]
                ret = 0
                if status == PONTOON:
                    if dealer_pontoon and not ip[P_PONT_AT_ONCE]:
                        ret = wager + d
                    else:
                        ret = wager + pont + d
                        line_hits[ip[P_PONT_LINE]] += 1
                        line_extra[ip[P_PONT_LINE]] += pont - win
                elif status == FORFEITED:
                    ret = d
                elif status == SURRENDERED:
                    if not (dealer_pontoon and ip[P_SURR_LOST]):
                        ret = ip[P_SURR_RET]
                elif status == WON21:
                    lid = _line_id(H[s, h, F_NODE], H[s, h, F_SAME], H[s, h, F_SUIT0])
                    n = H[s, h, F_N]
                    # Whether the bonus lines pay this 21: the rules' say on split and doubled hands.
                    bonus = (ip[P_BONUS_DOUBLED] or not d) and (ip[P_BONUS_SPLIT] or n_hands[s] == 1)
                    if d:
                        paid = pay21[min(n, ncap), lid]
                        line = pay21_line[min(n, ncap), lid]
                        if bonus and line >= 0 and paid > dwin:     # the line's odds on each stake
                            ret = wager + paid + d + paid
                            line_hits[line] += 1
                            line_extra[line] += 2 * (paid - win)
                        else:
                            ret = wager + dwin + d + dwin
                    elif not bonus:
                        ret = wager + win
                    else:
                        if n_hands[s] == 1 and super_match[lid] and up == ip[P_SUPER_UP] and n == ip[P_SUPER_N]:
                            ret = wager + ip[P_SUPER_PRIZE]
                            super_seat[s] = 1
                            line_hits[ip[P_SUPER_LINE]] += 1
                            line_extra[ip[P_SUPER_LINE]] += ip[P_SUPER_PRIZE] - win
                        else:
                            paid = pay21[min(n, ncap), lid]
                            ret = wager + paid
                            line = pay21_line[min(n, ncap), lid]
                            if line >= 0:
                                line_hits[line] += 1
                                line_extra[line] += paid - win
                elif status == STOOD:
                    if dealer_pontoon:
                        if ip[P_PONTOON_TAKES] == TAKES_ALL:
                            ret = 0
                        elif ip[P_PONTOON_TAKES] == TAKES_ONE_A_HAND or not taken:
                            taken = True      # the seat loses one original wager, no more
                            ret = d
                        else:
                            ret = wager + d
                    else:
                        if d:
                            total = H[s, h, F_DTOTAL]
                        else:
                            total = _total(H[s, h, F_HARD], H[s, h, F_ACE])
                        if d_bust or total > d_total:
                            ret = wager + dwin + d + dwin if d else wager + win
                        elif total == d_total:
                            ret = wager + d
                net += ret - wager - d
                staked += wager + d
            n_super += super_seat[s]
        if n_super and ip[P_ENVY]:
            for s in range(seats):
                if n_super - super_seat[s] > 0:
                    net += ip[P_ENVY]
                    line_hits[ip[P_ENVY_LINE]] += 1
                    line_extra[ip[P_ENVY_LINE]] += ip[P_ENVY]
        acc[A_NET] += net
        acc[A_STAKED] += staked
        acc[A_ROUNDS] += 1
        acc[A_WAGERED] += per_round
        x = net / per_round
        sums[S_SUM] += x
        sums[S_SQ] += x * x
        if record:
            rec_shoe[i] = shoe
            rec_net[i] = net
    if record and shuffle and shoe >= 0:
        rec_orders[shoe, :] = work
    return shoe + 1
