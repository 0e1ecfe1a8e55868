"""The dealer's outcome chances from finishing multisets agree with drawing card by card."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from service.analysis.exact.dealer import BUST, PONTOON, DealerRule, dealer_finals, dealer_table


def _card_by_card(shoe: list[int], upcard: int, rule: DealerRule) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}

    def draw(hard: int, ace: bool, first: bool, chance: Fraction) -> None:
        left = sum(shoe)
        for rank in range(10):
            if not shoe[rank]:
                continue
            p = chance * Fraction(shoe[rank], left)
            if first and rule.pontoon_on_ten and {upcard, rank} == {0, 9}:
                out[PONTOON] = out.get(PONTOON, 0) + p
                continue
            total_hard, has_ace = hard + rank + 1, ace or rank == 0
            soft = has_ace and total_hard + 10 <= 21
            total = total_hard + 10 if soft else total_hard
            if total_hard > 21:
                out[BUST] = out.get(BUST, 0) + p
            elif total > rule.stands_on or (total == rule.stands_on and not (soft and rule.hits_soft)):
                out[total] = out.get(total, 0) + p
            else:
                shoe[rank] -= 1
                draw(total_hard, has_ace, False, p)
                shoe[rank] += 1

    draw(upcard + 1, upcard == 0, True, Fraction(1))
    return out


@pytest.mark.parametrize("upcard", [0, 5, 9])
@pytest.mark.parametrize("rule", [DealerRule(17, True, True), DealerRule(17, False, False)])
def test_finishing_multisets_match_card_by_card_on_a_small_depleted_shoe(upcard, rule):
    full = np.array([4, 4, 4, 4, 4, 4, 4, 4, 4, 16], dtype=np.int64)
    seen = np.array([[1, 0, 2, 0, 0, 1, 0, 0, 0, 3]], dtype=np.int64)
    finals = dealer_finals(rule, upcard)
    table = dealer_table(full, seen, upcard, finals.cards, finals.orders, finals.outcome)[0]
    shoe = [int(c) for c in full - seen[0]]
    shoe[upcard] -= 1
    expected = _card_by_card(shoe, upcard, rule)
    for outcome, chance in expected.items():
        assert table[outcome] == pytest.approx(float(chance), abs=1e-12)
    assert table.sum() == pytest.approx(1.0)


def test_a_shoe_that_cannot_be_dealt_gives_nothing():
    finals = dealer_finals(DealerRule(17, True, True), 3)
    full = np.array([4] * 9 + [16], dtype=np.int64)
    table = dealer_table(full, np.array([[5, 0, 0, 0, 0, 0, 0, 0, 0, 0]]), 3, finals.cards, finals.orders,
                         finals.outcome)
    assert not table.any()
