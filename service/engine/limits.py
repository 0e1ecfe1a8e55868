"""Stake limits as a frozen min/max pair of whole cents, shared by every game."""
from __future__ import annotations

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
