"""The rule knobs where Pontoon's houses differ, each played through the engine with money worked out by hand."""
from __future__ import annotations

import dataclasses

import pytest

from service.engine.actions import Action, RuleViolation
from service.engine.games.canberra import CanberraRound
from service.engine.games.canberra.rules import DealerPontoonTakes
from service.rules import load_paytable, load_rules


def canberra(**changes):
    return dataclasses.replace(load_rules("canberra"), **changes)


def played(rules, cards: str, actions=(), wager: int = 1000) -> CanberraRound:
    """A one-seat round: the cards in the order they leave the shoe, decisions as they fall due."""
    round_ = CanberraRound(rules, load_paytable("canberra-standard"), [{"seat": 1, "wager": wager}])
    pending = list(actions)
    for card in cards.split():
        while round_.awaiting == "decision":
            round_.act(pending.pop(0))
        round_.deal_card(card)
    while round_.awaiting == "decision":
        round_.act(pending.pop(0))
    assert round_.complete and not pending
    return round_


def money(round_: CanberraRound) -> tuple[int, int]:
    seat = round_.seats[0]
    return seat.staked, seat.returned


# A split 8-8 against a 9: hand 0 doubles 8-3 for the wager and stands on 20, hand 1 hits 8-2-7
# to 17 and stands; the dealer turns Pontoon (9 is not a Pontoon rank, so the upcard is the ace).
SPLIT_INTO_DEALER_PONTOON = "8H AS 8C 3D 9S 2H 7C KD"
SPLIT_ACTIONS = [Action(1, "split", 0), Action(1, "double", 0, 1000), Action(1, "stand", 0),
                 Action(1, "hit", 1), Action(1, "stand", 1)]


@pytest.mark.parametrize("takes, returned", [
    (DealerPontoonTakes.ONE_ORIGINAL_WAGER, 2000),   # one wager of three thousand staked: the double and hand 1 back
    (DealerPontoonTakes.ONE_WAGER_PER_HAND, 1000),   # each waiting hand's wager: only the double comes back
    (DealerPontoonTakes.ALL_STAKES, 0),
])
def test_a_dealer_pontoon_takes_what_the_rules_say(takes, returned):
    round_ = played(canberra(dealer_pontoon_takes=takes), SPLIT_INTO_DEALER_PONTOON, SPLIT_ACTIONS)
    assert round_.dealer_pontoon
    assert money(round_) == (3000, returned)


def test_one_wager_per_hand_leaves_a_busted_hand_lost_once():
    # Split 9-9 against an ace: hand 0 draws 5 and busts on a K, hand 1 stands on 9-9; dealer Pontoon.
    rules = canberra(dealer_pontoon_takes=DealerPontoonTakes.ONE_WAGER_PER_HAND)
    round_ = played(rules, "9H AS 9C 5D KC 9D QH",
                    [Action(1, "split", 0), Action(1, "hit", 0), Action(1, "stand", 1)])
    assert money(round_) == (2000, 0)


def test_split_aces_that_take_one_card_re_split_when_that_card_is_an_ace():
    rules = canberra(split_aces_resplit=True)
    round_ = CanberraRound(rules, load_paytable("canberra-standard"), [{"seat": 1, "wager": 1000}])
    for card in ("AH", "9C", "AD"):
        round_.deal_card(card)
    round_.act(Action(1, "split", 0))
    round_.deal_card("AS")                       # hand 0: A-A, may split again or stand, nothing else
    assert {a.action for a in round_.legal_actions()} == {"split", "stand"}
    with pytest.raises(RuleViolation, match="one card each"):
        round_.hit(1, 0)
    round_.act(Action(1, "split", 0))
    for card in ("7C", "KS", "5D"):              # hands 0, 1 and 2 (the re-split's) each take one card
        round_.deal_card(card)
    round_.deal_card("8H")                       # the dealer: 9-8, 17
    assert round_.complete
    # A-7 18 wins, A-K a 21 paid at once, A-5 16 loses: three thousand staked, 2000 + 2000 back
    assert [h.cards for h in round_.seats[0].hands] == [["AH", "7C"], ["AD", "KS"], ["AS", "5D"]]
    assert money(round_) == (3000, 4000)


def test_a_split_ace_that_draws_an_ace_stands_at_the_hand_limit_or_where_aces_are_not_re_split():
    for rules in (canberra(split_aces_resplit=True, split_max_hands=2), canberra()):
        round_ = CanberraRound(rules, load_paytable("canberra-standard"), [{"seat": 1, "wager": 1000}])
        for card in ("AH", "9C", "AD"):
            round_.deal_card(card)
        round_.act(Action(1, "split", 0))
        round_.deal_card("AS")
        assert round_.awaiting == "card"          # hand 0 stood on A-A: hand 1 takes its card


@pytest.mark.parametrize("cards, allowed", [
    ("5H 7C 4D", True),     # 9
    ("6H 7C 5D", True),     # 11
    ("6H 7C 6D", False),    # 12
    ("4H 7C 4D", False),    # 8
    ("AH 7C 8D", True),     # soft 19 counts its ace as one for the double: 9
])
def test_doubling_limited_by_total(cards, allowed):
    rules = canberra(double_totals=frozenset({9, 10, 11}))
    round_ = CanberraRound(rules, load_paytable("canberra-standard"), [{"seat": 1, "wager": 1000}])
    for card in cards.split():
        round_.deal_card(card)
    assert round_.can_double(1, 0, 1000) is allowed
    if not allowed:
        with pytest.raises(RuleViolation, match="only on 9, 10, 11"):
            round_.double(1, 0, 1000)


def test_doubling_by_total_applies_after_the_first_two_cards_too():
    rules = canberra(double_totals=frozenset({9, 10, 11}))
    round_ = CanberraRound(rules, load_paytable("canberra-standard"), [{"seat": 1, "wager": 1000}])
    for card in ("3H", "7C", "4D"):
        round_.deal_card(card)
    assert not round_.can_double(1, 0, 1000)      # 7
    round_.act(Action(1, "hit", 0))
    round_.deal_card("2S")                        # 3-4-2, 9
    assert round_.can_double(1, 0, 1000)


# Five-card 21 (3:1 in the standard paytable) on a split hand: 8-8 split against a 7, hand 0
# draws 2, 3, 4, 4 to a five-card 21, hand 1 takes a K and stands on 18; the dealer makes 17.
SPLIT_FIVE_CARD_21 = "8H 7C 8C 2D 3S 4H 4C KD TH"


@pytest.mark.parametrize("on_split, returned", [(True, 4000 + 2000), (False, 2000 + 2000)])
def test_bonus_lines_on_split_hands_as_the_rules_say(on_split, returned):
    rules = canberra(bonuses_on_split_hands=on_split, shoe=load_rules("blackjack-enhc").shoe)
    actions = [Action(1, "split", 0), Action(1, "hit", 0), Action(1, "hit", 0), Action(1, "hit", 0),
               Action(1, "stand", 1)]
    round_ = played(rules, SPLIT_FIVE_CARD_21, actions)
    assert [len(h.cards) for h in round_.seats[0].hands] == [5, 2]
    assert money(round_) == (2000, returned)


@pytest.mark.parametrize("on_doubled, returned", [(False, 4000), (True, 8000)])
def test_bonus_lines_on_doubled_hands_as_the_rules_say(on_doubled, returned):
    # 2-3-4-5 against a 7, doubled for the wager, draws a 7: a five-card 21. The dealer does not
    # draw past its second card (no hand waits). Doubled at even money: 2000 back on each stake;
    # at the line's 3:1: 4000 on each.
    rules = canberra(bonuses_on_doubled_hands=on_doubled)
    round_ = played(rules, "2H 7C 3D 4S 5C 7H 9S",
                    [Action(1, "hit", 0), Action(1, "hit", 0), Action(1, "double", 0, 1000)])
    assert money(round_) == (2000, returned)
