"""The commands of table games accounting, as plain immutable values. `capacity` is whose signature
a step is (the adapter says so from who is asking: a dealer or a table's terminal signs as the
dealer, a supervisor as a supervisor, a cashier as the cage)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from ..store.repositories.accounting import Capacity


@dataclass(frozen=True, slots=True)
class CountTray:
    """The tray counted by denomination: as the table opens, at a change of shift, as it closes."""
    table_id: str
    kind: str                               # opener | shift_change | closer
    chips: Mapping[Any, Any]                # denomination in cents -> chips
    actor: str
    capacity: Capacity
    gaming_day: date | None = None          # None: the current one
    replaces: str | None = None             # the serial of the voided slip this one is issued in place of
    screen: str | None = None


@dataclass(frozen=True, slots=True)
class RequestChips:
    """A supervisor asks the cage for a fill, or sends it a credit."""
    table_id: str
    kind: str                               # fill | credit
    chips: Mapping[Any, Any]
    actor: str
    replaces: str | None = None


@dataclass(frozen=True, slots=True)
class IssueChips:
    """The cage issues a fill's chips, or takes a credit's."""
    serial: str
    actor: str


@dataclass(frozen=True, slots=True)
class SignSlip:
    """At the table: a tray's count signed, or a fill's or a credit's slip received."""
    serial: str
    actor: str
    capacity: Capacity
    table_id: str | None = None             # the table the signer is at (a dealer's, a terminal's); None: any
    screen: str | None = None


@dataclass(frozen=True, slots=True)
class VoidSlip:
    """A mistaken slip voided with a reason: asked by one person, confirmed by a second."""
    serial: str
    reason: str
    actor: str
    capacity: Capacity


@dataclass(frozen=True, slots=True)
class RecordBuyIn:
    table_id: str
    seat: int
    amount: int
    method: str                             # cash | marker
    actor: str
    screen: str | None = None


@dataclass(frozen=True, slots=True)
class EnterCount:
    """A counter's figures for a table's drop box of a gaming day."""
    table_id: str
    gaming_day: date
    cash: int
    markers: int
    actor: str


@dataclass(frozen=True, slots=True)
class IssueStatement:
    gaming_day: date
    actor: str
