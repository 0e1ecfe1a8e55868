"""The commands about dealers' screens, the dealers signed in on them and their calls, as plain
immutable values."""
from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IssueScreenCode:
    table_id: str
    name: str                           # the screen's, once enrolled: what its rounds' records name
    actor: str


@dataclass(frozen=True, slots=True)
class EnrolScreen:
    code: str
    address: str | None = None
    previous_token: str | None = None   # the device token the browser holds already, if any: that screen is replaced


@dataclass(frozen=True, slots=True)
class RevokeScreen:
    table_id: str
    screen_id: uuid.UUID
    reason: str
    actor: str


@dataclass(frozen=True, slots=True)
class VisitScreen:
    screen_token: str
    session_token: str | None
    activity: bool = True               # a person's own request; False: a page refreshing itself


@dataclass(frozen=True, slots=True)
class DealerSignIn:
    screen_token: str
    username: str
    pin: str
    address: str | None = None


@dataclass(frozen=True, slots=True)
class DealerSignOut:
    session_token: str
    address: str | None = None


@dataclass(frozen=True, slots=True)
class CallSupervisor:
    table_id: str
    screen_id: uuid.UUID
    actor: str                          # the dealer's: staff:<username>
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class DismissCall:
    table_id: str
    call_id: uuid.UUID
    reason: str
    actor: str
