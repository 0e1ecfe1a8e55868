"""A report's percentage (game win of handle, win of drop) to two places, halves away from zero,
exact for any cents."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.reports.tables import percent_of


@pytest.mark.parametrize("part, whole, percent", [
    (1, 800, 0.13),            # 0.125: a float's rounding gives 0.12
    (-1, 800, -0.13),
    (1, 3, 33.33),
    (2, 3, 66.67),
    (0, 500, 0.0),
    (500, 500, 100.0),
    (-1_500, 1_000, -150.0),
    (1_234_567, 10**12, 0.0),
])
def test_two_places_with_halves_away_from_zero(part, whole, percent):
    assert percent_of(part, whole) == percent


def test_nothing_has_no_percentage():
    assert percent_of(0, 0) is None and percent_of(-500, 0) is None


@given(part=st.integers(-10**12, 10**12), whole=st.integers(1, 10**12))
def test_agrees_with_decimal_arithmetic(part, whole):
    exact = (Decimal(part) * 100 / Decimal(whole)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert percent_of(part, whole) == float(exact)
