"""The dealer's screen reads amounts as the chips read (dollars) into cents, and names hands as
people count them."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.dealer.amounts import AmountProblem, cents_of, dollars_of, optional_cents
from service.dealer.words import decision_words, to_whom, turn_words


@pytest.mark.parametrize("typed, cents", [("25", 2500), ("12.50", 1250), ("12.5", 1250), ("$7.25", 725),
                                          ("1,000", 100000), (" 5 ", 500), ("0.05", 5)])
def test_an_amount_is_read_in_dollars_and_cents(typed, cents):
    assert cents_of(typed) == cents


@pytest.mark.parametrize("typed", ["", "ten", "12.505", "-5", "1,00", "5e3", "12,50"])
def test_what_is_not_an_amount_is_refused_in_words(typed):
    with pytest.raises(AmountProblem) as refused:
        cents_of(typed)
    assert "dollars" in str(refused.value)


def test_nothing_is_not_a_bet_but_zero_is_no_bet_only_where_a_field_may_be_empty():
    with pytest.raises(AmountProblem, match="more than"):
        cents_of("0")
    assert optional_cents("") is None and optional_cents("0") is None and optional_cents("5") == 500


@given(st.integers(min_value=1, max_value=10**9))
def test_an_amount_written_back_into_its_field_reads_the_same(cents):
    assert cents_of(dollars_of(cents)) == cents


def test_hands_are_counted_from_one_where_a_person_reads_them():
    assert to_whom("seat 2 hand 0") == "seat 2, hand 1"
    assert to_whom("dealer") == "the dealer"
    assert turn_words({"seat": 3, "hand": 1}) == "Seat 3, hand 2"
    assert turn_words({"seat": 0, "hand": None}) == "The banker"
    assert decision_words("double_stakes") == "Double stakes"
