"""What verification found: the figures it checked and each problem, named so a person can go and look."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One thing found wrong, named so a person can go and look at it."""

    where: str      # "chain table:T1 seq 5 id 812", "shoe 3f2a…", "round 9c1d…", "line 7"
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.why}"


@dataclass
class Report:
    records: int = 0
    chains: int = 0
    shoes: set[str] = field(default_factory=set)   # shoes whose commitment was re-opened
    rounds: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        return checked_summary(self.records, self.chains, len(self.shoes), self.rounds)


def checked_summary(records: int, chains: int, shoes: int, rounds: int) -> str:
    """What a verification went through, as its verdict states it."""
    return (f"{records} records in {chains} chains, {shoes} shoe commitments re-opened, "
            f"{rounds} settled rounds replayed against the ledger")
