"""The commands operators and admins send, as plain immutable values."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from ..staff.confirmation import Confirmation
from ..store.repositories.paytables import VersionStatus
from ..store.repositories.table_rules import RulesChangeStatus


@dataclass(frozen=True, slots=True)
class SubmitPaytableVersion:
    name: str
    reason: str
    actor: str
    yaml_text: str | None = None        # exactly one of yaml_text and content
    content: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class DecidePaytableVersion:
    name: str
    version: int
    decision: VersionStatus             # approved or rejected
    reason: str
    actor: str
    confirmation: Confirmation | None = None   # the approver's password (and TOTP code) again


@dataclass(frozen=True, slots=True)
class EvaluatePaytableVersion:
    """Ask (again) for a version's evaluation: one never asked for, failed, or lost on its way."""
    name: str
    version: int
    actor: str


@dataclass(frozen=True, slots=True)
class AssignPaytable:
    table_id: str
    version: int
    reason: str
    actor: str


@dataclass(frozen=True, slots=True)
class ProposeTableRules:
    table_id: str
    rules: str                          # a rules file stem of the table's game
    reason: str
    actor: str


@dataclass(frozen=True, slots=True)
class DecideTableRules:
    table_id: str
    change_id: int
    decision: RulesChangeStatus         # approved or rejected
    reason: str
    actor: str


@dataclass(frozen=True, slots=True)
class CreateKey:
    role: str
    table_id: str | None
    name: str | None
    actor: str
    owner: str | None = None            # the username of the person the key belongs to


@dataclass(frozen=True, slots=True)
class RevokeKey:
    key_id: uuid.UUID
    reason: str | None
    actor: str
