"""Terminal and floor windows taken in turn, seconds apart: the ratio of each pair, and what the pairs say together."""
from __future__ import annotations

import math
import statistics
from typing import Callable

TERMINAL, FLOOR = "terminal", "floor"


def order_of_pair(k: int) -> tuple[str, str]:
    """Which side goes first in pair k: swapped every pair (terminal-floor, floor-terminal, ...), so
    a host speeding up or slowing down through the pairs favours neither side."""
    return (TERMINAL, FLOOR) if k % 2 == 0 else (FLOOR, TERMINAL)


def measure_pairs(pairs: int, measure: Callable[[str], float]) -> list[dict]:
    """`pairs` pairs of windows, each side measured by `measure(side)` (its requests/s) in the
    order order_of_pair() gives."""
    if pairs < 1:
        raise ValueError("at least one pair of windows is needed")
    windows = []
    for k in range(pairs):
        got = {side: measure(side) for side in order_of_pair(k)}
        windows.append({"first": order_of_pair(k)[0], "terminal_requests_per_s": got[TERMINAL],
                        "floor_requests_per_s": got[FLOOR],
                        "ratio": round(got[TERMINAL] / got[FLOOR], 3) if got[FLOOR] else None})
    return windows


def summarise_pairs(windows: list[dict]) -> dict:
    """The median of the pairs' ratios (the figure: one disturbed pair cannot move it far), their
    geometric mean, the least and greatest, and each side's median throughput."""
    ratios = [w["ratio"] for w in windows if w["ratio"] is not None]
    if not ratios:
        return {"pairs": len(windows), "median_ratio": None}
    geometric_mean = math.exp(statistics.fmean(math.log(r) for r in ratios)) if min(ratios) > 0 else 0.0
    return {"pairs": len(windows),
            "median_ratio": round(statistics.median(ratios), 3),
            "geometric_mean_ratio": round(geometric_mean, 3),
            "least_ratio": min(ratios), "greatest_ratio": max(ratios),
            "terminal_median_requests_per_s": round(statistics.median(w["terminal_requests_per_s"] for w in windows), 1),
            "floor_median_requests_per_s": round(statistics.median(w["floor_requests_per_s"] for w in windows), 1)}
