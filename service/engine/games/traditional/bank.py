"""Money that moves between rounds: putting up and handing back the kitty, and selling the bank."""
from __future__ import annotations

from ...actions import RuleViolation
from ...round_core import whole_cents
from .rules import TraditionalRules
from .transfers import KITTY, Transfer, seat_party


def put_up_kitty(rules: TraditionalRules, banker_seat: int, amount: int, kitty_now: int = 0) -> Transfer:
    """The banker puts up a kitty (or adds to it between rounds); the kitty then lies within the limits."""
    if not rules.shoot:
        raise RuleViolation("a kitty is played only in Shoot Pontoon (shoot: true)")
    limits = rules.kitty_limits
    if not whole_cents(amount) or amount < 1:
        raise RuleViolation(f"a kitty is put up in whole cents, not {amount!r}")
    # Adding may not take the kitty over the maximum, but a grown kitty may be topped up below it.
    if not limits.minimum <= kitty_now + amount <= limits.maximum:
        raise RuleViolation(f"the kitty would hold {kitty_now + amount}: it must be put up between "
                            f"{limits.minimum} and {limits.maximum}")
    return Transfer(seat_party(banker_seat), KITTY, amount, "kitty-put-up", banker_seat, None)


def hand_back_kitty(old_banker_seat: int, kitty: int) -> Transfer | None:
    """When the bank changes hands the old banker takes the kitty."""
    if kitty <= 0:
        return None
    return Transfer(KITTY, seat_party(old_banker_seat), kitty, "kitty-taken", old_banker_seat, None)


def sell_bank(seller_seat: int, buyer_seat: int, price: int) -> Transfer:
    """The bank sold between rounds at an agreed price: the buyer pays the seller."""
    if seller_seat == buyer_seat:
        raise RuleViolation("the bank cannot be sold to the seat that holds it")
    if not whole_cents(price) or price < 0:
        raise RuleViolation(f"the bank's price must be whole cents, not {price!r}")
    return Transfer(seat_party(buyer_seat), seat_party(seller_seat), price, "bank-sale", buyer_seat, None)
