"""Terminal and floor windows taken in turn: the order swapped every pair, each pair's ratio, the median."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from paired import measure_pairs, median_window, order_of_pair, summarise_pairs  # noqa: E402
from report import paired_rows  # noqa: E402


def test_the_side_that_goes_first_alternates():
    assert [order_of_pair(k) for k in range(4)] == [("terminal", "floor"), ("floor", "terminal")] * 2


def test_windows_are_measured_in_turn_and_each_pair_has_its_ratio():
    measured = []
    # A host speeding up by 10 requests/s a window: each side's figure depends on when it ran.
    def measure(side):
        measured.append(side)
        return (500.0 if side == "terminal" else 1000.0) + 10 * (len(measured) - 1)

    windows = measure_pairs(2, measure)
    assert measured == ["terminal", "floor", "floor", "terminal"]
    assert windows == [
        {"first": "terminal", "terminal_requests_per_s": 500.0, "floor_requests_per_s": 1010.0, "ratio": 0.495},
        {"first": "floor", "terminal_requests_per_s": 530.0, "floor_requests_per_s": 1020.0, "ratio": 0.52},
    ]


def test_the_summary_is_the_median_of_the_pairs_ratios_not_the_ratio_of_the_medians():
    windows = [{"terminal_requests_per_s": t, "floor_requests_per_s": f, "ratio": round(t / f, 3)}
               for t, f in ((500, 1000), (300, 500), (700, 1000), (520, 1040))]
    summary = summarise_pairs(windows)
    assert summary["median_ratio"] == 0.55          # (0.5 + 0.6) / 2 of 0.5, 0.6, 0.7, 0.5
    assert (summary["least_ratio"], summary["greatest_ratio"]) == (0.5, 0.7)
    assert summary["terminal_median_requests_per_s"] == 510.0
    assert summary["floor_median_requests_per_s"] == 1000.0
    assert summary["geometric_mean_ratio"] == round((0.5 * 0.6 * 0.7 * 0.5) ** 0.25, 3)


def test_a_window_with_no_floor_throughput_has_no_ratio_and_a_terminal_at_zero_zeroes_the_mean():
    windows = [{"terminal_requests_per_s": 0.0, "floor_requests_per_s": 900.0, "ratio": 0.0},
               {"terminal_requests_per_s": 450.0, "floor_requests_per_s": 0.0, "ratio": None},
               {"terminal_requests_per_s": 450.0, "floor_requests_per_s": 900.0, "ratio": 0.5}]
    summary = summarise_pairs(windows)
    assert (summary["median_ratio"], summary["geometric_mean_ratio"]) == (0.25, 0.0)


def test_at_least_one_pair_is_measured():
    with pytest.raises(ValueError):
        measure_pairs(0, lambda side: 1.0)


def test_the_report_row_gives_the_median_of_ratios_as_its_ratio():
    summary = summarise_pairs([{"terminal_requests_per_s": t, "floor_requests_per_s": f, "ratio": round(t / f, 3)}
                               for t, f in ((500, 1000), (660, 1100), (540, 1000))])
    (row,) = paired_rows(summary)
    assert (row["figure"], row["floor"], row["ratio"]) == (540.0, 1000.0, 0.54)
    assert "0.500 to 0.600" in row["floor_name"]


def test_the_median_is_taken_before_rounding_so_it_never_rounds_up_to_a_bar():
    windows = measure_pairs(1, lambda side: 499.6 if side == "terminal" else 1000.0)
    assert windows[0]["ratio"] == 0.5                      # the window's ratio, printed to three places
    assert summarise_pairs(windows)["median_ratio"] == 0.499  # what the bar is read on: cut, not rounded


def test_no_pairs_no_row():
    assert paired_rows(None) == [] and paired_rows({"pairs": 0, "median_ratio": None}) == []


def test_the_median_window_is_the_middle_one_by_its_percentile_and_the_higher_of_two():
    def windows(*p99s: float) -> list[dict]:
        return [{"window": k, "p99_ms": p99} for k, p99 in enumerate(p99s)]
    assert median_window(windows(21.7, 845.0, 17.7, 19.0, 23.1), key=lambda w: w["p99_ms"])["window"] == 0
    assert median_window(windows(12.0, 30.0), key=lambda w: w["p99_ms"])["p99_ms"] == 30.0
    with pytest.raises(ValueError):
        median_window([], key=lambda w: w["p99_ms"])
