"""One test (or a few) per rule line of the Canberra spec, with money worked out by hand."""
from __future__ import annotations

import dataclasses

import pytest

from service.engine.play import play_transcript
from service.engine.transcript import TranscriptError, parse_transcript
from service.replay import load_game, replay_data
from tests.unit.engine.rounds import act, nets, play, seat


def refused(seats, cards, actions, reason: str):
    with pytest.raises(TranscriptError) as err:
        play(seats, cards, actions)
    assert reason in str(err.value), str(err.value)
    return str(err.value)


# ----- deal and pair side bet -------------------------------------------------------------
def test_deal_order_is_seat_by_seat_then_upcard_then_second_cards():
    r = play([{"seat": 1, "wager": 1000}, {"seat": 4, "wager": 1000}],
             "9H 8D 7C KS QS 5D 5S", [act(1, "stand"), act(4, "stand")])
    hands = [s["hands"][0]["cards"] for s in r["seats"]]
    assert hands == [["9H", "KS"], ["8D", "QS"]]
    assert r["dealer"]["cards"] == ["7C", "5D", "5S"]  # 12: hands wait, so the dealer draws to 17


def test_seats_are_dealt_in_seat_order_whatever_order_the_wagers_are_listed_in():
    listed = [{"seat": 4, "wager": 1000}, {"seat": 1, "wager": 2000}, {"seat": 2, "wager": 1000}]
    r = play(listed, "9H 8D 3C 7C KS QS JS 5D 5S", [act(1, "stand"), act(2, "stand"), act(4, "stand")])
    assert [(s["seat"], s["hands"][0]["cards"]) for s in r["seats"]] == [
        (1, ["9H", "KS"]), (2, ["8D", "QS"]), (4, ["3C", "JS"])]
    assert r["dealer"]["cards"] == ["7C", "5D", "5S"]


def test_pair_bet_pays_eleven_to_one_on_the_first_two_cards():
    r = play([{"seat": 1, "wager": 1000, "pair_bet": 500}], "8H 9C 8D 9D", [act(1, "stand")])
    assert seat(r)["staked"] == 1500
    assert seat(r)["returned"] == 500 * 12  # pair 11:1; 16 loses to the dealer's 18


def test_pair_bet_loses_without_a_pair():
    r = play([{"seat": 1, "wager": 1000, "pair_bet": 500}], "8H 9C 7D 9D", [act(1, "stand")])
    # 15 against the dealer's 18: main lost, pair lost
    assert seat(r)["net"] == -1500


# ----- player Pontoon ---------------------------------------------------------------------
def test_pontoon_pays_three_to_two_at_once_and_rounds_down():
    r = play(1001, "AS 5C KD 9H")
    assert seat(r)["returned"] == 1001 + 1501  # 3:2 of 1001 is 1501.5, rounded down
    assert r["dealer"]["cards"] == ["5C", "9H"]  # no hand waiting: only the second card


def test_pontoon_is_never_lost_to_a_dealer_pontoon():
    r = play(1000, "KS AC AD QH")
    assert seat(r)["net"] == 1500
    assert r["dealer"]["pontoon"] is True


def test_ace_and_ten_is_not_pontoon_in_a_tens_removed_shoe():
    # The shoe refuses a ten outright.
    refused(1000, "AS 5C TD 9H", [], "rank T is removed")


# ----- insurance --------------------------------------------------------------------------
def test_insurance_pays_two_to_one_on_a_ten_valued_second_card():
    r = play(2000, "9C AH 9D QH", [act(1, "insurance", None, 1000), act(1, "stand")])
    # main lost to dealer Pontoon (one original wager), insurance 1000 returns 3000
    assert seat(r)["staked"] == 3000 and seat(r)["returned"] == 3000


def test_insurance_loses_without_a_ten():
    r = play(2000, "9C AH 9D 7H", [act(1, "insurance", None, 1000), act(1, "stand")])
    # dealer soft 18 stands? soft 18 is not 17: stands. 18 vs 18: push
    assert seat(r)["staked"] == 3000 and seat(r)["returned"] == 2000


def test_insurance_over_half_the_wager_is_refused():
    refused(2001, "9C AH 9D QH", [act(1, "insurance", None, 1001)], "outside 1 to 1000")


def test_insurance_only_against_an_ace():
    refused(2000, "9C KH 9D QH", [act(1, "insurance", None, 500)], "not offered")


def test_insurance_only_before_the_first_playing_decision():
    refused([{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}], "9C 9S AH 9D 8D 7H",
            [act(1, "stand"), act(2, "insurance", None, 500)], "before the first playing decision")


def test_insurance_that_names_a_hand_is_refused():
    # The transcript format gives insurance no hand: it is the seat's.
    insured = {"seat": 1, "hand": 0, "action": "insurance", "amount": 1000}
    message = refused(2000, "9C AH 9D QH", [insured, act(1, "stand")], "name no hand")
    assert message.startswith("action 1"), message


def test_insurance_not_offered_to_a_pontoon():
    refused([{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}], "AS 9S AH KD 9D QH",
            [act(1, "insurance", None, 500)], "already paid")


# ----- hit and stand ----------------------------------------------------------------------
def test_stand_needs_thirteen():
    refused(1000, "9H 5C 3D 8D", [act(1, "stand")], "minimum is 13")


def test_stand_on_thirteen_is_allowed():
    r = play(1000, "9H 5C 4D 8D 2C 9S", [act(1, "stand")])
    # dealer 5 8 = 13, hits: 2 -> 15, 9 -> 24 bust
    assert seat(r)["net"] == 1000


def test_reaching_twenty_one_wins_at_once_even_if_the_dealer_makes_pontoon():
    r = play(1000, "9H AC 5D 7S KD", [act(1, "hit")])
    assert seat(r)["net"] == 1000
    assert r["dealer"]["pontoon"] is True


def test_bust_loses_at_once():
    r = play(1000, "9H 5C 5D KS 3D", [act(1, "hit")])
    assert seat(r)["net"] == -1000
    assert r["dealer"]["cards"] == ["5C", "3D"]  # nothing waiting: only the second card


# ----- double and forfeit -----------------------------------------------------------------
def test_double_gets_exactly_one_card_then_stand_or_forfeit():
    refused(1000, "5H 9C 4D 2S 8D", [act(1, "double", amount=1000), act(1, "hit")], "doubled")


def test_double_amount_ranges_from_the_table_minimum_to_the_wager():
    refused(2000, "5H 9C 4D 2S 8D", [act(1, "double", amount=499)], "outside 500 to 2000")
    refused(2000, "5H 9C 4D 2S 8D", [act(1, "double", amount=2001)], "outside 500 to 2000")


def test_double_allowed_on_any_number_of_cards():
    r = play(1000, "2H 9C 3D 2S 2C 5D 8H", [act(1, "hit"), act(1, "hit"), act(1, "double", amount=500),
                                             act(1, "stand")])
    # 2 3 2 2 5 = 14 after the double; dealer 9 8 = 17: lose both
    assert seat(r)["staked"] == 1500 and seat(r)["returned"] == 0


def test_aces_held_count_one_after_a_double():
    r = play(1000, "AH 6C 6D 4S 9H", [act(1, "double", amount=1000), act(1, "forfeit")])
    assert seat(r)["returned"] == 1000  # the doubled portion back, the original lost


def test_an_ace_drawn_on_a_double_may_count_eleven():
    r = play(1000, "5H 6C 5D AS 9H", [act(1, "double", amount=1000)])
    # 10 + ace as eleven = 21: wins at once, doubled hand paid 1:1 on its whole stake
    assert seat(r)["staked"] == 2000 and seat(r)["returned"] == 4000


def test_doubled_twenty_one_pays_even_money_not_bonus_odds():
    # 7 7 then doubled 7: 7-7-7 would pay bonus odds undoubled; doubled pays 1:1
    r = play(1000, "7H 9C 7D 7S 9H", [act(1, "double", amount=1000)])
    assert seat(r)["returned"] == 4000


def test_stand_on_any_total_after_a_double():
    r = play(1000, "2H 9C 3D 5S 9H", [act(1, "double", amount=1000), act(1, "stand")])
    # 10 against the dealer's 18: both stakes lost
    assert seat(r)["net"] == -2000


def test_second_double_is_refused():
    refused(1000, "2H 9C 3D 2S 9H", [act(1, "double", amount=500), act(1, "double", amount=500)], "already doubled")


def test_forfeit_only_straight_after_a_double():
    refused(1000, "9H 9C 5D 8D", [act(1, "forfeit")], "straight after a double")


def test_split_aces_take_one_card_each_and_nothing_more():
    # After the split each ace takes one card and is finished: no double, hit or re-split is asked.
    refused(1000, "AH 9C AD 5S 5C 8D", [act(1, "split"), act(1, "double", amount=500)], "already complete")


def test_double_after_split_allowed():
    r = play(1000, "8H 9C 8D 3S 9H 2C 7C 8S",
             [act(1, "split"), act(1, "double", amount=1000), act(1, "stand"), act(1, "hit", 1),
              act(1, "stand", 1)])
    # hand 0: 8 3 9 = 20 doubled (2000); hand 1: 8 2 7 = 17; dealer 9 8 = 17: 20 wins, 17 pushes
    assert seat(r)["staked"] == 3000 and seat(r)["returned"] == 4000 + 1000


# ----- split ------------------------------------------------------------------------------
def test_split_needs_two_of_the_same_rank():
    refused(1000, "KH 9C QD 8D", [act(1, "split")], "not a pair")


def test_first_split_hand_gets_its_card_at_once_and_second_when_play_reaches_it():
    r = play(1000, "8H 9C 8D 5S 9H 3C 7C 8S",
             [act(1, "split"), act(1, "stand"), act(1, "hit", 1), act(1, "stand", 1)])
    # hand 0: 8 5 then stand on 13; hand 1: 8 9 = 17, hit 3 = 20, stand... order of cards:
    hands = [h["cards"] for h in seat(r)["hands"]]
    assert hands[0] == ["8H", "5S"]
    assert hands[1] == ["8D", "9H", "3C"]
    assert r["dealer"]["cards"] == ["9C", "7C", "8S"]


def test_resplit_up_to_four_hands():
    refused(1000, "8H 9C 8D 8S 8C 8H 8D", [act(1, "split"), act(1, "split", 0), act(1, "split", 0),
                                           act(1, "split", 0)], "at most 4 hands")


def test_resplit_indices_and_play_order():
    # seat's hands: 0 = 8H, 1 = 8D; hand 0 draws 8S (pair again) and re-splits: new hand 2 = 8S.
    r = play(1000, "8H 9C 8D 8S 5C 9H 3D 7C 2C 7S 8S".replace("8S 8S", "8S 8S"),
             [act(1, "split"), act(1, "split", 0), act(1, "stand", 0),
              act(1, "stand", 1), act(1, "hit", 2), act(1, "stand", 2)])
    hands = [h["cards"] for h in seat(r)["hands"]]
    assert hands[0] == ["8H", "5C"]          # hand 0 took the card after its re-split
    assert hands[1] == ["8D", "9H"]          # then hand 1 (17)
    assert hands[2] == ["8S", "3D", "7C"]    # then the new hand 2: 18
    assert r["dealer"]["cards"] == ["9C", "2C", "7S"]  # 9 2 7 = 18


def test_aces_split_once_one_card_each_and_ace_picture_is_twenty_one_not_pontoon():
    r = play(1000, "AH 9C AD KS 5C 8D", [act(1, "split")])
    # hand 0: A K = 21 after a split: wins at once 1:1; hand 1: A 5 = 16 soft, stands by itself;
    # dealer 9 8 = 17 beats 16
    hands = seat(r)["hands"]
    assert [h["cards"] for h in hands] == [["AH", "KS"], ["AD", "5C"]]
    assert seat(r)["staked"] == 2000 and seat(r)["returned"] == 2000


def test_aces_may_be_split_once():
    from service.engine.actions import Action, RuleViolation
    from service.engine.games.canberra import CanberraRound
    from service.rules import load_paytable, load_rules
    # With one card per split ace the question never arises; let split aces play on to see the rule.
    rules = dataclasses.replace(load_rules("canberra"), split_aces_one_card=False)
    round_ = CanberraRound(rules, load_paytable("canberra-standard"), [{"seat": 1, "wager": 1000}])
    for card in ("AH", "9C", "AD"):
        round_.deal_card(card)
    round_.act(Action(1, "split", 0))
    round_.deal_card("AS")
    assert not round_.can_split(1, 0)
    with pytest.raises(RuleViolation, match="aces may be split once"):
        round_.split(1, 0)


# ----- surrender --------------------------------------------------------------------------
def test_surrender_returns_half():
    r = play(2001, "9D JC 6H 5S", [act(1, "surrender")])
    assert seat(r)["returned"] == 1000  # half of 2001, rounded down


def test_surrender_is_a_full_loss_to_a_dealer_pontoon():
    r = play(2000, "9D KC 6H AS", [act(1, "surrender")])
    assert seat(r)["returned"] == 0


def test_surrender_not_against_a_nine():
    refused(2000, "9D 9C 6H 5S", [act(1, "surrender")], "upcard")


def test_surrender_only_as_the_first_decision():
    refused(2000, "2D KC 3H 4S 5S", [act(1, "hit"), act(1, "surrender")], "first decision")


# ----- dealer -----------------------------------------------------------------------------
def test_dealer_hits_soft_seventeen():
    r = play(1000, "KH AC 9D 6S 2C", [act(1, "stand")])
    assert r["dealer"]["cards"] == ["AC", "6S", "2C"]  # soft 17 hit: 19 beats 19? push
    assert seat(r)["net"] == 0


def test_dealer_stands_on_hard_seventeen():
    r = play(1000, "KH KC 8D 7S 2C", [act(1, "stand")])
    assert r["dealer"]["cards"] == ["KC", "7S"]
    assert seat(r)["net"] == 1000


def test_dealer_pontoon_takes_one_original_wager_and_returns_other_stakes():
    r = play(1000, "8H KS 8C 3D 9S 2H 7C AD",
             [act(1, "split"), act(1, "double", amount=1000), act(1, "stand"), act(1, "hit", 1),
              act(1, "stand", 1)])
    assert seat(r)["staked"] == 3000 and seat(r)["returned"] == 2000


def test_dealer_pontoon_leaves_paid_and_busted_hands_alone():
    # two seats: seat 1 busts, seat 2 stands; dealer Pontoon takes seat 2's wager only
    r = play([{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}], "9H 9S KD 5C 9C QH AH",
             [act(1, "hit"), act(2, "stand")])
    # seat 1: 9 5 Q = 24 bust: -1000; seat 2: 9 9 = 18 waiting: loses one wager
    assert nets(r) == [-1000, -1000]


def test_comparison_push_and_lose():
    assert nets(play(1000, "KH 9C 8D 9S", [act(1, "stand")])) == [0]
    assert nets(play(1000, "KH 9C 7D 9S", [act(1, "stand")])) == [-1000]


# ----- bonuses ----------------------------------------------------------------------------
@pytest.mark.parametrize("cards, actions, returned", [
    ("2H KC 3D 4S 5C 7H 9S", ["hit", "hit", "hit"], 4000),              # five-card 21: 3:1
    ("2H KC 3D 2S 4C 5H 5D 9S", ["hit", "hit", "hit", "hit"], 3000),      # six-card 21: 2:1
    ("2H KC 2D 2S 3C 3H 4D 5C 9S", ["hit"] * 5, 4000),                    # seven-card 21: 3:1
    ("6H KC 7D 8S 9S", ["hit"], 2500),                                   # 678 mixed: 3:2
    ("6H KC 7H 8H 9S", ["hit"], 3000),                                   # 678 suited: 2:1
    ("6S KC 7S 8S 9H", ["hit"], 4000),                                   # 678 spades: 3:1
    ("7H KC 7D 7S 9S", ["hit"], 2500),                                   # 777 mixed: 3:2
    ("7D KC 7D 7D 9S", ["hit"], 3000),                                   # 777 suited: 2:1
    ("7S KC 7S 7S 9H", ["hit"], 4000),                                   # 777 spades: 3:1
    ("9H KC 5D 7S 9S", ["hit"], 2000),                                   # plain 21: 1:1
])
def test_bonus_twenty_ones(cards, actions, returned):
    r = play(1000, cards, [act(1, a) for a in actions])
    assert seat(r)["returned"] == returned


def test_bonus_applies_to_split_hands():
    r = play(1000, "7H KC 7D 7S 7C 9D 5S 9H",
             [act(1, "split"), act(1, "hit"), act(1, "hit", 1)])
    # hand 0: 7 7 7 mixed = 21 pays 3:2 (1000 -> 2500); hand 1: 7 9 5 = 21 pays 1:1 (2000)
    assert seat(r)["returned"] == 2500 + 2000


def test_super_bonus_small_wager_and_envy():
    r = play([{"seat": 1, "wager": 2499}, {"seat": 2, "wager": 1000}],
             "7H 9S 7C 7H KD 7H 5D 8C", [act(1, "hit"), act(2, "stand")])
    # seat 1: 7H 7H 7H with a 7 up: 100000 prize, stake back; seat 2: 9 K = 19 vs dealer 7 5 8 = 20
    assert seat(r, 1)["returned"] == 2499 + 100000
    assert seat(r, 2)["returned"] == 5000 and seat(r, 2)["net"] == 4000


def test_super_bonus_large_wager():
    r = play(2500, "7H 7C 7H 7H 9S", [act(1, "hit")])
    assert seat(r)["returned"] == 2500 + 500000


def test_super_bonus_needs_a_seven_upcard():
    r = play(2500, "7H 8C 7H 7H 9S", [act(1, "hit")])
    assert seat(r)["returned"] == 2500 * 3  # 777 suited 2:1 only


def test_super_bonus_not_on_a_split_hand():
    r = play(1000, "7H 7C 7H 7H 7H 5S 9D 8D", [act(1, "split"), act(1, "hit"), act(1, "hit", 1)])
    # hand 0: 7H 7H 7H = 21 after a split: 777 suited 2:1, no super bonus; hand 1: 7H 5 9 = 21 1:1
    assert seat(r)["returned"] == 3000 + 2000


# ----- errors -----------------------------------------------------------------------------
def test_out_of_turn():
    refused([{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}], "9H 9S KD 8C 9C 7H",
            [act(2, "stand")], "out of turn")


def test_acting_on_a_finished_hand():
    refused(1000, "AS 5C KD 9H", [act(1, "stand")], "already complete")


def test_running_out_of_cards():
    refused(1000, "9H 5C 5D", [act(1, "hit")], "ran out of cards")


def test_running_out_of_cards_names_the_action_that_needed_the_card():
    message = refused(1000, "5H 5C 3D 2S", [act(1, "hit"), act(1, "hit"), act(1, "stand")], "ran out of cards")
    assert message.startswith("after action 2 (seat 1 hand 0 hit):"), message
    message = refused([{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}], "9H 8D 7C KS", [act(1, "stand")],
                      "ran out of cards")
    assert message.startswith("in the opening deal:"), message


def test_a_field_the_transcript_format_does_not_have_is_refused_not_skipped():
    # "pair" for "pair_bet" would otherwise be a round without the side bet the seat placed.
    refused([{"seat": 1, "wager": 1000, "pair": 500}], "9H 9S KD 8C", [act(1, "stand")],
            "seat 1: unknown fields ['pair']")


def test_ending_before_every_hand_is_finished():
    refused(1000, "9H 5C 5D 8D", [], "after the opening deal: the transcript ends before every hand is finished: "
                                     "a decision is awaited from seat 1 hand 0")
    refused(1000, "9H 5C 2D 3D 2C", [act(1, "hit")], "after action 1 (seat 1 hand 0 hit): the transcript ends")


def test_fields_of_the_player_banked_game_are_refused():
    # The house-banked game has seats, no players and no kitty: nothing is silently dropped.
    for extra, reason in (({"players": [{"seat": 2, "stake": 100}]}, "seats and players"),
                          ({"kitty": 500}, "kitty belongs to the player-banked game")):
        with pytest.raises(TranscriptError, match=reason):
            replay_data({"rules": "canberra", "paytable": "canberra-standard", "seats": [{"seat": 1, "wager": 1000}],
                         "cards": ["9H", "9S", "KD", "8C"], "actions": [{"seat": 1, "hand": 0, "action": "stand"}],
                         **extra})


def test_limits_name_only_the_bets_a_table_limits():
    with pytest.raises(TranscriptError, match=r"limits: unknown bet kinds \['mian'\]"):
        replay_data({"rules": "canberra", "paytable": "canberra-standard", "seats": [{"seat": 1, "wager": 1000}],
                     "cards": ["9H", "9S", "KD", "8C"], "actions": [{"seat": 1, "hand": 0, "action": "stand"}],
                     "limits": {"mian": {"min": 1, "max": 2}}})


@pytest.mark.parametrize("pair_bet", [None, False, "500", 500.0])
def test_a_pair_bet_is_a_whole_number_of_cents(pair_bet):
    refused([{"seat": 1, "wager": 1000, "pair_bet": pair_bet}], "9H 9S KD 8C", [act(1, "stand")],
            f"seat 1: side bet pair must be a whole number of cents, not {pair_bet!r}")
    refused([{"seat": 1, "wager": 1000, "side_bets": {"pair": pair_bet}}], "9H 9S KD 8C", [act(1, "stand")],
            f"seat 1: side bet pair must be a whole number of cents, not {pair_bet!r}")


def played(seats, cards: str, actions):
    """The engine's round a transcript of these seats, cards and decisions plays to."""
    transcript = parse_transcript({"rules": "canberra", "paytable": "canberra-standard", "seats": seats,
                                   "cards": cards.split(), "actions": actions})
    return play_transcript(*load_game(transcript, None), transcript)


def test_the_pair_bet_by_its_old_field_and_by_name_is_one_bet():
    old = played([{"seat": 1, "wager": 1000, "pair_bet": 500}], "8H 9C 8D 9D", [act(1, "stand")])
    new = played([{"seat": 1, "wager": 1000, "side_bets": {"pair": 500}}], "8H 9C 8D 9D", [act(1, "stand")])
    assert old.bets == new.bets
    assert [(bet.kind, bet.stake, bet.returned, bet.outcome) for bet in new.bets] == [
        ("pair", 500, 500 * 12, "pair"), ("main", 1000, 0, "lose")]
    assert new.transcript()["seats"] == [{"seat": 1, "wager": 1000, "side_bets": {"pair": 500}}]
    refused([{"seat": 1, "wager": 1000, "pair_bet": 500, "side_bets": {"pair": 500}}], "8H 9C 8D 9D",
            [act(1, "stand")], "seat 1: the pair bet is written twice")


@pytest.mark.parametrize("side_bets, reason", [
    ({"21+3": 500}, "seat 1: this paytable has no side bet '21+3' (it offers: pair)"),
    ({"pair": 499}, "seat 1: side bet pair of 499 is outside its limits 500 to 50000"),
    ({"pair": -5}, "seat 1: side bet pair must be a whole number of cents, not -5"),
    ([500], "seat 1: side_bets must map side bet names to cents"),
])
def test_a_side_bet_the_paytable_does_not_offer_or_limit_is_refused(side_bets, reason):
    refused([{"seat": 1, "wager": 1000, "side_bets": side_bets}], "8H 9C 8D 9D", [act(1, "stand")], reason)


def test_a_side_bet_of_nothing_is_no_bet():
    r = played([{"seat": 1, "wager": 1000, "side_bets": {"pair": 0}}], "8H 9C 8D 9D", [act(1, "stand")])
    assert [bet.kind for bet in r.bets] == ["main"] and "side_bets" not in r.transcript()["seats"][0]


def test_a_fifth_copy_of_a_card_is_refused():
    three = [{"seat": n, "wager": 1000} for n in (1, 2, 3)]
    message = refused(three, "9H 9H 9H 9H 9H 8D 8D", [], "copies are already out")
    assert message.startswith("card 5 (9H)")


def test_error_names_the_position():
    message = refused(1000, "2H 5C 3D 4D", [act(1, "hit"), act(1, "stand")], "action 2")
    assert message.startswith("action 2 (seat 1 hand 0 stand): stand is not allowed on 9")
