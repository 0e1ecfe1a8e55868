"""Exact house edges of the side bets (pair, insurance) as fractions, from the shoe's composition."""
from __future__ import annotations

from fractions import Fraction

from ..engine.cards import RANKS, SUITS, TEN_VALUED
from ..engine.games.canberra.paytable import Paytable
from ..engine.games.canberra.rules import CanberraRules


def _counts(rules: CanberraRules) -> dict[str, int]:
    return {rank: rules.shoe.decks * len(SUITS) for rank in rules.shoe.ranks}


def pair_house_edge(rules: CanberraRules, paytable: Paytable, stake: int | None = None) -> Fraction | None:
    """House edge of the pair bet (a pair on the seat's first two cards), None if there is no pair bet.

    Paid at the table's minimum pair stake, rounded as the rules say; with whole-number odds the
    stake does not matter.
    """
    if paytable.pair is None:
        return None
    stake = stake or rules.pair_limits.minimum
    counts = _counts(rules)
    n = sum(counts.values())
    p_pair = Fraction(sum(c * (c - 1) for c in counts.values()), n * (n - 1))
    won = paytable.pair.winnings(stake, rules.rounding)
    return -(p_pair * won - (1 - p_pair) * stake) / stake


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
    """Both side bets as the report writes them (absent bets say so)."""
    out: dict = {}
    pair = pair_house_edge(rules, paytable)
    out["pair"] = {"offered": False} if pair is None else {
        "offered": True, "pays": str(paytable.pair), **describe(pair)}
    insurance = insurance_odds(rules)
    if insurance is None:
        out["insurance"] = {"offered": False}
    else:
        out["insurance"] = {"offered": True, "pays": str(rules.insurance_pays),
                            "upcards": list(rules.insurance_upcards), **describe(insurance["all"]),
                            "by_seat_hand": {k: describe(v) for k, v in insurance.items() if k != "all"}}
    return out
