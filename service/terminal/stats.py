"""What a terminal run did: rounds, decisions by kind, money staked and returned, errors."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from .client import Latencies

DECISION_KINDS = ("hit", "stand", "double", "forfeit", "split", "surrender", "insurance")


@dataclass
class Stats:
    rounds: int = 0
    decisions: Counter = field(default_factory=Counter)      # by kind
    cards: int = 0                                           # cards posted (physical shoes)
    shoes: int = 0
    staked: int = 0                                          # cents
    returned: int = 0                                        # cents
    errors: Counter = field(default_factory=Counter)         # "409 decision_refused", "0 no answer", ...
    retries: int = 0
    round_ids: list[str] = field(default_factory=list)
    money_unread: list[str] = field(default_factory=list)    # rounds played whose transcript could not be read
    latencies: Latencies = field(default_factory=Latencies)
    elapsed: float = 0.0                                     # seconds, wall clock of the run

    def merge(self, other: Stats) -> None:
        self.rounds += other.rounds
        self.decisions.update(other.decisions)
        self.cards += other.cards
        self.shoes += other.shoes
        self.staked += other.staked
        self.returned += other.returned
        self.errors.update(other.errors)
        self.retries += other.retries
        self.round_ids.extend(other.round_ids)
        self.money_unread.extend(other.money_unread)
        self.latencies.merge(other.latencies)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def unused_kinds(self) -> list[str]:
        return [kind for kind in DECISION_KINDS if not self.decisions.get(kind)]


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of `values` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def latency_table(latencies: Latencies) -> dict[str, dict[str, float]]:
    """{endpoint: {count, p50_ms, p95_ms, p99_ms}}."""
    return {endpoint: {"count": len(values),
                       "p50_ms": round(percentile(values, 0.50) * 1000, 2),
                       "p95_ms": round(percentile(values, 0.95) * 1000, 2),
                       "p99_ms": round(percentile(values, 0.99) * 1000, 2)}
            for endpoint, values in sorted(latencies.by_endpoint.items())}


def summary(stats: Stats) -> dict:
    seconds = stats.elapsed or 1e-9
    decisions = sum(stats.decisions.values())
    return {
        "rounds": stats.rounds, "decisions": decisions, "decisions_by_kind": dict(sorted(stats.decisions.items())),
        "unused_decision_kinds": stats.unused_kinds(), "cards_posted": stats.cards, "shoes_opened": stats.shoes,
        "requests": stats.latencies.count(), "retries": stats.retries,
        "staked_cents": stats.staked, "returned_cents": stats.returned,
        "house_net_cents": stats.staked - stats.returned,
        "rounds_money_unread": list(stats.money_unread),
        "errors": stats.error_count, "errors_by_status": dict(sorted(stats.errors.items())),
        "seconds": round(stats.elapsed, 3), "rounds_per_s": round(stats.rounds / seconds, 1),
        "decisions_per_s": round(decisions / seconds, 1),
        "requests_per_s": round(stats.latencies.count() / seconds, 1),
        "latency": latency_table(stats.latencies),
    }


def _money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def summary_text(figures: dict) -> str:
    lines = [
        f"rounds        {figures['rounds']}  ({figures['rounds_per_s']}/s over {figures['seconds']} s)",
        f"decisions     {figures['decisions']}  ({figures['decisions_per_s']}/s)  "
        + " ".join(f"{kind}={count}" for kind, count in figures["decisions_by_kind"].items()),
        f"requests      {figures['requests']}  ({figures['requests_per_s']}/s), retries {figures['retries']}, "
        f"cards posted {figures['cards_posted']}, shoes opened {figures['shoes_opened']}",
        f"money in      {_money(figures['staked_cents'])}",
        f"money out     {_money(figures['returned_cents'])}",
        f"house net     {_money(figures['house_net_cents'])}"
        + (f"  (without {len(figures['rounds_money_unread'])} round(s) whose transcript could not be read: "
           f"{', '.join(figures['rounds_money_unread'])})" if figures["rounds_money_unread"] else ""),
        f"errors        {figures['errors']}" + (f"  {figures['errors_by_status']}" if figures["errors"] else ""),
    ]
    if figures["unused_decision_kinds"]:
        lines.append(f"not used      {', '.join(figures['unused_decision_kinds'])} (too few rounds to meet them)")
    lines.append(f"{'latency':<40}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for endpoint, row in figures["latency"].items():
        lines.append(f"  {endpoint:<38}{row['count']:>8}{row['p50_ms']:>9}{row['p95_ms']:>9}{row['p99_ms']:>9}")
    return "\n".join(lines)
