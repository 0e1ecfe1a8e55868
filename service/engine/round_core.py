"""What every game's round shares: decisions dispatched by name, the verify/can pattern,
refusals that carry the legal decisions, and the record kept of each decision."""
from __future__ import annotations

from typing import Callable

from .actions import Action, DecisionTaken, LegalAction, RuleViolation


class RoundCore:
    """Base of a game's round. A game lists its decision names; each name `x` has `verify_x`,
    `can_x` and `x` on the game's class, and `x` returns the DecisionTaken it logged."""

    DECISIONS: tuple[str, ...] = ()
    TAKES_AMOUNT: frozenset[str] = frozenset()

    log: list
    actions: list[Action]

    def legal_actions(self) -> list[LegalAction]:
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError

    def _refuse(self, reason: str) -> None:
        # The legal decisions are listed only when someone reads them (probing never does).
        raise RuleViolation(reason, self.legal_actions)

    @staticmethod
    def _can(verify: Callable[..., object], *args: object) -> bool:
        try:
            verify(*args)
        except RuleViolation:
            return False
        return True

    def _record(self, seat: int, hand: int | None, action: str, amount: int | None = None,
                advance: bool = True) -> DecisionTaken:
        """Log a decision just applied, keep it for the transcript, and move the round on."""
        record = DecisionTaken(seat, hand, action, amount)
        self.actions.append(Action(seat, action, hand, amount))
        self.log.append(record)
        if advance:
            self._advance()
        return record

    def act(self, action: Action) -> DecisionTaken:
        """Apply one decision named as in the transcript; refuses what the rules do not allow."""
        if action.action not in self.DECISIONS:
            self._refuse(f"unknown decision {action.action!r}; decisions are {', '.join(self.DECISIONS)}")
        if action.action in self.TAKES_AMOUNT:
            return getattr(self, action.action)(action.seat, action.hand, action.amount)
        if action.amount is not None:
            self._refuse(f"{action.action} takes no amount")
        return getattr(self, action.action)(action.seat, action.hand)


def action_dict(action: Action, amount_field: str = "amount") -> dict:
    """A decision in the transcript's form (`amount_field` names where its amount goes)."""
    out: dict = {"seat": action.seat}
    if action.hand is not None:
        out["hand"] = action.hand
    out["action"] = action.action
    if action.amount is not None:
        out[amount_field] = action.amount
    return out
