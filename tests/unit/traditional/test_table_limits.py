"""A table's own limits in the player-banked game: the kinds it may limit, each enforced by the
engine with the range in the refusal, and carried in the transcript so the round replays under them."""
from __future__ import annotations

import pytest

from service.engine.actions import RuleViolation
from service.engine.games.traditional import TraditionalRound
from service.engine.games.traditional.bank import put_up_kitty
from service.engine.games.traditional.rules import RuleFieldError
from service.engine.limits import Limits
from service.engine.transcript import TranscriptError
from service.replay import replay_data
from service.rules import load_rules

from .builders import nets, transcript

STAKE_5_TO_20 = {"stake": Limits(500, 2000)}


def _round(players, cards=(), rules="british-traditional", limits=None, kitty=None):
    round_ = TraditionalRound(load_rules(rules), players, kitty=kitty, limits=limits)
    for card in cards:
        round_.deal_card(card)
    return round_


@pytest.mark.parametrize("stake", [300, 5000, 499, 2001])
def test_a_stake_outside_the_tables_limits_is_refused_with_the_range(stake):
    # The rules alone take 100 to 10000: the table's $5 to $20 is what holds.
    with pytest.raises(RuleViolation, match=f"stake {stake} is outside the limits 500 to 2000"):
        _round([{"seat": 1, "stake": 1000}, {"seat": 2, "stake": stake}], limits=STAKE_5_TO_20)


@pytest.mark.parametrize("stake", [500, 2000])
def test_a_stake_at_either_end_of_the_tables_limits_is_taken(stake):
    assert _round([{"seat": 1, "stake": stake}], limits=STAKE_5_TO_20).seats[0].stake == stake


def test_a_kind_the_game_has_not_is_refused_naming_it():
    with pytest.raises(RuleViolation, match="limits.pair_bet is not a bet of the player-banked game"):
        _round([{"seat": 1, "stake": 1000}], limits={"pair_bet": Limits(100, 500)})
    with pytest.raises(RuleViolation, match="limits.kitty is not limited here: british-traditional plays no Shoot"):
        _round([{"seat": 1, "stake": 1000}], limits={"kitty": Limits(100, 500)})
    with pytest.raises(RuleFieldError):
        load_rules("british-traditional").with_limits({"main": Limits(100, 500)})


def test_the_kinds_a_table_limits_follow_the_game():
    assert load_rules("british-traditional").limit_kinds() == ("stake", "buy")
    assert load_rules("shoot-pontoon").limit_kinds() == ("stake", "buy", "shoot", "kitty")


def test_a_buy_is_held_to_the_tables_buy_limits_within_the_buy_rule():
    # 2 and 9 on a $10 stake: the rule lets the third card cost $10 to $20, the table $5 to $15.
    round_ = _round([{"seat": 1, "stake": 1000}], ["2H", "9C", "3D", "8S"],
                    limits={"buy": Limits(500, 1500)})
    assert [(a.min_amount, a.max_amount) for a in round_.legal_actions() if a.action == "buy"] == [(1000, 1500)]
    with pytest.raises(RuleViolation, match="buy amount 1600 is outside 1000 to 1500"):
        round_.buy(1, 0, 1600)
    round_.buy(1, 0, 1500)


def test_a_buy_the_tables_limits_leave_no_room_for_is_refused_with_both_ranges():
    round_ = _round([{"seat": 1, "stake": 1000}], ["2H", "9C", "3D", "8S"],
                    limits={"buy": Limits(2500, 5000)})
    assert not any(a.action == "buy" for a in round_.legal_actions())
    assert any(a.action == "twist" for a in round_.legal_actions())
    with pytest.raises(RuleViolation, match="may cost 1000 to 2000 by the rules, and the table's buy limits are "
                                            "2500 to 5000"):
        round_.buy(1, 0, 2000)


def test_a_shoot_bet_is_held_to_the_tables_shoot_limits_and_the_room_in_the_kitty():
    limits = {"shoot": Limits(200, 300)}
    with pytest.raises(RuleViolation, match="shoot bet 400 is outside the limits 200 to 300"):
        _round([{"seat": 1, "stake": 1000, "shoot": 400}], rules="shoot-pontoon", limits=limits, kitty=5000)
    round_ = _round([{"seat": 1, "stake": 1000}], ["2H", "9C", "3D", "8S"], rules="shoot-pontoon",
                    limits=limits, kitty=5000)
    round_.twist(1, 0)
    round_.deal_card("4C")   # three cards: a shoot bet may go on before the fourth
    assert [(a.min_amount, a.max_amount) for a in round_.legal_actions() if a.action == "shoot"] == [(200, 300)]
    with pytest.raises(RuleViolation, match=r"shoot bet 350 is outside 200 to 300 \(the table's shoot limit\)"):
        round_.shoot(1, 0, 350)
    round_.shoot(1, 0, 300)


def test_the_kitty_is_put_up_within_the_tables_kitty_limits():
    rules = load_rules("shoot-pontoon").with_limits({"kitty": Limits(1000, 3000)})
    with pytest.raises(RuleViolation, match="between 1000 and 3000"):
        put_up_kitty(rules, 0, 5000)
    assert put_up_kitty(rules, 0, 3000).amount == 3000


def test_the_limits_shown_are_the_figures_the_round_enforces():
    rules = load_rules("shoot-pontoon")
    assert rules.limit_figures() == {"stake": (100, 10000), "buy": (100, 20000), "shoot": (100, 100000),
                                     "kitty": (500, 100000)}
    assert rules.with_limits({"stake": Limits(500, 2000), "shoot": Limits(200, 300)}).limit_figures() == {
        "stake": (500, 2000), "buy": (500, 4000), "shoot": (200, 300), "kitty": (500, 100000)}


def test_the_transcript_carries_the_tables_limits_and_replays_under_them():
    players = [{"seat": 1, "stake": 1000}, {"seat": 2, "stake": 2000}]
    cards = ["9H", "TC", "7D", "8C", "TS", "9D"]
    round_ = _round(players, cards, limits=STAKE_5_TO_20)
    round_.stick(1, 0)
    round_.stick(2, 0)
    round_.stay(0)
    written = round_.transcript()
    assert written["limits"] == {"stake": {"min": 500, "max": 2000}}
    replayed = replay_data(written)
    # 9 8 and ten ten against the banker's 7 9 staying on 16: both players win their stakes.
    assert nets(replayed) == nets(round_.result()) == {"banker": -3000, 1: 1000, 2: 2000}
    # The same players under tighter limits than the round was played at are refused on replay.
    with pytest.raises(TranscriptError, match="stake 2000 is outside the limits 500 to 1500"):
        replay_data({**written, "limits": {"stake": {"min": 500, "max": 1500}}})
    with pytest.raises(TranscriptError, match="pair_bet"):
        replay_data({**written, "limits": {"pair_bet": {"min": 500, "max": 1500}}})


def test_a_round_without_limits_of_its_own_writes_none():
    written = transcript([(1, 1000)], ["9H", "TC", "7D", "8C"], [(1, "stick"), (0, "stay")])
    assert "limits" not in _round([{"seat": 1, "stake": 1000}], written["cards"]).transcript()
