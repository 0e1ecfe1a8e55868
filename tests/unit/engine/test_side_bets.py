"""The side bets' evaluators: the pair bet and 21+3, hand by hand, and how a paytable declares them."""
from __future__ import annotations

import pytest

from service.engine.cards import RANKS
from service.engine.games.canberra.side_bets import SideBet, SideBetKind, is_straight, three_card_hands
from service.engine.limits import Limits
from service.engine.odds import Odds
from service.rules import RulesError, load_paytable, parse_paytable
from service.rules.registry import paytables_dir

CANBERRA = tuple(rank for rank in RANKS if rank != "T")      # the Canberra shoe's ranks
FULL = RANKS


@pytest.mark.parametrize("cards, made", [
    ("8H 8H 8H", {"suited_three_of_a_kind", "three_of_a_kind", "flush"}),
    ("8C 8D 8S", {"three_of_a_kind"}),
    ("7H 9H 8H", {"straight_flush", "straight", "flush"}),
    ("6C 7D 8H", {"straight"}),
    ("AH 2D 3C", {"straight"}),           # the ace low ...
    ("QS KD AH", {"straight"}),           # ... or high
    ("KS AD 2H", set()),                  # never both
    ("2H 5H 9H", {"flush"}),
    ("9C JD QH", {"straight"}),           # the Canberra shoe holds no ten: 9-J-Q skips none of its ranks
    ("8C 9D JH", {"straight"}),
    ("9C 9D QH", set()),
    ("KD 2C 8H", set()),
])
def test_21_plus_3_names_every_hand_the_three_cards_make(cards, made):
    first, second, upcard = cards.split()
    assert three_card_hands(first, second, upcard, CANBERRA) == made


def test_a_straight_runs_over_the_ranks_the_shoe_holds():
    assert is_straight(("9", "J", "Q"), CANBERRA) and not is_straight(("9", "J", "Q"), FULL)
    assert is_straight(("9", "T", "J"), FULL) and is_straight(("Q", "K", "A"), FULL)
    assert not is_straight(("K", "A", "2"), CANBERRA) and not is_straight(("7", "7", "8"), CANBERRA)


def twenty_one_plus_three(**pays: str) -> SideBet:
    return SideBet("21+3", SideBetKind.TWENTY_ONE_PLUS_THREE,
                   tuple((hand, Odds.parse(odds)) for hand, odds in pays.items()), Limits(500, 25_000))


def test_the_best_paid_hand_the_cards_make_is_paid():
    bet = twenty_one_plus_three(suited_three_of_a_kind="100:1", three_of_a_kind="30:1", flush="4:1")
    assert bet.settle(500, ("8H", "8H"), "8H", CANBERRA, "down") == (500 + 100 * 500, "suited_three_of_a_kind")
    assert bet.settle(500, ("7H", "9H"), "8H", CANBERRA, "down") == (500 + 4 * 500, "flush")   # no straight flush line
    assert bet.settle(500, ("6C", "7D"), "8H", CANBERRA, "down") == (0, "no-hand")          # no straight line
    flush_only = twenty_one_plus_three(flush="9:1")
    assert flush_only.settle(1000, ("8H", "8H"), "8H", CANBERRA, "down") == (10_000, "flush")


def test_the_example_paytable_offers_21_plus_3_and_the_standard_one_does_not():
    example = load_paytable("canberra-21plus3")
    assert [(bet.name, bet.kind) for bet in example.side_bets] == [("pair", SideBetKind.PAIR),
                                                                     ("21+3", SideBetKind.TWENTY_ONE_PLUS_THREE)]
    assert load_paytable("canberra-standard").side_bet("21+3") is None


def document_with(side_bet: dict) -> dict:
    import yaml
    with open(f"{paytables_dir()}/canberra-21plus3.yaml", encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    document["side_bets"]["21+3"] = side_bet
    return document


@pytest.mark.parametrize("side_bet, field, words", [
    ({"kind": "twenty_one_plus_four", "pays": {"flush": "4:1"}, "limits": {"min": 500, "max": 900}},
     "side_bets.21+3.kind", "must be one of pair, twenty_one_plus_three"),
    ({"kind": "twenty_one_plus_three", "pays": {"royal_flush": "4:1"}, "limits": {"min": 500, "max": 900}},
     "side_bets.21+3.pays", "'royal_flush' is not a twenty_one_plus_three hand"),
    ({"kind": "twenty_one_plus_three", "pays": {"flush": "4:1"}}, "side_bets.21+3.limits", "is required"),
    ({"kind": "twenty_one_plus_three", "pays": {}, "limits": {"min": 500, "max": 900}},
     "side_bets.21+3.pays", "must pay at least one"),
    ({"kind": "twenty_one_plus_three", "pays": {"flush": "4:1"}, "limits": {"min": 500, "max": 900}, "odds": 1},
     "side_bets.21+3.odds", "is not a known field"),
])
def test_a_side_bet_declared_wrong_is_refused_naming_the_field(side_bet, field, words):
    with pytest.raises(RulesError) as refused:
        parse_paytable("canberra-21plus3", document_with(side_bet))
    assert words in refused.value.errors[field], refused.value.errors
