"""Terminal and floor windows taken in turn, seconds apart: the ratio of each pair, and what the pairs say together."""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
TERMINAL, FLOOR = "terminal", "floor"


def order_of_pair(k: int) -> tuple[str, str]:
    """Which side goes first in pair k: swapped every pair (terminal-floor, floor-terminal, ...), so
    a host speeding up or slowing down through the pairs favours neither side."""
    return (TERMINAL, FLOOR) if k % 2 == 0 else (FLOOR, TERMINAL)


def windows_in_turn(pairs: int, measure: Callable[[str], T]) -> list[dict[str, T]]:
    """`pairs` pairs of windows, each side measured by `measure(side)` in the order
    order_of_pair() gives: each pair's {side: what its window measured}."""
    if pairs < 1:
        raise ValueError("at least one pair of windows is needed")
    return [{side: measure(side) for side in order_of_pair(k)} for k in range(pairs)]


def measure_pairs(pairs: int, measure: Callable[[str], float]) -> list[dict]:
    """windows_in_turn() of each side's requests/s, with each pair's ratio."""
    return [{"first": order_of_pair(k)[0], "terminal_requests_per_s": got[TERMINAL],
             "floor_requests_per_s": got[FLOOR],
             "ratio": round(got[TERMINAL] / got[FLOOR], 3) if got[FLOOR] else None}
            for k, got in enumerate(windows_in_turn(pairs, measure))]


def median_window(windows: list[dict], key: Callable[[dict], float]) -> dict:
    """The window whose `key` (a latency percentile) is the median of the windows' (of an even
    number, the higher of the middle two): a disk stall of the shared host lands in one window and
    cannot carry the figure, as it would carry the percentile of all the windows' requests pooled."""
    if not windows:
        raise ValueError("no windows to take the median of")
    return sorted(windows, key=key)[len(windows) // 2]


def three_places_down(x: float) -> float:
    """x cut, not rounded, to three places: a ratio just under a bar is never printed at it."""
    return math.floor(x * 1000 + 1e-9) / 1000


def summarise_pairs(windows: list[dict]) -> dict:
    """The median of the pairs' ratios (the figure: one disturbed pair cannot move it far), their
    geometric mean, the least and greatest, and each side's median throughput."""
    # From the throughputs, not the windows' rounded ratios: a median just under a bar stays under it.
    ratios = [w["terminal_requests_per_s"] / w["floor_requests_per_s"] for w in windows if w["floor_requests_per_s"]]
    if not ratios:
        return {"pairs": len(windows), "median_ratio": None}
    geometric_mean = math.exp(statistics.fmean(math.log(r) for r in ratios)) if min(ratios) > 0 else 0.0
    return {"pairs": len(windows),
            "median_ratio": three_places_down(statistics.median(ratios)),
            "geometric_mean_ratio": three_places_down(geometric_mean),
            "least_ratio": round(min(ratios), 3), "greatest_ratio": round(max(ratios), 3),
            "terminal_median_requests_per_s":
                round(statistics.median(w["terminal_requests_per_s"] for w in windows), 1),
            "floor_median_requests_per_s": round(statistics.median(w["floor_requests_per_s"] for w in windows), 1)}
