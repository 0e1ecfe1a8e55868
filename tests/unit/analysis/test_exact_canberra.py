"""The exact recursion under Canberra's rules and the standard paytable."""
from __future__ import annotations

from math import comb

import pytest

from service.analysis.exact.canberra_game import analyse_canberra
from service.analysis.exact.shoe import VALUE_RANKS
from service.rules import load_house_banked_rules, load_paytable


@pytest.fixture(scope="module")
def canberra():
    rules, paytable = load_house_banked_rules("canberra"), load_paytable("canberra-standard")
    return rules, paytable, analyse_canberra(rules, paytable)


def _hands(values, suits=""):
    return {(VALUE_RANKS[h.upcard], f"{VALUE_RANKS[h.first]},{VALUE_RANKS[h.second]}"): h for h in values.hands
            if h.suits in ("", suits)}


def _line(values, name):
    index = values.pay.names.index(name)
    return float(values.line_chance[index]), float(values.line_won[index])


def test_the_player_has_the_edge_measured_by_the_simulation(canberra):
    _, _, values = canberra
    # The simulation (derived chart, fresh shoe) measured -0.2837% +- 0.0100; exact play can only do better.
    assert -0.0030 < -values.expected_return < -0.0027
    assert 1.2 < values.variance < 1.5


def test_pontoon_is_paid_at_once_whatever_the_upcard(canberra):
    _, _, values = canberra
    hands = _hands(values)
    for upcard in VALUE_RANKS:
        assert hands[(upcard, "T,A")].values == {"pontoon": 1.5}
    chance, won = _line(values, "pontoon")
    assert chance == pytest.approx(2 * 16 * 48 / (192 * 191))
    assert won == pytest.approx(1.5 * chance)


def test_surrender_only_against_a_picture_or_an_ace_and_void_on_a_dealer_pontoon(canberra):
    _, _, values = canberra
    hands = _hands(values)
    assert "surrender" not in hands[("9", "T,6")].values
    # Against an ace, a dealer Pontoon (a picture as the second card) makes the surrender a full loss.
    pontoon = 47 / 189   # the upcard, a picture and a six are out: 47 pictures in 189 cards
    assert hands[("A", "T,6")].values["surrender"] == pytest.approx(-0.5 * (1 - pontoon) - pontoon)


def test_standing_below_thirteen_is_not_offered(canberra):
    _, _, values = canberra
    hands = _hands(values)
    assert "stand" not in hands[("6", "T,2")].values
    assert "stand" in hands[("6", "T,3")].values


def test_each_bonus_line_is_paid_and_the_higher_line_wins(canberra):
    _, paytable, values = canberra
    for line in paytable.bonuses:
        chance, won = _line(values, line.name)
        assert chance > 0
        assert won == pytest.approx(chance * line.odds.numerator / line.odds.denominator)
    mixed, _ = _line(values, "678_mixed")
    suited, _ = _line(values, "678_suited")
    spades, _ = _line(values, "678_spades")
    # A 6, a 7 and an 8 are of one suit 1 time in 16 (spades 1 in 64) as dealt; a hand one card
    # short that shares a suit hits more often for the better line, so it is paid more often still.
    assert suited > 3 / 60 * mixed
    assert spades > 1 / 60 * mixed


def test_super_bonus_and_envy(canberra):
    _, paytable, values = canberra
    chance, won = _line(values, "super_bonus")
    assert won == pytest.approx(chance * 100000 / 500)
    one_suit = 4 * comb(4, 3) / comb(16, 3)
    assert 0 < chance < 16 / 192 * one_suit * (16 / 191) * (15 / 190) * (14 / 189) * 1.0001
    mixed, suited, spades = _hands(values, "mixed"), _hands(values, "suited"), _hands(values, "spades")
    # Against a 7, two sevens of one suit reach for the super bonus; mixed sevens are split.
    assert suited[("7", "7,7")].best == spades[("7", "7,7")].best == "hit"
    assert suited[("7", "7,7")].values["hit"] > 1.5
    assert mixed[("7", "7,7")].best == "split"
    # Two sevens share a suit 3 times in 15 (four decks): mixed is four times the one-suit rows.
    one_suit = suited[("7", "7,7")].probability + spades[("7", "7,7")].probability
    assert mixed[("7", "7,7")].probability == pytest.approx(4 * one_suit)


def test_doubling_is_offered_at_any_point_and_a_doubled_21_pays_even_money(canberra):
    _, _, values = canberra
    chance, won = _line(values, "doubled_win")
    assert chance > 0 and won == pytest.approx(2 * chance)     # 1:1 on the whole, doubled stake
    hands = _hands(values)
    assert hands[("6", "6,5")].best == "double"
