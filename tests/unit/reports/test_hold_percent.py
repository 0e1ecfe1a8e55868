"""Hold is win over drop in percent to two places, halves away from zero, exact for any cents."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.reports.tables import hold_percent


@pytest.mark.parametrize("win, drop, hold", [
    (1, 800, 0.13),            # 0.125: a float's rounding gives 0.12
    (-1, 800, -0.13),
    (1, 3, 33.33),
    (2, 3, 66.67),
    (0, 500, 0.0),
    (500, 500, 100.0),
    (-1_500, 1_000, -150.0),
    (1_234_567, 10**12, 0.0),
])
def test_hold_to_two_places_with_halves_away_from_zero(win, drop, hold):
    assert hold_percent(win, drop) == hold


def test_no_drop_has_no_hold():
    assert hold_percent(0, 0) is None and hold_percent(-500, 0) is None


@given(win=st.integers(-10**12, 10**12), drop=st.integers(1, 10**12))
def test_hold_agrees_with_decimal_arithmetic(win, drop):
    exact = (Decimal(win) * 100 / Decimal(drop)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert hold_percent(win, drop) == float(exact)
