"""The one interface the service asks about a game: how its rounds open, deal, end, settle and show."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..catalog import GameRules
from ..engine.actions import CardDealt
from ..engine.limits import Limits
from ..engine.shoe import PhysicalShoe
from ..store.repositories.audit import AuditRecord
from ..store.repositories.ledger import LedgerRow
from ..store.repositories.rounds import RoundRow
from ..store.repositories.shoes import ShoeRow
from ..store.uow import UnitOfWork

Note = tuple[str, dict]   # an audit record's kind and payload, written by the caller


def table_limits(limits: dict[str, dict] | None) -> dict[str, Limits]:
    """The engine's Limits from a table's stored {"main": {"min", "max"}, "pair": {...}} (by bet);
    ValueError when an entry is not a limit."""
    return {kind: Limits(entry["min"], entry["max"]) for kind, entry in (limits or {}).items()}


class RoundRequest(Protocol):
    """What a family sees of a request to open a round (service.rounds.commands.OpenRound)."""

    @property
    def table_id(self) -> str: ...
    @property
    def wagers(self) -> list[dict] | None: ...           # the house-banked game
    @property
    def players(self) -> list[dict] | None: ...          # the player-banked game
    @property
    def banker_place(self) -> int | None: ...


class RoundChange(Protocol):
    """What a family sees of a request's change to a locked round (service.rounds.handlers)."""

    uow: UnitOfWork
    row: RoundRow
    game_rules: GameRules
    game: Any
    actor: str | None
    shoe_position: tuple[uuid.UUID, int] | None
    shoe_past_cut_card: bool | None

    def note(self, kind: str, payload: dict) -> None: ...

    def card(self, dealt: CardDealt) -> None: ...


class StoredRound(Protocol):
    """A completed round as settlement reads it (service.store.repositories.settlement.CompletedRound)."""

    @property
    def round_id(self) -> str: ...
    @property
    def table_id(self) -> str: ...
    @property
    def shoe_id(self) -> str | None: ...
    @property
    def rules_ref(self) -> str: ...
    @property
    def paytable_ref(self) -> str | None: ...
    @property
    def result(self) -> dict | None: ...


def lock_round_shoe(change: RoundChange) -> ShoeRow:
    """The round's shoe row, locked (every round is dealt from a shoe: none would be a defect)."""
    shoe = change.uow.shoes.lock(change.row.shoe_id) if change.row.shoe_id is not None else None
    if shoe is None:
        raise RuntimeError(f"round {change.row.round_id} has no shoe")
    return shoe


@dataclass(frozen=True, slots=True)
class Opening:
    """A round ready to be stored: its engine state, the shoe it deals from, what `rounds.wagers`
    keeps of who plays, and the audit notes that go before and into its `round_opened` record."""

    game: Any
    shoe: ShoeRow
    entries: list[dict]
    paytable_ref: str | None
    notes: list[Note] = field(default_factory=list)
    opened: dict = field(default_factory=dict)         # the game's own part of `round_opened`
    stored: Callable[[UnitOfWork, RoundRow], None] | None = None   # what the game keeps once the row exists


@dataclass(frozen=True, slots=True)
class GameFamily:
    """Everything the handlers, views, settlement, compliance and operators need to know about one
    game; a new game is a new engine package, a module here building one of these, and its YAML."""

    game: str                       # tables.game and the rules' `game`
    needs_paytable: bool            # a table of the game is created with a paytable (and takes none otherwise)
    virtual_shoe_deals: bool        # a virtual shoe deals to its rounds directly, so a decision locks it
    evaluates_paytables: bool       # paytables measured under its rules get a house-edge simulation
    # What a table accepts: (rules, the table's stored limits) -> {"main": {"min", "max"}, ...}.
    effective_limits: Callable[[Any, dict | None], dict]
    # A fresh engine round: (rules, paytable, wagers or players, table limits, kitty); Invalid if refused.
    start: Callable[[Any, Any, list[dict], dict | None, int | None], Any]
    # The kitty a stored round was played against (None: the game has none), for its replay.
    kitty_before: Callable[[UnitOfWork, uuid.UUID], int | None]
    # How a round opens on the table's locked shoe: what it needs, checks and keeps (Opening).
    open_round: Callable[[UnitOfWork, RoundRequest, ShoeRow, GameRules, dict | None], Opening]
    # What the table does with a shoe an operator opens (the player-banked table makes it its pack).
    shoe_opened: Callable[[UnitOfWork, str, ShoeRow, Any], None]
    # Invalid for a seat the game has not (seat 0 is a banker's).
    check_seat: Callable[[int], None]
    # Deal every card the round is owed on a virtual shoe (the shoe row when already locked).
    deal: Callable[[RoundChange, ShoeRow | None], None]
    # What a reported card from a physical shoe must fit, the rows it needs locked.
    physical_shoe: Callable[[RoundChange], PhysicalShoe]
    # What a completed round moves on at its table (bank, kitty, pack), as audit notes of the change.
    round_completed: Callable[[RoundChange], None]
    # (stored round, replayed round, its result) -> its ledger rows and payout records; ValueError
    # when the result stored at completion disagrees.
    settle: Callable[[StoredRound, Any, dict], tuple[list[LedgerRow], list[AuditRecord]]]
    # A void: (refunds per seat, audit notes of what it changed at the table).
    void: Callable[[UnitOfWork, RoundRow, Any], tuple[list[dict], list[Note]]]
    # The game's own part of a round's state: (row, round, snapshot) -> fields of RoundStateSchema.
    round_fields: Callable[[RoundRow, Any, dict], dict]
    # The game's own part of a table's view (the bank, for the player-banked game).
    table_fields: Callable[[UnitOfWork, str, Any], dict]
    # The round's transcript: (round, rules_ref, paytable_ref).
    transcript: Callable[[Any, str, str | None], dict]
