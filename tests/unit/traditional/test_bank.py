"""Between rounds: the kitty put up within its limits, handed back with the bank, and the bank sold."""
from __future__ import annotations

import pytest

from service.engine.actions import RuleViolation
from service.engine.games.traditional.bank import hand_back_kitty, put_up_kitty, sell_bank
from service.rules import load_rules


def test_a_kitty_is_put_up_within_its_limits_and_only_in_shoot_pontoon():
    shoot = load_rules("shoot-pontoon")          # kitty limits 500 to 100000
    moved = put_up_kitty(shoot, 3, 500)
    assert (moved.from_party, moved.to_party, moved.amount) == ("seat 3", "kitty", 500)
    with pytest.raises(RuleViolation, match="between 500 and 100000"):
        put_up_kitty(shoot, 3, 499)
    assert put_up_kitty(shoot, 3, 100, kitty_now=400).amount == 100
    with pytest.raises(RuleViolation, match="only in Shoot Pontoon"):
        put_up_kitty(load_rules("british-traditional"), 3, 500)


def test_the_old_banker_takes_the_kitty_and_a_sale_is_paid_by_the_buyer():
    taken = hand_back_kitty(2, 650)
    assert (taken.from_party, taken.to_party, taken.amount) == ("kitty", "seat 2", 650)
    assert hand_back_kitty(2, 0) is None
    sale = sell_bank(2, 5, 1000)
    assert (sale.from_party, sale.to_party, sale.amount) == ("seat 5", "seat 2", 1000)
    with pytest.raises(RuleViolation):
        sell_bank(2, 2, 1000)
