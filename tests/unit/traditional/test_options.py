"""Each option of the spec's table changes the money as the spec says (amounts worked by hand)."""
from __future__ import annotations

import pytest

from service.engine.transcript import TranscriptError

from .builders import nets, play

# Card order: first card to each player in seat order, the banker's first, second card to each
# player, the banker's second, then as play needs them.


# ----- stick_min ------------------------------------------------------------------------------
STICK_ON_15 = dict(players=[(1, 100)], cards=["9H", "TC", "6D", "7S"], actions=[(1, "stick", 0), (0, "stay")])


def test_stick_on_15_is_allowed_by_default_and_loses_to_17():
    assert nets(play(**STICK_ON_15)) == {"banker": 100, 1: -100}


def test_stick_min_16_refuses_a_stick_on_15():
    with pytest.raises(TranscriptError, match=r"action 1 .*stick is not allowed on 15: the minimum is 16"):
        play(**STICK_ON_15, options={"stick_min": 16})


def test_the_16_school_file_refuses_a_stick_on_15():
    with pytest.raises(TranscriptError, match="minimum is 16"):
        play(**STICK_ON_15, rules="british-school-16-aces")


# ----- split_pairs ----------------------------------------------------------------------------
EIGHTS = dict(players=[(1, 100)], cards=["8H", "TC", "8S", "7S", "3C", "TD"],
              actions=[(1, "split", 0), (1, "stick", 0)])


def test_split_pairs_aces_refuses_to_split_eights():
    with pytest.raises(TranscriptError, match="only aces may be split"):
        play(**EIGHTS, options={"split_pairs": "aces"})


def test_split_pairs_aces_splits_aces_and_a_split_pontoon_pays_but_keeps_the_bank():
    # AH AS split against 9C 8D (17): hand 0 AH KH is a (split) Pontoon, 2 x 100;
    # hand 1 AS 9S is 20 and beats 17, 100. The Pontoon shuffles the pack but passes no bank.
    result = play(players=[(1, 100)], cards=["AH", "9C", "AS", "8D", "KH", "9S"],
                  actions=[(1, "split", 0), (1, "stick", 1), (0, "stay")], options={"split_pairs": "aces"})
    assert nets(result) == {"banker": -300, 1: 300}
    assert result["reshuffle"] is True
    assert result["next_banker"] is None


# ----- pontoon_pays / five_card_trick_pays / banker_pontoon_collects --------------------------
PLAYER_PONTOON = dict(players=[(1, 100)], cards=["AS", "9C", "JD", "8S"], actions=[(0, "stay")])


@pytest.mark.parametrize("pays, net", [(1, 100), (2, 200), (3, 300)])
def test_pontoon_pays(pays, net):
    assert nets(play(**PLAYER_PONTOON, options={"pontoon_pays": pays})) == {"banker": -net, 1: net}


@pytest.mark.parametrize("pays, net", [(2, 200), (3, 300)])
def test_five_card_trick_pays(pays, net):
    # 2H 3D + 4S 2C 5D by twists: five cards on 16, stake 100.
    result = play(players=[(1, 100)], cards=["2H", "9C", "3D", "8S", "4S", "2C", "5D"],
                  actions=[(1, "twist", 0), (1, "twist", 0), (1, "twist", 0), (0, "stay")],
                  options={"five_card_trick_pays": pays})
    assert nets(result) == {"banker": -net, 1: net}
    assert result["players"][0]["hands"][0]["outcome"] == "five-card-trick"


@pytest.mark.parametrize("collects", [2, 3])
def test_banker_pontoon_collects_a_multiple_of_each_initial_stake_and_ends_the_round(collects):
    result = play(players=[(1, 100), (3, 250)], cards=["9H", "5C", "AS", "8D", "6C", "KS"], actions=[],
                  options={"banker_pontoon_collects": collects})
    assert nets(result) == {"banker": 350 * collects, 1: -100 * collects, 3: -250 * collects}
    assert result["banker"]["pontoon"] is True and result["reshuffle"] is True and result["next_banker"] is None


# ----- ace_ten_is_pontoon ---------------------------------------------------------------------
ACE_TEN = dict(players=[(1, 100)], cards=["AH", "9C", "TD", "8S"])


def test_ace_and_ten_is_pontoon_by_default():
    result = play(**ACE_TEN, actions=[(0, "stay")])
    assert nets(result) == {"banker": -200, 1: 200} and result["next_banker"] == 1


def test_ace_and_ten_is_a_plain_21_when_the_option_is_off():
    # Not a Pontoon: the hand must stick (its hard total is 11), wins 100 against 17, and neither
    # shuffles the pack nor passes the bank.
    result = play(**ACE_TEN, actions=[(1, "stick", 0), (0, "stay")], options={"ace_ten_is_pontoon": False})
    assert nets(result) == {"banker": -100, 1: 100}
    assert result["reshuffle"] is False and result["next_banker"] is None


def test_a_banker_ace_and_ten_is_no_pontoon_when_the_option_is_off_and_ties_go_to_the_banker():
    # Banker AS TC is 21 but plays on; the player's 21 in three cards ties and loses.
    result = play(players=[(1, 100)], cards=["9H", "AS", "5D", "TC", "7C"],
                  actions=[(1, "twist", 0), (0, "stay")], options={"ace_ten_is_pontoon": False})
    assert nets(result) == {"banker": 100, 1: -100}
    assert result["banker"]["pontoon"] is False


# ----- natural_beats_plain --------------------------------------------------------------------
# Banker AS JD is a plain Pontoon. Seat 1 AH KD natural, seat 2 AD TH plain, seat 3 9C 9D.
NATURAL_VS_PLAIN = dict(players=[(1, 100), (2, 100), (3, 100)],
                        cards=["AH", "AD", "9C", "AS", "KD", "TH", "9D", "JD"], actions=[])


def test_a_natural_pays_the_banker_plain_pontoon_like_any_hand_by_default():
    assert nets(play(**NATURAL_VS_PLAIN)) == {"banker": 600, 1: -200, 2: -200, 3: -200}


def test_natural_beats_plain_pays_the_natural_instead():
    result = play(**NATURAL_VS_PLAIN, options={"natural_beats_plain": True})
    assert nets(result) == {"banker": 200, 1: 200, 2: -200, 3: -200}
    assert result["next_banker"] is None  # the banker had a Pontoon


def test_natural_beats_plain_does_not_beat_a_banker_natural():
    result = play(players=[(1, 100)], cards=["AH", "AS", "KD", "QS"], actions=[],
                  options={"natural_beats_plain": True})
    assert nets(result) == {"banker": 200, 1: -200}


# ----- royal_pontoon --------------------------------------------------------------------------
# Seat 1: 7H 7D, twists 7C; banker 2S 3S draws 2D 4H 3C to a Five Card Trick on 14.
THREE_SEVENS = dict(players=[(1, 100)], cards=["7H", "2S", "7D", "3S", "7C", "2D", "4H", "3C"],
                    actions=[(1, "twist", 0), (0, "draw"), (0, "draw"), (0, "draw")])


def test_three_sevens_are_a_plain_21_that_loses_to_a_banker_trick_by_default():
    assert nets(play(**THREE_SEVENS)) == {"banker": 200, 1: -200}


def test_royal_pontoon_beats_even_a_banker_trick_and_wins_three_times():
    result = play(**THREE_SEVENS, options={"royal_pontoon": True})
    assert nets(result) == {"banker": -300, 1: 300}
    assert result["reshuffle"] is False and result["next_banker"] is None


# ----- no_buy_fifth_on_eleven -----------------------------------------------------------------
# 2H 3D, buys 2C (100) and 3C (100): four cards on a hard 10; the fifth is 5D, a trick on 15.
SMALL_FOUR = dict(players=[(1, 100)], cards=["2H", "9C", "3D", "8S", "2C", "3C", "5D"])


def test_the_fifth_card_may_be_bought_on_eleven_or_less_by_default():
    result = play(**SMALL_FOUR, actions=[(1, "buy", 0, 100), (1, "buy", 0, 100), (1, "buy", 0, 100), (0, "stay")])
    assert nets(result) == {"banker": -800, 1: 800}   # stake 400, trick pays 2 x


def test_no_buy_fifth_on_eleven_refuses_the_buy_but_lets_it_twist():
    actions = [(1, "buy", 0, 100), (1, "buy", 0, 100), (1, "buy", 0, 100), (0, "stay")]
    with pytest.raises(TranscriptError, match="action 3 .*may only twist the fifth"):
        play(**SMALL_FOUR, actions=actions, options={"no_buy_fifth_on_eleven": True})
    result = play(**SMALL_FOUR, actions=[*actions[:2], (1, "twist", 0), (0, "stay")],
                  options={"no_buy_fifth_on_eleven": True})
    assert nets(result) == {"banker": -600, 1: 600}   # stake 300, trick pays 2 x


# ----- burn -----------------------------------------------------------------------------------
BURN_13 = dict(players=[(1, 100)], cards=["9H", "TC", "4D", "7S", "AS", "KD"], actions=[(1, "burn", 0), (0, "stay")])


def test_burn_is_refused_without_the_option():
    with pytest.raises(TranscriptError, match="no burning"):
        play(**BURN_13)


def test_a_burned_hand_can_make_a_pontoon_that_passes_the_bank():
    result = play(**BURN_13, options={"burn": 13})
    assert nets(result) == {"banker": -200, 1: 200}
    hand = result["players"][0]["hands"][0]
    assert hand["cards"] == ["AS", "KD"] and hand["burned"] == ["9H", "4D"]
    assert result["next_banker"] == 1 and result["reshuffle"] is True


def test_burn_14_does_not_burn_13_nor_a_soft_14():
    with pytest.raises(TranscriptError, match="hard total 14"):
        play(**BURN_13, options={"burn": 14})
    with pytest.raises(TranscriptError, match="hard total 14"):
        play(players=[(1, 100)], cards=["AH", "TC", "3D", "7S"], actions=[(1, "burn", 0)], options={"burn": 14})


def test_burn_again_after_a_burn():
    # 9H 4D burned for 6C 7D (13 again), burned for TH 9S: 19 beats 17.
    result = play(players=[(1, 100)], cards=["9H", "TC", "4D", "7S", "6C", "7D", "TH", "9S"],
                  actions=[(1, "burn", 0), (1, "burn", 0), (1, "stick", 0), (0, "stay")], options={"burn": 13})
    assert nets(result) == {"banker": -100, 1: 100}
    assert result["players"][0]["hands"][0]["burned"] == ["9H", "4D", "6C", "7D"]


# ----- banker_may_double ----------------------------------------------------------------------
# Seat 1 9H 9D (18) sticks; seat 2 AH KD Pontoon; seat 3 TH 5C twists KH and busts; banker TC 7S.
DOUBLED = dict(players=[(1, 100), (2, 100), (3, 100)], cards=["9H", "AH", "TH", "TC", "9D", "KD", "5C", "7S", "KH"],
               actions=[(0, "double_stakes"), (1, "stick", 0), (3, "twist", 0), (0, "stay")])


def test_double_stakes_is_refused_without_the_option():
    with pytest.raises(TranscriptError, match="action 1 .*do not let the banker double"):
        play(**DOUBLED)


def test_doubled_stakes_double_plain_payments_but_not_the_pontoon():
    result = play(**DOUBLED, options={"banker_may_double": True})
    # 18 beats 17: 2 x 100; Pontoon: 2 x 100 undoubled; bust: 2 x 100.
    assert nets(result) == {"banker": -200, 1: 200, 2: 200, 3: -200}


def test_double_stakes_only_as_the_first_action():
    actions = [(1, "stick", 0), (0, "double_stakes"), (3, "twist", 0), (0, "stay")]
    with pytest.raises(TranscriptError, match="action 2 .*first decision"):
        play(**{**DOUBLED, "actions": actions}, options={"banker_may_double": True})


def test_a_double_before_the_banker_turns_up_a_pontoon_is_taken_and_changes_nothing():
    """The banker doubles having seen the first card; the second then makes a Pontoon, which ends
    the round at the deal and collects twice the undoubled stake."""
    cards = ["9H", "AS", "8H", "KS"]
    doubled = play(players=[(1, 100)], cards=cards, actions=[(0, "double_stakes")], options={"banker_may_double": True})
    undoubled = play(players=[(1, 100)], cards=cards, actions=[], options={"banker_may_double": True})
    assert nets(doubled) == nets(undoubled) == {"banker": 200, 1: -200}
    with pytest.raises(TranscriptError, match="action 2 .*already complete"):
        play(players=[(1, 100)], cards=cards, actions=[(0, "double_stakes"), (0, "double_stakes")],
             options={"banker_may_double": True})
    with pytest.raises(TranscriptError, match="action 1 .*already complete"):
        play(players=[(1, 100)], cards=cards, actions=[(0, "double_stakes")])


def test_a_round_the_banker_pontoon_ended_lists_no_legal_decision():
    from service.engine.games.traditional import TraditionalRound
    from service.rules import load_rules

    round_ = TraditionalRound(load_rules("british-traditional", {"banker_may_double": True}),
                              [{"seat": 1, "stake": 100}])
    for card in ["9H", "AS", "8H", "KS"]:
        round_.deal_card(card)
    assert round_.complete and round_.legal_actions() == []


def test_a_banker_trick_collects_twice_the_undoubled_stake_when_doubled():
    result = play(players=[(1, 100)], cards=["9H", "2S", "9D", "3S", "2D", "4H", "3C"],
                  actions=[(0, "double_stakes"), (1, "stick", 0), (0, "draw"), (0, "draw"), (0, "draw")],
                  options={"banker_may_double": True})
    assert nets(result) == {"banker": 200, 1: -200}


# ----- shoot ----------------------------------------------------------------------------------
def test_shoot_bets_are_refused_when_shoot_is_off():
    with pytest.raises(ValueError, match="Shoot Pontoon"):
        play(players=[(1, 100, 200)], cards=["9H", "TC", "9D", "7S"], actions=[(1, "stick", 0), (0, "stay")])


def test_a_shoot_bet_before_the_fourth_card_is_paid_from_the_kitty():
    # 2H 3D twist 4S (9); shoot 300 more (room 500 - 200); twist TD (19); 19 beats 17:
    # stake 100 from the banker, shoot bets 200 + 300 from the kitty.
    result = play(players=[(1, 100, 200)], cards=["2H", "9C", "3D", "8S", "4S", "TD"],
                  actions=[(1, "twist", 0), (1, "shoot", 0, 300), (1, "twist", 0), (1, "stick", 0), (0, "stay")],
                  options={"shoot": True}, kitty=500)
    assert nets(result) == {"banker": -100, 1: 600}
    assert result["kitty"] == 0


def test_shoot_bets_open_at_once_may_not_exceed_the_kitty():
    with pytest.raises(TranscriptError, match="action 2 .*outside 100 to 300"):
        play(players=[(1, 100, 200)], cards=["2H", "9C", "3D", "8S", "4S", "TD"],
             actions=[(1, "twist", 0), (1, "shoot", 0, 301)], options={"shoot": True}, kitty=500)
    with pytest.raises(TranscriptError, match="exceed the kitty"):
        play(players=[(1, 100, 300), (2, 100, 300)], cards=[], actions=[], options={"shoot": True}, kitty=500)


def test_a_shoot_bet_binds_the_hand_to_take_its_fourth_card():
    with pytest.raises(TranscriptError, match="action 3 .*binds the hand"):
        play(players=[(1, 100)], cards=["5H", "9C", "6D", "8S", "4S"],
             actions=[(1, "twist", 0), (1, "shoot", 0, 100), (1, "stick", 0)], options={"shoot": True}, kitty=500)


def test_a_banker_pontoon_takes_every_shoot_bet_into_the_kitty():
    result = play(players=[(1, 100, 200), (2, 100, 100)], cards=["9H", "5C", "AS", "8D", "6C", "KS"], actions=[],
                  options={"shoot": True}, kitty=500)
    assert nets(result) == {"banker": 400, 1: -400, 2: -300}
    assert result["kitty"] == 800


def test_a_split_hand_takes_its_own_shoot_bet_and_a_bust_frees_room():
    # Seat 1 8H 8S split, shoot 300 on the new hand (room 400 - 100). Hand 0 8H 6C twists KC: bust,
    # losing 100 stake + 100 shoot (kitty 500). Hand 1 8S 9D sticks on 17 against banker TC 6S:
    # wins 100 + 300 from the kitty (kitty 200).
    result = play(players=[(1, 100, 100)], cards=["8H", "TC", "8S", "6S", "6C", "9D", "KC"],
                  actions=[{"seat": 1, "hand": 0, "action": "split", "shoot": 300}, (1, "twist", 0),
                           (1, "stick", 1), (0, "stay")],
                  options={"shoot": True}, kitty=400)
    assert nets(result) == {"banker": 0, 1: 200}
    assert result["kitty"] == 200
