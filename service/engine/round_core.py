"""What every game's round shares: decisions dispatched by name, the verify/can pattern, the
seat/hand cursor and its turn check, wager checks, and the record kept of each decision."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, ClassVar, NoReturn, Protocol, TypeGuard

from .actions import Action, CardDealt, DecisionTaken, LegalAction, RuleViolation
from .shoe import ShoeSpec


class Awaiting(StrEnum):
    """What a round waits for next (a complete round waits for nothing: None)."""

    CARD = "card"
    DECISION = "decision"


def whole_cents(value: object) -> TypeGuard[int]:
    """An amount of money as a transcript or a terminal may give it: a whole number, never a
    boolean (which Python counts as an int, and true would be one cent)."""
    return isinstance(value, int) and not isinstance(value, bool)


class SeatLike(Protocol):
    """What the cursor needs of a game's seat: its number and the hands it holds now."""

    @property
    def number(self) -> int: ...

    @property
    def hands(self) -> Sequence[object]: ...


class RoundCore:
    """Base of a game's round. A game lists its decision names; each name `x` has `verify_x`,
    `can_x` and `x` on the game's class, and `x` returns the DecisionTaken it logged.

    Players act seat by seat in seat order and, within a seat, hand by hand (a split's new hand
    after the one split). `_seat_pos`/`_hand_pos` are that cursor over `seats` (the game's
    __init__ sets both to 0); `_next_hand` moves it and `_check_turn` refuses a decision from
    anyone but the hand it points at."""

    DECISIONS: ClassVar[tuple[str, ...]] = ()
    TAKES_AMOUNT: ClassVar[frozenset[str]] = frozenset()
    _acts: ClassVar[dict[str, tuple[Callable[..., DecisionTaken], bool]]] = {}
    # The shoe this round's cards come from, where the table decides it rather than the rules
    # (a big player-banked school plays with two packs); None: the rules' own.
    shoe_spec: ShoeSpec | None = None

    # Set by each game's __init__ (the cursor at 0, 0), so that every round holds the same
    # attributes from the start.
    log: list[CardDealt | DecisionTaken]
    seats: Sequence[SeatLike]
    _seat_pos: int
    _hand_pos: int

    def legal_actions(self) -> list[LegalAction]:
        raise NotImplementedError

    def takes_when_complete(self, action: Action) -> bool:
        """Whether a complete round still takes this decision: one a game lets come after the deal
        that decided the round (none, unless the game says so)."""
        return False

    def _advance(self) -> None:
        raise NotImplementedError

    # ----- refusals and probes ------------------------------------------------------------
    def _refuse(self, reason: str) -> NoReturn:
        # The legal decisions are listed only when someone reads them (probing never does).
        raise RuleViolation(reason, self.legal_actions)

    @staticmethod
    def _can(verify: Callable[..., object], *args: object) -> bool:
        try:
            verify(*args)
        except RuleViolation:
            return False
        return True

    def _check_amount(self, action: str, amount: object, low: int, high: int) -> None:
        """Refuse an amount a decision cannot stake: not whole cents, or outside low to high."""
        if not whole_cents(amount) or not low <= amount <= high:
            self._refuse(f"{action} amount {amount!r} is outside {low} to {high}")

    # ----- the seat/hand cursor -----------------------------------------------------------
    def _next_hand(self) -> bool:
        """Move play on to the next hand: the seat's next one, else the next seat's first.
        False once play has passed the last seat."""
        if self._hand_pos + 1 < len(self.seats[self._seat_pos].hands):
            self._hand_pos += 1
        else:
            self._seat_pos, self._hand_pos = self._seat_pos + 1, 0
        return self._seat_pos < len(self.seats)

    def _check_turn(self, action: str, seat: int, hand: int | None) -> None:
        """Refuse a decision by any seat or hand but the one in turn (no hand named: hand 0)."""
        number = self.seats[self._seat_pos].number
        index = 0 if hand is None else hand
        if seat != number or index != self._hand_pos:
            self._refuse(f"{action} by seat {seat} hand {index} is out of turn: "
                         f"seat {number} hand {self._hand_pos} is in turn")

    # ----- decisions ----------------------------------------------------------------------
    @property
    def actions(self) -> list[Action]:
        """The decisions taken so far, in the transcript's form (read from the log)."""
        return [Action(r.seat, r.action, r.hand, r.amount) for r in self.log if type(r) is DecisionTaken]

    def _record(self, seat: int, hand: int | None, action: str, amount: int | None = None,
                advance: bool = True) -> DecisionTaken:
        """Log a decision just applied and, unless told not to, move the round on."""
        record = DecisionTaken(seat, hand, action, amount)
        self.log.append(record)
        if advance:
            self._advance()
        return record

    def __init_subclass__(cls, **kwargs: Any) -> None:
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


def action_dict(action: Action, amount_field: str = "amount") -> dict[str, object]:
    """A decision in the transcript's form (`amount_field` names where its amount goes)."""
    out: dict[str, object] = {"seat": action.seat}
    if action.hand is not None:
        out["hand"] = action.hand
    out["action"] = action.action
    if action.amount is not None:
        out[amount_field] = action.amount
    return out


class TurnShown(Protocol):
    """What a round's snapshot opens with, whichever the game."""

    @property
    def phase(self) -> str: ...
    @property
    def awaiting(self) -> str | None: ...
    def card_recipient(self) -> str | None: ...
    def in_turn(self) -> tuple[int, int | None] | None: ...
    def legal_actions(self) -> list[LegalAction]: ...


def turn_fields(round_: TurnShown) -> dict[str, object]:
    """The part of every game's snapshot that says where the round stands: its phase, what it
    awaits, who gets the next card, whose turn it is and the decisions the rules allow now."""
    turn = round_.in_turn()
    return {
        "phase": round_.phase,
        "awaiting": round_.awaiting,
        "card_to": round_.card_recipient(),
        "in_turn": {"seat": turn[0], "hand": turn[1]} if turn else None,
        "legal_actions": [a.as_dict() for a in round_.legal_actions()],
    }
