"""Decisions, legal-decision descriptions, the immutable records a round logs, and rule errors.

Records and legal decisions are named tuples: immutable like frozen dataclasses, several times
cheaper to build on the replay path, which makes a record per card, and cheaper to define at
start-up. They come from collections rather than typing, whose import a batch replay would
otherwise pay for at every start."""
from __future__ import annotations

from collections import namedtuple
from functools import partial

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Callable


class Action(namedtuple("Action", "seat action hand amount", defaults=(None, None))):
    """One decision as the transcript and the terminal protocol write it (immutable): seat (int),
    action (str), hand and amount (int or None)."""

    __slots__ = ()

    def describe(self) -> str:
        where = f"seat {self.seat}" + (f" hand {self.hand}" if self.hand is not None else "")
        amount = f" {self.amount}" if self.amount is not None else ""
        return f"{where} {self.action}{amount}"


class LegalAction(namedtuple("LegalAction", "seat action hand min_amount max_amount", defaults=(None, None, None))):
    """A decision the rules allow now (seat, action, and the hand where it names one), with the
    amount range (min_amount to max_amount) when it takes an amount."""

    __slots__ = ()

    def as_dict(self) -> dict:
        out: dict = {"seat": self.seat, "action": self.action}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.min_amount is not None:
            out["min_amount"] = self.min_amount
            out["max_amount"] = self.max_amount
        return out


class CardDealt(namedtuple("CardDealt", "card to")):
    """Record: a card (str) left the shoe and went to `to` ("dealer", "banker" or "seat S hand H")."""

    __slots__ = ()


class DecisionTaken(namedtuple("DecisionTaken", "seat hand action amount", defaults=(None,))):
    """Record: a decision applied (seat, hand or None, action), with the amount it staked where
    it takes one."""

    __slots__ = ()


# Builders from one tuple of the fields in order, for the paths that make a record per card or
# decision: a named tuple's own constructor is a Python function and costs twice as much.
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
