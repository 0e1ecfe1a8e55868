"""Exact house edges of the side bets (each one a paytable declares, and insurance) as fractions,
from the shoe's composition."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..engine.cards import RANKS, SUITS, TEN_VALUED
from ..engine.games.canberra.paytable import Paytable
from ..engine.games.canberra.rules import CanberraRules
from ..engine.games.canberra.side_bets import SideBet
from ..engine.shoe import ShoeSpec


def _counts(rules: CanberraRules) -> dict[str, int]:
    return {rank: rules.shoe.decks * len(SUITS) for rank in rules.shoe.ranks}


@lru_cache(maxsize=64)
def hand_chances(shoe: ShoeSpec, bet: SideBet) -> dict[str, Fraction]:
    """The chance of each hand the bet pays (its best-paying hand among those the cards make) and
    of none (under ""), over every ordered deal of the seat's first two cards and the dealer's first
    card from a full shoe: each card is one of `decks` copies of a rank and suit, taken without
    replacement. Exact; the cards between them in the deal (other seats') do not change the chances,
    being unseen."""
    ranks = shoe.ranks
    kinds = [rank + suit for rank in ranks for suit in SUITS]
    copies = shoe.decks
    weights: dict[str, int] = {}
    for first in kinds:
        for second in kinds:
            w2 = copies * (copies - (second == first))
            if not w2:
                continue
            for upcard in kinds:
                w3 = w2 * (copies - (upcard == first) - (upcard == second))
                if not w3:
                    continue
                paid = bet.paid_hand(bet.hands_made((first, second), upcard, ranks))
                hand = "" if paid is None else paid[0]
                weights[hand] = weights.get(hand, 0) + w3
    total = sum(weights.values())
    return {hand: Fraction(weight, total) for hand, weight in weights.items()}


def side_bet_house_edge(rules: CanberraRules, bet: SideBet, stake: int | None = None) -> Fraction:
    """House edge of a declared side bet per unit staked, exact. Paid at the bet's minimum stake,
    rounded as the rules say; with whole-number odds the stake does not matter."""
    stake = stake or bet.limits.minimum
    pays = dict(bet.pays)
    expected = Fraction(0)
    for hand, chance in hand_chances(rules.shoe, bet).items():
        expected += chance * (pays[hand].winnings(stake, rules.rounding) if hand else -stake)
    return -expected / stake


def pair_house_edge(rules: CanberraRules, paytable: Paytable, stake: int | None = None) -> Fraction | None:
    """House edge of the side bet named `pair`, None where the paytable offers none."""
    bet = paytable.side_bet("pair")
    return None if bet is None else side_bet_house_edge(rules, bet, stake)


def insurance_odds(rules: CanberraRules, stake: int | None = None) -> dict[str, Fraction] | None:
    """House edge of insurance, overall and by the number of ten-valued cards in the seat's hand.

    Insurance is offered against the rules' upcards to a seat whose first two cards are not
    Pontoon; it wins when the dealer's second card is ten-valued. Whatever the players draw
    first, the dealer's second card is equally likely to be any card the seat has not seen, so
    the chance is exact from the upcard and the seat's own two cards. The stake is the largest
    insurance on the table-minimum wager, where rounding could matter.
    """
    if not rules.insurance_upcards:
        return None
    stake = stake or rules.insurance_max_fraction.winnings(rules.main_limits.minimum, "down")
    won = rules.insurance_pays.winnings(stake, rules.rounding)
    counts = _counts(rules)
    n = sum(counts.values())
    weight: dict[int, Fraction] = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
    wins: dict[int, Fraction] = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
    for upcard in rules.insurance_upcards:
        if not counts.get(upcard):
            continue
        left = dict(counts)
        p_up = Fraction(left[upcard], n)
        left[upcard] -= 1
        for r1 in RANKS:
            for r2 in RANKS:
                c1 = left.get(r1, 0)
                c2 = left.get(r2, 0) - (r1 == r2)
                if c1 <= 0 or c2 <= 0 or rules.is_pontoon_pair(r1, r2):
                    continue
                pr = p_up * Fraction(c1, n - 1) * Fraction(c2, n - 2)
                held = (r1 in TEN_VALUED) + (r2 in TEN_VALUED)
                tens = sum(c for r, c in left.items() if r in TEN_VALUED) - held
                weight[held] += pr
                wins[held] += pr * Fraction(tens, n - 3)
    total = sum(weight.values())
    if total == 0:
        return None

    def edge(p_win: Fraction) -> Fraction:
        return -(p_win * won - (1 - p_win) * stake) / stake

    out = {"all": edge(sum(wins.values()) / total)}
    for held in (0, 1, 2):
        if weight[held]:
            out[f"{held}_tens_held"] = edge(wins[held] / weight[held])
    return out


def describe(edge: Fraction) -> dict:
    """A fraction as the report writes it: exact text and a percentage."""
    return {"house_edge": f"{edge.numerator}/{edge.denominator}", "house_edge_percent": float(edge * 100)}


def side_bets(rules: CanberraRules, paytable: Paytable) -> dict:
    """Each side bet the paytable declares, by its name, then insurance, as the report writes
    them: what each hand pays, its chance, and the bet's exact house edge (insurance, where the
    rules do not offer it, says so)."""
    out: dict = {}
    for bet in paytable.side_bets:
        chances = hand_chances(rules.shoe, bet)
        out[bet.name] = {"offered": True, "kind": bet.kind.value,
                         "pays": ", ".join(f"{hand} {odds}" for hand, odds in bet.pays),
                         "stake_cents": bet.limits.minimum,
                         "hands": {hand: {"pays": str(odds), "probability": str(chances.get(hand, 0))}
                                   for hand, odds in bet.pays},
                         **describe(side_bet_house_edge(rules, bet))}
    insurance = insurance_odds(rules)
    if insurance is None:
        out["insurance"] = {"offered": False}
    else:
        out["insurance"] = {"offered": True, "pays": str(rules.insurance_pays),
                            "upcards": list(rules.insurance_upcards), **describe(insurance["all"]),
                            "by_seat_hand": {k: describe(v) for k, v in insurance.items() if k != "all"}}
    return out
