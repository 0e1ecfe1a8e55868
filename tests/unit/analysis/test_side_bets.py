"""The side bets' house edges are exact fractions, checked against card-by-card enumeration."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import permutations

from service.analysis.side_bets import insurance_odds, pair_house_edge, side_bets
from service.engine.cards import TEN_VALUED, parse_card
from service.engine.shoe import ShoeSpec


def test_pair_bet_on_the_canberra_shoe_is_eleven_in_191(canberra):
    rules, paytable, _ = canberra
    # 12 ranks of 16 cards: a pair is 15/191; 11:1 returns 12 units on it.
    assert pair_house_edge(rules, paytable) == Fraction(11, 191)


def test_insurance_on_the_canberra_shoe(canberra):
    rules, _, _ = canberra
    odds = insurance_odds(rules)
    assert odds["all"] == Fraction(1199, 4879)
    # A seat holding no ten-valued card leaves 48 of the 189 unseen: 3 * 48/189 - 1 = -5/21.
    assert odds["0_tens_held"] == Fraction(5, 21)
    assert odds["2_tens_held"] == Fraction(17, 63)


def test_fractions_match_an_enumeration_of_every_card(canberra):
    """One deck without tens (48 cards) is small enough to walk card by card."""
    rules, paytable, _ = canberra
    small = dataclasses.replace(rules, shoe=ShoeSpec(1, ("T",)))
    cards = small.shoe.ordered_cards()
    pairs = won = 0
    for a, b in permutations(range(len(cards)), 2):
        pairs += 1
        won += parse_card(cards[a])[0] == parse_card(cards[b])[0]
    assert pair_house_edge(small, paytable) == 1 - Fraction(won * 12, pairs)
    # Insurance: upcard an ace, the seat's two cards not Pontoon, then the dealer's next card.
    offered = wins = 0
    aces = [i for i, c in enumerate(cards) if c[0] == "A"]
    for up in aces:
        rest = [i for i in range(len(cards)) if i != up]
        for a, b in permutations(rest, 2):
            ra, rb = cards[a][0], cards[b][0]
            if small.is_pontoon_pair(ra, rb):
                continue
            unseen = [i for i in rest if i not in (a, b)]
            tens = sum(cards[i][0] in TEN_VALUED for i in unseen)
            offered += len(unseen)
            wins += tens
    p = Fraction(wins, offered)
    assert insurance_odds(small)["all"] == 1 - 3 * p


def test_blackjack_offers_neither_side_bet(blackjack):
    rules, paytable, _ = blackjack
    assert side_bets(rules, paytable) == {"insurance": {"offered": False}}


def test_report_form(canberra):
    rules, paytable, _ = canberra
    report = side_bets(rules, paytable)
    assert report["pair"]["house_edge"] == "11/191"
    assert abs(report["pair"]["house_edge_percent"] - 5.7592) < 1e-4
    assert report["insurance"]["house_edge"] == "1199/4879"
