"""The simulation (`pontoon house-edge`, fresh shoe each round) playing the chart from the exact
values agrees with the exact house edge."""
from __future__ import annotations

from functools import cache

import pytest

from service.analysis.exact.chart import exact_strategy
from service.analysis.exact.report import analyse
from service.analysis.house_edge import compute
from service.analysis.model import HIT, SPLIT_HAND, STAND, UNSPLIT
from service.engine.cards import RANKS
from service.rules import load_house_banked_rules, load_paytable


@pytest.fixture(scope="module")
def chart_of():
    """The chart of each game, built once for the module."""
    return cache(lambda rules, paytable: exact_strategy(load_house_banked_rules(rules), load_paytable(paytable)))


@pytest.mark.parametrize(("rules_name", "paytable_name"),
                         [("blackjack-enhc", "blackjack"), ("canberra", "canberra-standard")])
def test_simulation_of_the_exact_chart_within_three_standard_errors(rules_name, paytable_name, chart_of):
    rules, paytable = load_house_banked_rules(rules_name), load_paytable(paytable_name)
    exact = analyse(rules, paytable)
    chart = chart_of(rules_name, paytable_name)
    simulated = compute(rules, paytable, precision=0.001, seed=7, fresh_shoe=True, strategy=chart)
    edge, error = simulated["house_edge_percent"] / 100, simulated["house_edge_se_percent"] / 100
    # The chart names hands by total rather than by composition, so it can only give the house a
    # little more than the exact play, by far less than the tolerance here.
    assert abs(edge - exact["house_edge"]) < 3 * error
    variance = error ** 2 * simulated["rounds"]
    # The simulation's own variance is rough where a rare prize dominates it (the super bonus pays
    # 200 wagers about once in a million rounds): agreement to a few per cent.
    assert exact["variance"] == pytest.approx(variance, rel=0.06)


def test_the_chart_carries_the_exact_plays(chart_of):
    rules, paytable = load_house_banked_rules("blackjack-enhc"), load_paytable("blackjack")
    chart = chart_of("blackjack-enhc", "blackjack")
    ten, six = RANKS.index("K"), RANKS.index("6")
    assert chart.play[ten, UNSPLIT, 2, 16, 0, 0] == HIT           # hard 16 against a ten: hit
    assert chart.play[six, UNSPLIT, 2, 12, 0, 0] == STAND         # hard 12 against a six: stand
    assert chart.pair_split[six, UNSPLIT, 16, 0, 0]               # split 8s against a six
    assert not chart.pair_split[ten, UNSPLIT, 16, 0, 0]           # not against a ten (no hole card)
    assert chart.play[ten, SPLIT_HAND, 3, 17, 0, 0] == STAND
    assert chart.estimate == pytest.approx(-analyse(rules, paytable)["house_edge"])
