"""Doubling for less than the wager, the stand-or-forfeit choice after a double, and the figures an
approval records, from the exact analysis."""
from __future__ import annotations

import dataclasses

import pytest

from service.analysis.exact.report import analyse
from service.operators.evaluation import evaluate_paytable
from service.rules import load_house_banked_rules, load_paytable


@pytest.fixture(scope="module")
def twice_the_minimum():
    # Canberra lets a double stake from the table minimum up to the wager: at twice the minimum,
    # a double for half the wager is a decision of its own.
    return analyse(load_house_banked_rules("canberra"), load_paytable("canberra-standard"), wager=1000)


def _hands(report):
    return {(row["upcard"], row["cards"]): row for row in report["hands"] if row.get("suits", "") in ("", "mixed")}


def test_a_double_for_less_is_valued_where_the_rules_allow_it(twice_the_minimum):
    assert twice_the_minimum["double_cents"] == {"double": 1000, "double_least": 500}
    eleven = _hands(twice_the_minimum)[("6", "6,5")]
    # Eleven against a six: more at stake is worth more, so the full double is best and the half
    # double lies between hitting and doubling for the wager.
    assert eleven["hit"] < eleven["double_least"] < eleven["double"] and eleven["best"] == "double"
    at_the_minimum = analyse(load_house_banked_rules("canberra"), load_paytable("canberra-standard"))
    assert at_the_minimum["double_cents"] == {"double": 500}
    assert not any("double_least" in row for row in at_the_minimum["hands"])


def test_a_double_for_less_is_never_offered_where_the_rules_ask_the_whole_wager():
    rules = load_house_banked_rules("blackjack-enhc")
    report = analyse(rules, load_paytable("blackjack"))
    assert not any("double_least" in row for row in report["hands"])
    assert "after_double" not in report, "no forfeit after a double in European blackjack"


def test_forfeit_after_a_double_is_reported_and_taken_where_standing_loses_more(twice_the_minimum):
    rows = twice_the_minimum["after_double"]
    assert rows and all(row["forfeit"] == -1.0 for row in rows)
    for row in rows:
        assert row["best"] == ("forfeit" if row["stand"] < -1.0 else "stand"), row
    stiff = {(row["upcard"], row["cards"], row["double_card"]): row for row in rows}
    # Doubled 9 that draws a 7 against a ten: 16 standing doubled loses more than the wager.
    assert stiff[("T", "5,4", "7")]["best"] == "forfeit"
    assert stiff[("6", "6,5", "9")]["best"] == "stand"


def test_approval_records_the_exact_house_edge_and_each_bonus_line():
    paytable = load_paytable("canberra-standard")
    evaluation = evaluate_paytable(paytable)
    report = analyse(load_house_banked_rules("canberra"), paytable)
    assert evaluation.detail["method"] == "exact"
    assert evaluation.house_edge_percent == round(report["house_edge_percent"], 4)
    assert evaluation.house_edge_percent + evaluation.rtp_percent == pytest.approx(100)
    lines = {line["line"]: line for line in evaluation.detail["bonus_lines"]}
    assert {"pontoon", "5_card_21", "678_mixed", "super_bonus"} <= set(lines)
    assert "win" not in lines and "doubled_win" not in lines
    # Pontoon pays 3:2: half a wager a Pontoon beyond an even-money win.
    assert lines["pontoon"]["contribution_percent"] == pytest.approx(50 * lines["pontoon"]["probability"])


def test_a_draft_paying_as_an_analysed_version_is_answered_from_the_cache():
    paytable = load_paytable("canberra-standard")
    analysed = analyse(load_house_banked_rules("canberra"), paytable)
    draft = dataclasses.replace(paytable, name="canberra-standard@9", side_bets=())
    again = analyse(load_house_banked_rules("canberra"), draft)
    assert again["elapsed_seconds"] == analysed["elapsed_seconds"], "read back, not computed"
    assert again["paytable"] == "canberra-standard@9" and "pair" not in again["side_bets"]
