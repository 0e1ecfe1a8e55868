"""What the table's screen shows: the table, its shoe, and the round in play or the last one ended,
read from the store as it holds them (a reload shows exactly this)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..catalog import GameRules, resolve
from ..games import family_of
from ..rounds import queries, views
from ..rounds.state import load_game
from ..store.repositories.ledger import NO_HAND, LedgerRow
from ..store.repositories.rounds import RoundRow, RoundStatus
from ..store.uow import UnitOfWork


class Awaiting(StrEnum):
    """What the screen waits for, as its root's `data-awaiting` says to a script driving it."""
    SHOE = "shoe"               # no shoe is open: the dealer opens one
    WAGERS = "wagers"           # the bets for the next round
    CARD = "card"               # the next card out of a physical shoe
    DECISION = "decision"       # a player's (or the banker's) decision
    COMPLETE = "complete"       # the round has ended: its chips to pay and take are shown


# A round that has ended, as the screen shows it until the dealer moves on to the next.
ENDED = frozenset({RoundStatus.COMPLETE, RoundStatus.SETTLED, RoundStatus.VOID})


@dataclass(frozen=True, slots=True)
class ShownBet:
    """One bet of an ended round as its settlement pays it: the chips a seat is paid on it (or loses)."""
    seat: int
    hand: int | None            # None: the seat's own bet (a side bet, insurance, envy)
    kind: str                   # main, split, double, insurance, envy, super_bonus, or a side bet's name
    stake: int
    returned: int
    outcome: str

    @property
    def net(self) -> int:
        return self.returned - self.stake

    @classmethod
    def of(cls, row: LedgerRow) -> ShownBet:
        return cls(row.seat, None if row.hand == NO_HAND else row.hand, row.kind, row.stake, row.returned,
                   row.outcome)


@dataclass(frozen=True, slots=True)
class _EndedRound:
    """An ended round as settlement reads it (service.games.family.StoredRound)."""
    round_id: str
    table_id: str
    shoe_id: str | None
    rules_ref: str
    paytable_ref: str | None
    result: dict[str, object] | None


@dataclass(frozen=True, slots=True)
class ScreenState:
    table: dict[str, Any]                   # the table as the REST API shows it (game, limits, shoe, bank)
    awaiting: Awaiting
    round: dict[str, Any] | None = None     # the round in play, or the one just ended
    result: dict[str, Any] | None = None    # an ended round's money, as it was stored at its end
    void_reason: str | None = None          # a voided round's reason
    just_dealt: list[str] = field(default_factory=list)   # what a virtual shoe dealt since the last decision
    last_bets: dict[int, dict[str, Any]] = field(default_factory=dict)   # the last round's bets by seat
    seats: int = 0                          # the player seats the rules give the table, 1 to `seats`
    ranks: tuple[str, ...] = ()             # the ranks its shoe holds (a card of another is never offered)
    bets: list[ShownBet] = field(default_factory=list)   # an ended round's bets, each as settlement pays it

    @property
    def game(self) -> str:
        return str(self.table["game"])

    @property
    def shoe(self) -> dict[str, Any] | None:
        shoe: dict[str, Any] | None = self.table.get("current_shoe")
        return shoe

    @property
    def round_id(self) -> uuid.UUID | None:
        return self.round["round_id"] if self.round is not None else None

    @property
    def revision(self) -> int | None:
        return self.round["revision"] if self.round is not None else None

    @property
    def insurance_offers(self) -> list[dict[str, Any]]:
        """Decisions a seat may take out of turn (insurance), each naming its seat."""
        if self.round is None:
            return []
        in_turn = self.round.get("in_turn") or {}
        in_turn_actions = in_turn.get("legal_actions", [])
        return [legal for legal in self.round.get("legal_actions", []) if legal not in in_turn_actions]


def screen_state(uow: UnitOfWork, table_id: str, *, moving_on: bool = False) -> ScreenState:
    """The table's screen as the store holds it. `moving_on`: the dealer has seen the last round's
    result and asked for the next round's bets."""
    table = queries.table(uow, table_id)
    rules = resolve(uow.paytables, str(table["rules"]), None).rules
    shape = {"seats": rules.max_seats, "ranks": rules.shoe.ranks}
    last = uow.rounds.last_on_table(table_id, 1)
    last_row, void_reason = last[0] if last else (None, None)
    last_bets = {entry["seat"]: entry for entry in last_row.wagers} if last_row is not None else {}
    if last_row is not None and (last_row.status == RoundStatus.OPEN or
                                 (last_row.status in ENDED and not moving_on)):
        # The round replayed once: its state, and for an ended round the bets its settlement pays.
        game_rules, game, _ = load_game(uow, last_row)
        state = views.round_state(last_row, game)
        if last_row.status == RoundStatus.OPEN:
            awaiting = Awaiting.CARD if state["awaiting"] == "card" else Awaiting.DECISION
            just_dealt = _dealt_since_last_decision(uow, last_row.round_id) if last_row.shoe_mode == "virtual" else []
            return ScreenState(table, awaiting, state, just_dealt=just_dealt, last_bets=last_bets, **shape)
        bets = _bets_paid(last_row, game_rules, game) if last_row.status != RoundStatus.VOID else []
        return ScreenState(table, Awaiting.COMPLETE, state, result=last_row.result, void_reason=void_reason,
                           last_bets=last_bets, bets=bets, **shape)
    awaiting = Awaiting.WAGERS if table.get("current_shoe") else Awaiting.SHOE
    return ScreenState(table, awaiting, last_bets=last_bets, **shape)


def _bets_paid(row: RoundRow, game_rules: GameRules, game: Any) -> list[ShownBet]:
    """The ended round's bets as its settlement pays them (from the same replay the worker settles
    it by, so the screen shows the chips the ledger will hold, envy and side bets included)."""
    ended = _EndedRound(str(row.round_id), row.table_id, str(row.shoe_id) if row.shoe_id else None, row.rules_ref,
                        row.paytable_ref, row.result)
    rows, _ = family_of(game_rules.rules).settle(ended, game, game.result())
    return [ShownBet.of(ledger_row) for ledger_row in rows]


def _dealt_since_last_decision(uow: UnitOfWork, round_id: uuid.UUID) -> list[str]:
    """The cards a virtual shoe dealt after the round's last decision (or since it opened): what
    the dealer takes out of the shoe and places now."""
    dealt: list[str] = []
    for written in uow.rounds.events_of([round_id]):
        if written.event.kind == "card":
            dealt.append(str(written.event.payload["card"]))
        else:
            dealt = []
    return dealt
