"""The commands a dealer terminal or an operator sends, as plain immutable values."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class CreateTable:
    table_id: str
    rules: str
    paytable: str | None
    limits: dict = field(default_factory=dict)
    actor: str | None = None


@dataclass(frozen=True, slots=True)
class OpenShoe:
    table_id: str
    mode: str                       # virtual | physical
    actor: str | None = None
    screen: str | None = None       # the dealer's screen it came from, by name (None: a terminal's key)


@dataclass(frozen=True, slots=True)
class CloseShoe:
    table_id: str
    actor: str | None = None
    screen: str | None = None


@dataclass(frozen=True, slots=True)
class OpenRound:
    table_id: str
    wagers: list[dict] | None       # the house-banked game
    actor: str | None = None
    players: list[dict] | None = None   # the player-banked game: [{seat, stake, shoot?}], seats from the banker's left
    banker_place: int | None = None     # the chair the terminal has the bank at, checked against the table's
    screen: str | None = None


@dataclass(frozen=True, slots=True)
class PostCard:
    round_id: uuid.UUID
    card: str
    actor: str | None = None
    expected_revision: int | None = None
    screen: str | None = None


@dataclass(frozen=True, slots=True)
class PostAction:
    round_id: uuid.UUID
    seat: int
    action: str
    hand: int | None = None
    amount: int | None = None
    actor: str | None = None
    expected_revision: int | None = None
    screen: str | None = None
