"""Decisions, legal-decision descriptions, the immutable records a round logs, and rule errors.

A round makes a record for every card and every decision, so these are named tuples, built
through their own constructors: immutable, compared by value, and the cheapest immutable record
to build."""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


class Action(NamedTuple):
    """One decision as the transcript and the terminal protocol write it: the seat, the decision's
    name, the hand where it names one and the amount where it takes one."""

    seat: int
    action: str
    hand: int | None = None
    amount: int | None = None

    def describe(self) -> str:
        where = f"seat {self.seat}" + (f" hand {self.hand}" if self.hand is not None else "")
        amount = f" {self.amount}" if self.amount is not None else ""
        return f"{where} {self.action}{amount}"


class LegalAction(NamedTuple):
    """A decision the rules allow now (seat, action, and the hand where it names one), with the
    amount range (min_amount to max_amount) when it takes an amount."""

    seat: int
    action: str
    hand: int | None = None
    min_amount: int | None = None
    max_amount: int | None = None

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "action": self.action}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.min_amount is not None:
            out["min_amount"] = self.min_amount
            out["max_amount"] = self.max_amount
        return out


class CardDealt(NamedTuple):
    """Record: a card left the shoe and went to `to` ("dealer", "banker" or "seat S hand H")."""

    card: str
    to: str


class DecisionTaken(NamedTuple):
    """Record: a decision applied (seat, hand or None, action), with the amount it staked where
    it takes one."""

    seat: int
    hand: int | None
    action: str
    amount: int | None = None


LegalList = list[LegalAction] | Callable[[], list[LegalAction]] | None


class RuleViolation(Exception):
    """A decision or card the rules do not allow at this point; carries the legal decisions."""

    def __init__(self, reason: str, legal: LegalList = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self._legal = legal

    @property
    def legal(self) -> list[LegalAction]:
        """Listed when first read: a probe (can_x) that is refused never needs them."""
        if callable(self._legal):
            self._legal = self._legal()
        return self._legal or []


class NotAwaitingCard(RuleViolation):
    """A card arrived when the round was waiting for a decision or was over."""
