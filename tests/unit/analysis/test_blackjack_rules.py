"""rules_config/blackjack-enhc.yaml with paytables/blackjack.yaml deal ordinary European blackjack."""
from __future__ import annotations

from service.engine.actions import Action
from service.engine.games.canberra.round import CanberraRound


def play(rules, paytable, cards, actions, wager=1000):
    round_ = CanberraRound(rules, paytable, [{"seat": 1, "wager": wager}])
    cards = iter(cards)
    actions = iter(actions)
    while not round_.complete:
        if round_.awaiting == "card":
            round_.deal_card(next(cards))
        else:
            name, amount = next(actions)
            round_.act(Action(1, name, round_.in_turn()[1], amount))
    return round_, round_.result()["seats"][0]["net"]


def test_the_paytable_has_blackjack_and_nothing_else(blackjack):
    _, paytable, _ = blackjack
    assert (paytable.side_bets, paytable.bonuses, paytable.super_bonus) == ((), (), None)
    assert str(paytable.pontoon) == "3:2"


def test_dealer_blackjack_takes_splits_and_doubles(blackjack):
    rules, paytable, _ = blackjack
    _, net = play(rules, paytable, ["8H", "TS", "8D", "3C", "9H", "2S", "9C", "AS"],
                  [("split", None), ("double", 1000), ("double", 1000)])
    assert net == -4000


def test_blackjack_pays_3_to_2_and_pushes_a_dealer_blackjack(blackjack):
    rules, paytable, _ = blackjack
    _, net = play(rules, paytable, ["AH", "AS", "KD", "QH"], [])
    assert net == 0
    _, net = play(rules, paytable, ["AH", "9S", "KD", "9H"], [])
    assert net == 1500


def test_a_three_card_21_stands_and_pushes_a_dealer_21(blackjack):
    rules, paytable, _ = blackjack
    _, net = play(rules, paytable, ["7H", "5S", "7D", "7C", "6H", "TC"], [("hit", None)])
    assert net == 0


def test_double_on_two_cards_only_no_surrender_no_insurance(blackjack):
    rules, paytable, _ = blackjack
    round_ = CanberraRound(rules, paytable, [{"seat": 1, "wager": 1000}])
    for card in ("2H", "AS", "3D"):
        round_.deal_card(card)
    assert not round_.can_surrender(1, 0) and not round_.can_insurance(1, None, 500)
    assert round_.can_stand(1, 0)                      # a blackjack player may stand on anything
    round_.act(Action(1, "hit", 0))
    round_.deal_card("4C")
    assert not round_.can_double(1, 0, 1000)


def test_split_aces_take_one_card_and_are_not_split_again(blackjack):
    rules, paytable, _ = blackjack
    round_, net = play(rules, paytable, ["AH", "6S", "AD", "AC", "KH", "TS", "9C"], [("split", None)])
    hands = round_.seats[0].hands
    # The first ace draws another ace and stands on soft 12; the second makes 21, not blackjack.
    assert [h.cards for h in hands] == [["AH", "AC"], ["AD", "KH"]]
    assert [h.status for h in hands] == ["stood", "stood"]
    assert net == 2000                                 # the dealer's 6, 10, 9 busts: both win even money
