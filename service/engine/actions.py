"""Decisions, legal-decision descriptions, the immutable records a round logs, and rule errors.

Records are NamedTuples: immutable like frozen dataclasses, and several times cheaper to build
on the replay path, which makes one per card."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, NamedTuple


class Action(NamedTuple):
    """One decision as the transcript and the terminal protocol write it (immutable)."""

    seat: int
    action: str
    hand: int | None = None
    amount: int | None = None

    def describe(self) -> str:
        where = f"seat {self.seat}" + (f" hand {self.hand}" if self.hand is not None else "")
        amount = f" {self.amount}" if self.amount is not None else ""
        return f"{where} {self.action}{amount}"


@dataclass(frozen=True, slots=True)
class LegalAction:
    """A decision the rules allow now, with the amount range when it takes an amount."""

    seat: int
    action: str
    hand: int | None = None
    min_amount: int | None = None
    max_amount: int | None = None

    def as_dict(self) -> dict:
        out: dict = {"seat": self.seat, "action": self.action}
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
    """Record: a decision applied, with the amount it staked where it takes one."""

    seat: int
    hand: int | None
    action: str
    amount: int | None = None


# Builders from one tuple of the fields in order, for the paths that make a record per card or
# decision: a NamedTuple's own constructor is a Python function and costs twice as much.
new_action = partial(tuple.__new__, Action)
new_card_dealt = partial(tuple.__new__, CardDealt)
new_decision_taken = partial(tuple.__new__, DecisionTaken)


class RuleViolation(Exception):
    """A decision or card the rules do not allow at this point; carries the legal decisions."""

    def __init__(self, reason: str, legal: "list[LegalAction] | Callable[[], list[LegalAction]] | None" = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self._legal = legal

    @property
    def legal(self) -> list[LegalAction]:
        """Computed when read, so that probing (can_x) never pays for listing the legal decisions."""
        if callable(self._legal):
            self._legal = self._legal()
        return self._legal or []


class NotAwaitingCard(RuleViolation):
    """A card arrived when the round was waiting for a decision or was over."""
