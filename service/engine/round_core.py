"""What every game's round shares: decisions dispatched by name, the verify/can pattern,
refusals that carry the legal decisions, and the record kept of each decision."""
from __future__ import annotations

from .actions import Action, DecisionTaken, LegalAction, RuleViolation, new_action, new_decision_taken

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Callable

    from .shoe import ShoeSpec


class RoundCore:
    """Base of a game's round. A game lists its decision names; each name `x` has `verify_x`,
    `can_x` and `x` on the game's class, and `x` returns the DecisionTaken it logged."""

    DECISIONS: tuple[str, ...] = ()
    TAKES_AMOUNT: frozenset[str] = frozenset()
    _acts: dict[str, tuple[Callable[..., DecisionTaken], bool]] = {}
    # The shoe this round's cards come from, where the table decides it rather than the rules
    # (a big player-banked school plays with two packs); None: the rules' own.
    shoe_spec: ShoeSpec | None = None

    log: list

    def legal_actions(self) -> list[LegalAction]:
        raise NotImplementedError

    def takes_when_complete(self, action: Action) -> bool:
        """Whether a complete round still takes this decision: one a game lets come after the deal
        that decided the round (none, unless the game says so)."""
        return False

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

    @property
    def actions(self) -> list[Action]:
        """The decisions taken so far, in the transcript's form (read from the log)."""
        return [new_action((r.seat, r.action, r.hand, r.amount)) for r in self.log if type(r) is DecisionTaken]

    def _record(self, seat: int, hand: int | None, action: str, amount: int | None = None,
                advance: bool = True) -> DecisionTaken:
        """Log a decision just applied and move the round on."""
        record = new_decision_taken((seat, hand, action, amount))
        self.log.append(record)
        if advance:
            self._advance()
        return record

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # Each decision's act method by name, looked up once per class rather than per decision.
        cls._acts = {name: (getattr(cls, name), name in cls.TAKES_AMOUNT) for name in cls.DECISIONS}

    def act(self, action: Action) -> DecisionTaken:
        """Apply one decision named as in the transcript; refuses what the rules do not allow."""
        name = action.action
        entry = self._acts.get(name) if type(name) is str else None
        if entry is None:
            self._refuse(f"unknown decision {name!r}; decisions are {', '.join(self.DECISIONS)}")
        method, takes_amount = entry
        if takes_amount:
            return method(self, action.seat, action.hand, action.amount)
        if action.amount is not None:
            self._refuse(f"{name} takes no amount")
        return method(self, action.seat, action.hand)


def action_dict(action: Action, amount_field: str = "amount") -> dict:
    """A decision in the transcript's form (`amount_field` names where its amount goes)."""
    out: dict = {"seat": action.seat}
    if action.hand is not None:
        out["hand"] = action.hand
    out["action"] = action.action
    if action.amount is not None:
        out[amount_field] = action.amount
    return out
