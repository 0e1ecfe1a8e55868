"""What the pit sees of a player-banked round, as the engine gives it: final statuses once the round
is complete, twists counted, the room in the kitty, and a physical pack that deals no card twice
before it has gone round."""
from __future__ import annotations

import pytest

from service.engine.games.traditional import TraditionalRound
from service.engine.games.traditional.pack import PhysicalPack
from service.engine.shoe import ShoeError, ShoeSpec
from service.rules import load_rules


def _round(players, cards=(), rules="british-traditional", kitty=None):
    round_ = TraditionalRound(load_rules(rules), players, kitty=kitty)
    for card in cards:
        round_.deal_card(card)
    return round_


def _statuses(round_):
    snapshot = round_.snapshot()
    return snapshot["banker"]["status"], [h["status"] for p in snapshot["players"] for h in p["hands"]]


def test_after_the_bankers_pontoon_no_hand_is_still_playing():
    round_ = _round([{"seat": 1, "stake": 100}, {"seat": 2, "stake": 200}], ["9H", "5C", "AS", "7D", "6C", "KD"])
    assert round_.complete
    assert _statuses(round_) == ("pontoon", ["unplayed", "unplayed"])
    assert [h["outcome"] for p in round_.result()["players"] for h in p["hands"]] == ["banker-pontoon"] * 2


def test_when_every_player_is_bust_the_banker_did_not_play():
    round_ = _round([{"seat": 1, "stake": 100}], ["TH", "5C", "6D", "4S"])
    round_.twist(1, 0)
    round_.deal_card("KC")
    assert round_.complete and round_.snapshot()["phase"] == "complete"
    assert _statuses(round_) == ("unplayed", ["bust"])


def test_a_complete_round_leaves_no_status_playing():
    round_ = _round([{"seat": 1, "stake": 100}], ["TH", "5C", "8D", "4S"])
    round_.stick(1, 0)
    round_.draw(0)
    round_.deal_card("9C")
    assert _statuses(round_) == ("playing", ["stuck"])   # the banker's 18 may still draw
    round_.stay(0)
    assert round_.complete and _statuses(round_) == ("stayed", ["stuck"])


def test_a_hand_that_buys_then_twists_shows_both():
    round_ = _round([{"seat": 1, "stake": 100}], ["2H", "5C", "3D", "4S"])
    round_.buy(1, 0, 150)
    round_.deal_card("4C")
    round_.twist(1, 0)
    round_.deal_card("2C")
    hand = round_.snapshot()["players"][0]["hands"][0]
    assert (hand["cards"], hand["buys"], hand["twisted"], hand["twists"]) == (["2H", "3D", "4C", "2C"], [150], True, 1)


@pytest.mark.parametrize(("won", "kitty_after"), [(True, 800), (False, 1200)])
def test_the_room_in_the_kitty_is_the_kitty_once_the_round_is_complete(won, kitty_after):
    # A shoot bet of 200 against a kitty of 1000: 19 or 15 against the banker's 17.
    second = "9D" if won else "5D"
    round_ = _round([{"seat": 1, "stake": 100, "shoot": 200}], ["TH", "7C", second, "TS"], rules="shoot-pontoon",
                    kitty=1000)
    assert round_.snapshot()["shoot_room"] == 800     # the kitty less the shoot bet open on it
    if won:
        round_.stick(1, 0)
    else:
        round_.twist(1, 0)
        round_.deal_card("KC")   # bust: the shoot bet goes into the kitty at once
    if not round_.complete:
        round_.stay(0)
    assert round_.complete
    snapshot = round_.snapshot()
    assert snapshot["kitty"] == kitty_after and snapshot["shoot_room"] == kitty_after


def test_the_room_never_reads_below_nothing_when_the_kitty_is_shot_out():
    round_ = _round([{"seat": 1, "stake": 100, "shoot": 200}], ["TH", "7C", "9D", "TS"], rules="shoot-pontoon",
                    kitty=200)
    round_.stick(1, 0)
    round_.stay(0)
    snapshot = round_.snapshot()
    assert (snapshot["kitty"], snapshot["shoot_room"]) == (0, 0)


# ----- the physical pack -------------------------------------------------------------------
ONE_PACK = ShoeSpec(1)


def test_a_card_out_since_the_shuffle_is_refused_while_unseen_cards_lie_above_it():
    pack = PhysicalPack(ONE_PACK, dealt=["AS", "KD", "7C"], returned=["AS", "KD", "7C"])
    with pytest.raises(ShoeError, match="AS cannot come from this pack: it has been dealt since it was last "
                                        "shuffled, and the 49 card"):
        pack.accept("AS")
    assert pack.accept("2H") == "2H"


def test_once_every_card_has_gone_round_the_next_is_the_first_that_went_under():
    every = ONE_PACK.ordered_cards()
    pack = PhysicalPack(ONE_PACK, dealt=every, returned=["7C", "KD"])
    with pytest.raises(ShoeError, match="the next is 7C"):
        pack.accept("KD")
    pack.accept("7C")
    pack.accept("KD")
    with pytest.raises(ShoeError, match="every card of the pack is on the table"):
        pack.accept("2H")


def test_two_packs_take_a_second_copy_but_not_a_third():
    pack = PhysicalPack(ShoeSpec(2), dealt=["AS"], returned=[])
    pack.accept("AS")
    with pytest.raises(ShoeError, match="all 2 copies have been dealt since"):
        pack.accept("AS")
