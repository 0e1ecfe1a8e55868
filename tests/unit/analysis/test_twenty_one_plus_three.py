"""21+3's exact house edge: checked against the published four- and six-deck figures and against a
walk through every ordered deal of a one-deck shoe, card by card."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import permutations

from service.analysis.side_bets import hand_chances, side_bet_house_edge, side_bets
from service.engine.games.canberra.side_bets import SideBet, SideBetKind, three_card_hands
from service.engine.limits import Limits
from service.engine.odds import Odds
from service.engine.shoe import ShoeSpec
from service.rules import load_house_banked_rules, load_paytable

NINE_TO_ONE = SideBet("21+3", SideBetKind.TWENTY_ONE_PLUS_THREE,
                      tuple((hand, Odds(9, 1)) for hand in ("suited_three_of_a_kind", "straight_flush",
                                                            "three_of_a_kind", "straight", "flush")),
                      Limits(500, 25_000))


def test_the_published_nine_to_one_figures_on_full_packs():
    rules = load_house_banked_rules("canberra")
    # 9:1 on any hand: 4.24% on four 52-card packs and 3.24% on six, as published for the bet.
    four = dataclasses.replace(rules, shoe=ShoeSpec(4, ()))
    six = dataclasses.replace(rules, shoe=ShoeSpec(6, ()))
    assert round(float(side_bet_house_edge(four, NINE_TO_ONE)) * 100, 2) == 4.24
    assert round(float(side_bet_house_edge(six, NINE_TO_ONE)) * 100, 2) == 3.24


def test_the_example_paytables_21_plus_3_on_the_canberra_shoe():
    rules, paytable = load_house_banked_rules("canberra"), load_paytable("canberra-21plus3")
    report = side_bets(rules, paytable)
    assert report["21+3"]["house_edge"] == "446/18145"          # 2.458%: flush at 4:1
    assert report["pair"]["house_edge"] == "11/191"              # the pair bet as in the standard paytable
    assert report["21+3"]["hands"]["straight"]["pays"] == "10:1"
    # At 5:1 for a flush, as 52-card shoes pay it, the tens-less shoe gives the player the edge.
    richer = dataclasses.replace(paytable.side_bet("21+3"), pays=(
        ("suited_three_of_a_kind", Odds(100, 1)), ("straight_flush", Odds(40, 1)), ("three_of_a_kind", Odds(30, 1)),
        ("straight", Odds(10, 1)), ("flush", Odds(5, 1))))
    assert side_bet_house_edge(rules, richer) < 0


def test_the_chances_match_a_walk_through_every_deal_of_one_deck():
    shoe = ShoeSpec(1, ("T",))
    cards = shoe.ordered_cards()
    counts: dict[str, int] = {}
    deals = 0
    for a, b, c in permutations(range(len(cards)), 3):
        made = three_card_hands(cards[a], cards[b], cards[c], shoe.ranks)
        paid = NINE_TO_ONE.paid_hand(made)
        # Every line pays 9:1 here: which one is named is the first listed among those made.
        key = "" if paid is None else paid[0]
        counts[key] = counts.get(key, 0) + 1
        deals += 1
    assert hand_chances(shoe, NINE_TO_ONE) == {hand: Fraction(n, deals) for hand, n in counts.items()}
