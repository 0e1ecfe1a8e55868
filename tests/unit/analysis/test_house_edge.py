"""compute(): the service's entry point; the figure, its standard error and its reproducibility."""
from __future__ import annotations

import pytest

from service.analysis.house_edge import compute


def test_result_form_and_stopping_rule(canberra):
    rules, paytable, _ = canberra
    seen = []
    result = compute(rules, paytable, precision=0.002, seed=1, block_rounds=200_000, progress=seen.append)
    assert result["precision_reached"] and result["standard_error"] <= 0.002
    assert result["rounds"] >= 1_000_000 and result["voided_rounds"] == 0
    assert result["house_edge_percent"] == pytest.approx(-result["net_cents"] / result["wagered_cents"] * 100)
    assert result["rtp_percent"] == pytest.approx(100 - result["house_edge_percent"])
    assert result["rtp_se_percent"] == result["house_edge_se_percent"] == pytest.approx(result["standard_error"] * 100)
    assert seen and seen[-1].rounds == result["rounds"]
    names = [line["line"] for line in result["bonus_lines"]]
    assert names[:1] == ["5_card_21"] and {"super_bonus", "envy", "pontoon"} <= set(names)
    five = next(line for line in result["bonus_lines"] if line["line"] == "5_card_21")
    assert five["hits"] > 0 and five["contribution_percent"] > 0
    assert result["side_bets"]["pair"]["house_edge"] == "11/191"


def test_a_seed_names_the_result_whatever_the_threads(canberra):
    rules, paytable, _ = canberra
    one = compute(rules, paytable, precision=0.003, seed=99, threads=1, block_rounds=250_000)
    two = compute(rules, paytable, precision=0.003, seed=99, threads=2, block_rounds=250_000)
    assert (one["rounds"], one["net_cents"]) == (two["rounds"], two["net_cents"])
    other = compute(rules, paytable, precision=0.003, seed=100, threads=2, block_rounds=250_000)
    assert other["net_cents"] != one["net_cents"]


def test_blackjack_agrees_with_the_published_figure(blackjack):
    """Wizard of Odds, Blackjack Appendix 9 (six decks, H17, no hole card): house edge 0.72705%."""
    rules, paytable, _ = blackjack
    result = compute(rules, paytable, precision=0.0004, seed=2024, fresh_shoe=True)
    assert result["precision_reached"]
    assert abs(result["house_edge_percent"] - 0.72705) < 4 * result["house_edge_se_percent"] + 0.02


def test_bad_arguments_are_refused(canberra):
    rules, paytable, _ = canberra
    with pytest.raises(ValueError):
        compute(rules, paytable, precision=0)
    with pytest.raises(ValueError):
        compute(rules, paytable, wager=10)
    with pytest.raises(ValueError):
        compute(rules, paytable, seats=12)
