"""Stake limits as a frozen min/max pair of whole cents, shared by every game."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """A bet's table limits: the least and the most it may be, in cents (both allowed)."""

    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if not isinstance(self.minimum, int) or not isinstance(self.maximum, int):
            raise ValueError("limits must be whole cents")
        if self.minimum <= 0:
            raise ValueError("the minimum must be a positive number of cents")
        if self.maximum < self.minimum:
            raise ValueError(f"the maximum {self.maximum} is below the minimum {self.minimum}")

    def contains(self, amount: int) -> bool:
        return self.minimum <= amount <= self.maximum


def limits_by_kind(stored: Mapping[str, Mapping[str, int]] | None) -> dict[str, Limits]:
    """Limits by bet from their JSON form {"main": {"min", "max"}, ...} (a table's, a transcript's);
    ValueError when an entry is not a limit."""
    return {kind: Limits(entry["min"], entry["max"]) for kind, entry in (stored or {}).items()}
