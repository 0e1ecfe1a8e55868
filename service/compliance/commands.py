"""The commands supervisors send, as plain immutable values."""
from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VoidRound:
    round_id: uuid.UUID
    reason: str
    actor: str
    expected_revision: int | None = None
