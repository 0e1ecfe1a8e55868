"""The one interface the service asks about a game: how it is named and read, how its rounds open,
deal, end, settle and show, and how it replays."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypedDict, TypeVar

from ..catalog import GameRules
from ..engine.actions import CardDealt
from ..engine.games.registry import GamePaytable
from ..engine.limits import Limits, limits_by_kind
from ..engine.transcript import Transcript
from ..rules.reader import Reader
from ..store.repositories.audit import AuditRecord
from ..store.repositories.ledger import LedgerRow
from ..store.repositories.rounds import RoundRow
from ..store.repositories.shoes import ShoeRow
from ..store.uow import UnitOfWork

Note = tuple[str, dict[str, object]]   # an audit record's kind and payload, written by the caller
View = dict[str, object]               # a part of a response or a page, as JSON shows it

class ReportedCards(Protocol):
    """What a card reported from a physical shoe (or pack) must fit: it takes the card, or raises
    ShoeError saying why it cannot have come from there (engine.shoe.PhysicalShoe is one)."""

    def accept(self, card: str) -> str: ...


class Refund(TypedDict):
    """What a void gives back to one seat: its bets so far and their sum."""

    seat: int
    bets: list[dict[str, object]]
    refunded: int


RulesT = TypeVar("RulesT")              # the game's rules object (the engine's frozen record)
RoundT = TypeVar("RoundT")              # the game's round (the engine's, replayed from its events)
RoundT_co = TypeVar("RoundT_co", covariant=True)


def table_limits(limits: Mapping[str, Mapping[str, int]] | None) -> dict[str, Limits]:
    """The engine's Limits from a table's stored {"main": {"min", "max"}, "pair": {...}} (by bet);
    ValueError when an entry is not a limit."""
    return limits_by_kind(limits)


class RoundRequest(Protocol):
    """What a family sees of a request to open a round (service.rounds.commands.OpenRound)."""

    @property
    def table_id(self) -> str: ...
    @property
    def wagers(self) -> list[dict[str, int]] | None: ...           # the house-banked game
    @property
    def players(self) -> list[dict[str, int]] | None: ...          # the player-banked game
    @property
    def banker_place(self) -> int | None: ...


class RoundChange(Protocol[RoundT_co]):
    """What a family sees of a request's change to a locked round (service.rounds.handlers)."""

    uow: UnitOfWork
    row: RoundRow
    game_rules: GameRules
    actor: str | None
    shoe_position: tuple[uuid.UUID, int] | None
    shoe_past_cut_card: bool | None

    @property
    def game(self) -> RoundT_co: ...

    def note(self, kind: str, payload: dict[str, object]) -> None: ...

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
    def result(self) -> dict[str, object] | None: ...


def lock_round_shoe(change: RoundChange[object]) -> ShoeRow:
    """The round's shoe row, locked (every round is dealt from a shoe: none would be a defect)."""
    shoe = change.uow.shoes.lock(change.row.shoe_id) if change.row.shoe_id is not None else None
    if shoe is None:
        raise RuntimeError(f"round {change.row.round_id} has no shoe")
    return shoe


@dataclass(frozen=True, slots=True)
class Opening(Generic[RoundT]):
    """A round ready to be stored: its engine state, the shoe it deals from, what `rounds.wagers`
    keeps of who plays, and the audit notes that go before and into its `round_opened` record."""

    game: RoundT
    shoe: ShoeRow
    entries: list[dict[str, int]]
    paytable_ref: str | None
    notes: list[Note] = field(default_factory=list)
    opened: dict[str, object] = field(default_factory=dict)   # the game's own part of `round_opened`
    stored: Callable[[UnitOfWork, RoundRow], None] | None = None   # what the game keeps once the row exists


class GameFamily(Protocol[RulesT, RoundT]):
    """Everything the handlers, views, settlement, compliance, operators, metrics and the console
    need to know about one game, over its own rules and round types. A new game is a new engine
    package, a module here with a class implementing this, its rules reader and its YAML."""

    # ----- what the game is ---------------------------------------------------------------
    game: str                       # tables.game and the rules' `game`
    display_name: str               # how staff see the game named (the console's floor)
    needs_paytable: bool            # a table of the game is created with a paytable (and takes none otherwise)
    house_banked: bool              # the house banks its rounds: its tables have a handle and a game win
    virtual_shoe_deals: bool        # a virtual shoe deals to its rounds directly, so a decision locks it
    evaluates_paytables: bool       # paytables measured under its rules get a house-edge evaluation
    decisions: tuple[str, ...]      # every decision a hand (or a seat) of the game may take, by name
    amount_decisions: frozenset[str]   # those of them that take an amount of cents
    # Where the game's own partials of the console's pages are (service/games/templates/): each
    # game has round_in_play, floor_shoe, table_facts and recall_hands.
    templates: str

    def read_rules(self, doc: Reader, overrides: Mapping[str, object]) -> RulesT | None:
        """The game's rules from a rules file's fields (and a transcript's option overrides);
        None, with every bad field noted on `doc`, when they are not rules of the game."""
        ...

    # ----- a table and its rounds ---------------------------------------------------------
    def own_limits(self, rules: RulesT, paytable: GamePaytable | None,
                   limits: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        """The limits a table of the game is created with (each a well-formed {min, max}), as the
        table keeps them, in the game's own names; Conflict (409) naming each bet the game has not."""
        ...

    def effective_limits(self, rules: RulesT, limits: dict[str, dict[str, int]] | None) -> View:
        """What a table accepts: {"main": {"min", "max"}, ...} from the rules and its stored limits."""
        ...

    def start(self, rules: RulesT, paytable: GamePaytable | None, entries: list[dict[str, int]],
              limits: dict[str, dict[str, int]] | None, kitty: int | None) -> RoundT:
        """A fresh round: wagers or players under the table's limits, against a kitty where the game
        has one; Conflict when the rules or limits refuse them."""
        ...

    def kitty_before(self, uow: UnitOfWork, round_id: uuid.UUID) -> int | None:
        """The kitty a stored round was played against (None: the game has none), for its replay."""
        ...

    def open_round(self, uow: UnitOfWork, cmd: RoundRequest, shoe: ShoeRow, game_rules: GameRules,
                   limits: dict[str, dict[str, int]] | None) -> Opening[RoundT]:
        """How a round opens on the table's locked shoe: what it needs, checks and keeps."""
        ...

    def shoe_opened(self, uow: UnitOfWork, table_id: str, shoe: ShoeRow, rules: RulesT) -> None:
        """What the table does with a shoe an operator opens."""
        ...

    def rules_changed(self, uow: UnitOfWork, table_id: str, before: RulesT, after: RulesT,
                      actor: str | None) -> list[Note]:
        """What the table does when its rules change between shoes (its row locked): audit notes."""
        ...

    def check_seat(self, seat: int) -> None:
        """Conflict for a seat the game has not."""
        ...

    def deal(self, change: RoundChange[RoundT], shoe_row: ShoeRow | None) -> None:
        """Deal every card the round is owed from a virtual shoe (the shoe row when already locked)."""
        ...

    def physical_shoe(self, change: RoundChange[RoundT]) -> ReportedCards:
        """What a reported card from a physical shoe must fit, the rows it needs locked."""
        ...

    def round_completed(self, change: RoundChange[RoundT]) -> None:
        """What a completed round moves on at its table, as audit notes of the change."""
        ...

    # ----- money --------------------------------------------------------------------------
    def settle(self, round_: StoredRound, played: RoundT,
               result: dict[str, object]) -> tuple[list[LedgerRow], list[AuditRecord]]:
        """The replayed round's ledger rows and payout records; ValueError when the result stored
        at completion disagrees with the replay."""
        ...

    def void(self, uow: UnitOfWork, row: RoundRow, game: RoundT) -> tuple[list[Refund], list[Note]]:
        """A void: the refunds per seat, and audit notes of what it changed at the table."""
        ...

    def outcome(self, result: Mapping[str, object]) -> str:
        """The words for a completed round's outcome, as the metrics count it."""
        ...

    # ----- what is shown ------------------------------------------------------------------
    def round_fields(self, row: RoundRow, game: RoundT, snapshot: Mapping[str, object]) -> View:
        """The game's own part of a round's state (fields of the API's RoundStateSchema)."""
        ...

    def recall_fields(self, uow: UnitOfWork, row: RoundRow, game: RoundT, snapshot: Mapping[str, object]) -> View:
        """The game's own part of a recalled round: who held which hands (and, where a player banks,
        the bank and the kitty the round moved)."""
        ...

    def seat_name(self, seat: int) -> str:
        """Who a seat is, in the pit's words ("seat 2", "the banker")."""
        ...

    def party_name(self, seat: int) -> str:
        """Who a ledger row's seat is, in the pit's words ("seat 2", "banker", "kitty")."""
        ...

    def round_money(self, bets: list[dict[str, object]]) -> dict[str, int] | None:
        """A recalled round's money from its ledger rows, for the players: staked, returned, net
        (None before the ledger has any)."""
        ...

    def hands_shown(self, recalled: Mapping[str, object]) -> list[tuple[str, list[str]]]:
        """A recalled round's hands as they ended, by who held them, in the order they were dealt:
        a split hand's cards on that hand."""
        ...

    def table_fields(self, uow: UnitOfWork, table_id: str, rules: RulesT) -> View:
        """The game's own part of a table's view."""
        ...

    def floor_fields(self, table_state: Mapping[str, object] | None) -> View:
        """The game's own part of a table's row on the console's floor, from what the table keeps
        between rounds."""
        ...

    # ----- replay -------------------------------------------------------------------------
    def transcript(self, game: RoundT, rules_ref: str, paytable_ref: str | None) -> View:
        """The round's transcript, as it is exported and replayed."""
        ...

    def round_from_transcript(self, rules: RulesT, paytable: GamePaytable | None, transcript: Transcript) -> RoundT:
        """A fresh round with a transcript's seats (or players); TranscriptError when it cannot start."""
        ...
