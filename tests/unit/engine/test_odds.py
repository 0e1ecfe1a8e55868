"""Odds as exact ratios: what a paytable may write, and the bounds that keep payouts in 64 bits."""
from __future__ import annotations

import pytest

from service.engine.odds import MAX_ODDS_TERM, Odds


@pytest.mark.parametrize("text, odds", [("3:2", Odds(3, 2)), (" 11 : 1 ", Odds(11, 1)), ([7, 5], Odds(7, 5)),
                                        (f"{MAX_ODDS_TERM}:1", Odds(MAX_ODDS_TERM, 1))])
def test_odds_are_read_from_text_or_a_pair(text, odds):
    assert Odds.parse(text) == odds


@pytest.mark.parametrize("text, reason", [
    ("1_000:1", "is not odds"), ("+3:2", "is not odds"), ("\u0663:2", "is not odds"), ("3.0:2", "is not odds"),
    ("3", "is not odds"), ("-3:2", "positive on both sides"), ("0:1", "positive on both sides"),
    (f"{MAX_ODDS_TERM + 1}:1", f"at most {MAX_ODDS_TERM}"), (f"1:{MAX_ODDS_TERM + 1}", f"at most {MAX_ODDS_TERM}"),
    ("100000000000000000000000:1", f"at most {MAX_ODDS_TERM}"),
])
def test_odds_outside_what_a_paytable_may_pay_are_refused_by_name(text, reason):
    with pytest.raises(ValueError, match=reason):
        Odds.parse(text)


def test_which_odds_pay_more_is_decided_on_integers():
    assert Odds(3, 2).pays_more_than(Odds(7, 5)) and not Odds(7, 5).pays_more_than(Odds(3, 2))
    assert not Odds(6, 4).pays_more_than(Odds(3, 2)) and not Odds(3, 2).pays_more_than(Odds(6, 4))
    assert Odds(3334, 10000).pays_more_than(Odds(1, 3)) and Odds(1, 3).pays_more_than(Odds(3333, 10000))
